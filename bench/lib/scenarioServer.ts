/**
 * The fidelity bench's scenario hosts (fidelityScenarios.ts), served on loopback with Node's http: each host on
 * its own address 127.0.0.N (or its own port on 127.0.0.1 where those cannot be bound), with its site, its
 * answer times and its mechanisms. Everything a request meets is decided when it arrives, from the host's state
 * and the time: the limiter from the arrivals so far, the 503 windows from the clock, the answer time, a hang
 * and a random 5xx from the host's random streams. `reset(seed)` starts a new run on the same addresses and
 * ports (so a calibration keyed by host matches): fresh limiters and windows, streams from the new seed, an
 * empty log. The bench gives the test crawl and the full crawl different seeds, so the plan is judged on a run
 * whose draws it has not seen.
 *
 * Reusable: `startScenarioHosts(scenario.hosts)` serves any host specs, for an integration test as for the bench.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { deriveSeed, mulberry32 } from '../../src/core/random';
import type { LatencyShape, LimiterSpec, OutageSpec, RetryAfterChoice, ScenarioHostSpec } from './fidelityScenarios';

/** What one request met, as the server decided it. */
export type ArrivalKind =
  'robots' | 'page' | 'missing' | 'redirect' | 'private' | 'limited' | 'outage' | 'error' | 'hang' | 'not-found';

export interface Arrival {
  /** Epoch ms (sub-ms resolution) the request arrived. */
  at: number;
  path: string;
  kind: ArrivalKind;
  /** The status answered; null for a hang. */
  status: number | null;
}

export interface ServedHost {
  name: string;
  /** `http://127.0.0.21:40123` */
  origin: string;
  /** `127.0.0.21:40123`: the host as the crawl, its report and the plan name it. */
  host: string;
  /** The crawl's seed: the home page. */
  seed: string;
}

export interface ScenarioHosts {
  hosts: ServedHost[];
  /** A new run: limiters and 503 windows start afresh, random streams from `seed`, the log is emptied. */
  reset(seed: number): void;
  /** Each host's arrivals since the last reset, in order. */
  log(): Record<string, Arrival[]>;
  /** Ends every hanging request and stops listening. */
  close(): Promise<void>;
}

export interface ScenarioServerOptions {
  /** The last octet of the first host's address (127.0.0.N, N + 1, …). Default 21. */
  firstAddress?: number;
  /** The first run's seed (`reset` gives another). Default 1. */
  seed?: number;
}

/** Epoch milliseconds with sub-millisecond resolution. */
const now = (): number => performance.timeOrigin + performance.now();

/** How long a refusal (limiter or 503 window) takes to answer, ms: a front end's quick reply. */
const REFUSAL_MS = 2;

/** robots.txt answers in this, ms: a static file. */
const ROBOTS_MS = 3;

type Random = () => number;

function latencySampler(l: LatencyShape, r: Random): () => number {
  switch (l.kind) {
    case 'uniform':
      return () => l.minMs + r() * (l.maxMs - l.minMs);
    case 'lognormal':
      return () => {
        // Box-Muller; 1 − r() is in (0, 1], so the log is finite.
        const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
        return Math.min(l.maxMs, l.medianMs * Math.exp(l.sigma * z));
      };
    case 'bimodal':
      return () => {
        const mode = r() < l.slowShare ? l.slow : l.fast;
        return Math.min(l.maxMs, mode.minMs + r() * (mode.maxMs - mode.minMs));
      };
  }
}

/** A limiter's state for one run: `admit(t)` (t in ms) is true when the request at `t` passes. */
export function limiterState(spec: LimiterSpec): { admit(t: number): boolean } {
  if (spec.kind === 'min-interval') {
    let last: number | undefined;
    return {
      admit(t) {
        const ok = last === undefined || t - last >= spec.intervalMs;
        if (ok || spec.since === 'any') last = t;
        return ok;
      },
    };
  }
  let tokens = spec.burst;
  let at: number | undefined;
  return {
    admit(t) {
      if (at !== undefined) tokens = Math.min(spec.burst, tokens + ((t - at) / 1000) * spec.ratePerSecond);
      at = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/**
 * The 503 windows of one run, drawn lazily from `r` from the first call on (the host's first request):
 * `leftMs(t)` is the time left in the window `t` falls in, 0 outside one. Calls come in time order.
 */
export function outageState(spec: OutageSpec, r: Random): { leftMs(t: number): number } {
  const exp = (mean: number): number => -mean * Math.log(1 - r());
  let start: number | undefined;
  let end = 0;
  return {
    leftMs(t) {
      if (start === undefined) {
        start = t + exp(spec.meanGapMs);
        end = start + spec.minDurationMs + r() * (spec.maxDurationMs - spec.minDurationMs);
      }
      while (t >= end) {
        start = end + exp(spec.meanGapMs);
        end = start + spec.minDurationMs + r() * (spec.maxDurationMs - spec.minDurationMs);
      }
      return t >= start ? end - t : 0;
    },
  };
}

function retryAfterHeader(ra: RetryAfterChoice, t: number): string | undefined {
  if (ra.form === 'none') return undefined;
  if (ra.form === 'seconds') return String(ra.seconds);
  // Whole seconds, as an HTTP-date is: the Date header of the same answer is `t` cut to its second.
  return new Date(Math.floor(t / 1000) * 1000 + ra.seconds * 1000).toUTCString();
}

/** The links of each page: the tree, then 404s, redirects and disallowed links placed at random (from `seed`). */
function siteLinks(spec: ScenarioHostSpec, seed: number): string[][] {
  const n = Math.max(1, spec.pages);
  const pagePath = (i: number): string => (i === 0 ? '/' : `/page/${i}`);
  const links = Array.from({ length: n }, (_, i) => {
    const out: string[] = [];
    for (let c = 1; c <= spec.fanOut; c++) if (i * spec.fanOut + c < n) out.push(pagePath(i * spec.fanOut + c));
    if (i > 0) out.push(pagePath(Math.floor((i - 1) / spec.fanOut)), '/');
    return out;
  });
  const r = mulberry32(deriveSeed(seed, `${spec.name} site`));
  const somePage = (): string[] => links[Math.floor(r() * n)]!;
  for (let k = 1; k <= spec.brokenLinks; k++) somePage().push(`/missing/${k}`);
  for (let k = 1; k <= spec.redirects; k++) somePage().push(`/moved/${k}`);
  for (let k = 1; k <= spec.privateLinks; k++) somePage().push(`/private/${k}`);
  return links;
}

/** Where `/moved/k` of a host leads (a page of the host, from `seed`), and with which status. */
function redirectTarget(spec: ScenarioHostSpec, seed: number, k: number): { status: number; location: string } {
  const r = mulberry32(deriveSeed(seed, `${spec.name} moved ${k}`));
  const page = 1 + Math.floor(r() * Math.max(1, spec.pages - 1));
  return {
    status: [301, 302, 307, 308][Math.floor(r() * 4)]!,
    location: spec.pages > 1 ? `/page/${page}` : '/',
  };
}

function html(title: string, links: readonly string[]): string {
  const items = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('\n');
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title></head>\n<body><h1>${title}</h1>\n<ul>\n${items}\n</ul></body></html>\n`;
}

function robotsTxt(spec: ScenarioHostSpec): string {
  const lines = ['User-agent: *'];
  if (spec.crawlDelaySeconds !== null) lines.push(`Crawl-delay: ${spec.crawlDelaySeconds}`);
  lines.push(spec.privateLinks > 0 ? 'Disallow: /private' : 'Disallow:');
  return `${lines.join('\n')}\n`;
}

/** One host's run state: its streams, limiter and windows, and its log. */
interface RunState {
  latency: () => number;
  hang: Random;
  error: Random;
  limiter: { admit(t: number): boolean } | null;
  outages: { leftMs(t: number): number } | null;
  log: Arrival[];
}

function runState(spec: ScenarioHostSpec, seed: number): RunState {
  const stream = (label: string): Random => mulberry32(deriveSeed(seed, `${spec.name} ${label}`));
  return {
    latency: latencySampler(spec.latency, stream('latency')),
    hang: stream('hang'),
    error: stream('error'),
    limiter: spec.limiter ? limiterState(spec.limiter) : null,
    outages: spec.outages ? outageState(spec.outages, stream('outages')) : null,
    log: [],
  };
}

/**
 * Serves `specs` on loopback, one address each from 127.0.0.{firstAddress}, falling back to ports of their own
 * on 127.0.0.1 when that address cannot be bound. The site's links come from `siteSeed` (the scenario's seed:
 * the same site in every run).
 */
export async function startScenarioHosts(
  specs: readonly ScenarioHostSpec[],
  siteSeed: number,
  options: ScenarioServerOptions = {},
): Promise<ScenarioHosts> {
  const first = options.firstAddress ?? 21;
  const servers: http.Server[] = [];
  /** Answers not yet sent (a hang, or waiting out its latency): ended by reset and close. */
  const open = new Set<http.ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const states: RunState[] = specs.map((s) => runState(s, options.seed ?? 1));
  const hosts: ServedHost[] = [];
  const links = specs.map((s) => siteLinks(s, siteSeed));

  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const handler =
    (index: number) =>
    (req: http.IncomingMessage, res: http.ServerResponse): void => {
      const spec = specs[index]!;
      const state = states[index]!;
      const t = now();
      const path = (req.url ?? '/').split('?')[0]!;
      const record = (kind: ArrivalKind, status: number | null): void => {
        state.log.push({ at: t, path, kind, status });
      };
      open.add(res);
      res.on('close', () => open.delete(res));
      const send = (
        ms: number,
        status: number,
        body: string,
        headers: Record<string, string> = {},
        type = 'text/html; charset=utf-8',
      ): void => {
        later(ms, () => {
          if (res.destroyed || res.writableEnded) return;
          res.writeHead(status, { 'content-type': type, ...headers });
          res.end(body);
        });
      };
      // The limiter sees every request, robots.txt included: it is what a front end in front of the site counts.
      const admitted = state.limiter?.admit(t) ?? true;
      // The windows' clock starts with the host's first request; robots.txt is served in any window.
      const left = state.outages?.leftMs(t) ?? 0;
      if (path === '/robots.txt') {
        // The host's first request: a limiter passes it, a 503 window has not started.
        record('robots', 200);
        send(ROBOTS_MS, 200, robotsTxt(spec), {}, 'text/plain; charset=utf-8');
        return;
      }
      if (!admitted) {
        const limiter = spec.limiter!;
        const ra = retryAfterHeader(limiter.retryAfter, t);
        record('limited', limiter.status);
        send(REFUSAL_MS, limiter.status, html(`${limiter.status}`, []), ra === undefined ? {} : { 'retry-after': ra });
        return;
      }
      if (left > 0) {
        record('outage', 503);
        const headers: Record<string, string> =
          spec.outages!.retryAfter === 'left' ? { 'retry-after': String(Math.ceil(left / 1000)) } : {};
        send(REFUSAL_MS, 503, html('503', []), headers);
        return;
      }
      if (spec.hangShare > 0 && state.hang() < spec.hangShare) {
        record('hang', null);
        return; // never answers: the client's timeout ends it, or reset/close does
      }
      const ms = state.latency();
      if (spec.errorShare > 0 && state.error() < spec.errorShare) {
        const status = state.error() < 0.5 ? 500 : 502;
        record('error', status);
        send(ms, status, html(`${status}`, []));
        return;
      }
      const page = /^\/(?:page\/([1-9][0-9]*))?$/.exec(path);
      const pageIndex = page ? (page[1] === undefined ? 0 : Number(page[1])) : -1;
      if (pageIndex >= 0 && pageIndex < spec.pages) {
        record('page', 200);
        send(ms, 200, html(`${spec.name} ${path}`, links[index]![pageIndex]!));
        return;
      }
      const moved = /^\/moved\/([1-9][0-9]*)$/.exec(path);
      if (moved && Number(moved[1]) <= spec.redirects) {
        const target = redirectTarget(spec, siteSeed, Number(moved[1]));
        record('redirect', target.status);
        send(ms, target.status, html('moved', [target.location]), { location: target.location });
        return;
      }
      if (/^\/private\/[1-9][0-9]*$/.test(path)) {
        record('private', 200);
        send(ms, 200, html('private', ['/']));
        return;
      }
      record(/^\/missing\//.test(path) ? 'missing' : 'not-found', 404);
      send(ms, 404, html('404', ['/']));
    };

  const listen = (server: http.Server, address: string): Promise<AddressInfo> =>
    new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      server.once('error', onError);
      server.listen(0, address, () => {
        server.off('error', onError);
        resolve(server.address() as AddressInfo);
      });
    });

  try {
    for (let i = 0; i < specs.length; i++) {
      const server = http.createServer(handler(i));
      servers.push(server);
      let address: AddressInfo;
      try {
        address = await listen(server, `127.0.0.${first + i}`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EADDRNOTAVAIL') throw err;
        address = await listen(server, '127.0.0.1');
      }
      const host = `${address.address}:${address.port}`;
      hosts.push({ name: specs[i]!.name, origin: `http://${host}`, host, seed: `http://${host}/` });
    }
  } catch (err) {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    throw err;
  }

  const endOpen = (): void => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    for (const res of open) res.destroy();
    open.clear();
  };

  return {
    hosts,
    reset(seed) {
      endOpen();
      for (let i = 0; i < specs.length; i++) states[i] = runState(specs[i]!, seed);
    },
    log() {
      return Object.fromEntries(specs.map((s, i) => [s.name, [...states[i]!.log]]));
    },
    async close() {
      endOpen();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
