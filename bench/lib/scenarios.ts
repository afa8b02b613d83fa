/**
 * The crawler bench's scenarios: sets of loopback demo hosts (src/demo) with the delay and global slots
 * every crawler gets. Each host is named `NAME.localhost` and its home page links to all of its pages, so
 * every page is known after the home page and the bound is reachable. Sizes are chosen so that a run takes
 * seconds (`quick`: fewer hosts and pages).
 */
import type { DemoHostConfig, LatencyConfig } from '../../src/demo';

export interface Scenario {
  id: string;
  title: string;
  /** The per-host delay in seconds, start to start. */
  delaySeconds: number;
  /** Global slots. */
  concurrency: number;
  /** The bound on one request (a hanging host waits this long per attempt). */
  timeoutSeconds: number;
  maxRetries: number;
  /** Whether the scenario has faults (efficiency is not a target there). */
  faults: boolean;
  hosts: DemoHostConfig[];
}

/** The top-level domain of the bench's host names (RFC 6761 keeps it for loopback; each peer resolves the names itself, see peers.ts). */
export const BENCH_TLD = 'localhost';
/** Link depth every crawler may follow: the home page links to every page, so 1 would do. */
export const BENCH_MAX_DEPTH = 3;

export interface HostOptions {
  pages: number;
  latency: LatencyConfig;
  description?: string;
}

/** A scenario host named `NAME.localhost` whose home page links to every page. */
export function host(name: string, o: HostOptions, extra: Partial<DemoHostConfig> = {}): DemoHostConfig {
  return {
    name,
    hostname: `${name}.${BENCH_TLD}`,
    description: o.description ?? '',
    pages: o.pages,
    // Home links every page; pages link back home.
    graph: { kind: 'tree', fanOut: Math.max(1, o.pages - 1) },
    latency: o.latency,
    robotsTxt: { kind: 'rules' },
    ...extra,
  };
}

const MIXED: LatencyConfig[] = [
  { kind: 'fixed', ms: 2 },
  { kind: 'uniform', minMs: 10, maxMs: 40 },
  { kind: 'uniform', minMs: 40, maxMs: 120 },
  { kind: 'long-tail', medianMs: 30, p99Ms: 180, maxMs: 220 },
];

function pad(i: number, width = 2): string {
  return String(i).padStart(width, '0');
}

export function crawlerScenarios(quick: boolean): Scenario[] {
  const base = { concurrency: 8, timeoutSeconds: quick ? 1 : 2, maxRetries: 2, faults: false };

  const mixedHosts = quick ? 6 : 12;
  const mixedPages = quick ? 8 : 12;
  const mixed: Scenario = {
    ...base,
    id: 'mixed',
    title: `${mixedHosts} hosts × ${mixedPages} pages, mixed latencies (2 ms to a long tail)`,
    delaySeconds: 0.25,
    hosts: Array.from({ length: mixedHosts }, (_, i) =>
      host(`m${pad(i + 1)}`, { pages: mixedPages, latency: MIXED[i % MIXED.length]! }),
    ),
  };

  const cdPages = quick ? 6 : 10;
  const crawlDelay: Scenario = {
    ...base,
    id: 'crawl-delay',
    title: `${mixedHosts} hosts × ${cdPages} pages, mixed latencies; every other host Crawl-delay: 0.5, every third Disallow: /private`,
    delaySeconds: 0.25,
    hosts: Array.from({ length: mixedHosts }, (_, i) =>
      host(
        `c${pad(i + 1)}`,
        { pages: cdPages, latency: MIXED[i % MIXED.length]! },
        {
          robotsTxt: {
            kind: 'rules',
            ...(i % 2 === 0 ? { crawlDelay: 0.5 } : {}),
            ...(i % 3 === 0 ? { disallow: ['/private'] } : {}),
          },
          ...(i % 3 === 0 ? { privateLinks: 3 } : {}),
        },
      ),
    ),
  };

  const faultPages = quick ? 6 : 8;
  const ok: HostOptions = { pages: faultPages, latency: { kind: 'uniform', minMs: 5, maxMs: 20 } };
  const faults: Scenario = {
    ...base,
    id: 'faults',
    faults: true,
    title: `faults: 429 + Retry-After, 503 bursts with and without Retry-After, a hanging host, robots.txt 503 (${faultPages} pages each, ${base.timeoutSeconds} s timeout)`,
    delaySeconds: 0.25,
    hosts: [
      host('ok1', ok),
      host('ok2', ok),
      host('limited', ok, { tooManyRequests: { every: 3, retryAfterSeconds: 2 } }),
      host('flaky', ok, { unavailable: { atRequest: 3, forMs: 1000, retryAfterForm: 'seconds', repeatEvery: 4 } }),
      host('down', ok, { unavailable: { atRequest: 2, forMs: 1500, retryAfterForm: 'none' } }),
      host('hang', ok, { hangPaths: ['/'] }),
      host('robots503', ok, { robotsTxt: { kind: 'status', status: 503 } }),
    ],
  };

  const manyHosts = quick ? 40 : 100;
  const manyPages = quick ? 6 : 10;
  const many: Scenario = {
    ...base,
    id: 'many-hosts',
    title: `${manyHosts} hosts × ${manyPages} pages, 8 global slots, 5–25 ms`,
    delaySeconds: 0.3,
    hosts: Array.from({ length: manyHosts }, (_, i) =>
      host(`h${pad(i + 1, 3)}`, { pages: manyPages, latency: { kind: 'uniform', minMs: 5, maxMs: 25 } }),
    ),
  };

  const slowPages = quick ? 8 : 12;
  const fastHosts = quick ? 4 : 8;
  const slowHost: Scenario = {
    ...base,
    id: 'slow-host',
    title: `${fastHosts} hosts at 30 ms and one at 300 ms (10× slower, above the delay), ${slowPages} pages each`,
    delaySeconds: 0.25,
    hosts: [
      ...Array.from({ length: fastHosts }, (_, i) =>
        host(`f${pad(i + 1)}`, { pages: slowPages, latency: { kind: 'fixed', ms: 30 } }),
      ),
      host('slow', { pages: slowPages, latency: { kind: 'fixed', ms: 300 } }),
    ],
  };

  return [mixed, crawlDelay, faults, many, slowHost];
}
