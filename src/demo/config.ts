/**
 * Configuration of the built-in demo hosts: plain data (JSON-friendly apart from `Infinity` for an endless
 * page), so that the CLI, the extension and tests can build or tweak a demo set.
 */

/** Time to first byte, drawn per request from a deterministic PRNG (in request order). */
export type LatencyConfig =
  | { kind: 'none' }
  | { kind: 'fixed'; ms: number }
  | { kind: 'uniform'; minMs: number; maxMs: number }
  /** Log-normal with this median and 99th percentile, cut at `maxMs` (default 3 × p99). */
  | { kind: 'long-tail'; medianMs: number; p99Ms: number; maxMs?: number };

/** How Retry-After is written: delta-seconds, an HTTP-date, or alternating (seconds first). */
export type RetryAfterForm = 'seconds' | 'http-date' | 'alternate';

/**
 * 429 Too Many Requests. Both rules may be set; either one triggers. Only "counted" requests take part:
 * everything except /robots.txt, /sitemap.xml and hanging paths.
 */
export interface TooManyRequestsConfig {
  /** Answer 429 to every Nth counted request (N ≥ 2). */
  every?: number;
  /**
   * A server-side rate limiter: answer 429 when a counted request arrives less than this many ms after the
   * previous counted arrival (rejected arrivals count too, as in a real limiter).
   */
  minIntervalMs?: number;
  /** The Retry-After value in seconds (≥ 1). */
  retryAfterSeconds: number;
  /** Default 'seconds'. */
  retryAfterForm?: RetryAfterForm;
}

/** 503 Service Unavailable for a while: an outage that starts at a given counted request. */
export interface UnavailableConfig {
  /** The burst starts with the counted request of this 1-based number (counting only requests served outside a burst). */
  atRequest: number;
  /** How long every counted request gets 503, from the arrival of the one that started the burst. */
  forMs: number;
  /** Retry-After carries the time left in the burst, rounded up to whole seconds; 'none' omits it. Default 'seconds'. */
  retryAfterForm?: RetryAfterForm | 'none';
  /** Start another burst after this many further served requests (default: only one burst). */
  repeatEvery?: number;
}

/** The robots.txt a host serves. `{origin}` in text is replaced by the host's origin (e.g. for Sitemap lines). */
export type RobotsTxtConfig =
  /** Generated: a `User-agent: *` group with these rules, then `extraGroups` verbatim, then a Sitemap line when the host has a sitemap. */
  | { kind: 'rules'; crawlDelay?: number; disallow?: string[]; allow?: string[]; extraGroups?: string }
  /** Served as written. */
  | { kind: 'text'; text: string }
  /** No robots.txt: this status (e.g. 404 = allow all, 500 = unreachable under RFC 9309). */
  | { kind: 'status'; status: number };

export interface LinkGraphConfig {
  /**
   * `tree`: page i links to its children i·f+1 … i·f+f, to its parent and home.
   * `ring`: page i links to page i+1 (mod n) and to f−1 other pages chosen by the PRNG.
   * Either way every page is reachable from the home page.
   */
  kind: 'tree' | 'ring';
  /** f ≥ 1. */
  fanOut: number;
}

/** A big or endless page, streamed in chunks, to exercise body caps and timeouts. */
export interface BigPageConfig {
  path: string;
  /** Total bytes of HTML; `Infinity` streams until the client goes away or the hosts close. */
  bytes: number;
  /** Default 64 KiB. */
  chunkBytes?: number;
  /** Pause between chunks (default 5 ms), so an endless page does not flood the loop. */
  chunkIntervalMs?: number;
}

export interface DemoHostConfig {
  /** A short name, also shown in listings: `fast`, `slow`, ... */
  name: string;
  /**
   * The name clients reach this host by, in its origin, links and seeds (e.g. `fast.localhost`), when
   * they resolve it to the host's loopback address themselves. Default: the address.
   */
  hostname?: string;
  /**
   * Other names for this host, on its address (e.g. `shop.fast.test`): not in DNS, so a crawl reaches them only
   * through the demo's own mapping (`--resolve NAME=ADDRESS`). They make two hosts on one server, for the
   * shared-address finding and `--politeness-by ip` (docs/how-it-works.md#politeness-units).
   */
  aliases?: string[];
  /** One line on what this host exercises. */
  description: string;
  /** Pages including the home page: `/` and `/page/1` … `/page/{pages−1}`. ≥ 1. */
  pages: number;
  /** Default `{ kind: 'ring', fanOut: 3 }`. */
  graph?: LinkGraphConfig;
  /** PRNG seed for the graph, the placement of extra links and the latency sequence. Default: from the name. */
  seed?: number;
  /** Default none. Applied to every response except hanging paths. */
  latency?: LatencyConfig;
  /** Default: `{ kind: 'rules' }` (allow all). */
  robotsTxt?: RobotsTxtConfig;
  /** Serve /sitemap.xml listing every page (and name it in generated robots.txt). */
  sitemap?: boolean;
  /** Seed paths for crawls of this host. Default `['/']`. */
  seeds?: string[];
  /** How many pages carry a link to another demo host's home page (round-robin over the others). */
  crossHostLinks?: number;
  /** How many pages carry a link into /private/ (served 200 with a "you should not be here" page). */
  privateLinks?: number;
  /** How many pages carry a link to a /missing/… path (404). */
  brokenLinks?: number;
  /**
   * A redirect chain linked from the home page: each path redirects to the next (301, 302, 307, 308 in
   * turn), the last entry is the final target, e.g. `['/old', '/older', '/page/3']`.
   */
  redirectChain?: string[];
  /** Paths that never answer (linked from the home page); close() still ends them. */
  hangPaths?: string[];
  /** A big or endless page linked from the home page. */
  bigPage?: BigPageConfig;
  tooManyRequests?: TooManyRequestsConfig;
  unavailable?: UnavailableConfig;
}

/**
 * - `distinct`: each host on its own loopback address 127.0.0.x (x = firstAddress + index), all on the same
 *   port when `basePort` is fixed. Linux and Windows route all of 127.0.0.0/8; macOS only 127.0.0.1.
 * - `single`: every host on 127.0.0.1, port basePort + index (or an ephemeral port each).
 * - `auto` (default): `distinct` when 127.0.0.x can be bound, else `single`.
 */
export type DemoAddressing = 'auto' | 'distinct' | 'single';

export interface DemoConfig {
  hosts?: DemoHostConfig[];
  addressing?: DemoAddressing;
  /** 0 (default) = an ephemeral port per host, for tests. A fixed port makes the URLs stable for `--serve`. */
  basePort?: number;
  /** The last octet of the first host's address in `distinct` mode (default {@link DEMO_FIRST_ADDRESS}: 127.0.0.11, .12, …). */
  firstAddress?: number;
  /**
   * The clock for arrival times, the Date header and every decision that depends on time (the 429
   * limiter, 503 bursts, Retry-After dates). Default `Date.now`. Tests pass a fake one to step over a
   * Retry-After without sleeping; latency and streaming still use real timers.
   */
  now?: () => number;
}

/** A port for `crawl-planner demo --serve`, so that the demo URLs stay the same between runs. */
export const DEMO_SERVE_PORT = 8470;

/** The last octet of the first demo host's address in `distinct` mode (127.0.0.11, .12, …). */
export const DEMO_FIRST_ADDRESS = 11;

/**
 * The hosts (`host:port`) the default demo set listens on with a fixed `port` (`crawl-planner demo --serve`,
 * Start Demo Hosts), in either addressing mode: seeds on them are local on purpose.
 */
export function demoServeHosts(port = DEMO_SERVE_PORT): string[] {
  const count = defaultDemoConfig().hosts?.length ?? 0;
  return Array.from({ length: count }, (_, i) => [
    `127.0.0.${DEMO_FIRST_ADDRESS + i}:${port}`,
    `127.0.0.1:${port + i}`,
  ]).flat();
}

/**
 * The default demo set: five hosts, 92 pages in all, built so that a polite crawl with a 1 s interval and
 * max 60 pages ends in about 15–40 s. Every host exercises one thing a polite crawler must get right.
 */
export function defaultDemoConfig(): DemoConfig {
  return {
    addressing: 'auto',
    basePort: 0,
    hosts: [
      {
        name: 'fast',
        description:
          'answers in 5–30 ms; a redirect chain, broken links, a 4 MiB page, a sitemap, a robots.txt group for another bot',
        pages: 30,
        graph: { kind: 'ring', fanOut: 4 },
        seed: 1,
        latency: { kind: 'uniform', minMs: 5, maxMs: 30 },
        robotsTxt: { kind: 'rules', allow: ['/'], extraGroups: 'User-agent: BadBot\nDisallow: /\n' },
        sitemap: true,
        crossHostLinks: 3,
        brokenLinks: 2,
        redirectChain: ['/old', '/older', '/page/7'],
        bigPage: { path: '/big', bytes: 4 * 1024 * 1024 },
        aliases: ['shop.fast.test'],
      },
      {
        name: 'slow',
        description: 'long-tail latency (median 400 ms, p99 2.5 s) and a path that never answers (/hang)',
        pages: 12,
        graph: { kind: 'tree', fanOut: 3 },
        seed: 2,
        latency: { kind: 'long-tail', medianMs: 400, p99Ms: 2500, maxMs: 3000 },
        robotsTxt: { kind: 'rules', disallow: [] },
        crossHostLinks: 1,
        hangPaths: ['/hang'],
      },
      {
        name: 'polite',
        description:
          'robots.txt with Crawl-delay: 2 and Disallow: /private; links into /private/ and a disallowed seed',
        pages: 15,
        graph: { kind: 'tree', fanOut: 3 },
        seed: 3,
        latency: { kind: 'fixed', ms: 20 },
        robotsTxt: { kind: 'rules', crawlDelay: 2, disallow: ['/private'] },
        sitemap: true,
        seeds: ['/', '/private/'],
        crossHostLinks: 1,
        privateLinks: 4,
      },
      {
        name: 'limited',
        description:
          'rate limiter: 429 when requests come < 1.5 s apart, and every 9th; Retry-After: 2 in seconds and HTTP-date forms',
        pages: 20,
        graph: { kind: 'ring', fanOut: 3 },
        seed: 4,
        latency: { kind: 'uniform', minMs: 10, maxMs: 50 },
        robotsTxt: { kind: 'rules', disallow: [] },
        crossHostLinks: 1,
        tooManyRequests: { minIntervalMs: 1500, every: 9, retryAfterSeconds: 2, retryAfterForm: 'alternate' },
      },
      {
        name: 'flaky',
        description:
          'no robots.txt (404: allow all); 503 for 3 s from the 4th request and again every 8 served, with Retry-After',
        pages: 15,
        graph: { kind: 'ring', fanOut: 3 },
        seed: 5,
        latency: { kind: 'uniform', minMs: 10, maxMs: 80 },
        robotsTxt: { kind: 'status', status: 404 },
        crossHostLinks: 1,
        brokenLinks: 1,
        unavailable: { atRequest: 4, forMs: 3000, retryAfterForm: 'seconds', repeatEvery: 8 },
      },
    ],
  };
}
