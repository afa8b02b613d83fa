/**
 * The `--report FILE.json` document, built from the CrawlEvent stream. Pure: the adapter feeds events in
 * and writes the result out (as text with core/format/safeJson.ts, like the `--log` lines).
 *
 * The report keeps one record per request (a `request-start` paired with its `response` or `error` by
 * URL and attempt), the engine's own summary, and an independent measurement of each host's
 * start-to-start intervals from those records, so that the plan and the engine can both be checked.
 * Values are kept as received (the report is data, not display); the JSON text escapes every control
 * character, so printing the file cannot drive a terminal.
 */
import type {
  BlockingSuspectedEvent,
  CrawlEvent,
  CrawlSummary,
  ErrorEvent,
  ErrorKind,
  HostDroppedEvent,
  HostSummary,
  LiveIntervalSource,
  PlannedBand,
  RequestStartEvent,
  ResponseEvent,
} from './events';
import { compareHosts, type HostComparison, type PlannedHost } from './hostComparison';
import { summarizeNotFollowed } from './notFollowed';
import { transferOf } from './transfer';
import type { UrlReport } from './types';

export const REPORT_SCHEMA_VERSION = 1;

/** Where a crawl's elapsed time falls against its plan's simulated band. */
export function bandPlace(
  band: Pick<PlannedBand, 'p10Seconds' | 'p90Seconds'>,
  elapsedSeconds: number,
): 'inside' | 'above' | 'below' {
  return elapsedSeconds > band.p90Seconds ? 'above' : elapsedSeconds < band.p10Seconds ? 'below' : 'inside';
}

/** One HTTP request: one attempt at one URL. */
export interface RequestRecord {
  url: string;
  host: string;
  /** 1 for the first try; a retry is its own record with attempt 2, 3, … */
  attempt: number;
  /** Epoch ms the request started. */
  startedAt: number;
  /** Epoch ms the request reached its connection (what a server can see); null when unknown. */
  sentAt: number | null;
  /** Epoch ms the response or error arrived; null when the crawl ended with the request in flight. */
  endedAt: number | null;
  /** `response`, `error`, or `unfinished` (a start with no outcome before the report was built). */
  outcome: 'response' | 'error' | 'unfinished';
  /** HTTP status, or null for an error or an unfinished request. */
  status: number | null;
  /** Null unless `outcome` is `error`. */
  error: { kind: ErrorKind; message: string } | null;
  latencyMs: number | null;
  /** Body bytes read (decoded); null when no response arrived. */
  bytes: number | null;
  /** Body bytes on the wire, before Content-Encoding decoding (headers excluded); null when unknown. */
  wireBytes: number | null;
  /** The body was cut at the size cap. */
  truncated: boolean;
  /** The interval the host was kept to at this request, and why; null when no event said. */
  intervalSeconds: number | null;
  intervalSource: LiveIntervalSource | null;
  /** The engine's own figure: seconds since the previous start to this host (null for the first). */
  sinceLastStartSeconds: number | null;
  /** For a 3xx: the resolved Location. */
  location: string | null;
  linksQueued: number | null;
  /** True when the engine scheduled another attempt at this URL after this one. */
  retried: boolean;
  /** True for the request that fetched its origin's robots.txt (the first on the host's timeline). */
  robotsTxt: boolean;
}

export interface RetryRecord {
  url: string;
  host: string;
  at: number;
  /** The attempt that will run next. */
  attempt: number;
  notBefore: number;
  reason: string;
}

export interface PauseRecord {
  host: string;
  at: number;
  until: number;
  retryAfter: string | null;
  status: number | null;
}

export interface RobotsSkipRecord {
  url: string;
  host: string;
  at: number;
  reason: 'disallowed' | 'unreachable';
  line: number | null;
  rule: string | null;
}

export interface DroppedHostRecord {
  host: string;
  at: number;
  reason: HostDroppedEvent['reason'];
  detail: string;
  urlsLeft: number;
}

/** A `blocking-suspected` event as the report keeps it (the event without its type). */
export type BlockingRecord = Omit<BlockingSuspectedEvent, 'type'>;

/** Start-to-start intervals measured from the request records, per host. */
export interface MeasuredHost {
  host: string;
  /** Request starts (attempts, retries included). */
  requests: number;
  /** Shortest and mean gap between consecutive starts, seconds; null with fewer than 2 starts. */
  minIntervalSeconds: number | null;
  meanIntervalSeconds: number | null;
  /**
   * Starts that came sooner after the previous start than the interval the host was kept to at that
   * request (1 ms of slack): a politeness slip, which should be 0.
   */
  startsBelowInterval: number;
}

export interface ReportHost extends HostSummary {
  /** The same host's figures measured from this report's request records. */
  measured: MeasuredHost | null;
}

export interface CrawlReport {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  /** Epoch ms; `endedAt` from the summary, else the last event, else null. */
  startedAt: number;
  endedAt: number | null;
  /** Whatever the caller passed: the plan this crawl is checked against and the run's options. */
  plan: unknown;
  options: unknown;
  /** `engine` when a `done` event arrived; `derived` when the report was built from the events alone. */
  summarySource: 'engine' | 'derived';
  summary: CrawlSummary;
  /**
   * Elapsed against the plan: `elapsedVsPlannedPercent` is +10 for a crawl 10% slower than planned; with a
   * simulated band (`summary.plannedBand`), where the elapsed time falls in it.
   */
  comparison: {
    elapsedSeconds: number;
    plannedSeconds: number | null;
    elapsedVsPlannedPercent: number | null;
    band: PlannedBand | null;
    /** `inside` the band (p10 ≤ elapsed ≤ p90), `above` or `below` it; null without a band. */
    inBand: 'inside' | 'above' | 'below' | null;
    /** Each host's planned against actual pages, requests and time (hostComparison.ts); null without page budgets. */
    hosts: HostComparison[] | null;
  };
  hosts: ReportHost[];
  requests: RequestRecord[];
  retries: RetryRecord[];
  pauses: PauseRecord[];
  robotsSkips: RobotsSkipRecord[];
  droppedHosts: DroppedHostRecord[];
  /** Each `blocking-suspected` event, in order (absent from reports written before it existed). */
  blockingSuspected: BlockingRecord[];
  /** URLs the engine reported as `dropped` in `build({ urls })`. */
  droppedUrls: string[];
  /** The engine's per-URL outcomes from `build({ urls })`, or null when none were given. */
  urls: UrlReport[] | null;
}

export interface ReportBuilderOptions {
  /** Epoch ms the crawl started. */
  startedAt: number;
  /** The plan (JSON-serialisable), copied into the report as is. */
  plan?: unknown;
  /** The run's options (JSON-serialisable), copied into the report as is. */
  options?: unknown;
}

export interface ReportExtra {
  /** The engine's per-URL outcome list. */
  urls?: readonly UrlReport[];
  /** The plan, when it was made after the builder (it replaces `ReportBuilderOptions.plan`). */
  plan?: unknown;
  /** Epoch ms the crawl ended, when no `done` event gave it (e.g. the run was aborted). */
  endedAt?: number;
  /** What the plan gave each host, when the crawl ran with page budgets: `comparison.hosts` compares them. */
  plannedHosts?: readonly PlannedHost[];
}

export interface ReportBuilder {
  add(event: CrawlEvent): void;
  /** The report so far; may be called more than once. */
  build(extra?: ReportExtra): CrawlReport;
}

interface PendingStart {
  seq: number;
  start: RequestStartEvent;
}

const key = (url: string, attempt: number) => `${attempt} ${url}`;

export function createReportBuilder(init: ReportBuilderOptions): ReportBuilder {
  let seq = 0;
  /** Starts waiting for their outcome, by (url, attempt); a list in case one is started twice. */
  const pending = new Map<string, PendingStart[]>();
  const done: Array<{ seq: number; record: RequestRecord }> = [];
  /** The latest record for (url, attempt), to mark it `retried`. */
  const latest = new Map<string, RequestRecord>();
  const retries: RetryRecord[] = [];
  const pauses: PauseRecord[] = [];
  const robotsSkips: RobotsSkipRecord[] = [];
  const droppedHosts: DroppedHostRecord[] = [];
  const blockingSuspected: BlockingRecord[] = [];
  const retryAfterByHost = new Map<string, string[]>();
  let summary: CrawlSummary | undefined;
  let lastAt: number | undefined;

  const takeStart = (url: string, attempt: number): PendingStart | undefined => {
    const list = pending.get(key(url, attempt));
    const first = list?.shift();
    if (list && list.length === 0) pending.delete(key(url, attempt));
    return first;
  };

  const finish = (record: RequestRecord, s: number) => {
    done.push({ seq: s, record });
    latest.set(key(record.url, record.attempt), record);
  };

  const fromResponse = (e: ResponseEvent, start: RequestStartEvent | undefined): RequestRecord => ({
    url: e.url,
    host: e.host,
    attempt: e.attempt,
    startedAt: start?.at ?? e.startedAt,
    sentAt: e.sentAt ?? null,
    endedAt: e.at,
    outcome: 'response',
    status: e.status,
    error: null,
    latencyMs: e.latencyMs,
    bytes: e.bytes,
    wireBytes: e.wireBytes ?? null,
    truncated: e.truncated,
    intervalSeconds: start?.intervalSeconds ?? e.intervalSeconds,
    intervalSource: start?.intervalSource ?? e.intervalSource,
    sinceLastStartSeconds: start?.sinceLastStartSeconds ?? null,
    location: e.location ?? null,
    linksQueued: e.linksQueued,
    retried: false,
    robotsTxt: e.robotsTxt === true,
  });

  const fromError = (e: ErrorEvent, start: RequestStartEvent | undefined): RequestRecord => ({
    url: e.url,
    host: e.host,
    attempt: e.attempt,
    startedAt: start?.at ?? e.startedAt,
    sentAt: e.sentAt ?? null,
    endedAt: e.at,
    outcome: 'error',
    status: null,
    error: { kind: e.kind, message: e.message },
    latencyMs: e.at - e.startedAt,
    bytes: null,
    wireBytes: null,
    truncated: false,
    intervalSeconds: start?.intervalSeconds ?? null,
    intervalSource: start?.intervalSource ?? null,
    sinceLastStartSeconds: start?.sinceLastStartSeconds ?? null,
    location: null,
    linksQueued: null,
    retried: e.willRetry,
    robotsTxt: e.robotsTxt === true,
  });

  const unfinished = (start: RequestStartEvent): RequestRecord => ({
    url: start.url,
    host: start.host,
    attempt: start.attempt,
    startedAt: start.at,
    sentAt: null,
    endedAt: null,
    outcome: 'unfinished',
    status: null,
    error: null,
    latencyMs: null,
    bytes: null,
    wireBytes: null,
    truncated: false,
    intervalSeconds: start.intervalSeconds,
    intervalSource: start.intervalSource,
    sinceLastStartSeconds: start.sinceLastStartSeconds ?? null,
    location: null,
    linksQueued: null,
    retried: false,
    robotsTxt: start.robotsTxt === true,
  });

  return {
    add(event) {
      lastAt = lastAt === undefined ? event.at : Math.max(lastAt, event.at);
      switch (event.type) {
        case 'request-start': {
          const k = key(event.url, event.attempt);
          const list = pending.get(k) ?? [];
          list.push({ seq: seq++, start: event });
          pending.set(k, list);
          return;
        }
        case 'response': {
          const start = takeStart(event.url, event.attempt);
          finish(fromResponse(event, start?.start), start?.seq ?? seq++);
          return;
        }
        case 'error': {
          const start = takeStart(event.url, event.attempt);
          finish(fromError(event, start?.start), start?.seq ?? seq++);
          return;
        }
        case 'retry-scheduled': {
          retries.push({
            url: event.url,
            host: event.host,
            at: event.at,
            attempt: event.attempt,
            notBefore: event.notBefore,
            reason: event.reason,
          });
          const previous = latest.get(key(event.url, event.attempt - 1));
          if (previous) previous.retried = true;
          return;
        }
        case 'host-paused': {
          pauses.push({
            host: event.host,
            at: event.at,
            until: event.until,
            retryAfter: event.retryAfter ?? null,
            status: event.status ?? null,
          });
          if (event.retryAfter !== undefined) {
            const list = retryAfterByHost.get(event.host) ?? [];
            list.push(event.retryAfter);
            retryAfterByHost.set(event.host, list);
          }
          return;
        }
        case 'host-dropped':
          droppedHosts.push({
            host: event.host,
            at: event.at,
            reason: event.reason,
            detail: event.detail,
            urlsLeft: event.urlsLeft,
          });
          return;
        case 'blocking-suspected': {
          const { type: _type, ...record } = event;
          blockingSuspected.push({ ...record, numbers: { ...event.numbers } });
          return;
        }
        case 'robots-skip':
          robotsSkips.push({
            url: event.url,
            host: event.host,
            at: event.at,
            reason: event.reason,
            line: event.line ?? null,
            rule: event.rule ?? null,
          });
          return;
        case 'done':
          summary = event.summary;
          return;
        case 'queued':
        case 'progress':
          return;
        default: {
          const unknown: never = event;
          void unknown;
        }
      }
    },

    build(extra = {}) {
      const all = [...done];
      for (const list of pending.values()) for (const p of list) all.push({ seq: p.seq, record: unfinished(p.start) });
      all.sort((a, b) => a.record.startedAt - b.record.startedAt || a.seq - b.seq);
      const requests = all.map((r) => ({ ...r.record, error: r.record.error ? { ...r.record.error } : null }));
      const measured = summarizeFromRequests(requests);
      const endedAt = summary?.endedAt ?? extra.endedAt ?? lastAt ?? null;
      const finalSummary =
        summary ??
        deriveSummary({
          startedAt: init.startedAt,
          endedAt: endedAt ?? init.startedAt,
          requests,
          measured,
          retries,
          robotsSkips,
          droppedHosts,
          blockingSuspected,
          retryAfterByHost,
          urls: extra.urls ?? [],
        });
      const byHost = new Map(measured.map((m) => [m.host, m]));
      const hosts: ReportHost[] = finalSummary.hosts.map((h) => ({ ...h, measured: byHost.get(h.host) ?? null }));
      // Hosts the records saw but the engine's summary did not list still get their measured figures.
      for (const m of measured) {
        if (!finalSummary.hosts.some((h) => h.host === m.host)) {
          hosts.push({ ...emptyHostSummary(m.host), measured: m });
        }
      }
      const planned = finalSummary.plannedSeconds;
      const urls = extra.urls ? extra.urls.map((u) => ({ ...u })) : null;
      return {
        schemaVersion: REPORT_SCHEMA_VERSION,
        startedAt: init.startedAt,
        endedAt,
        plan: extra.plan ?? init.plan ?? null,
        options: init.options ?? null,
        summarySource: summary ? 'engine' : 'derived',
        summary: finalSummary,
        comparison: {
          elapsedSeconds: finalSummary.elapsedSeconds,
          plannedSeconds: planned ?? null,
          elapsedVsPlannedPercent:
            planned !== undefined && planned > 0 ? round((finalSummary.elapsedSeconds / planned - 1) * 100, 1) : null,
          band: finalSummary.plannedBand ?? null,
          inBand: finalSummary.plannedBand ? bandPlace(finalSummary.plannedBand, finalSummary.elapsedSeconds) : null,
          hosts: extra.plannedHosts ? compareHosts(extra.plannedHosts, finalSummary.hosts, requests) : null,
        },
        hosts,
        requests,
        retries: retries.map((r) => ({ ...r })),
        pauses: pauses.map((p) => ({ ...p })),
        robotsSkips: robotsSkips.map((r) => ({ ...r })),
        droppedHosts: droppedHosts.map((d) => ({ ...d })),
        blockingSuspected: blockingSuspected.map((b) => ({ ...b, numbers: { ...b.numbers } })),
        droppedUrls: (extra.urls ?? []).filter((u) => u.outcome === 'host-dropped').map((u) => u.url),
        urls,
      };
    },
  };
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

function emptyHostSummary(host: string): HostSummary {
  return {
    host,
    requests: 0,
    pages: 0,
    plannedIntervalSeconds: 0,
    intervalSource: 'configured',
    retryAfterSeen: [],
    retries: 0,
    robotsSkips: 0,
    errors: 0,
  };
}

/** Slack for `startsBelowInterval`: clocks and timers are not exact to the millisecond. */
const INTERVAL_SLACK_MS = 1;

/**
 * Per host, in order of first start: the shortest and mean gap between consecutive request starts
 * (seconds) and how many starts came sooner than the interval the host was kept to at that request.
 * Independent of the engine's own summary, so the two can be checked against each other.
 */
export function summarizeFromRequests(
  records: ReadonlyArray<Pick<RequestRecord, 'host' | 'startedAt'> & Partial<Pick<RequestRecord, 'intervalSeconds'>>>,
): MeasuredHost[] {
  const byHost = new Map<string, Array<{ at: number; interval: number | null }>>();
  for (const r of records) {
    const list = byHost.get(r.host) ?? [];
    list.push({ at: r.startedAt, interval: r.intervalSeconds ?? null });
    byHost.set(r.host, list);
  }
  const out: MeasuredHost[] = [];
  for (const [host, starts] of byHost) {
    starts.sort((a, b) => a.at - b.at);
    let min: number | null = null;
    let below = 0;
    for (let i = 1; i < starts.length; i++) {
      const gap = starts[i]!.at - starts[i - 1]!.at;
      if (min === null || gap < min) min = gap;
      const interval = starts[i]!.interval;
      if (interval !== null && gap < interval * 1000 - INTERVAL_SLACK_MS) below++;
    }
    const n = starts.length;
    out.push({
      host,
      requests: n,
      minIntervalSeconds: min === null ? null : min / 1000,
      meanIntervalSeconds: n < 2 ? null : (starts[n - 1]!.at - starts[0]!.at) / (n - 1) / 1000,
      startsBelowInterval: below,
    });
  }
  return out;
}

interface DeriveInput {
  startedAt: number;
  endedAt: number;
  requests: RequestRecord[];
  measured: MeasuredHost[];
  retries: RetryRecord[];
  robotsSkips: RobotsSkipRecord[];
  droppedHosts: DroppedHostRecord[];
  blockingSuspected: BlockingRecord[];
  retryAfterByHost: Map<string, string[]>;
  urls: readonly UrlReport[];
}

/**
 * A CrawlSummary rebuilt from the events alone, for a run that ended without a `done` event. Pages are
 * 2xx responses; the planned interval is the one at the host's first request.
 */
function deriveSummary(d: DeriveInput): CrawlSummary {
  const statusCounts: Record<string, number> = {};
  const hosts = new Map<string, HostSummary>();
  const host = (name: string) => {
    let h = hosts.get(name);
    if (!h) {
      h = emptyHostSummary(name);
      hosts.set(name, h);
    }
    return h;
  };
  let pages = 0;
  let errors = 0;
  for (const r of d.requests) {
    const h = host(r.host);
    if (h.requests === 0 && r.intervalSeconds !== null) {
      h.plannedIntervalSeconds = r.intervalSeconds;
      h.intervalSource = r.intervalSource ?? 'configured';
    }
    h.requests++;
    if (r.outcome === 'response' && r.status !== null) {
      statusCounts[String(r.status)] = (statusCounts[String(r.status)] ?? 0) + 1;
      if (r.status >= 200 && r.status < 300) {
        pages++;
        h.pages++;
      }
    } else if (r.outcome === 'error') {
      statusCounts.error = (statusCounts.error ?? 0) + 1;
      errors++;
      h.errors++;
    }
  }
  for (const m of d.measured) {
    const h = host(m.host);
    if (m.minIntervalSeconds !== null) h.minIntervalSeconds = m.minIntervalSeconds;
    if (m.meanIntervalSeconds !== null) h.meanIntervalSeconds = m.meanIntervalSeconds;
  }
  for (const r of d.retries) host(r.host).retries++;
  for (const s of d.robotsSkips) host(s.host).robotsSkips++;
  for (const x of d.droppedHosts) host(x.host).dropped = x.reason;
  for (const b of d.blockingSuspected) {
    const signals = (host(b.host).blocking?.signals ?? 0) + 1;
    host(b.host).blocking = { signals, kind: b.kind, text: b.text, action: b.action };
  }
  const retryAfterSeen: string[] = [];
  for (const [name, values] of d.retryAfterByHost) {
    host(name).retryAfterSeen = [...values];
    retryAfterSeen.push(...values);
  }
  const hostList = [...hosts.values()];
  return {
    startedAt: d.startedAt,
    endedAt: d.endedAt,
    elapsedSeconds: Math.max(0, d.endedAt - d.startedAt) / 1000,
    pages,
    requests: d.requests.length,
    statusCounts,
    retries: d.retries.length,
    robotsSkips: d.robotsSkips.length,
    errors,
    retryAfterSeen,
    transferred: transferOf(d.requests),
    hosts: hostList,
    notFollowed: summarizeNotFollowed(d.urls),
    endReason: hostList.length > 0 && hostList.every((h) => h.dropped !== undefined) ? 'hosts-dropped' : 'stopped',
  };
}
