/**
 * robots.txt fetching by RFC 9309 §2.3: the GET, redirects, status → outcome and the 500 KiB limit. The
 * per-origin cache (§2.4) that shares the fetches is robotsCache.ts.
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
import type { RobotsCache } from './robotsCache';

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
  timeouts: {
    connectMs: FETCH_TIMEOUT_MS,
    headersMs: FETCH_TIMEOUT_MS,
    bodyMs: FETCH_TIMEOUT_MS,
    totalMs: FETCH_TIMEOUT_MS,
  },
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
  /** Body bytes read off the wire, before decoding (0 when the body was not read; absent in an older cache entry). */
  wireBytes?: number;
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

  const finish = (
    outcome: RobotsOutcome,
    reason: string,
    extra: Partial<RobotsFetchResult> = {},
  ): RobotsFetchResult => ({
    origin,
    robotsUrl,
    outcome,
    redirects,
    finalUrl: url,
    bytes: 0,
    // A body not read (a status other than 2xx, a redirect hop) sends nothing more on the wire that we count.
    wireBytes: 0,
    truncated: false,
    startedAt,
    ...(sentAt !== undefined ? { sentAt } : {}),
    fetchedAt: now(),
    reason,
    ...extra,
  });
  const via = (): string =>
    redirects.length ? ` after ${redirects.length} redirect${redirects.length > 1 ? 's' : ''}` : '';

  try {
    for (;;) {
      const remaining = Math.floor(timeouts.totalMs - (performance.now() - t0));
      if (remaining <= 0) {
        const message = `no robots.txt within the total deadline of ${timeouts.totalMs} ms`;
        return finish(
          'unreachable',
          `timeout: ${message}${via()}; unreachable, so everything is disallowed (${SECTION_UNREACHABLE})`,
          {
            error: { kind: 'timeout', message },
          },
        );
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
          const what =
            res.headers.location === undefined
              ? 'no Location header'
              : `an unusable Location ${JSON.stringify(res.headers.location)}`;
          return finish(
            'unreachable',
            `${status} with ${what}${via()}; treated as unreachable, so everything is disallowed`,
            common,
          );
        }
        const target = res.location.replace(/#.*$/, '');
        const scheme = new URL(target).protocol;
        if (scheme !== 'http:' && scheme !== 'https:') {
          return finish(
            'unreachable',
            `${status} to ${target}, which is not http(s)${via()}; treated as unreachable, so everything is disallowed`,
            common,
          );
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
          return finish(
            'unavailable',
            `redirect loop: ${status} from ${url} back to ${target}${via()}; treated as unavailable, so everything is allowed (${SECTION_UNAVAILABLE})`,
            common,
          );
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
          wireBytes: res.wireBytes,
          truncated: res.truncated,
        });
      }
      if (outcome === 'unavailable') {
        return finish(
          'unavailable',
          `${status}: unavailable${via()}, so everything is allowed (${SECTION_UNAVAILABLE})`,
          common,
        );
      }
      const why =
        status === 429
          ? '429 Too Many Requests: treated like 5xx (as Google and Nutch do)'
          : status >= 500 && status < 600
            ? `${status}: server error`
            : `${status}: not a usable final status`;
      return finish(
        'unreachable',
        `${why}${via()}; unreachable, so everything is disallowed (${SECTION_UNREACHABLE})`,
        common,
      );
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

/**
 * Milliseconds to wait for a Retry-After value (seconds or any HTTP-date form), read by the core's
 * politeness parser; undefined when the value is invalid.
 */
export function defaultRetryAfterMs(value: string, now: number): number | undefined {
  const read = parseRetryAfter(value, now, { capSeconds: RETRY_AFTER_MAX_SECONDS });
  return read.kind === 'invalid' ? undefined : read.delayMs;
}
