/**
 * A per-origin robots.txt cache (RFC 9309 §2.4): a fetched result stands until it expires (at most 24 h,
 * shorter for Cache-Control max-age; an unreachable one for its Retry-After or 5 minutes), concurrent
 * callers share one fetch, the last good result is kept while the origin is unreachable, and the whole
 * cache can be saved and restored (the extension keeps it between sessions).
 */
import { defaultRetryAfterMs, robotsLocation, type RobotsFetchResult } from './robotsFetch';

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
    this.maxAgeMs = Math.max(
      0,
      Math.min(options.maxAgeMs ?? ROBOTS_CACHE_DEFAULTS.maxAgeMs, ROBOTS_CACHE_DEFAULTS.maxAgeMs),
    );
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
  async get(
    originOrUrl: string | URL,
    options: { signal?: AbortSignal; refresh?: boolean } = {},
  ): Promise<RobotsCacheEntry> {
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
      if (
        !raw ||
        typeof raw.origin !== 'string' ||
        typeof raw.fetchedAt !== 'number' ||
        typeof raw.expiresAt !== 'number'
      )
        continue;
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
