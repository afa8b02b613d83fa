/**
 * robots.txt fetching by RFC 9309 §2.3 and §2.4: the GET, redirects, status → outcome, the 500 KiB limit,
 * and a per-origin cache with in-flight de-duplication.
 *
 * Outcomes (what the crawler must then do):
 *   ok           2xx: parse the body and follow its rules (§2.3.1.1). Still ok when cut at maxBytes by us.
 *   unavailable  4xx except 429, more than maxRedirects redirects, a redirect loop: everything allowed (§2.3.1.3).
 *   unreachable  5xx, 429, any network failure, a body cut by the server, a 3xx without a usable Location,
 *                1xx/600+ finals: everything disallowed (§2.3.1.4).
 *
 * The body is returned as raw (decompressed) bytes; decoding (BOM, UTF-8) belongs to the core.
 * A result always applies to the ORIGINAL origin, wherever redirects led (§2.3.1.2).
 */
import type { ErrorKind } from '../core/crawl/events';
import type { RobotsOutcome } from '../core/robots/explain';
import { parseRetryAfter, RETRY_AFTER_MAX_SECONDS } from '../core/politeness/retryAfter';
import { ROBOTS_FETCH_TIMEOUT_SECONDS, ROBOTS_MAX_BYTES } from '../core/robots/decode';
import { createHttpClient, parseHttpUrl, UnsupportedUrlError, type HttpClient, type HttpClientOptions } from './http';

export type { RobotsOutcome };

export interface RobotsTimeouts {
  /** TCP + TLS handshake. Only for the client fetchRobots owns; a passed-in client keeps its own. */
  connectMs?: number;
  /** Until the response headers, per hop. */
  headersMs?: number;
  /** Idle time between body chunks. */
  bodyMs?: number;
  /** Wall time for the whole fetch, all redirect hops together. */
  totalMs?: number;
}

const FETCH_TIMEOUT_MS = ROBOTS_FETCH_TIMEOUT_SECONDS * 1000;

export const ROBOTS_DEFAULTS = {
  /** RFC 9309 §2.5: the parsing limit MUST be at least 500 KiB (the core parses no more). */
  maxBytes: ROBOTS_MAX_BYTES,
  /** RFC 9309 §2.3.1.2: follow at least five consecutive redirects. */
  maxRedirects: 5,
  /** 10 s in all (ROBOTS_FETCH_TIMEOUT_SECONDS), redirects included; no single phase longer. */
  timeouts: { connectMs: FETCH_TIMEOUT_MS, headersMs: FETCH_TIMEOUT_MS, bodyMs: FETCH_TIMEOUT_MS, totalMs: FETCH_TIMEOUT_MS },
  accept: 'text/plain, */*;q=0.5',
} as const;

export interface RobotsRedirect {
  from: string;
  to: string;
  status: number;
}

export interface RobotsFetchResult {
  /** The origin the rules apply to: always the original one (scheme://host[:port]). */
  origin: string;
  /** `${origin}/robots.txt`: the URL the rules are parsed against (never the final URL). */
  robotsUrl: string;
  outcome: RobotsOutcome;
  /** Status of the last response received, when there was one. */
  status?: number;
  /** The redirects that were followed, in order. */
  redirects: RobotsRedirect[];
  /** The last URL requested. */
  finalUrl: string;
  /** Decoded body bytes kept (0 unless ok). */
  bytes: number;
  /** True when the body was cut at maxBytes by us. */
  truncated: boolean;
  /** When the fetch started and ended (epoch ms, from `now`). */
  startedAt: number;
  /** When the last request that reached its connection was written to it (epoch ms, from `now`): the
   * moment the server saw the fetch, for the host's politeness interval. */
  sentAt?: number;
  fetchedAt: number;
  /** Only when ok: the raw bytes after Content-Encoding decoding, not text. */
  body?: Uint8Array;
  /** Headers of the last response (lower-case names). */
  headers?: Record<string, string>;
  /** Raw Retry-After of the last response (429, 503, a 3xx that asks to wait). */
  retryAfter?: string;
  /** Set for network-level failures. */
  error?: { kind: ErrorKind; message: string };
  /** One line for people: what happened and what it means for crawling. */
  reason: string;
}

export interface FetchRobotsOptions {
  /** The full User-Agent header; it should contain the product token (RFC 9309 §2.2.1). */
  userAgent: string;
  timeouts?: RobotsTimeouts;
  /** Parsing limit on decoded bytes, default 512,000. Reading stops there. */
  maxBytes?: number;
  /** Redirects to follow, default 5. One more is "unavailable". */
  maxRedirects?: number;
  /** Clock for startedAt/fetchedAt (default Date.now). Timeouts always run on real timers. */
  now?: () => number;
  signal?: AbortSignal;
  /** Share sockets with other fetches. Without one, fetchRobots makes a client and closes it after. */
  client?: HttpClient;
  /** Extra options for the client fetchRobots makes (lookup, ca, …). Ignored when `client` is given. */
  http?: Partial<Omit<HttpClientOptions, 'userAgent' | 'now'>>;
}

/** `https://Example.com:443/a?b` → origin `https://example.com`, robotsUrl `https://example.com/robots.txt`.
 * Throws UnsupportedUrlError for anything but absolute http(s). */
export function robotsLocation(originOrUrl: string | URL): { origin: string; robotsUrl: string } {
  const url = parseHttpUrl(originOrUrl);
  const origin = url.origin;
  if (origin === 'null') throw new UnsupportedUrlError(url.href, 'it has no origin');
  return { origin, robotsUrl: `${origin}/robots.txt` };
}

const SECTION_UNAVAILABLE = 'RFC 9309 §2.3.1.3';
const SECTION_UNREACHABLE = 'RFC 9309 §2.3.1.4';

/** RFC 9309 outcome for a final (non-3xx) status. */
export function outcomeForStatus(status: number): RobotsOutcome {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 429) return 'unreachable';
  if (status >= 400 && status < 500) return 'unavailable';
  return 'unreachable'; // 5xx, and 1xx/3xx/600+ arriving as a final status
}

export async function fetchRobots(originOrUrl: string | URL, options: FetchRobotsOptions): Promise<RobotsFetchResult> {
  const { origin, robotsUrl } = robotsLocation(originOrUrl); // throws before any I/O
  const now = options.now ?? Date.now;
  const timeouts = { ...ROBOTS_DEFAULTS.timeouts, ...options.timeouts };
  const maxBytes = options.maxBytes ?? ROBOTS_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? ROBOTS_DEFAULTS.maxRedirects;
  const client =
    options.client ??
    createHttpClient({
      ...options.http,
      userAgent: options.userAgent,
      connectTimeoutMs: timeouts.connectMs,
      headersTimeoutMs: timeouts.headersMs,
      bodyTimeoutMs: timeouts.bodyMs,
      now,
    });

  const startedAt = now();
  const t0 = performance.now();
  const redirects: RobotsRedirect[] = [];
  const visited = new Set<string>([robotsUrl]);
  let url = robotsUrl;
  let sentAt: number | undefined;

  const finish = (outcome: RobotsOutcome, reason: string, extra: Partial<RobotsFetchResult> = {}): RobotsFetchResult => ({
    origin,
    robotsUrl,
    outcome,
    redirects,
    finalUrl: url,
    bytes: 0,
    truncated: false,
    startedAt,
    ...(sentAt !== undefined ? { sentAt } : {}),
    fetchedAt: now(),
    reason,
    ...extra,
  });
  const via = (): string => (redirects.length ? ` after ${redirects.length} redirect${redirects.length > 1 ? 's' : ''}` : '');

  try {
    for (;;) {
      const remaining = Math.floor(timeouts.totalMs - (performance.now() - t0));
      if (remaining <= 0) {
        const message = `no robots.txt within the total deadline of ${timeouts.totalMs} ms`;
        return finish('unreachable', `timeout: ${message}${via()}; unreachable, so everything is disallowed (${SECTION_UNREACHABLE})`, {
          error: { kind: 'timeout', message },
        });
      }
      const res = await client.get(url, {
        accept: ROBOTS_DEFAULTS.accept,
        headersTimeoutMs: timeouts.headersMs,
        bodyTimeoutMs: timeouts.bodyMs,
        totalTimeoutMs: remaining,
        maxBytes,
        readBody: (status) => status >= 200 && status < 300,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (res.sentAt !== undefined) sentAt = res.sentAt;

      if (!res.ok) {
        const cut = res.status !== undefined ? ` (after a ${res.status} status line)` : '';
        return finish(
          'unreachable',
          `${res.kind}: ${res.message}${cut}${via()}; unreachable, so everything is disallowed (${SECTION_UNREACHABLE})`,
          {
            ...(res.status !== undefined ? { status: res.status } : {}),
            ...(res.headers ? { headers: res.headers } : {}),
            error: { kind: res.kind, message: res.message },
          },
        );
      }

      const status = res.status;
      const common = {
        status,
        headers: res.headers,
        ...(res.headers['retry-after'] !== undefined ? { retryAfter: res.headers['retry-after'] } : {}),
      };

      if (status >= 300 && status < 400) {
        if (res.location === undefined) {
          const what = res.headers.location === undefined ? 'no Location header' : `an unusable Location ${JSON.stringify(res.headers.location)}`;
          return finish('unreachable', `${status} with ${what}${via()}; treated as unreachable, so everything is disallowed`, common);
        }
        const target = res.location.replace(/#.*$/, '');
        const scheme = new URL(target).protocol;
        if (scheme !== 'http:' && scheme !== 'https:') {
          return finish('unreachable', `${status} to ${target}, which is not http(s)${via()}; treated as unreachable, so everything is disallowed`, common);
        }
        const wait = common.retryAfter !== undefined ? defaultRetryAfterMs(common.retryAfter, now()) : undefined;
        if (wait !== undefined && wait > 0) {
          return finish(
            'unreachable',
            `${status} to ${target} asks to wait (Retry-After: ${common.retryAfter}) before following; not fetched yet, so everything is disallowed`,
            common,
          );
        }
        if (visited.has(target)) {
          return finish('unavailable', `redirect loop: ${status} from ${url} back to ${target}${via()}; treated as unavailable, so everything is allowed (${SECTION_UNAVAILABLE})`, common);
        }
        if (redirects.length >= maxRedirects) {
          return finish(
            'unavailable',
            `more than ${maxRedirects} redirects (the next was ${status} to ${target}); treated as unavailable, so everything is allowed (RFC 9309 §2.3.1.2)`,
            common,
          );
        }
        redirects.push({ from: url, to: target, status });
        visited.add(target);
        url = target;
        continue;
      }

      const outcome = outcomeForStatus(status);
      if (outcome === 'ok') {
        const cut = res.truncated ? `, cut at the ${maxBytes}-byte limit (RFC 9309 §2.5)` : '';
        return finish('ok', `${status}: robots.txt fetched, ${res.bytes} bytes${cut}${via()}`, {
          ...common,
          body: res.body,
          bytes: res.bytes,
          truncated: res.truncated,
        });
      }
      if (outcome === 'unavailable') {
        return finish('unavailable', `${status}: unavailable${via()}, so everything is allowed (${SECTION_UNAVAILABLE})`, common);
      }
      const why =
        status === 429
          ? '429 Too Many Requests: treated like 5xx (as Google and Nutch do)'
          : status >= 500 && status < 600
            ? `${status}: server error`
            : `${status}: not a usable final status`;
      return finish('unreachable', `${why}${via()}; unreachable, so everything is disallowed (${SECTION_UNREACHABLE})`, common);
    }
  } finally {
    if (!options.client) await client.close();
  }
}

export interface FetchRobotsForAllOptions extends FetchRobotsOptions {
  /** Fetches in flight at once, across all origins (default 4). */
  concurrency?: number;
  /** Go through this cache (its own fetch function is used; the other options are then unused). */
  cache?: RobotsCache;
}

/**
 * Fetches robots.txt for every origin with at most `concurrency` fetches in flight. The result array is
 * aligned with `origins`; inputs with the same origin share one fetch. Every input is validated first, so an
 * unsupported URL throws before any I/O.
 */
export async function fetchRobotsForAll(
  origins: ReadonlyArray<string | URL>,
  options: FetchRobotsForAllOptions,
): Promise<RobotsFetchResult[]> {
  const keys = origins.map((o) => robotsLocation(o).origin);
  const unique = [...new Set(keys)];
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const { cache } = options;
  const ownsClient = !cache && !options.client;
  const timeouts = { ...ROBOTS_DEFAULTS.timeouts, ...options.timeouts };
  const client =
    cache || options.client
      ? options.client
      : createHttpClient({
          ...options.http,
          userAgent: options.userAgent,
          connectTimeoutMs: timeouts.connectMs,
          headersTimeoutMs: timeouts.headersMs,
          bodyTimeoutMs: timeouts.bodyMs,
          ...(options.now ? { now: options.now } : {}),
        });
  const results = new Map<string, RobotsFetchResult>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < unique.length) {
      const origin = unique[next++] as string;
      const result = cache
        ? (await cache.get(origin, options.signal ? { signal: options.signal } : {})).result
        : await fetchRobots(origin, { ...options, ...(client ? { client } : {}) });
      results.set(origin, result);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, unique.length) }, worker));
  } finally {
    if (ownsClient) await client?.close();
  }
  return keys.map((k) => results.get(k) as RobotsFetchResult);
}

// ---------------------------------------------------------------------------------------------------------
// Cache (RFC 9309 §2.4)

export const ROBOTS_CACHE_DEFAULTS = {
  /** RFC 9309 §2.4: a cached copy SHOULD NOT be used for more than 24 hours. Larger values are clamped. */
  maxAgeMs: 24 * 60 * 60 * 1000,
  /** Floor for Cache-Control max-age and Retry-After, so a robots.txt is never refetched per page. */
  minAgeMs: 60 * 1000,
  /** How long an unreachable result stands when the server gave no Retry-After. */
  unreachableRetryMs: 5 * 60 * 1000,
} as const;

export interface RobotsCacheEntry {
  origin: string;
  /** The latest fetch. */
  result: RobotsFetchResult;
  /** When the latest fetch finished, from the cache's clock. */
  fetchedAt: number;
  /** The entry is stale from this time on (cache clock). */
  expiresAt: number;
  /** The most recent ok/unavailable result (the latest itself when it is one). While the origin is
   * unreachable the crawler MAY keep using it past 24 h (RFC 9309 §2.4) or disallow all: its choice. */
  lastGood?: RobotsFetchResult;
  /** fetchedAt of the first of the current run of unreachable results, for the 30-day rule of §2.3.1.4. */
  unreachableSince?: number;
}

export interface RobotsCacheOptions {
  /** Fetches one origin; usually `(o) => fetchRobots(o, { userAgent, client })`. */
  fetch: (origin: string) => Promise<RobotsFetchResult>;
  now?: () => number;
  maxAgeMs?: number;
  minAgeMs?: number;
  unreachableRetryMs?: number;
  /** Shorten the lifetime to Cache-Control max-age (floored at minAgeMs, capped at maxAgeMs). Default true. */
  honourCacheControl?: boolean;
  /** Retry-After → delay in ms, or undefined when invalid. Default: strict delay-seconds or IMF-fixdate. */
  parseRetryAfter?: (value: string, now: number) => number | undefined;
}

type SerializedResult = Omit<RobotsFetchResult, 'body'> & { body?: string };
export interface RobotsCacheJSON {
  version: 1;
  entries: Array<{
    origin: string;
    fetchedAt: number;
    expiresAt: number;
    unreachableSince?: number;
    result: SerializedResult;
    lastGood?: SerializedResult;
  }>;
}

export class RobotsCache {
  private readonly entries = new Map<string, RobotsCacheEntry>();
  private readonly inflight = new Map<string, Promise<RobotsCacheEntry>>();
  private readonly now: () => number;
  private readonly maxAgeMs: number;
  private readonly minAgeMs: number;
  private readonly unreachableRetryMs: number;
  private readonly honourCacheControl: boolean;
  private readonly parseRetryAfter: (value: string, now: number) => number | undefined;

  constructor(private readonly options: RobotsCacheOptions) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = Math.max(0, Math.min(options.maxAgeMs ?? ROBOTS_CACHE_DEFAULTS.maxAgeMs, ROBOTS_CACHE_DEFAULTS.maxAgeMs));
    this.minAgeMs = Math.min(Math.max(0, options.minAgeMs ?? ROBOTS_CACHE_DEFAULTS.minAgeMs), this.maxAgeMs);
    this.unreachableRetryMs = options.unreachableRetryMs ?? ROBOTS_CACHE_DEFAULTS.unreachableRetryMs;
    this.honourCacheControl = options.honourCacheControl ?? true;
    this.parseRetryAfter = options.parseRetryAfter ?? defaultRetryAfterMs;
  }

  /**
   * The entry for the origin of `originOrUrl`: the cached one while fresh, else a new fetch. Concurrent
   * calls for one origin share a single fetch. `signal` only stops this caller's wait, never the shared
   * fetch. `refresh` fetches even when fresh (still sharing a fetch already in flight).
   */
  async get(originOrUrl: string | URL, options: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<RobotsCacheEntry> {
    const { origin } = robotsLocation(originOrUrl);
    if (!options.refresh) {
      const entry = this.entries.get(origin);
      if (entry && this.isFresh(entry)) return entry;
    }
    let pending = this.inflight.get(origin);
    if (!pending) {
      pending = this.load(origin).finally(() => this.inflight.delete(origin));
      this.inflight.set(origin, pending);
    }
    return options.signal ? abortable(pending, options.signal) : pending;
  }

  /** The stored entry, fresh or stale, without fetching. */
  peek(originOrUrl: string | URL): RobotsCacheEntry | undefined {
    return this.entries.get(robotsLocation(originOrUrl).origin);
  }

  isFresh(entry: RobotsCacheEntry): boolean {
    return this.now() < entry.expiresAt;
  }

  delete(originOrUrl: string | URL): boolean {
    return this.entries.delete(robotsLocation(originOrUrl).origin);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private async load(origin: string): Promise<RobotsCacheEntry> {
    const result = await this.options.fetch(origin);
    const fetchedAt = this.now();
    const previous = this.entries.get(origin);
    const unreachable = result.outcome === 'unreachable';
    const entry: RobotsCacheEntry = {
      origin,
      result,
      fetchedAt,
      expiresAt: fetchedAt + this.lifetime(result, fetchedAt),
    };
    const lastGood = unreachable ? previous?.lastGood : result;
    if (lastGood) entry.lastGood = lastGood;
    if (unreachable) entry.unreachableSince = previous?.unreachableSince ?? fetchedAt;
    // A fetch cancelled by its own signal says nothing about the server: hand it back, do not keep it.
    if (result.error?.kind !== 'aborted') this.entries.set(origin, entry);
    return entry;
  }

  private lifetime(result: RobotsFetchResult, at: number): number {
    const clamp = (ms: number): number => Math.min(this.maxAgeMs, Math.max(this.minAgeMs, ms));
    if (result.outcome === 'unreachable') {
      const wait = result.retryAfter !== undefined ? this.parseRetryAfter(result.retryAfter, at) : undefined;
      return clamp(wait ?? this.unreachableRetryMs);
    }
    if (this.honourCacheControl) {
      const maxAge = cacheControlMaxAge(result.headers?.['cache-control']);
      if (maxAge !== undefined) return clamp(maxAge * 1000);
    }
    return this.maxAgeMs;
  }

  toJSON(): RobotsCacheJSON {
    return {
      version: 1,
      entries: [...this.entries.values()].map((e) => ({
        origin: e.origin,
        fetchedAt: e.fetchedAt,
        expiresAt: e.expiresAt,
        ...(e.unreachableSince !== undefined ? { unreachableSince: e.unreachableSince } : {}),
        result: serializeResult(e.result),
        ...(e.lastGood ? { lastGood: serializeResult(e.lastGood) } : {}),
      })),
    };
  }

  /** Restores entries saved by toJSON(). Malformed entries are skipped; lifetimes are re-capped at maxAgeMs. */
  static fromJSON(json: unknown, options: RobotsCacheOptions): RobotsCache {
    const cache = new RobotsCache(options);
    const data = json as Partial<RobotsCacheJSON> | null;
    if (!data || data.version !== 1 || !Array.isArray(data.entries)) return cache;
    for (const raw of data.entries) {
      if (!raw || typeof raw.origin !== 'string' || typeof raw.fetchedAt !== 'number' || typeof raw.expiresAt !== 'number') continue;
      if (!raw.result || typeof raw.result.outcome !== 'string') continue;
      let origin: string;
      try {
        origin = robotsLocation(raw.origin).origin;
      } catch {
        continue;
      }
      const entry: RobotsCacheEntry = {
        origin,
        fetchedAt: raw.fetchedAt,
        expiresAt: Math.min(raw.expiresAt, raw.fetchedAt + cache.maxAgeMs),
        result: deserializeResult(raw.result),
      };
      if (raw.lastGood) entry.lastGood = deserializeResult(raw.lastGood);
      if (typeof raw.unreachableSince === 'number') entry.unreachableSince = raw.unreachableSince;
      cache.entries.set(origin, entry);
    }
    return cache;
  }
}

function serializeResult(r: RobotsFetchResult): SerializedResult {
  const { body, ...rest } = r;
  return body ? { ...rest, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64') } : rest;
}

function deserializeResult(r: SerializedResult): RobotsFetchResult {
  const { body, ...rest } = r;
  if (typeof body !== 'string') return { ...rest };
  const buf = Buffer.from(body, 'base64');
  return { ...rest, body: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** `max-age=N` from a Cache-Control value (delta-seconds; RFC 9111 §1.2.2 caps at 2^31). */
export function cacheControlMaxAge(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const m = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)/i.exec(value);
  if (!m || m[1] === undefined) return undefined;
  return Math.min(Number(m[1]), 2 ** 31);
}


/**
 * Milliseconds to wait for a Retry-After value (seconds or any HTTP-date form), read by the core's
 * politeness parser; undefined when the value is invalid.
 */
export function defaultRetryAfterMs(value: string, now: number): number | undefined {
  const read = parseRetryAfter(value, now, { capSeconds: RETRY_AFTER_MAX_SECONDS });
  return read.kind === 'invalid' ? undefined : read.delayMs;
}
