/**
 * Loopback test servers: an HTTP(S) server on 127.0.0.1 (or 127.0.0.N) port 0 with scripted handlers, and a
 * raw TCP server for responses that are not valid HTTP. Every request is recorded (time, method, path,
 * User-Agent). close() always finishes: it destroys keep-alive, hanging and trickling sockets and stops the
 * handlers' timers.
 *
 *   const srv = await startLoopback({ routes: { '/robots.txt': text(200, 'User-agent: *\nDisallow: /') } });
 *   try { … srv.url('/robots.txt') … await srv.waitForArrivals(1) … } finally { await srv.close(); }
 *
 * Only loopback addresses are accepted, so a test can never listen on a public interface.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { EventEmitter } from 'node:events';
import zlib from 'node:zlib';
import { PassThrough } from 'node:stream';

export interface Arrival {
  /** 1-based order of arrival on this server. */
  seq: number;
  /** Time of arrival from the server's clock (default Date.now). */
  at: number;
  method: string;
  /** The request target as sent (path plus query). */
  path: string;
  userAgent: string | undefined;
  headers: http.IncomingHttpHeaders;
}

export type LoopbackHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  arrival: Arrival,
) => void | Promise<void>;

export interface LoopbackOptions {
  /** A loopback address: 127.0.0.1 (default), 127.0.0.N (Linux routes all of 127/8), or ::1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Exact path (pathname, no query) → handler. */
  routes?: Record<string, LoopbackHandler>;
  /** Used when no route matches; default 404 "not found". */
  handler?: LoopbackHandler;
  now?: () => number;
  /** Serve https with this key and certificate. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface LoopbackServer {
  readonly host: string;
  readonly port: number;
  /** scheme://host:port, as URL.origin would print it. */
  readonly origin: string;
  url(path?: string): string;
  readonly arrivals: readonly Arrival[];
  arrivalsFor(path: string): Arrival[];
  route(path: string, handler: LoopbackHandler): void;
  setHandler(handler: LoopbackHandler): void;
  /** Resolves once `count` requests (optionally for `path`) have arrived; rejects after timeoutMs. */
  waitForArrivals(count: number, options?: { path?: string; timeoutMs?: number }): Promise<void>;
  close(): Promise<void>;
}

export function assertLoopback(host: string): void {
  if (host === '::1' || host === 'localhost') return;
  if (net.isIPv4(host) && host.startsWith('127.')) return;
  throw new Error(`loopback helper: ${host} is not a loopback address`);
}

function formatHost(host: string): string {
  return net.isIPv6(host) ? `[${host}]` : host;
}

/** Tracks sockets so close() can destroy them, and keeps the arrivals log. */
class Tracker extends EventEmitter {
  readonly sockets = new Set<net.Socket>();
  readonly arrivals: Arrival[] = [];
  track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
  }
  record(arrival: Omit<Arrival, 'seq'>): Arrival {
    const full = { seq: this.arrivals.length + 1, ...arrival };
    this.arrivals.push(full);
    this.emit('arrival', full);
    return full;
  }
  waitFor(count: number, path: string | undefined, timeoutMs: number): Promise<void> {
    const matches = (): number => this.arrivals.filter((a) => path === undefined || pathOnly(a.path) === path).length;
    if (matches() >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onArrival = (): void => {
        if (matches() >= count) {
          clearTimeout(timer);
          this.off('arrival', onArrival);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        this.off('arrival', onArrival);
        reject(
          new Error(`expected ${count} arrivals${path ? ` for ${path}` : ''}, got ${matches()} within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      this.on('arrival', onArrival);
    });
  }
  destroyAll(): void {
    for (const s of this.sockets) s.destroy();
  }
}

function pathOnly(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

async function listen(server: net.Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as net.AddressInfo).port;
}

async function closeServer(server: net.Server, tracker: Tracker): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  if (server instanceof http.Server) server.closeAllConnections();
  tracker.destroyAll();
  await closed;
}

export async function startLoopback(options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  assertLoopback(host);
  const now = options.now ?? Date.now;
  const routes = new Map<string, LoopbackHandler>(Object.entries(options.routes ?? {}));
  let fallback: LoopbackHandler = options.handler ?? text(404, 'not found');
  const tracker = new Tracker();

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const arrival = tracker.record({
      at: now(),
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      userAgent: req.headers['user-agent'],
      headers: req.headers,
    });
    const handler = routes.get(pathOnly(arrival.path)) ?? fallback;
    Promise.resolve()
      .then(() => handler(req, res, arrival))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end('handler failed');
        else res.destroy();
      });
  };
  const server: http.Server = options.tls
    ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, onRequest)
    : http.createServer(onRequest);
  server.keepAliveTimeout = 2_000;
  server.on('connection', (s: net.Socket) => tracker.track(s)); // the TCP socket, under TLS too
  server.on('clientError', (_err, socket) => socket.destroy());
  const port = await listen(server, host, options.port ?? 0);
  const scheme = options.tls ? 'https' : 'http';
  const origin = new URL(`${scheme}://${formatHost(host)}:${port}`).origin;
  let closing: Promise<void> | undefined;

  return {
    host,
    port,
    origin,
    url: (path = '/') => `${origin}${path}`,
    arrivals: tracker.arrivals,
    arrivalsFor: (path) => tracker.arrivals.filter((a) => pathOnly(a.path) === path),
    route: (path, handler) => void routes.set(path, handler),
    setHandler: (handler) => void (fallback = handler),
    waitForArrivals: (count, o = {}) => tracker.waitFor(count, o.path, o.timeoutMs ?? 5_000),
    close: () => (closing ??= closeServer(server, tracker)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Raw TCP: for bytes that are not HTTP at all, or for exact control over framing and resets.

export interface RawLoopbackServer {
  readonly host: string;
  readonly port: number;
  readonly origin: string;
  url(path?: string): string;
  readonly arrivals: readonly Arrival[];
  close(): Promise<void>;
}

/** `script` runs once per connection after the request head arrived. */
export async function startRawLoopback(
  script: (socket: net.Socket, arrival: Arrival) => void,
  options: { host?: string; now?: () => number } = {},
): Promise<RawLoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  assertLoopback(host);
  const now = options.now ?? Date.now;
  const tracker = new Tracker();
  const server = net.createServer((socket) => {
    tracker.track(socket);
    let head = '';
    const onData = (d: Buffer): void => {
      head += d.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      const lines = head.slice(0, end).split('\r\n');
      const [method = '', target = ''] = (lines[0] ?? '').split(' ');
      const headers: http.IncomingHttpHeaders = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const arrival = tracker.record({
        at: now(),
        method,
        path: target,
        userAgent: headers['user-agent'] as string | undefined,
        headers,
      });
      script(socket, arrival);
    };
    socket.on('data', onData);
  });
  const port = await listen(server, host, 0);
  const origin = `http://${formatHost(host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    origin,
    url: (path = '/') => `${origin}${path}`,
    arrivals: tracker.arrivals,
    close: () => (closing ??= closeServer(server, tracker)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Utilities

/** A port on `host` that was free a moment ago and is closed now (for "connection refused"). */
export async function closedPort(host = '127.0.0.1'): Promise<number> {
  assertLoopback(host);
  const server = net.createServer();
  const port = await listen(server, host, 0);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether this machine can listen on a 127.0.0.N alias (Linux: yes; macOS: only 127.0.0.1 by default). */
export async function canListenOn(host: string): Promise<boolean> {
  assertLoopback(host);
  const server = net.createServer();
  try {
    await listen(server, host, 0);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Handlers. Each one stops its timers when the response closes, so close() leaves nothing behind.

export function text(
  status: number,
  body: string | Uint8Array,
  headers: Record<string, string | number> = {},
): LoopbackHandler {
  return (_req, res) => {
    const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
    res.writeHead(status, { 'content-type': 'text/plain', 'content-length': payload.length, ...headers });
    res.end(payload);
  };
}

export function redirect(
  status: number,
  location: string | undefined,
  headers: Record<string, string> = {},
): LoopbackHandler {
  return (_req, res) => {
    res.writeHead(status, { 'content-length': 0, ...(location === undefined ? {} : { location }), ...headers });
    res.end();
  };
}

/** Accepts the request and never answers. */
export function hang(): LoopbackHandler {
  return () => {};
}

/** Sends headers, then one byte every `intervalMs`, forever (chunked). */
export function trickle(intervalMs: number, byte = 'x', headers: Record<string, string> = {}): LoopbackHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', ...headers });
    res.flushHeaders();
    const timer = setInterval(() => res.write(byte), intervalMs);
    res.on('close', () => clearInterval(timer));
  };
}

/** Sends headers, then `chunk` as fast as the client reads it, forever (chunked), honouring backpressure. */
export function endless(
  chunk: Uint8Array = Buffer.alloc(16 * 1024, 'a'),
  headers: Record<string, string> = {},
): LoopbackHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', ...headers });
    let open = true;
    res.on('close', () => (open = false));
    const pump = (): void => {
      while (open && res.write(chunk)) {
        /* keep writing until the socket buffer is full */
      }
      if (open) res.once('drain', pump);
    };
    pump();
  };
}

/**
 * A gzip bomb: `Content-Encoding: gzip` over an endless stream of zeros (1 MiB of zeros compresses to about
 * 1 KiB), written as fast as the client reads, until it goes away.
 */
export function gzipBomb(headers: Record<string, string> = {}): LoopbackHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-encoding': 'gzip', ...headers });
    const gz = zlib.createGzip({ level: 9 });
    const src = new PassThrough();
    src.pipe(gz).pipe(res);
    const zeros = Buffer.alloc(1024 * 1024);
    let open = true;
    res.on('close', () => {
      open = false;
      gz.destroy();
      src.destroy();
    });
    const pump = (): void => {
      while (open && src.write(zeros)) {
        /* fill */
      }
      if (open) src.once('drain', pump);
    };
    pump();
  };
}

/** Sends the head and `prefix` of a body announced as `declaredLength` bytes, then resets the connection. */
export function resetMidBody(prefix: string | Uint8Array, declaredLength: number): LoopbackHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': declaredLength });
    res.write(prefix, () => res.socket?.resetAndDestroy());
  };
}
