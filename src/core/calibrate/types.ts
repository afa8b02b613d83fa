/**
 * What a test crawl measured, per host, in the shape the plan, the simulation and the sidebar read: the
 * latency distribution, the fault mix with its rates and Retry-After pauses, and the interval the crawl
 * kept and achieved. Built from a crawl report by calibrationFromReport (fromReport.ts); documented in
 * docs/formats.md §The `calibration` section.
 */
import type { ErrorKind, LiveIntervalSource } from '../crawl/events';

/** The most samples kept per list: more are thinned to evenly spaced quantiles of all of them. */
export const CALIBRATION_MAX_SAMPLES = 1_000;

/** A distribution of times in seconds. */
export interface LatencySummary {
  /** How many were measured (before any thinning). */
  count: number;
  meanSeconds: number;
  /** Nearest-rank percentiles of all of them. */
  p50Seconds: number;
  p90Seconds: number;
  minSeconds: number;
  maxSeconds: number;
  /** The samples, ascending; at most CALIBRATION_MAX_SAMPLES (evenly spaced quantiles when there were more). */
  samplesSeconds: number[];
}

/** One kind of fault on one host. */
export interface FaultSummary {
  /** Page requests that ended this way. */
  count: number;
  /** count / the host's page requests (each attempt, retries included). */
  rate: number;
  /** Time from the start to the answer (or to the error), ascending, at most CALIBRATION_MAX_SAMPLES. */
  latencySeconds: number[];
  /** The pauses a Retry-After decided (until − at), ascending; 429 and 503 only. */
  retryAfterSeconds: number[];
  /**
   * N when the faults came on every Nth request from the host's first (at N, 2N, …, each within one), as a
   * limiter that counts requests gives them; then `rate` is 1/N. Null when they came irregularly (or fewer
   * than two): then `rate` is count / requests.
   */
  every: number | null;
}

export interface HostFaults {
  /** 429 Too Many Requests. */
  tooManyRequests: FaultSummary;
  /** 5xx; `statuses` counts each status. */
  serverErrors: FaultSummary & { statuses: Record<string, number> };
  /** connect-timeout, headers-timeout, body-timeout, timeout. */
  timeouts: FaultSummary;
  /** Every other transport error (connect, reset, dns, tls, …); `kinds` counts each kind. */
  otherErrors: FaultSummary & { kinds: Partial<Record<ErrorKind, number>> };
}

export interface HostCalibration {
  /** `URL.host`, as the report names it. */
  host: string;
  /** Page requests measured (attempts, retries included; robots.txt and unfinished ones not). */
  requests: number;
  /** How long the answers that were not faults took (2xx, 3xx, 4xx other than 429). */
  latency: LatencySummary;
  /** The host's robots.txt request, when the report has one that got an answer. */
  robotsLatencySeconds: number | null;
  faults: HostFaults;
  interval: {
    /** The interval the crawl kept the host to at its end (its plan, Crawl-delay included), and why. */
    keptSeconds: number;
    source: LiveIntervalSource;
    /** The Crawl-delay robots.txt declared for the crawl's product token, before any cap; null when none. */
    crawlDelaySeconds: number | null;
    /** The mean and shortest gap between request starts the crawl achieved (robots.txt included). */
    achievedMeanSeconds: number | null;
    achievedMinSeconds: number | null;
  };
}

/** The crawl's own time per request (REQUEST_OVERHEAD, src/core/politeness/pacing.ts) as the test crawl measured it. */
export interface MeasuredOverhead {
  /** From the end of an interval to the next start, over the gaps a host waited for its interval. */
  afterInterval: LatencySummary;
  /** From an answer to the next start, over the gaps a host waited for the previous answer. */
  afterResponse: LatencySummary;
}

export interface Calibration {
  /** The report it came from. */
  source: {
    /** The report's file name as given (`--calibrate FILE`), or null. */
    file: string | null;
    startedAt: number;
    endedAt: number | null;
    elapsedSeconds: number;
    pages: number;
    requests: number;
  };
  /** One entry per host the report made page requests to, in the report's order. */
  hosts: HostCalibration[];
  /** The per-request overhead measured over all hosts; a list with fewer than OVERHEAD_MIN_SAMPLES gaps is not used. */
  overhead: MeasuredOverhead;
}

/** Gaps needed before a measured overhead replaces REQUEST_OVERHEAD. */
export const OVERHEAD_MIN_SAMPLES = 5;
