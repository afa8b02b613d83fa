/**
 * How a crawl is paced, by default and within which limits: the per-host delay and how it is measured,
 * Crawl-delay's cap and what to do above it, the adaptive rule, and requests in flight per host and over
 * all hosts. One table for the plan, the test crawl, the engine and the extension's settings, which all
 * take these defaults from here (package.json repeats them; test/unit/manifest.test.ts holds them equal).
 */
import type { NumberLimit } from '../limits';
import type { CrawlDelayPolicy, DelayFrom } from './interval';

export const PACING_DEFAULTS: {
  /** Seconds between two requests to one host. */
  readonly delaySeconds: number;
  readonly delayFrom: DelayFrom;
  readonly crawlDelayPolicy: CrawlDelayPolicy;
  /** The Crawl-delay cap (seconds): above it `cap` uses the cap and `skip` leaves the host out. */
  readonly maxCrawlDelaySeconds: number;
  /** The adaptive rule max(1 s, 10 × latency) as a floor on each host's interval. */
  readonly adaptive: boolean;
  /** Requests in flight per host; more is an instantaneous burst, allowed and warned about. */
  readonly perHostConcurrency: number;
  /** Requests in flight at once over all hosts (the plan's `workers`). */
  readonly concurrency: number;
} = {
  delaySeconds: 1,
  delayFrom: 'start',
  crawlDelayPolicy: 'cap',
  maxCrawlDelaySeconds: 30,
  adaptive: false,
  perHostConcurrency: 1,
  concurrency: 8,
};

/** The limits every adapter shares for the two pacing numbers a user sets in seconds. */
export const PACING_LIMITS = {
  /** Up to a day between two requests to one host. */
  delaySeconds: { min: 0, max: 86_400 },
  maxCrawlDelaySeconds: { min: 0, max: 86_400 },
} as const satisfies Record<string, NumberLimit>;

/**
 * The crawl's own time per request, beyond the politeness interval and the server's answer: what the plan
 * adds to every gap between two request starts on a host, and the simulation's clock adds to its waits.
 * Measured on loopback with the real crawl (`npm run bench -- simulation`, "Per-request overhead";
 * docs/benchmarks.md): a host with no latency crawled at a 50 ms delay (start-to-start minus the delay), and
 * at 0 s delay (start-to-start minus the answer time), 200 pages each, the median of 5 runs.
 */
export const REQUEST_OVERHEAD: {
  /** A request that waits for its host's interval starts this much after the interval is over (timer lateness, and the request reaching its connection, which the next interval counts from). */
  readonly afterIntervalSeconds: number;
  /** A request that waits for the previous answer starts this much after it arrived (the engine's work on the answer). */
  readonly afterResponseSeconds: number;
} = {
  afterIntervalSeconds: 0.0013,
  afterResponseSeconds: 0.00005,
};
