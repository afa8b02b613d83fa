/**
 * The effective interval between request starts to one host: the one rule shared by the plan, the
 * robots.txt view and the crawl scheduler. The larger constraint always wins (seed: "take the most
 * restrictive applicable constraint"); Crawl-delay is a floor merged by max.
 */

/** How the delay is measured: start-to-start, or from the end of a response to the next start. */
export type DelayFrom = 'start' | 'end';

/** What to do with a Crawl-delay above the cap: use the cap, leave the host out, or obey it anyway. */
export type CrawlDelayPolicy = 'cap' | 'skip' | 'obey';

/** Where an interval came from. `latency` is set by the plan when the response time is longer than the interval. */
export const INTERVAL_SOURCES = ['configured', 'crawl-delay', 'adaptive', 'latency'] as const;
export type IntervalSource = (typeof INTERVAL_SOURCES)[number];

/** The adaptive rule from the seeds (Mercator): max(1 s, 10 × last latency). */
export const ADAPTIVE_FLOOR_SECONDS = 1;
export const ADAPTIVE_LATENCY_FACTOR = 10;

export function adaptiveDelaySeconds(latencySeconds: number): number {
  return Math.max(ADAPTIVE_FLOOR_SECONDS, ADAPTIVE_LATENCY_FACTOR * latencySeconds);
}

export interface IntervalInput {
  /** The configured per-host delay in seconds (≥ 0). */
  configuredSeconds: number;
  /** The host's Crawl-delay from robots.txt, already validated (finite, ≥ 0), or undefined when none. */
  crawlDelaySeconds?: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  /** The cap for Crawl-delay under the `cap` and `skip` policies. */
  maxCrawlDelaySeconds: number;
  /** When set, the adaptive rule max(1 s, 10 × latency) applies with this latency. */
  adaptiveLatencySeconds?: number;
}

export interface IntervalDecision {
  /** The interval in seconds; meaningless when `skipped`. */
  seconds: number;
  source: Exclude<IntervalSource, 'latency'>;
  /** True when the host is left out because its Crawl-delay is above the cap under the `skip` policy. */
  skipped: boolean;
  /** Set when a Crawl-delay above the cap was capped or caused a skip. */
  crawlDelayAboveCap?: { declaredSeconds: number; capSeconds: number };
}

/**
 * max(configured, Crawl-delay under the cap policy, adaptive). On a tie the configured delay is named
 * as the source: the user's own number already says it.
 */
export function effectiveInterval(input: IntervalInput): IntervalDecision {
  let seconds = input.configuredSeconds;
  let source: IntervalDecision['source'] = 'configured';
  let skipped = false;
  let crawlDelayAboveCap: IntervalDecision['crawlDelayAboveCap'];

  const declared = input.crawlDelaySeconds;
  if (declared !== undefined) {
    let applied = declared;
    if (declared > input.maxCrawlDelaySeconds && input.crawlDelayPolicy !== 'obey') {
      crawlDelayAboveCap = { declaredSeconds: declared, capSeconds: input.maxCrawlDelaySeconds };
      if (input.crawlDelayPolicy === 'skip') skipped = true;
      applied = input.maxCrawlDelaySeconds;
    }
    if (applied > seconds) {
      seconds = applied;
      source = 'crawl-delay';
    }
  }
  if (input.adaptiveLatencySeconds !== undefined) {
    const adaptive = adaptiveDelaySeconds(input.adaptiveLatencySeconds);
    if (adaptive > seconds) {
      seconds = adaptive;
      source = 'adaptive';
    }
  }
  return { seconds, source, skipped, ...(crawlDelayAboveCap ? { crawlDelayAboveCap } : {}) };
}

/**
 * Crawl-delays merged per host by max (a host's http and https origins, a value typed by hand and one from
 * robots.txt): the larger, more polite one is kept. Entries without a value (none declared) are skipped.
 * Adds to `into` and returns it.
 */
export function mergeCrawlDelaysByHost(
  entries: Iterable<readonly [host: string, seconds: number | null | undefined]>,
  into: Record<string, number> = {},
): Record<string, number> {
  for (const [host, seconds] of entries) {
    if (seconds === null || seconds === undefined) continue;
    into[host] = Math.max(into[host] ?? 0, seconds);
  }
  return into;
}
