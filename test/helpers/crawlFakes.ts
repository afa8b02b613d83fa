/**
 * Fakes for crawl engine tests: a scripted site whose responses take virtual time (so latency and
 * timeouts are deterministic), an event recorder, and helpers to read request starts per host.
 * Not a network mock for integration tests (those use real loopback servers): unit tests only.
 */
import type { CrawlEvent, ErrorKind, RequestStartEvent } from '../../src/core/crawl/events';
import type { PageFetcher, PageResult, RobotsDecision, RobotsGate } from '../../src/core/crawl/types';
import type { VirtualClock } from './virtualClock';
import { mulberry32 } from '../../src/demo/random';

export interface FakeResponse {
  status?: number;
  latencyMs?: number;
  /** Links in the page body (one per line; `fakeExtractLinks` reads them back). */
  links?: string[];
  /** More of the body after the links: lines starting with "<", which `fakeExtractLinks` does not read as links. */
  body?: string;
  headers?: Record<string, string>;
  location?: string;
  /** A transport failure instead of a response. */
  error?: ErrorKind;
  /** Reject the fetch promise instead of resolving. */
  reject?: boolean;
}

/** Per URL: one response for every attempt, a list by attempt (the last repeats), or a function. */
export type FakeScript = FakeResponse | FakeResponse[] | ((attempt: number) => FakeResponse);

export interface FetchLogEntry {
  url: string;
  host: string;
  attempt: number;
  startedAt: number;
  endedAt?: number;
  aborted?: boolean;
}

export interface FakeSite {
  fetch: PageFetcher;
  log: FetchLogEntry[];
  /** Highest number of requests in flight at once, overall and per host. */
  maxInFlight: number;
  maxInFlightPerHost: Map<string, number>;
}

export function fakeSite(
  clock: VirtualClock,
  pages: Record<string, FakeScript>,
  defaults: { latencyMs?: number } = {},
): FakeSite {
  const log: FetchLogEntry[] = [];
  const perHost = new Map<string, number>();
  const site: FakeSite = {
    fetch: undefined as unknown as PageFetcher,
    log,
    maxInFlight: 0,
    maxInFlightPerHost: new Map(),
  };
  let inFlight = 0;
  site.fetch = async (req): Promise<PageResult> => {
    const startedAt = clock.now();
    const entry: FetchLogEntry = { url: req.url, host: req.host, attempt: req.attempt, startedAt };
    log.push(entry);
    inFlight++;
    site.maxInFlight = Math.max(site.maxInFlight, inFlight);
    perHost.set(req.host, (perHost.get(req.host) ?? 0) + 1);
    site.maxInFlightPerHost.set(req.host, Math.max(site.maxInFlightPerHost.get(req.host) ?? 0, perHost.get(req.host)!));
    const script = pages[req.url];
    const r: FakeResponse =
      script === undefined
        ? { status: 404 }
        : typeof script === 'function'
          ? script(req.attempt)
          : Array.isArray(script)
            ? (script[Math.min(req.attempt - 1, script.length - 1)] ?? {})
            : script;
    const done = (): void => {
      inFlight--;
      perHost.set(req.host, perHost.get(req.host)! - 1);
      entry.endedAt = clock.now();
    };
    try {
      await clock.sleep(r.latencyMs ?? defaults.latencyMs ?? 100, req.signal);
    } catch {
      done();
      entry.aborted = true;
      return { error: { kind: 'aborted', message: 'aborted' }, startedAt, endedAt: clock.now() };
    }
    done();
    if (r.reject) throw new Error('fetcher blew up');
    if (r.error) return { error: { kind: r.error, message: `fake ${r.error}` }, startedAt, endedAt: clock.now() };
    const body = [...(r.links ?? []), ...(r.body === undefined ? [] : [r.body])].join('\n');
    return {
      status: r.status ?? 200,
      headers: { 'content-type': 'text/html', ...(r.headers ?? {}) },
      body,
      contentType: 'text/html',
      bytes: body.length,
      truncated: false,
      ...(r.location === undefined ? {} : { location: r.location }),
      startedAt,
      endedAt: clock.now(),
    };
  };
  return site;
}

/** The link extractor for fake pages: one link per line. */
export function fakeExtractLinks(html: string): string[] {
  return html.split('\n').filter((l) => l !== '' && !l.startsWith('<'));
}

/** A robots gate from a table of origin → decision (or a function of the URL); records calls and overlap. */
export function fakeRobots(
  clock: VirtualClock,
  decide: (url: string) => RobotsDecision,
  latencyMs = 0,
): { gate: RobotsGate; calls: string[]; maxConcurrentPerOrigin: number } {
  const active = new Map<string, number>();
  const out = { gate: undefined as unknown as RobotsGate, calls: [] as string[], maxConcurrentPerOrigin: 0 };
  out.gate = async (url) => {
    const origin = new URL(url).origin;
    out.calls.push(url);
    active.set(origin, (active.get(origin) ?? 0) + 1);
    out.maxConcurrentPerOrigin = Math.max(out.maxConcurrentPerOrigin, active.get(origin)!);
    if (latencyMs > 0) await clock.sleep(latencyMs);
    active.set(origin, active.get(origin)! - 1);
    return decide(url);
  };
  return out;
}

export function recorder(): {
  events: CrawlEvent[];
  emit: (e: CrawlEvent) => void;
  of: <T extends CrawlEvent['type']>(type: T) => Extract<CrawlEvent, { type: T }>[];
} {
  const events: CrawlEvent[] = [];
  return {
    events,
    emit: (e) => events.push(e),
    of: <T extends CrawlEvent['type']>(type: T) =>
      events.filter((e): e is Extract<CrawlEvent, { type: T }> => e.type === type),
  };
}

/** Request-start events grouped by host, in order. */
export function startsByHost(events: CrawlEvent[]): Map<string, RequestStartEvent[]> {
  const map = new Map<string, RequestStartEvent[]>();
  for (const e of events) {
    if (e.type !== 'request-start') continue;
    const list = map.get(e.host) ?? [];
    list.push(e);
    map.set(e.host, list);
  }
  return map;
}

/** Gaps (ms) between consecutive starts to each host. */
export function startGaps(events: CrawlEvent[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [host, starts] of startsByHost(events)) {
    const gaps: number[] = [];
    for (let i = 1; i < starts.length; i++) gaps.push(starts[i]!.at - starts[i - 1]!.at);
    out.set(host, gaps);
  }
  return out;
}

/** A seeded pseudo-random source (mulberry32, the demo hosts' PRNG) for deterministic jitter. */
export const seededRandom = mulberry32;

export interface FakeRobotsFile {
  /** The answer for a URL of this origin (default: allowed). */
  decide?: (url: string) => Omit<RobotsDecision, 'fetch'>;
  /** Virtual time the fetch takes (default 0). */
  latencyMs?: number;
  /** A transport failure instead of a response: the answer is then `unreachable`. */
  error?: ErrorKind;
  /** The status of the response (default 200). */
  status?: number;
  /** Already in the cache: fetched at this time (ended `latencyMs` later), before the crawl. */
  fetchedAt?: number;
}

export interface FakeRobotsFetch {
  origin: string;
  startedAt: number;
  endedAt?: number;
}

/**
 * A robots gate that fetches, like the real one: one fetch per origin (concurrent callers share it), taking
 * virtual time, and `peek` answers once an origin's file is held. Every fetch is logged, so tests can
 * check robots.txt against the host's interval and the global slots like any request.
 */
export function fetchingRobots(
  clock: VirtualClock,
  files: Record<string, FakeRobotsFile>,
): { gate: RobotsGate; fetches: FakeRobotsFetch[]; calls: string[] } {
  const held = new Map<string, { file: FakeRobotsFile; startedAt: number; endedAt: number }>();
  const inFlight = new Map<string, Promise<void>>();
  const fetches: FakeRobotsFetch[] = [];
  const calls: string[] = [];
  const fileOf = (origin: string): FakeRobotsFile => files[origin] ?? {};
  for (const [origin, file] of Object.entries(files)) {
    if (file.fetchedAt !== undefined)
      held.set(origin, { file, startedAt: file.fetchedAt, endedAt: file.fetchedAt + (file.latencyMs ?? 0) });
  }
  const answer = (url: string, fetchedNow: boolean): RobotsDecision => {
    const origin = new URL(url).origin;
    const h = held.get(origin)!;
    const base = {
      url: `${origin}/robots.txt`,
      startedAt: h.startedAt,
      sentAt: h.startedAt,
      endedAt: h.endedAt,
      bytes: 0,
      truncated: false,
      fetchedNow,
    };
    if (h.file.error)
      return {
        verdict: 'disallowed',
        outcome: 'unreachable',
        detail: `robots.txt: ${h.file.error}`,
        fetch: { ...base, error: { kind: h.file.error, message: 'fake' } },
      };
    const status = h.file.status ?? 200;
    const decided =
      status >= 500
        ? { verdict: 'disallowed' as const, outcome: 'unreachable' as const, detail: `robots.txt: ${status}` }
        : (h.file.decide?.(url) ?? { verdict: 'allowed' as const, outcome: 'ok' as const });
    return { ...decided, fetch: { ...base, status } };
  };
  const gate = (async (url: string): Promise<RobotsDecision> => {
    calls.push(url);
    const origin = new URL(url).origin;
    if (held.has(origin)) return answer(url, false);
    let pending = inFlight.get(origin);
    if (!pending) {
      const file = fileOf(origin);
      const entry: FakeRobotsFetch = { origin, startedAt: clock.now() };
      fetches.push(entry);
      pending = clock.sleep(file.latencyMs ?? 0).then(() => {
        entry.endedAt = clock.now();
        held.set(origin, { file, startedAt: entry.startedAt, endedAt: entry.endedAt });
        inFlight.delete(origin);
      });
      inFlight.set(origin, pending);
    }
    await pending;
    return answer(url, true);
  }) as RobotsGate;
  gate.peek = (url) => (held.has(new URL(url).origin) ? answer(url, false) : undefined);
  return { gate, fetches, calls };
}
