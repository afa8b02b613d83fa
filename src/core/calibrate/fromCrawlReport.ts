/**
 * A crawl report (`crawl --report`, src/core/crawl/crawlReport.ts) read back as a calibration: per host, the
 * latency of its answers, its faults (429 with their Retry-After pauses, 5xx, timeouts, other errors, each
 * with its rate over the host's page requests), its robots.txt request, and the interval the crawl kept and
 * achieved. The report is untrusted input (a file): every field read is checked, and anything that is not
 * a crawl report of a known schema is refused with a CalibrationError saying why.
 */
import { LIVE_INTERVAL_SOURCES, type ErrorKind, type LiveIntervalSource } from '../crawl/events';
import { REPORT_SCHEMA_VERSION } from '../crawl/crawlReport';
import { readsRetryAfter } from '../politeness/retryPolicy';
import { mean, percentileSorted, thinSorted } from '../statistics';
import { intervalMs } from '../crawl/frontier';
import { fitFaultModel, type FitRequest } from './faultModel';
import { pageBodyOf, pageBytesOf, type PageBody } from './pageBytes';
import {
  CALIBRATION_MAX_SAMPLES,
  type BlockedHost,
  type Calibration,
  type FaultSummary,
  type HostCalibration,
  type LatencySummary,
  type MeasuredOverhead,
  type RequestsPerPage,
} from './types';

/** A file that cannot be read as a crawl report; the message says why, in one line. */
export class CalibrationError extends Error {
  override readonly name = 'CalibrationError';
}

const TIMEOUT_KINDS: ReadonlySet<string> = new Set<ErrorKind>([
  'connect-timeout',
  'headers-timeout',
  'body-timeout',
  'timeout',
]);
const ERROR_KINDS: ReadonlySet<string> = new Set<ErrorKind>([
  'dns',
  'connect',
  'connect-timeout',
  'headers-timeout',
  'body-timeout',
  'timeout',
  'reset',
  'tls',
  'too-large',
  'bad-response',
  'aborted',
  'other',
]);
const INTERVAL_SOURCES: ReadonlySet<string> = new Set<string>(LIVE_INTERVAL_SOURCES);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A record of a page request that ended, as far as calibration reads it. */
interface Ended {
  host: string;
  latencySeconds: number;
  status: number | null;
  errorKind: string | null;
}

/** A request's times, for the overhead between two starts on one host. */
interface Timed {
  startedAt: number;
  endedAt: number;
  intervalSeconds: number | null;
  /** An ordinary answer (not a fault): what follows it is paced by the host's interval. */
  ordinary: boolean;
  /** A retry: it waited for its own time (backoff, Retry-After), not only the host's. */
  retry: boolean;
}

/**
 * A gap longer than this after the interval or the answer is the host waiting for something else (its queue
 * empty until a page's links are read, a retry's backoff, a global slot), not the crawl's own time.
 */
export const OVERHEAD_MAX_SECONDS = 0.1;

/**
 * Reads a parsed crawl report. Throws CalibrationError for anything else: not an object, another document
 * (an estimate, a robots document), an unknown schema version, malformed request records, or no page
 * request that got an answer.
 */
export function calibrationFromReport(doc: unknown, file?: string): Calibration {
  if (!isObject(doc)) throw new CalibrationError('not a crawl report: the file is not a JSON object');
  if (!Array.isArray(doc.requests) || !isObject(doc.summary) || !('comparison' in doc)) {
    throw new CalibrationError('not a crawl report (one that crawl --report writes): it has no requests and summary');
  }
  if (doc.schemaVersion !== REPORT_SCHEMA_VERSION) {
    throw new CalibrationError(
      `crawl report schemaVersion ${JSON.stringify(doc.schemaVersion) ?? 'missing'} is not supported (this version reads ${REPORT_SCHEMA_VERSION})`,
    );
  }
  const summary = doc.summary;

  const order: string[] = [];
  const ended = new Map<string, Ended[]>();
  const robots = new Map<string, number>();
  const timed = new Map<string, Timed[]>();
  // Every request of a host that got an answer or an error of the host's (robots.txt included), for the fit.
  const sequences = new Map<string, FitRequest[]>();
  const perPage = new Map<string, { redirects: number; retries: number }>();
  const bodies = new Map<string, PageBody[]>();
  doc.requests.forEach((raw, i) => {
    if (!isObject(raw) || typeof raw.host !== 'string' || typeof raw.outcome !== 'string') {
      throw new CalibrationError(`crawl report: requests[${i}] is not a request record`);
    }
    if (raw.outcome === 'unfinished') return;
    const latencyMs = raw.latencyMs;
    if (!finite(latencyMs) || latencyMs < 0)
      throw new CalibrationError(`crawl report: requests[${i}].latencyMs is not a time`);
    if (finite(raw.startedAt) && finite(raw.endedAt)) {
      const list = timed.get(raw.host) ?? [];
      const fault =
        raw.outcome !== 'response' ||
        (finite(raw.status) && (raw.status === 429 || (raw.status >= 500 && raw.status <= 599)));
      list.push({
        startedAt: raw.startedAt,
        endedAt: raw.endedAt,
        intervalSeconds: finite(raw.intervalSeconds) ? raw.intervalSeconds : null,
        ordinary: !fault,
        retry: finite(raw.attempt) && raw.attempt > 1,
      });
      timed.set(raw.host, list);
    }
    const aborted = raw.outcome === 'error' && isObject(raw.error) && raw.error.kind === 'aborted';
    if (finite(raw.startedAt) && !aborted) {
      const seq = sequences.get(raw.host) ?? [];
      seq.push({
        startMs: raw.startedAt,
        status: raw.outcome === 'response' && finite(raw.status) ? raw.status : null,
      });
      sequences.set(raw.host, seq);
    }
    if (raw.robotsTxt === true) {
      if (raw.outcome === 'response' && !robots.has(raw.host)) robots.set(raw.host, latencyMs / 1000);
      return;
    }
    const body = pageBodyOf(raw);
    if (body) {
      const list = bodies.get(raw.host) ?? [];
      list.push(body);
      bodies.set(raw.host, list);
    }
    if (!aborted) {
      const counts = perPage.get(raw.host) ?? { redirects: 0, retries: 0 };
      if (finite(raw.attempt) && raw.attempt > 1) counts.retries++;
      if (
        raw.outcome === 'response' &&
        finite(raw.status) &&
        raw.status >= 300 &&
        raw.status <= 399 &&
        typeof raw.location === 'string'
      )
        counts.redirects++;
      perPage.set(raw.host, counts);
    }
    let status: number | null = null;
    let errorKind: string | null = null;
    if (raw.outcome === 'response') {
      if (!finite(raw.status)) throw new CalibrationError(`crawl report: requests[${i}].status is not a status`);
      status = raw.status;
    } else if (raw.outcome === 'error') {
      const kind = isObject(raw.error) ? raw.error.kind : undefined;
      if (typeof kind !== 'string' || !ERROR_KINDS.has(kind))
        throw new CalibrationError(`crawl report: requests[${i}].error has no known kind`);
      // Our own stop says nothing about the host.
      if (kind === 'aborted') return;
      errorKind = kind;
    } else {
      throw new CalibrationError(
        `crawl report: requests[${i}].outcome "${String(raw.outcome).slice(0, 40)}" is not response, error or unfinished`,
      );
    }
    let list = ended.get(raw.host);
    if (!list) {
      list = [];
      ended.set(raw.host, list);
      order.push(raw.host);
    }
    list.push({ host: raw.host, latencySeconds: latencyMs / 1000, status, errorKind });
  });
  if (order.length === 0)
    throw new CalibrationError('crawl report: no page request got an answer, so there is nothing to calibrate from');

  const pauses = readPauses(doc.pauses);
  const summaryHosts = new Map<string, Json>();
  if (Array.isArray(summary.hosts))
    for (const h of summary.hosts) if (isObject(h) && typeof h.host === 'string') summaryHosts.set(h.host, h);
  const measuredHosts = new Map<string, Json>();
  if (Array.isArray(doc.hosts)) {
    for (const h of doc.hosts)
      if (isObject(h) && typeof h.host === 'string' && isObject(h.measured)) measuredHosts.set(h.host, h.measured);
  }
  const declared = declaredCrawlDelays(doc.plan);
  const disallowed = new Map<string, number>();
  if (Array.isArray(doc.robotsSkips))
    for (const k of doc.robotsSkips)
      if (isObject(k) && typeof k.host === 'string' && k.reason === 'disallowed')
        disallowed.set(k.host, (disallowed.get(k.host) ?? 0) + 1);

  const timeoutSeconds = timeoutOf(doc.options);
  // A host that blocked the test crawl: its answers measure the block, not the host (its numbers are not used).
  const blocked: BlockedHost[] = [];
  for (const host of order) {
    const b = summaryHosts.get(host)?.blocking;
    if (isObject(b) && typeof b.text === 'string')
      blocked.push({
        host,
        kind: typeof b.kind === 'string' ? b.kind : 'refusals',
        text: b.text,
        action: typeof b.action === 'string' ? b.action : 'warned',
      });
  }
  const isBlocked = new Set(blocked.map((b) => b.host));
  const hosts: HostCalibration[] = order
    .filter((host) => !isBlocked.has(host))
    .map((host) => {
      const c = hostCalibration(
        host,
        ended.get(host)!,
        robots.get(host) ?? null,
        pauses.get(host) ?? [],
        summaryHosts.get(host),
        measuredHosts.get(host),
        declared[host],
      );
      const seq = (sequences.get(host) ?? []).sort((a, b) => a.startMs - b.startMs);
      const f = c.faults;
      const model = fitFaultModel(seq, {
        tooManyRequests: f.tooManyRequests.count,
        serverErrors: f.serverErrors.count,
        serviceUnavailable: f.serverErrors.statuses['503'] ?? 0,
        timeouts: f.timeouts.count,
        otherErrors: f.otherErrors.count,
        periodic: (status) => (status === 429 ? f.tooManyRequests.every : f.serverErrors.every) !== null,
        retryAfterShare: (status) => {
          const kind = status === 429 ? f.tooManyRequests : f.serverErrors;
          const count = status === 429 ? kind.count : (f.serverErrors.statuses[String(status)] ?? 0);
          return count === 0 ? 0 : Math.min(1, kind.retryAfterSeconds.length / count);
        },
      });
      const pageBytes = pageBytesOf(bodies.get(host) ?? []);
      return {
        ...c,
        ...(timeoutSeconds === null ? {} : { timeoutSeconds }),
        model,
        perPage: requestsPerPage(c.requests, summaryHosts.get(host), perPage.get(host), disallowed.get(host) ?? 0),
        ...(pageBytes ? { pageBytes } : {}),
      };
    });
  return {
    source: {
      file: file ?? null,
      startedAt: finite(doc.startedAt) ? doc.startedAt : 0,
      endedAt: finite(doc.endedAt) ? doc.endedAt : null,
      elapsedSeconds: finite(summary.elapsedSeconds) ? summary.elapsedSeconds : 0,
      pages: finite(summary.pages) ? summary.pages : 0,
      requests: finite(summary.requests) ? summary.requests : doc.requests.length,
    },
    hosts,
    ...(blocked.length > 0 ? { blocked } : {}),
    overhead: measureOverhead(timed, delayFromOf(doc.options)),
  };
}

/** A host's pages and the requests that fetched none: its summary's pages, else its final answers. */
function requestsPerPage(
  requests: number,
  summary: Json | undefined,
  counts: { redirects: number; retries: number } | undefined,
  disallowed: number,
): RequestsPerPage {
  const redirects = counts?.redirects ?? 0;
  const retries = counts?.retries ?? 0;
  const pages =
    summary && finite(summary.pages) && summary.pages >= 0
      ? summary.pages
      : Math.max(0, requests - redirects - retries);
  return {
    pages,
    redirects,
    retries,
    disallowed,
    requestsPerPage: pages === 0 ? null : Math.round((requests / pages) * 1000) / 1000,
  };
}

/** The crawl's request timeout, seconds, from its options; null when they do not give a positive one. */
function timeoutOf(options: unknown): number | null {
  return isObject(options) && finite(options.timeoutSeconds) && options.timeoutSeconds > 0
    ? options.timeoutSeconds
    : null;
}

function delayFromOf(options: unknown): 'start' | 'end' {
  return isObject(options) && options.delayFrom === 'end' ? 'end' : 'start';
}

/**
 * The crawl's own time between two starts on a host, after an ordinary answer and before a first try: when
 * the host waited for its interval (it ended after the answer), how long after the interval the next request
 * started; when it waited for the answer, how long after the answer. The interval is the one the next
 * request was kept to, in whole milliseconds as the engine keeps it. Times in a report are whole
 * milliseconds, so a sample below 0 (rounding) counts as 0; one above OVERHEAD_MAX_SECONDS is left out.
 */
function measureOverhead(timed: Map<string, Timed[]>, delayFrom: 'start' | 'end'): MeasuredOverhead {
  const afterInterval: number[] = [];
  const afterResponse: number[] = [];
  for (const list of timed.values()) {
    list.sort((a, b) => a.startedAt - b.startedAt);
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1]!;
      const b = list[i]!;
      if (!a.ordinary || b.retry || b.intervalSeconds === null || a.endedAt > b.startedAt) continue;
      const interval = intervalMs(b.intervalSeconds);
      const due = delayFrom === 'end' ? a.endedAt + interval : a.startedAt + interval;
      const afterDue = interval > 0 && due > a.endedAt;
      const seconds = Math.max(0, b.startedAt - (afterDue ? due : a.endedAt)) / 1000;
      if (seconds > OVERHEAD_MAX_SECONDS) continue;
      (afterDue ? afterInterval : afterResponse).push(seconds);
    }
  }
  return { afterInterval: latencySummary(afterInterval), afterResponse: latencySummary(afterResponse) };
}

/** Each host's Retry-After pauses: status and seconds (until − at). */
function readPauses(raw: unknown): Map<string, Array<{ status: number | null; seconds: number }>> {
  const out = new Map<string, Array<{ status: number | null; seconds: number }>>();
  if (!Array.isArray(raw)) return out;
  for (const p of raw) {
    if (!isObject(p) || typeof p.host !== 'string' || !finite(p.at) || !finite(p.until) || p.until < p.at) continue;
    if (p.retryAfter === null || p.retryAfter === undefined) continue;
    const list = out.get(p.host) ?? [];
    list.push({ status: finite(p.status) ? p.status : null, seconds: (p.until - p.at) / 1000 });
    out.set(p.host, list);
  }
  return out;
}

/** The Crawl-delays the crawl's own plan had from robots.txt (`plan.settings.crawlDelayByHost`), as declared. */
function declaredCrawlDelays(plan: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  const byHost = isObject(plan) && isObject(plan.settings) ? plan.settings.crawlDelayByHost : undefined;
  if (isObject(byHost))
    for (const [host, value] of Object.entries(byHost)) if (finite(value) && value >= 0) out[host] = value;
  return out;
}

function sortedAscending(values: number[]): number[] {
  return values.sort((a, b) => a - b);
}

function latencySummary(values: number[]): LatencySummary {
  const sorted = sortedAscending(values);
  return {
    count: sorted.length,
    meanSeconds: mean(sorted),
    p50Seconds: percentileSorted(sorted, 50),
    p90Seconds: percentileSorted(sorted, 90),
    minSeconds: sorted[0] ?? 0,
    maxSeconds: sorted[sorted.length - 1] ?? 0,
    samplesSeconds: thinSorted(sorted, CALIBRATION_MAX_SAMPLES),
  };
}

/**
 * One kind of fault from where it came among the host's `requests` requests. Faults at N, 2N, 3N, … (each
 * within one request) came from a limiter that counts requests: the rate is 1/N, which the requests after
 * the last fault (fewer than N) cannot tell; any other pattern gives count / requests.
 */
function fault(positions: readonly number[], requests: number, latency: number[], retryAfter: number[]): FaultSummary {
  const count = positions.length;
  const every = count >= 2 ? periodOf(positions) : null;
  return {
    count,
    rate: every !== null ? 1 / every : requests === 0 ? 0 : count / requests,
    latencySeconds: thinSorted(sortedAscending(latency), CALIBRATION_MAX_SAMPLES),
    retryAfterSeconds: thinSorted(sortedAscending(retryAfter), CALIBRATION_MAX_SAMPLES),
    every,
  };
}

/** N when every position is within one of a multiple of N (the kth at k·N), N ≥ 2; else null. */
function periodOf(positions: readonly number[]): number | null {
  const every = positions[positions.length - 1]! / positions.length;
  if (every < 2) return null;
  for (let k = 0; k < positions.length; k++) if (Math.abs(positions[k]! - (k + 1) * every) > 1) return null;
  return Math.round(every * 1000) / 1000;
}

function hostCalibration(
  host: string,
  records: Ended[],
  robotsLatencySeconds: number | null,
  pauses: Array<{ status: number | null; seconds: number }>,
  summary: Json | undefined,
  measured: Json | undefined,
  declaredCrawlDelay: number | undefined,
): HostCalibration {
  const ok: number[] = [];
  const tooMany: number[] = [];
  const server: number[] = [];
  const statuses: Record<string, number> = {};
  const timeouts: number[] = [];
  const other: number[] = [];
  const kinds: Partial<Record<ErrorKind, number>> = {};
  // Where each kind of fault came among the host's requests (1-based), to tell a counting limiter.
  const at = { tooMany: [] as number[], server: [] as number[], timeouts: [] as number[], other: [] as number[] };
  records.forEach((r, i) => {
    const position = i + 1;
    if (r.status === 429) {
      tooMany.push(r.latencySeconds);
      at.tooMany.push(position);
    } else if (r.status !== null && r.status >= 500 && r.status <= 599) {
      server.push(r.latencySeconds);
      at.server.push(position);
      statuses[String(r.status)] = (statuses[String(r.status)] ?? 0) + 1;
    } else if (r.status !== null) ok.push(r.latencySeconds);
    else if (r.errorKind !== null && TIMEOUT_KINDS.has(r.errorKind)) {
      timeouts.push(r.latencySeconds);
      at.timeouts.push(position);
    } else if (r.errorKind !== null) {
      other.push(r.latencySeconds);
      at.other.push(position);
      kinds[r.errorKind as ErrorKind] = (kinds[r.errorKind as ErrorKind] ?? 0) + 1;
    }
  });
  const n = records.length;
  const pausesFor = (match: (status: number | null) => boolean) =>
    pauses.filter((p) => match(p.status)).map((p) => p.seconds);
  const kept = summary && finite(summary.plannedIntervalSeconds) ? summary.plannedIntervalSeconds : 0;
  const source =
    summary && typeof summary.intervalSource === 'string' && INTERVAL_SOURCES.has(summary.intervalSource)
      ? (summary.intervalSource as LiveIntervalSource)
      : 'configured';
  const achievedMean =
    measured && finite(measured.meanIntervalSeconds)
      ? measured.meanIntervalSeconds
      : summary && finite(summary.meanIntervalSeconds)
        ? summary.meanIntervalSeconds
        : null;
  const achievedMin =
    measured && finite(measured.minIntervalSeconds)
      ? measured.minIntervalSeconds
      : summary && finite(summary.minIntervalSeconds)
        ? summary.minIntervalSeconds
        : null;
  return {
    host,
    requests: n,
    // With no ordinary answer at all (every request a fault), the faults' own times stand in.
    latency: latencySummary(ok.length > 0 ? ok : [...tooMany, ...server]),
    robotsLatencySeconds,
    faults: {
      tooManyRequests: fault(
        at.tooMany,
        n,
        tooMany,
        pausesFor((s) => s === 429),
      ),
      serverErrors: {
        ...fault(
          at.server,
          n,
          server,
          pausesFor((s) => s !== null && s >= 500 && readsRetryAfter(s)),
        ),
        statuses,
      },
      timeouts: fault(at.timeouts, n, timeouts, []),
      otherErrors: { ...fault(at.other, n, other, []), kinds },
    },
    interval: {
      keptSeconds: kept,
      source,
      crawlDelaySeconds: declaredCrawlDelay ?? (source === 'crawl-delay' ? kept : null),
      achievedMeanSeconds: achievedMean,
      achievedMinSeconds: achievedMin,
    },
  };
}
