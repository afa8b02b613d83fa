/**
 * The built-in demo hosts: real node:http servers on loopback, one per demo host, that serve a small
 * deterministic site each and misbehave on purpose (latency, Crawl-delay, 429/503 with Retry-After,
 * redirects, 404s, a path that never answers, a huge page). They record every arrival and the most
 * requests each host had open at once, so that tests and the demo can check politeness from the
 * server's side: what the server saw, not what the crawler believes it did.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  defaultDemoConfig,
  DEMO_FIRST_ADDRESS,
  type BigPageConfig,
  type DemoConfig,
  type DemoHostConfig,
  type RetryAfterForm,
} from './config';
import { deriveSeed, latencySampler, mulberry32 } from './random';
import {
  buildSite,
  escapeHtml,
  pageIndexOf,
  pagePath,
  PRIVATE_PREFIX,
  renderPage,
  renderPrivatePage,
  renderRobotsTxt,
  renderSitemap,
  renderStatusPage,
  seedFromName,
  type SiteModel,
} from './site';

export interface DemoHostInfo {
  name: string;
  /** e.g. `http://127.0.0.11:8470` */
  origin: string;
  /** The home page: origin + `/`. */
  baseUrl: string;
  /** Absolute seed URLs for a crawl of this host. */
  seeds: string[];
  description: string;
  address: string;
  port: number;
  pageCount: number;
  /** Every page of the host (not the redirect, private, missing or special paths). */
  pageUrls: string[];
  /** The robots.txt body when it is served with 200, else null. */
  robotsTxt: string | null;
  /** Other names on this host's address (DemoHostConfig.aliases), each with its seed: reached by `--resolve NAME=address`. */
  aliases?: Array<{ name: string; seed: string }>;
}

export interface DemoArrival {
  /** The demo host's name. */
  host: string;
  /** The request target as sent (path and query). */
  path: string;
  method: string;
  /** '' when the client sent none. */
  userAgent: string;
  /** When the request's head arrived (epoch ms). */
  at: number;
  /** When the response was complete, or the connection went away (epoch ms); unset while open. */
  endedAt?: number;
  /** The status the server chose; 0 for a path that never answers. */
  status: number;
  /** The Retry-After header sent with the answer, if any. */
  retryAfter?: string;
  /** The connection closed before the response was complete (client gave up, or close()). */
  aborted?: boolean;
}

export interface DemoHosts {
  hosts: DemoHostInfo[];
  /** How the hosts were bound: each on its own 127.0.0.x, or all on 127.0.0.1 with a port each. */
  addressing: 'distinct' | 'single';
  /** Arrivals in arrival order, for one host (by name or origin) or all hosts. Snapshots. */
  arrivals(host?: string): DemoArrival[];
  /** The most requests the host (by name or origin) had open at the same time. */
  inFlightMax(host: string): number;
  /** Stops the servers, ends open and hanging requests, and resolves when every socket is gone. Idempotent. */
  close(): Promise<void>;
}

type Reply =
  | { kind: 'hang' }
  | { kind: 'body'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'stream'; page: BigPageConfig };

const HTML = 'text/html; charset=utf-8';
/** A DNS name made of letter-digit-hyphen labels, e.g. `fast.localhost`. */
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const REDIRECT_STATUSES = [301, 302, 307, 308] as const;
const STATUS_TEXT: Record<number, string> = {
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

function html(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { kind: 'body', status, headers: { 'Content-Type': HTML, ...headers }, body };
}

function errorPage(status: number, headers: Record<string, string> = {}): Reply {
  return html(status, renderStatusPage(status, STATUS_TEXT[status] ?? 'Error'), headers);
}

/** Retry-After for a wait of `ms` from `at`: delta-seconds rounded up (≥ 1), or the HTTP-date of the rounded-up second. */
export function retryAfterValue(form: 'seconds' | 'http-date', at: number, ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (form === 'seconds') return String(seconds);
  // The Date header floors to the second; rounding the target up keeps (target − Date) ≥ the wait.
  return new Date(Math.ceil((at + seconds * 1000) / 1000) * 1000).toUTCString();
}

class DemoHostRuntime {
  readonly site: SiteModel;
  readonly server: http.Server;
  readonly arrivals: DemoArrival[] = [];
  inFlight = 0;
  inFlightMax = 0;
  origin = '';
  address = '';
  port = 0;

  private readonly nextLatency: () => number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;
  // 503 bursts
  private served = 0;
  private nextOutageAt: number;
  private outageUntil = 0;
  private outageCount = 0;
  // 429s
  private limiterCount = 0;
  private lastLimiterAt: number | undefined;
  private tooManyCount = 0;

  constructor(
    readonly config: DemoHostConfig,
    others: readonly string[],
    index: number,
    private readonly baseUrlOf: (name: string) => string | undefined,
    private readonly now: () => number,
  ) {
    this.site = buildSite(config, others, index);
    const seed = config.seed ?? seedFromName(config.name);
    this.nextLatency = latencySampler(config.latency, mulberry32(deriveSeed(seed, 'latency')));
    this.nextOutageAt = config.unavailable ? Math.max(1, Math.floor(config.unavailable.atRequest)) : Infinity;
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  info(): DemoHostInfo {
    const robots = renderRobotsTxt(this.config, this.origin);
    return {
      name: this.config.name,
      origin: this.origin,
      baseUrl: `${this.origin}/`,
      seeds: (this.config.seeds ?? ['/']).map((p) => new URL(p, this.origin).href),
      description: this.config.description,
      address: this.address,
      port: this.port,
      pageCount: this.site.pageCount,
      pageUrls: Array.from({ length: this.site.pageCount }, (_, i) => this.origin + pagePath(i)),
      robotsTxt: robots.status === 200 ? robots.body : null,
      aliases: (this.config.aliases ?? []).map((name) => ({ name, seed: `http://${name}:${this.port}/` })),
    };
  }

  /** Stops timers and streams; the caller closes the server and its sockets. */
  stop(): void {
    this.closing = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  private cancel(t: NodeJS.Timeout | undefined): void {
    if (t === undefined) return;
    clearTimeout(t);
    this.timers.delete(t);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const at = this.now();
    const arrival: DemoArrival = {
      host: this.config.name,
      path: req.url ?? '/',
      method: req.method ?? 'GET',
      userAgent: req.headers['user-agent'] ?? '',
      at,
      status: 0,
    };
    this.arrivals.push(arrival);
    this.inFlight++;
    if (this.inFlight > this.inFlightMax) this.inFlightMax = this.inFlight;

    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    // The request leaves the books when the server has handed over its last byte (before the client can
    // see it), or when the connection goes away first.
    const finish = (aborted: boolean): void => {
      if (ended) return;
      ended = true;
      arrival.endedAt = this.now();
      if (aborted) arrival.aborted = true;
      this.inFlight--;
    };
    res.on('close', () => {
      this.cancel(timer);
      finish(true);
    });

    const reply = this.decide(req, at);
    if (reply.kind === 'hang') return;
    arrival.status = reply.kind === 'body' ? reply.status : 200;
    const retryAfter = reply.kind === 'body' ? reply.headers['Retry-After'] : undefined;
    if (retryAfter !== undefined) arrival.retryAfter = retryAfter;

    const send = (): void => {
      if (this.closing || res.destroyed) return;
      if (reply.kind === 'body') {
        res.writeHead(reply.status, {
          Date: new Date(this.now()).toUTCString(),
          'Content-Length': String(Buffer.byteLength(reply.body)),
          ...reply.headers,
        });
        finish(false);
        res.end(req.method === 'HEAD' ? undefined : reply.body);
      } else {
        this.stream(req, res, reply.page, finish, (t) => (timer = t));
      }
    };
    const delay = this.nextLatency();
    if (delay > 0) timer = this.later(delay, send);
    else send();
  }

  /** What to answer, decided when the request arrives (as a real rate limiter does). */
  private decide(req: http.IncomingMessage, at: number): Reply {
    if (req.method !== 'GET' && req.method !== 'HEAD') return errorPage(405, { Allow: 'GET, HEAD' });
    const pathname = pathOf(req.url ?? '/');

    // Not counted, never failed on purpose: robots.txt, the sitemap, hanging paths.
    if (pathname === '/robots.txt') {
      const robots = renderRobotsTxt(this.config, this.origin);
      if (robots.status === 200) {
        return {
          kind: 'body',
          status: 200,
          headers: { 'Content-Type': 'text/plain; charset=utf-8' },
          body: robots.body,
        };
      }
      return errorPage(robots.status);
    }
    if (pathname === '/sitemap.xml' && this.config.sitemap) {
      return {
        kind: 'body',
        status: 200,
        headers: { 'Content-Type': 'application/xml; charset=utf-8' },
        body: renderSitemap(this.site, this.origin),
      };
    }
    if (this.config.hangPaths?.includes(pathname)) return { kind: 'hang' };

    const refused = this.unavailable(at) ?? this.tooManyRequests(at);
    if (refused) return refused;

    const index = pageIndexOf(pathname, this.site.pageCount);
    if (index !== undefined) {
      return html(200, renderPage(this.site, index, { origin: this.origin, baseUrlOf: this.baseUrlOf }));
    }
    const chain = this.config.redirectChain ?? [];
    const hop = chain.indexOf(pathname);
    if (hop >= 0 && hop < chain.length - 1) {
      const target = chain[hop + 1] as string;
      // Absolute and relative Location values in turn.
      const location = hop % 2 === 0 ? this.origin + target : target;
      const status = REDIRECT_STATUSES[hop % REDIRECT_STATUSES.length] as number;
      return html(status, renderStatusPage(status, `Moved to ${target}`), { Location: location });
    }
    if (pathname === PRIVATE_PREFIX.slice(0, -1) || pathname.startsWith(PRIVATE_PREFIX)) {
      return html(200, renderPrivatePage(this.site, pathname));
    }
    if (this.config.bigPage && pathname === this.config.bigPage.path)
      return { kind: 'stream', page: this.config.bigPage };
    return errorPage(404);
  }

  private retryAfter(form: RetryAfterForm, nth: number, at: number, ms: number): string {
    const resolved = form === 'alternate' ? (nth % 2 === 1 ? 'seconds' : 'http-date') : form;
    return retryAfterValue(resolved, at, ms);
  }

  private unavailable(at: number): Reply | undefined {
    const u = this.config.unavailable;
    if (!u) return undefined;
    if (at >= this.outageUntil) {
      this.served++;
      if (this.served < this.nextOutageAt) return undefined;
      this.outageUntil = at + Math.max(1, u.forMs);
      this.nextOutageAt =
        u.repeatEvery !== undefined && u.repeatEvery >= 1 ? this.served + Math.floor(u.repeatEvery) : Infinity;
    }
    const form = u.retryAfterForm ?? 'seconds';
    if (form === 'none') return errorPage(503);
    this.outageCount++;
    return errorPage(503, { 'Retry-After': this.retryAfter(form, this.outageCount, at, this.outageUntil - at) });
  }

  private tooManyRequests(at: number): Reply | undefined {
    const t = this.config.tooManyRequests;
    if (!t) return undefined;
    this.limiterCount++;
    const previous = this.lastLimiterAt;
    this.lastLimiterAt = at;
    const tooSoon = t.minIntervalMs !== undefined && previous !== undefined && at - previous < t.minIntervalMs;
    const nth = t.every !== undefined && t.every >= 2 && this.limiterCount % Math.floor(t.every) === 0;
    if (!tooSoon && !nth) return undefined;
    this.tooManyCount++;
    const value = this.retryAfter(
      t.retryAfterForm ?? 'seconds',
      this.tooManyCount,
      at,
      Math.max(1, t.retryAfterSeconds) * 1000,
    );
    return errorPage(429, { 'Retry-After': value });
  }

  private stream(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    page: BigPageConfig,
    finish: (aborted: boolean) => void,
    setTimer: (t: NodeJS.Timeout | undefined) => void,
  ): void {
    const head =
      '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
      `<title>${escapeHtml(this.config.name)} · big page</title>\n</head>\n<body>\n<p><a href="/">home</a></p>\n<p>`;
    const tail = '</p>\n</body>\n</html>\n';
    const endless = !Number.isFinite(page.bytes);
    const fillerTotal = endless
      ? Infinity
      : Math.max(0, Math.floor(page.bytes) - Buffer.byteLength(head) - Buffer.byteLength(tail));
    const chunkBytes = Math.max(1, Math.floor(page.chunkBytes ?? 64 * 1024));
    const interval = Math.max(0, page.chunkIntervalMs ?? 5);
    const filler = 'all work and no play makes a crawler a dull crawler. '.repeat(Math.ceil(chunkBytes / 53) + 1);

    const headers: Record<string, string> = { Date: new Date(this.now()).toUTCString(), 'Content-Type': HTML };
    if (!endless) headers['Content-Length'] = String(Buffer.byteLength(head) + fillerTotal + Buffer.byteLength(tail));
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      finish(false);
      res.end();
      return;
    }
    res.write(head);
    let sent = 0;
    const step = (): void => {
      setTimer(undefined);
      if (this.closing || res.destroyed) return;
      if (sent >= fillerTotal) {
        finish(false);
        res.end(tail);
        return;
      }
      const n = Math.min(chunkBytes, fillerTotal - sent);
      sent += n;
      const next = (): void => setTimer(this.later(interval, step));
      if (res.write(filler.slice(0, n))) next();
      else res.once('drain', next);
    };
    step();
  }
}

function pathOf(target: string): string {
  let path = target;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      path = '/';
    }
  }
  const cut = path.search(/[?#]/);
  return cut >= 0 ? path.slice(0, cut) : path;
}

function listen(server: http.Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port, exclusive: true });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      server.closeAllConnections();
      resolve();
      return;
    }
    server.close(() => resolve());
    // Ends keep-alive, in-flight and hanging requests alike.
    server.closeAllConnections();
  });
}

function isAddressUnavailable(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EADDRNOTAVAIL' || code === 'EINVAL';
}

/**
 * Starts the demo hosts (default: `defaultDemoConfig()`), each a node:http server on loopback, and resolves
 * once all of them listen. On failure the ones already started are closed before the promise rejects.
 */
export async function startDemoHosts(config: DemoConfig = defaultDemoConfig()): Promise<DemoHosts> {
  const hostConfigs = config.hosts ?? defaultDemoConfig().hosts ?? [];
  const names = hostConfigs.map((h) => h.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate !== undefined) throw new Error(`demo hosts: the name "${duplicate}" is used twice`);
  const badHostname = hostConfigs.find((h) => h.hostname !== undefined && !HOSTNAME.test(h.hostname));
  if (badHostname)
    throw new Error(`demo hosts: "${badHostname.hostname}" (host ${badHostname.name}) is not a host name`);
  const basePort = config.basePort ?? 0;
  if (!Number.isInteger(basePort) || basePort < 0 || basePort + Math.max(0, hostConfigs.length - 1) > 65535) {
    throw new RangeError(
      `demo hosts: basePort must be an integer from 0 to ${65535 - Math.max(0, hostConfigs.length - 1)}`,
    );
  }
  const firstAddress = config.firstAddress ?? DEMO_FIRST_ADDRESS;
  if (!Number.isInteger(firstAddress) || firstAddress < 1 || firstAddress + hostConfigs.length - 1 > 254) {
    throw new RangeError('demo hosts: firstAddress must leave room for every host in 127.0.0.1–254');
  }

  const byName = new Map<string, DemoHostRuntime>();
  const baseUrlOf = (name: string): string | undefined => {
    const r = byName.get(name);
    return r && r.origin ? `${r.origin}/` : undefined;
  };
  const runtimes = hostConfigs.map((h, i) => {
    const r = new DemoHostRuntime(
      h,
      names.filter((n) => n !== h.name),
      i,
      baseUrlOf,
      config.now ?? Date.now,
    );
    byName.set(h.name, r);
    return r;
  });

  let addressing: 'distinct' | 'single' = config.addressing === 'single' ? 'single' : 'distinct';
  const bind = async (r: DemoHostRuntime, i: number): Promise<void> => {
    const host = addressing === 'distinct' ? `127.0.0.${firstAddress + i}` : '127.0.0.1';
    const port = basePort === 0 ? 0 : addressing === 'distinct' ? basePort : basePort + i;
    const address = await listen(r.server, host, port);
    r.address = address.address;
    r.port = address.port;
    r.origin = `http://${r.config.hostname ?? address.address}:${address.port}`;
  };
  try {
    for (const [i, r] of runtimes.entries()) {
      try {
        await bind(r, i);
      } catch (err) {
        // macOS routes only 127.0.0.1: fall back to one address with a port per host.
        if (
          i === 0 &&
          addressing === 'distinct' &&
          (config.addressing ?? 'auto') === 'auto' &&
          isAddressUnavailable(err)
        ) {
          addressing = 'single';
          await bind(r, i);
        } else {
          throw err;
        }
      }
    }
  } catch (err) {
    for (const r of runtimes) r.stop();
    await Promise.all(runtimes.map((r) => closeServer(r.server)));
    throw err;
  }

  const find = (host: string): DemoHostRuntime => {
    const r = byName.get(host) ?? runtimes.find((x) => x.origin === host || `${x.origin}/` === host);
    if (!r) throw new Error(`demo hosts: no host named "${host}" (have: ${names.join(', ')})`);
    return r;
  };
  let closed: Promise<void> | undefined;
  return {
    hosts: runtimes.map((r) => r.info()),
    addressing,
    arrivals(host?: string): DemoArrival[] {
      if (host !== undefined) return find(host).arrivals.map((a) => ({ ...a }));
      return runtimes
        .flatMap((r) => r.arrivals)
        .sort((a, b) => a.at - b.at)
        .map((a) => ({ ...a }));
    },
    inFlightMax(host: string): number {
      return find(host).inFlightMax;
    },
    close(): Promise<void> {
      if (closed === undefined) {
        for (const r of runtimes) r.stop();
        closed = Promise.all(runtimes.map((r) => closeServer(r.server))).then(() => undefined);
      }
      return closed;
    },
  };
}
