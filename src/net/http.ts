/**
 * The HTTP layer: a single-hop GET on undici `request()` with bounded timeouts and a cap on decoded body
 * bytes. It never follows redirects (the caller decides: robots.txt follows up to five, the crawl queues the
 * Location as a new URL under its own politeness budget).
 *
 * Body decoding and the size cap are httpBody.ts's; naming an error's kind is httpErrors.ts's.
 *
 * Failures are values, not exceptions: `get()` resolves to `HttpResponse | HttpError` (tell them apart by
 * `ok`). The only rejection is `UnsupportedUrlError`, thrown before any I/O for a URL that is not http(s):
 * that is a caller bug, not a network condition.
 *
 * Bounds, all per request:
 *  - connectTimeoutMs  TCP + TLS handshake                         → kind 'connect-timeout'
 *  - headersTimeoutMs  from the request being sent to the full headers → 'headers-timeout'
 *  - bodyTimeoutMs     idle time between two body chunks            → 'body-timeout'
 *  - totalTimeoutMs    wall time for the whole exchange, so a server trickling a byte a second cannot hold
 *                      us past it                                   → 'timeout'
 *  - maxBytes          decoded bytes kept; reading stops at the cap, the stream is destroyed and the
 *                      response is a success with `truncated: true`. A body cut by the SERVER (reset,
 *                      short Content-Length, unterminated chunked body) is an error, never a truncation.
 */
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import type { LookupFunction } from 'node:net';
import type { Readable, Transform } from 'node:stream';
import type { ErrorKind } from '../core/crawl/events';
import type { AddressOverrides } from '../core/servers/overrides';
import { DecodeError, decodersFor, parseContentLength, readCapped } from './httpBody';
import { classifyError, describeError, errorCode } from './httpErrors';

export type { ErrorKind };

export const HTTP_DEFAULTS = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 20_000,
  bodyTimeoutMs: 20_000,
  totalTimeoutMs: 60_000,
  maxBytes: 10 * 1024 * 1024,
  accept: '*/*',
  decompress: true,
} as const;

/** A successful exchange: the server sent a complete status line and headers, and the body was read to its
 * end or to `maxBytes`. Any status counts as success here; the caller interprets 3xx/4xx/5xx. */
export interface HttpResponse {
  ok: true;
  status: number;
  /** Lower-case names; repeated fields joined with ', ' (set-cookie too). */
  headers: Record<string, string>;
  /** Decoded body bytes (after Content-Encoding), at most maxBytes. Empty when the body was skipped. */
  body: Uint8Array;
  /** Decoded bytes kept (= body.byteLength). */
  bytes: number;
  /** Bytes read off the wire after de-chunking, before decoding. */
  wireBytes: number;
  /** True when reading stopped at maxBytes (the body may have been longer). */
  truncated: boolean;
  /** False when `readBody` declined the body for this status; the connection was closed unread. */
  bodyRead: boolean;
  /** The URL requested (normalised href). */
  url: string;
  startedAt: number;
  /** When the request headers were written to the connection (after any connect): the moment the server
   * can see the request. Undefined if it never got that far. */
  sentAt?: number;
  headersAt: number;
  endedAt: number;
  /** For 3xx with a parseable Location: the absolute URL, resolved against `url`. */
  location?: string;
}

export interface HttpError {
  ok: false;
  kind: ErrorKind;
  message: string;
  url: string;
  startedAt: number;
  /** As in HttpResponse: when the request went onto the connection, if it did. */
  sentAt?: number;
  endedAt: number;
  /** Set when the failure came after the headers (a body cut mid-way, a body timeout, a bad encoding). */
  status?: number;
  headersAt?: number;
  headers?: Record<string, string>;
  /** The underlying error's code, when it had one (ECONNREFUSED, UND_ERR_SOCKET, Z_DATA_ERROR, …). */
  code?: string;
}

export type HttpResult = HttpResponse | HttpError;

/** Thrown (the promise rejects) for a URL that is not absolute http: or https:, before any I/O. */
export class UnsupportedUrlError extends TypeError {
  override readonly name = 'UnsupportedUrlError';
  constructor(
    readonly input: string,
    detail: string,
  ) {
    super(`Cannot fetch ${JSON.stringify(input)}: ${detail}. Only absolute http: and https: URLs are supported.`);
  }
}

/** Parses and checks a URL; throws UnsupportedUrlError for anything but absolute http(s). */
export function parseHttpUrl(input: string | URL): URL {
  const text = typeof input === 'string' ? input : input.href;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsupportedUrlError(text, 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsupportedUrlError(text, `the scheme is "${url.protocol}"`);
  }
  if (url.hostname === '') throw new UnsupportedUrlError(text, 'there is no host');
  return url;
}

export function isFetchableUrl(input: string | URL): boolean {
  try {
    parseHttpUrl(input);
    return true;
  } catch {
    return false;
  }
}

export interface HttpClientOptions {
  /** The full User-Agent header (it should contain the robots.txt product token). */
  userAgent: string;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxBytes?: number;
  accept?: string;
  decompress?: boolean;
  /** Clock for startedAt/headersAt/endedAt (default Date.now). Timeouts always run on real timers. */
  now?: () => number;
  /** DNS override, e.g. to map demo host names to 127.0.0.N. Passed to net.connect. */
  lookup?: LookupFunction;
  /** `--resolve`: host names whose connections go to the addresses given (the Host header and TLS SNI stay
   * the name; docs/network.md#resolution). Checked before `lookup`. */
  resolve?: AddressOverrides;
  /** Extra trusted CA certificates for https (tests, corporate roots). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Connections per origin in the owned Agent (default unlimited; politeness is the scheduler's job). */
  connectionsPerOrigin?: number;
  /** Use this dispatcher instead of owning an Agent. connectTimeoutMs/lookup/ca are then ignored and
   * close() leaves it open. */
  dispatcher?: Dispatcher;
}

export interface GetOptions {
  signal?: AbortSignal;
  /** Extra request headers (lower-case names). user-agent/accept/accept-encoding come from the options. */
  headers?: Record<string, string>;
  accept?: string;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxBytes?: number;
  decompress?: boolean;
  /** Decide from the status whether the body is worth reading (default: always). When false the body is
   * discarded unread and the connection closed, so a slow error page cannot turn a status into a timeout. */
  readBody?: (status: number) => boolean;
  /** Called once, synchronously, when the request is handed to its connection to be written (after any
   * connect); it must not throw or take long. */
  onSent?: () => void;
  /** Hands the decoded body over chunk by chunk as it arrives instead of keeping it (`body` is then empty,
   * `bytes` still counts). Awaited, so a slow consumer slows the read. Return false (or a promise of false)
   * to stop reading: the result is then `truncated: true`. `maxBytes` still applies. */
  onChunk?: (chunk: Uint8Array) => boolean | void | Promise<boolean | void>;
}

export interface HttpClient {
  get(url: string | URL, options?: GetOptions): Promise<HttpResult>;
  /** Destroys the owned Agent and its sockets; in-flight requests end with an error. Idempotent. */
  close(): Promise<void>;
}

/** Request-option key carrying a callback for the moment the request is written to its connection. */
const ON_SENT = Symbol('crawlPlanner.onSent');

let undici: typeof Undici | undefined;

/**
 * undici, required on first use: commands that never send a request (`estimate` without `--robots`,
 * `--help`, `robots --file`) do not pay for loading it (about 30 ms of a CLI start; node:zlib, about 10 ms
 * more, loads the same way in httpBody.ts).
 */
function loadUndici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy, synchronous load
  return (undici ??= require('undici') as typeof Undici);
}

/**
 * An interceptor that calls `opts[ON_SENT]` when undici hands the request to a connected socket (the
 * handler's onConnect / onRequestStart, just before the headers are written). Politeness is measured
 * from that moment, so connection set-up can never make a server see two starts closer than the interval.
 */
const sentAtInterceptor: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
  const onSent = (opts as unknown as Record<symbol, unknown>)[ON_SENT];
  if (typeof onSent !== 'function') return dispatch(opts, handler);
  let fired = false;
  const wrapped = new Proxy(handler, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'onConnect' || prop === 'onRequestStart') {
        return (...args: unknown[]) => {
          if (!fired) {
            fired = true;
            (onSent as () => void)();
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return dispatch(opts, wrapped);
};

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const owned = options.dispatcher === undefined;
  const connect: Record<string, unknown> = {
    timeout: options.connectTimeoutMs ?? HTTP_DEFAULTS.connectTimeoutMs,
  };
  if (options.lookup) connect.lookup = options.lookup;
  if (options.ca) connect.ca = options.ca;
  const dispatcher: Dispatcher =
    options.dispatcher ??
    new (loadUndici().Agent)({
      connect: options.resolve?.size ? overridingConnector(connect, options.resolve) : connect,
      headersTimeout: options.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs ?? HTTP_DEFAULTS.bodyTimeoutMs,
      ...(options.connectionsPerOrigin ? { connections: options.connectionsPerOrigin } : {}),
    });
  const composed = dispatcher.compose(sentAtInterceptor);
  let closed = false;
  return {
    get: (url, getOptions) => {
      if (closed) return Promise.reject(new Error('HttpClient is closed'));
      return httpGetWith(composed, options, url, getOptions ?? {});
    },
    close: async () => {
      if (closed) return;
      closed = true;
      if (owned) await dispatcher.destroy();
    },
  };
}

/**
 * undici's connector, with the connection to an overridden host name made to its address: the connector is
 * given the address as `hostname` (what net/tls connect to) and keeps `host` (the origin: the TLS servername
 * and session key come from it, and the Host header is the request's), so SNI and Host stay the name.
 */
function overridingConnector(
  options: Record<string, unknown>,
  overrides: AddressOverrides,
): Undici.buildConnector.connector {
  const base = loadUndici().buildConnector(options as Undici.buildConnector.BuildOptions);
  return (opts, callback) => {
    const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
    const address = overrides.addressesFor(opts.hostname, port)?.[0];
    if (address === undefined) return base(opts, callback);
    return base({ ...opts, hostname: address, host: opts.host ?? opts.hostname }, callback);
  };
}

/** One GET on a client made for it and closed afterwards. Prefer a shared client for many requests. */
export async function httpGet(url: string | URL, options: HttpClientOptions & GetOptions): Promise<HttpResult> {
  parseHttpUrl(url);
  const client = createHttpClient(options);
  try {
    return await client.get(url, options);
  } finally {
    await client.close();
  }
}

async function httpGetWith(
  dispatcher: Dispatcher,
  clientOptions: HttpClientOptions,
  input: string | URL,
  options: GetOptions,
): Promise<HttpResult> {
  const url = parseHttpUrl(input); // throws before any I/O
  url.hash = ''; // fragments are never sent
  const now = clientOptions.now ?? Date.now;
  const href = url.href;
  const startedAt = now();
  let sentAt: number | undefined;
  const sent = () => (sentAt !== undefined ? { sentAt } : {});
  const totalMs = options.totalTimeoutMs ?? clientOptions.totalTimeoutMs ?? HTTP_DEFAULTS.totalTimeoutMs;
  const maxBytes = Math.max(0, options.maxBytes ?? clientOptions.maxBytes ?? HTTP_DEFAULTS.maxBytes);
  const decompress = options.decompress ?? clientOptions.decompress ?? HTTP_DEFAULTS.decompress;

  const fail = (kind: ErrorKind, message: string, extra: Partial<HttpError> = {}): HttpError => ({
    ok: false,
    kind,
    message,
    url: href,
    startedAt,
    ...sent(),
    endedAt: now(),
    ...extra,
  });

  const userSignal = options.signal;
  if (userSignal?.aborted) return fail('aborted', 'aborted before the request was sent');

  const controller = new AbortController();
  let deadlineHit = false;
  let userAborted = false;
  let liveBody: Readable | undefined;
  const deadline = setTimeout(() => {
    deadlineHit = true;
    const reason = new Error(`total deadline of ${totalMs} ms exceeded`);
    controller.abort(reason);
    liveBody?.destroy(reason);
  }, totalMs);
  const onUserAbort = (): void => {
    userAborted = true;
    const reason = new Error('aborted by the caller');
    controller.abort(reason);
    liveBody?.destroy(reason);
  };
  userSignal?.addEventListener('abort', onUserAbort, { once: true });

  const failFrom = (err: unknown, extra: Partial<HttpError> = {}): HttpError => {
    if (deadlineHit) return fail('timeout', `no complete response within the total deadline of ${totalMs} ms`, extra);
    if (userAborted) return fail('aborted', 'aborted by the caller', extra);
    const kind = classifyError(err);
    const code = errorCode(err);
    return fail(kind, describeError(kind, err), { ...extra, ...(code ? { code } : {}) });
  };

  try {
    const headers: Record<string, string> = {
      'user-agent': clientOptions.userAgent,
      accept: options.accept ?? clientOptions.accept ?? HTTP_DEFAULTS.accept,
      'accept-encoding': decompress ? 'gzip, deflate, br' : 'identity',
      ...options.headers,
    };
    let res: Dispatcher.ResponseData;
    try {
      const requestOptions: Parameters<typeof Undici.request>[1] = {
        method: 'GET',
        dispatcher,
        headers,
        signal: controller.signal,
        headersTimeout: options.headersTimeoutMs ?? clientOptions.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs,
        bodyTimeout: options.bodyTimeoutMs ?? clientOptions.bodyTimeoutMs ?? HTTP_DEFAULTS.bodyTimeoutMs,
      };
      // Read by sentAtInterceptor; undici passes unknown option keys through untouched.
      Object.assign(requestOptions as object, {
        [ON_SENT]: () => {
          sentAt = now();
          options.onSent?.();
        },
      });
      res = (await loadUndici().request(href, requestOptions)) as Dispatcher.ResponseData;
    } catch (err) {
      return failFrom(err);
    }
    const headersAt = now();
    const status = res.statusCode;
    const flat = flattenHeaders(res.headers);
    const body = res.body;
    liveBody = body;
    body.on('error', () => {}); // errors are read through the iterator below; never let one go unhandled
    if (deadlineHit || userAborted) {
      body.destroy();
      return failFrom(undefined, { status, headersAt, headers: flat });
    }

    let location: string | undefined;
    if (status >= 300 && status < 400 && flat.location !== undefined) {
      try {
        location = new URL(flat.location, href).href;
      } catch {
        location = undefined;
      }
    }
    const base = {
      ok: true as const,
      status,
      headers: flat,
      url: href,
      startedAt,
      ...sent(),
      headersAt,
      ...(location ? { location } : {}),
    };

    if (options.readBody && !options.readBody(status)) {
      body.destroy();
      return {
        ...base,
        body: new Uint8Array(0),
        bytes: 0,
        wireBytes: 0,
        truncated: false,
        bodyRead: false,
        endedAt: now(),
      };
    }

    let decoders: Transform[];
    try {
      decoders = decompress ? decodersFor(flat['content-encoding']) : [];
    } catch (err) {
      body.destroy();
      return fail('bad-response', (err as Error).message, { status, headersAt, headers: flat });
    }
    const identityLength = decoders.length === 0 ? parseContentLength(flat['content-length']) : undefined;

    try {
      const read = await readCapped(body, decoders, maxBytes, identityLength, options.onChunk);
      return { ...base, ...read, bodyRead: true, endedAt: now() };
    } catch (err) {
      const extra = { status, headersAt, headers: flat };
      if (!deadlineHit && !userAborted && err instanceof DecodeError) {
        return fail(
          'bad-response',
          `cannot decode Content-Encoding "${flat['content-encoding']}": ${err.message}`,
          extra,
        );
      }
      return failFrom(err, extra);
    }
  } finally {
    clearTimeout(deadline);
    userSignal?.removeEventListener('abort', onUserAbort);
  }
}

/** Lower-case names; arrays joined with ', '. */
export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
