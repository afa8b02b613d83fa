/**
 * The fidelity bench's scenarios (bench/sections/fidelity.ts): randomised sets of loopback hosts, drawn from
 * one seed, each host with its own answer times and a mix of mechanisms that a real server has, driven by the
 * requests' timing rather than by fixed periods: a rate limiter (a minimum interval or a token bucket, refusing
 * with 429 or 503, with or without Retry-After), windows of time in which the host answers 503, random 5xx,
 * requests that hang past the crawl's timeout, a Crawl-delay, and 404s, redirects and disallowed links among the
 * pages. Pure: plain data from a seed (the same seed gives the same scenarios); `scenarioServer.ts` serves them.
 *
 * The site of a host (its pages and links) is part of the scenario. What each request meets (answer times,
 * hangs, random errors, when the 503 windows fall) is drawn by the server from a seed of its own, which the
 * bench changes between the test crawl and the full crawl.
 */
import { deriveSeed, mulberry32 } from '../../src/core/random';

/** Time to first byte of an answer the host serves (not of a refusal), ms; at most `maxMs`. */
export type LatencyShape =
  | { kind: 'uniform'; minMs: number; maxMs: number }
  /** Log-normal with this median and shape (σ of the log), cut at `maxMs`. */
  | { kind: 'lognormal'; medianMs: number; sigma: number; maxMs: number }
  /** Most answers uniform in `fast`, a share `slowShare` uniform in `slow` (a cache miss, a cold back end). */
  | {
      kind: 'bimodal';
      fast: { minMs: number; maxMs: number };
      slow: { minMs: number; maxMs: number };
      slowShare: number;
      maxMs: number;
    };

/**
 * How a refusal says when to come back: no Retry-After, delta-seconds, or an HTTP-date `seconds` ahead of the
 * answer's Date header.
 */
export type RetryAfterChoice =
  { form: 'none' } | { form: 'seconds'; seconds: number } | { form: 'http-date'; seconds: number };

/**
 * A rate limiter in front of the host. Every request counts, robots.txt included (it is the host's first
 * request, so it is never refused).
 * - `min-interval`: refuses a request that comes less than `intervalMs` after the previous accepted request
 *   (`since: 'accepted'`, as nginx's `limit_req` without a burst) or after the previous request of any kind
 *   (`since: 'any'`, a refused one included: a limiter that a too-fast client keeps tripping).
 * - `token-bucket`: `burst` tokens, refilled at `ratePerSecond`; a request takes one or is refused.
 */
export type LimiterSpec =
  | {
      kind: 'min-interval';
      intervalMs: number;
      since: 'accepted' | 'any';
      status: 429 | 503;
      retryAfter: RetryAfterChoice;
    }
  | { kind: 'token-bucket'; ratePerSecond: number; burst: number; status: 429 | 503; retryAfter: RetryAfterChoice };

/**
 * Windows of time in which the host answers every page request 503: the first starts an exponentially
 * distributed time (mean `meanGapMs`) after the host's first request, each lasts a uniform time in
 * [minDurationMs, maxDurationMs], the next starts an exponential gap after its end. Retry-After carries the time
 * left in the window rounded up to whole seconds (`'left'`), or is left out.
 */
export interface OutageSpec {
  meanGapMs: number;
  minDurationMs: number;
  maxDurationMs: number;
  retryAfter: 'left' | 'none';
}

export interface ScenarioHostSpec {
  /** `h1`, `h2`, …: the host's name in tables and random streams (its address is the server's). */
  name: string;
  /** HTML pages: `/` and `/page/1` … `/page/{pages−1}`, all reachable from `/`. */
  pages: number;
  /** The test crawl's share of this host: its pages (with a global page budget, their sum). */
  testPages: number;
  /** Page i links to pages i·f+1 … i·f+f, to its parent and to `/`. */
  fanOut: number;
  latency: LatencyShape;
  limiter: LimiterSpec | null;
  outages: OutageSpec | null;
  /** The share of page requests answered 500 or 502 at random (a flaky back end), 0 for none. */
  errorShare: number;
  /** The share of page requests that never answer (the crawl's timeout ends them), 0 for none. */
  hangShare: number;
  /** `Crawl-delay` in robots.txt, seconds; null for none. */
  crawlDelaySeconds: number | null;
  /** Links to `/missing/k` (404), placed on pages at random. Each is a final answer: the crawl counts it as a page. */
  brokenLinks: number;
  /** Links to `/moved/k`, which redirect (301, 302, 307 or 308) to a page of the host: a request that is no page. */
  redirects: number;
  /** Links to `/private/k`, which robots.txt disallows: no request at all. */
  privateLinks: number;
}

export interface FidelityScenario {
  /** `s01`, `s02`, … */
  id: string;
  /** The scenario's seed: its site's links, and (× 2, × 2 + 1) the server's seeds of its two crawls. */
  seed: number;
  /** The crawl's `--delay`, start to start. */
  delaySeconds: number;
  /** Global slots (`crawl --concurrency`, `estimate --workers`). */
  concurrency: number;
  /** `crawl --timeout`: how long a hanging request holds its host. */
  timeoutSeconds: number;
  maxRetries: number;
  hosts: ScenarioHostSpec[];
}

/** The pages a complete crawl of a host counts: its HTML pages and its 404s (both final answers). */
export function crawlPages(host: ScenarioHostSpec): number {
  return host.pages + host.brokenLinks;
}

/** The server's seed for the test crawl (`'test'`) and for the full crawl (`'full'`): never the same sequence. */
export function serverSeed(scenario: FidelityScenario, crawl: 'test' | 'full'): number {
  return (scenario.seed * 2 + (crawl === 'test' ? 0 : 1)) >>> 0;
}

/** The bench's fixed seed, printed with its results (`--seed=N` draws another set). */
export const FIDELITY_SEED = 24;

export interface ScenarioSizes {
  /** How many scenarios. */
  count: number;
  /** Each host's full crawl is sized to take about this long at its plain pace, seconds (drawn uniformly). */
  hostSeconds: [number, number];
  /** Pages per host, at least and at most. */
  pages: [number, number];
  /** The test crawl's share of each host's pages, and its least pages per host. */
  testShare: number;
  testMinPages: number;
}

export const FIDELITY_SIZES: { full: ScenarioSizes; quick: ScenarioSizes } = {
  full: { count: 20, hostSeconds: [5, 12], pages: [12, 60], testShare: 0.25, testMinPages: 6 },
  quick: { count: 5, hostSeconds: [2, 4], pages: [6, 20], testShare: 0.3, testMinPages: 4 },
};

/** The crawl's timeout in every scenario, seconds: answers stay below it, a hang waits it out. */
export const FIDELITY_TIMEOUT_SECONDS = 1;

/** The longest answer a host draws, ms: under the timeout, with room. */
const MAX_LATENCY_MS = 600;

type Random = () => number;

const uniform = (r: Random, lo: number, hi: number): number => lo + r() * (hi - lo);
const int = (r: Random, lo: number, hi: number): number => Math.floor(uniform(r, lo, hi + 1));
const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const round = (x: number, step: number): number => Number((Math.round(x / step) * step).toFixed(3));
/** A round number for a table: ms to the nearest 5, seconds to 0.05, shares to 0.5%. */
const ms5 = (x: number): number => round(x, 5);

function drawLatency(r: Random): LatencyShape {
  switch (pick(r, ['uniform', 'lognormal', 'bimodal'] as const)) {
    case 'uniform': {
      const minMs = ms5(uniform(r, 5, 150));
      return { kind: 'uniform', minMs, maxMs: ms5(minMs + uniform(r, 10, 300)) };
    }
    case 'lognormal':
      return {
        kind: 'lognormal',
        medianMs: ms5(uniform(r, 10, 250)),
        sigma: round(uniform(r, 0.2, 0.8), 0.05),
        maxMs: MAX_LATENCY_MS,
      };
    case 'bimodal': {
      const fast = ms5(uniform(r, 5, 60));
      const slow = ms5(uniform(r, 200, 450));
      return {
        kind: 'bimodal',
        fast: { minMs: fast, maxMs: ms5(fast * 1.5 + 5) },
        slow: { minMs: slow, maxMs: Math.min(MAX_LATENCY_MS, ms5(slow * 1.3)) },
        slowShare: round(uniform(r, 0.05, 0.3), 0.01),
        maxMs: MAX_LATENCY_MS,
      };
    }
  }
}

/** The mean of a latency shape, ms (for sizing a host's site; the lognormal's cut ignored). */
export function meanLatencyMs(l: LatencyShape): number {
  switch (l.kind) {
    case 'uniform':
      return (l.minMs + l.maxMs) / 2;
    case 'lognormal':
      return Math.min(l.maxMs, l.medianMs * Math.exp((l.sigma * l.sigma) / 2));
    case 'bimodal':
      return (
        (1 - l.slowShare) * ((l.fast.minMs + l.fast.maxMs) / 2) + l.slowShare * ((l.slow.minMs + l.slow.maxMs) / 2)
      );
  }
}

function drawRetryAfter(r: Random): RetryAfterChoice {
  const x = r();
  if (x < 0.25) return { form: 'none' };
  if (x < 0.55) return { form: 'seconds', seconds: 1 };
  if (x < 0.8) return { form: 'seconds', seconds: 2 };
  return { form: 'http-date', seconds: pick(r, [1, 2]) };
}

/** A limiter that bites: its limit is above the host's plain step, so a crawl at that pace meets it. */
function drawLimiter(r: Random, stepSeconds: number): LimiterSpec {
  const status = r() < 0.7 ? 429 : 503;
  const retryAfter = drawRetryAfter(r);
  // The limit: 1.1 to 2.5 times the host's step, at most 1.5 s (above that a refused crawl backs off past it
  // at once and the limiter is seldom met again).
  const limitSeconds = Math.min(1.5, stepSeconds * uniform(r, 1.1, 2.5));
  if (r() < 0.5) {
    return {
      kind: 'min-interval',
      intervalMs: ms5(limitSeconds * 1000),
      since: r() < 0.6 ? 'accepted' : 'any',
      status,
      retryAfter,
    };
  }
  return {
    kind: 'token-bucket',
    ratePerSecond: round(1 / limitSeconds, 0.05),
    burst: pick(r, [2, 3, 5, 8]),
    status,
    retryAfter,
  };
}

function drawHost(r: Random, index: number, delaySeconds: number, sizes: ScenarioSizes): ScenarioHostSpec {
  const latency = drawLatency(r);
  const crawlDelaySeconds = r() < 0.3 ? round(uniform(r, 0.4, 1.0), 0.1) : null;
  const intervalSeconds = Math.max(delaySeconds, crawlDelaySeconds ?? 0);
  // The host's plain step: its interval, or its answer time when that is longer (one request at a time).
  const stepSeconds = Math.max(intervalSeconds, meanLatencyMs(latency) / 1000 + 0.002);
  const limiter = r() < 0.45 ? drawLimiter(r, stepSeconds) : null;
  // 503 windows: a down time of 2% to 5% of the crawl, in windows of 0.3 to 1.8 s. (The engine doubles a host's
  // interval on each fault and takes back 10% per success, so a fault share above about 13% makes the
  // interval grow to its 60 s cap: the windows, random 5xx and hangs together stay well below it.)
  const outages: OutageSpec | null =
    r() < 0.35
      ? (() => {
          const minDurationMs = ms5(uniform(r, 300, 1000));
          const maxDurationMs = ms5(minDurationMs + uniform(r, 200, 800));
          const downShare = uniform(r, 0.02, 0.05);
          const meanDurationMs = (minDurationMs + maxDurationMs) / 2;
          return {
            meanGapMs: ms5(meanDurationMs / downShare - meanDurationMs),
            minDurationMs,
            maxDurationMs,
            retryAfter: r() < 0.6 ? ('left' as const) : ('none' as const),
          };
        })()
      : null;
  const errorShare = r() < 0.2 ? round(uniform(r, 0.005, 0.025), 0.005) : 0;
  const hangShare = r() < 0.3 ? round(uniform(r, 0.005, 0.025), 0.005) : 0;
  // Sized by time: pages × the host's plain step.
  const pages = Math.max(
    sizes.pages[0],
    Math.min(sizes.pages[1], Math.round(uniform(r, ...sizes.hostSeconds) / stepSeconds)),
  );
  return {
    name: `h${index + 1}`,
    pages,
    testPages: Math.max(sizes.testMinPages, Math.round(pages * sizes.testShare)),
    fanOut: int(r, 2, 5),
    latency,
    limiter,
    outages,
    errorShare,
    hangShare,
    crawlDelaySeconds,
    brokenLinks: r() < 0.5 ? int(r, 1, 3) : 0,
    redirects: r() < 0.5 ? int(r, 1, 3) : 0,
    privateLinks: r() < 0.25 ? int(r, 1, 3) : 0,
  };
}

/**
 * `count` scenarios from `seed` (the same seed, the same scenarios): 2 to 6 hosts each, a delay of 0.1 to 0.3 s,
 * 8 global slots (never short: one request per host at a time), the timeout {@link FIDELITY_TIMEOUT_SECONDS} and
 * 2 retries.
 */
export function fidelityScenarios(seed: number, sizes: ScenarioSizes): FidelityScenario[] {
  return Array.from({ length: sizes.count }, (_, i) => {
    const scenarioSeed = deriveSeed(seed >>> 0, `scenario ${i + 1}`);
    const r = mulberry32(scenarioSeed);
    const delaySeconds = pick(r, [0.1, 0.15, 0.2, 0.25, 0.3]);
    const hostCount = int(r, 2, 6);
    return {
      id: `s${String(i + 1).padStart(2, '0')}`,
      seed: scenarioSeed,
      delaySeconds,
      concurrency: 8,
      timeoutSeconds: FIDELITY_TIMEOUT_SECONDS,
      maxRetries: 2,
      hosts: Array.from({ length: hostCount }, (_, h) => drawHost(r, h, delaySeconds, sizes)),
    };
  });
}

const pct = (share: number): string => `${(share * 100).toFixed(1).replace(/\.0$/, '')}%`;

function retryAfterText(ra: RetryAfterChoice): string {
  return ra.form === 'none' ? 'no RA' : ra.form === 'seconds' ? `RA ${ra.seconds}` : `RA date+${ra.seconds}s`;
}

/** Answer times: `uniform 20–180 ms`, `lognormal 80 ms σ 0.5`, `bimodal 20–35 / 300–390 ms (15%)`. */
export function latencyText(l: LatencyShape): string {
  switch (l.kind) {
    case 'uniform':
      return `uniform ${l.minMs}–${l.maxMs} ms`;
    case 'lognormal':
      return `lognormal ${l.medianMs} ms σ ${l.sigma}`;
    case 'bimodal':
      return `bimodal ${l.fast.minMs}–${l.fast.maxMs} / ${l.slow.minMs}–${l.slow.maxMs} ms (${pct(l.slowShare)})`;
  }
}

/** One line on a host's limiter, or `—`. */
export function limiterText(l: LimiterSpec | null): string {
  if (l === null) return '—';
  const what =
    l.kind === 'min-interval'
      ? `${l.status} under ${(l.intervalMs / 1000).toFixed(2)} s since ${l.since === 'accepted' ? 'last accepted' : 'any'}`
      : `${l.status} bucket ${l.ratePerSecond}/s burst ${l.burst}`;
  return `${what}, ${retryAfterText(l.retryAfter)}`;
}

/** One line on a host's 503 windows, or `—`. */
export function outageText(o: OutageSpec | null): string {
  if (o === null) return '—';
  return `every ~${(o.meanGapMs / 1000).toFixed(1)} s for ${(o.minDurationMs / 1000).toFixed(1)}–${(o.maxDurationMs / 1000).toFixed(1)} s, ${o.retryAfter === 'left' ? 'RA left' : 'no RA'}`;
}

/** The other mechanisms in one cell: `5xx 2% · hang 1.5% · Crawl-delay 0.6 · 404 ×2 · 3xx ×1 · disallowed ×2`. */
export function otherText(h: ScenarioHostSpec): string {
  const parts: string[] = [];
  if (h.errorShare > 0) parts.push(`5xx ${pct(h.errorShare)}`);
  if (h.hangShare > 0) parts.push(`hang ${pct(h.hangShare)}`);
  if (h.crawlDelaySeconds !== null) parts.push(`Crawl-delay ${h.crawlDelaySeconds}`);
  if (h.brokenLinks > 0) parts.push(`404 ×${h.brokenLinks}`);
  if (h.redirects > 0) parts.push(`3xx ×${h.redirects}`);
  if (h.privateLinks > 0) parts.push(`disallowed ×${h.privateLinks}`);
  return parts.length === 0 ? '—' : parts.join(' · ');
}
