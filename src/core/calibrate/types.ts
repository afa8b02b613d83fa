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

/**
 * A rate limiter a test crawl's refusals fit (faultModel.ts; docs/calibration-and-simulation.md#fault-models):
 * it refuses a request that comes too soon, whatever the pace, rather than a share of them.
 */
export interface LimiterModel {
  /**
   * `min-interval`: refuses a request less than `intervalSeconds` after the previous accepted one (`since:
   * 'accepted'`, as nginx's limit_req without a burst) or after the previous request of any kind (`'any'`);
   * `token-bucket`: `burst` tokens refilled at 1 / `intervalSeconds` per second, one per accepted request.
   */
  kind: 'min-interval' | 'token-bucket';
  /** The fit: the middle of `intervalRangeSeconds`. */
  intervalSeconds: number;
  /** What the test crawl leaves open: the longest refused gap to the shortest accepted one the fit admits. */
  intervalRangeSeconds: [number, number];
  since: 'accepted' | 'any';
  /** Tokens (token-bucket); 1 for min-interval. */
  burst: number;
  /** The status it refuses with (429 or 503). */
  status: number;
  /** The share of its refusals that carried a Retry-After. */
  retryAfterShare: number;
}

/** The fault models calibration can fit, each named by the mechanism it stands for. */
export type FaultModelKind =
  'min-interval' | 'token-bucket' | 'counting' | 'random-429' | 'random-5xx' | 'timeouts' | 'errors';

/** What the fit read: the requests, the refusals, and the gaps before them (seconds, ascending, at most FIT_MAX_GAPS each). */
export interface FaultModelEvidence {
  /** Requests in the host's sequence (robots.txt included: a limiter counts it). */
  requests: number;
  /** Answers with a limiter's status (429, 503). */
  refusals: number;
  /** Of those, the ones the limiter explains (the rest come at random). */
  explained: number;
  /** Accepted requests the limiter would have refused (0 for a clean fit). */
  mispredicted: number;
  /** The gaps before the refused requests (from the previous accepted request, or any for `since: 'any'`), the longest ones. */
  refusedGapsSeconds: number[];
  /** The gaps before accepted requests, the shortest ones. */
  acceptedGapsSeconds: number[];
  /**
   * 429s and 5xx that came right after another 429 or 5xx, with no success between (a retry refused again, as in
   * a server's outage window): one event with the refusal before them, left out of the random rates. Absent in a
   * calibration written by hand: none.
   */
  repeated?: { tooManyRequests: number; serverErrors: number };
}

/**
 * The simplest model that explains what the test crawl saw on a host: a limiter (or none), and the faults it
 * does not explain, which come at a fixed rate per request. `undetermined` when the test crawl saw too few
 * refusals to tell a limiter from random refusals: the simulation then draws from both.
 */
export interface HostFaultModel {
  /** The mechanisms, the limiter first; empty: no fault at all. */
  kinds: FaultModelKind[];
  limiter: LimiterModel | null;
  /**
   * Only when `undetermined`: the other kind of limiter that explains the test crawl as well as `limiter` (a
   * token bucket for a min-interval fit, or the reverse). The plan walks the fit; the band draws the fit, it and
   * random refusals alike (hypotheses.ts).
   */
  alternative?: LimiterModel;
  /** Refusals with the limiter's status that the limiter does not explain: they come at random. */
  unexplainedRefusals: number;
  undetermined: boolean;
  evidence: FaultModelEvidence;
  /** Why the model is undetermined, in words; null when it is not. */
  note: string | null;
}

/** What a host's page requests fetched: pages, and the requests that fetched none (docs/calibration-and-simulation.md#requests-per-page). */
export interface RequestsPerPage {
  /** Final answers that count as pages (2xx, 404 and other final statuses). */
  pages: number;
  /** Redirects (3xx with a Location): a request, no page. */
  redirects: number;
  /** Retries (attempt 2 and later). */
  retries: number;
  /** Links robots.txt disallowed: no request at all. */
  disallowed: number;
  /** Page requests (retries and redirects included) per page; null without a page. */
  requestsPerPage: number | null;
}

/** A distribution of body sizes in bytes (nearest-rank percentiles). */
export interface ByteSummary {
  /** Pages measured. */
  count: number;
  mean: number;
  p50: number;
  p90: number;
}

/**
 * Body bytes per page (pageBytes.ts): over the final 2xx answers with a body, robots.txt not included; decoded,
 * and on the wire (before Content-Encoding decoding, headers excluded) over the pages whose wire size the
 * report gives (null: none, a report written before wire sizes were recorded).
 */
export interface PageBytes {
  decoded: ByteSummary;
  wire: ByteSummary | null;
}

export interface HostCalibration {
  /** `URL.host`, as the report names it. */
  host: string;
  /** Page requests measured (attempts, retries included; robots.txt and unfinished ones not). */
  requests: number;
  /**
   * The fault model fitted to the host (faultModel.ts). Absent in a calibration written by hand: its faults
   * are then replayed at their fixed rates.
   */
  model?: HostFaultModel;
  /** Pages and the requests that fetched none. Absent: one request per page. */
  perPage?: RequestsPerPage;
  /** Body bytes per page. Absent: the test crawl fetched no page with a body (or the calibration is by hand). */
  pageBytes?: PageBytes;
  /** How long the answers that were not faults took (2xx, 3xx, 4xx other than 429). */
  latency: LatencySummary;
  /** The host's robots.txt request, when the report has one that got an answer. */
  robotsLatencySeconds: number | null;
  /**
   * The request timeout the test crawl ran with (its report's `options.timeoutSeconds`): what a timeout the
   * test crawl did not meet would cost in a run of the simulation. Absent when the report does not say.
   */
  timeoutSeconds?: number;
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

/** A host that blocked the test crawl: the last signal, in words, and what the crawl did. */
export interface BlockedHost {
  host: string;
  kind: string;
  text: string;
  /** `warned`, `slowed` or `dropped`. */
  action: string;
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
  /**
   * One entry per host the report made page requests to, in the report's order, except the hosts in `blocked`.
   */
  hosts: HostCalibration[];
  /**
   * The hosts that looked like they were blocking the test crawl (its report's `summary.hosts[].blocking`:
   * docs/crawl-engine.md#blocking-suspected): their numbers measure the block, not the host, so the plan does not
   * use them (the host is planned with the typed values). Absent in a calibration written by hand, or from an
   * older report: none.
   */
  blocked?: BlockedHost[];
  /** The per-request overhead measured over all hosts; a list with fewer than OVERHEAD_MIN_SAMPLES gaps is not used. */
  overhead: MeasuredOverhead;
}

/** Gaps needed before a measured overhead replaces REQUEST_OVERHEAD. */
export const OVERHEAD_MIN_SAMPLES = 5;
