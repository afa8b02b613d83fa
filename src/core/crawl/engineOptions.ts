/**
 * The engine's options: their defaults (CRAWL_DEFAULTS; the pacing ones are PACING_DEFAULTS), their limits
 * (CRAWL_LIMITS, checked with core/limits.ts), and resolveCrawlOptions, which the engine runs before
 * anything starts. The options themselves are declared in types.ts, with the rest of the engine's contract.
 */
import { numberProblem, rangeText, type NumberLimit } from '../limits';
import { PACING_DEFAULTS } from '../politeness/pacing';
import { BLOCK_REACTIONS } from './events';
import type { CrawlOptions, ResolvedCrawlOptions } from './types';

/**
 * The engine's defaults: the pacing every crawl shares (PACING_DEFAULTS), and the crawl's own. A test crawl
 * (SAMPLE_CRAWL_DEFAULTS) takes its pages, depth, retries and host scope from here, so a crawl is the same
 * size whichever adapter starts it.
 */
export const CRAWL_DEFAULTS = {
  concurrency: PACING_DEFAULTS.concurrency,
  perHostConcurrency: PACING_DEFAULTS.perHostConcurrency,
  delaySeconds: PACING_DEFAULTS.delaySeconds,
  delayFrom: PACING_DEFAULTS.delayFrom,
  crawlDelayPolicy: PACING_DEFAULTS.crawlDelayPolicy,
  maxCrawlDelaySeconds: PACING_DEFAULTS.maxCrawlDelaySeconds,
  adaptive: PACING_DEFAULTS.adaptive,
  maxPages: 50,
  maxDepth: 3,
  allowOtherHosts: false,
  followOtherHostRedirects: false,
  maxRedirects: 5,
  maxRetries: 2,
  backoffBaseMs: 1000,
  backoffCapMs: 60_000,
  retryAfterCapSeconds: 300,
  maxConsecutiveFailures: 5,
  rateIncreaseFactor: 2,
  rateRecoveryFactor: 0.9,
  maxRaisedIntervalSeconds: 60,
  onBlock: 'slow',
  graceMs: 5000,
  progressIntervalMs: 1000,
} as const satisfies Omit<ResolvedCrawlOptions, 'seeds' | 'clock' | 'random' | 'fetch' | 'startFetch'>;

/** The range of every number the engine takes (it refuses anything else with a RangeError). */
export const CRAWL_LIMITS = {
  concurrency: { min: 1, max: Infinity, integer: true },
  perHostConcurrency: { min: 1, max: Infinity, integer: true },
  delaySeconds: { min: 0, max: Infinity },
  maxCrawlDelaySeconds: { min: 0, max: Infinity },
  maxPages: { min: 0, max: Infinity, integer: true, infinity: true },
  maxDepth: { min: 0, max: Infinity, integer: true },
  maxRedirects: { min: 0, max: Infinity, integer: true },
  maxRetries: { min: 0, max: Infinity, integer: true },
  backoffBaseMs: { min: 0, max: Infinity },
  backoffCapMs: { min: 0, max: Infinity },
  retryAfterCapSeconds: { min: 0, max: Infinity },
  maxConsecutiveFailures: { min: 1, max: Infinity, integer: true },
  rateIncreaseFactor: { min: 1, max: Infinity },
  rateRecoveryFactor: { min: 0, minExclusive: true, max: 1 },
  maxRaisedIntervalSeconds: { min: 0, max: Infinity },
  graceMs: { min: 0, max: Infinity },
  progressIntervalMs: { min: 0, max: Infinity },
  'tokenBucket.ratePerSecond': { min: 0, minExclusive: true, max: Infinity },
  'tokenBucket.burst': { min: 1, max: Infinity },
} as const satisfies Record<string, NumberLimit>;

/** Fills in defaults and checks every number against CRAWL_LIMITS; throws RangeError naming the option. */
export function resolveCrawlOptions(options: CrawlOptions): ResolvedCrawlOptions {
  const o = { ...CRAWL_DEFAULTS, ...stripUndefined(options) } as ResolvedCrawlOptions;
  const check = (name: keyof typeof CRAWL_LIMITS, value: unknown): void => {
    const limit: NumberLimit = CRAWL_LIMITS[name];
    if (numberProblem(value, limit) !== undefined)
      throw new RangeError(`crawl option ${name} must be ${rangeText(limit)}, got ${String(value)}`);
  };
  for (const name of Object.keys(CRAWL_LIMITS) as Array<keyof typeof CRAWL_LIMITS>) {
    if (!name.startsWith('tokenBucket.')) check(name, o[name as keyof ResolvedCrawlOptions]);
  }
  if (o.delayFrom !== 'start' && o.delayFrom !== 'end')
    throw new RangeError(`crawl option delayFrom must be 'start' or 'end', got ${String(o.delayFrom)}`);
  if (!['cap', 'skip', 'obey'].includes(o.crawlDelayPolicy))
    throw new RangeError(`crawl option crawlDelayPolicy must be cap, skip or obey, got ${String(o.crawlDelayPolicy)}`);
  if (!BLOCK_REACTIONS.includes(o.onBlock))
    throw new RangeError(`crawl option onBlock must be warn, slow or stop, got ${String(o.onBlock)}`);
  if (o.tokenBucket) {
    check('tokenBucket.ratePerSecond', o.tokenBucket.ratePerSecond);
    check('tokenBucket.burst', o.tokenBucket.burst);
  }
  if (o.crawlDelayByHost) {
    for (const [host, n] of Object.entries(o.crawlDelayByHost))
      if (numberProblem(n, CRAWL_LIMITS.maxCrawlDelaySeconds) !== undefined)
        throw new RangeError(
          `crawl option crawlDelayByHost ${host} must be ${rangeText(CRAWL_LIMITS.maxCrawlDelaySeconds)}, got ${String(n)}`,
        );
  }
  if (o.pageBudgets) {
    const limit = CRAWL_LIMITS.maxPages;
    for (const [host, n] of [...Object.entries(o.pageBudgets.byHost), ['otherwise', o.pageBudgets.otherwise] as const])
      if (numberProblem(n, limit) !== undefined)
        throw new RangeError(`crawl option pageBudgets ${host} must be ${rangeText(limit)}, got ${String(n)}`);
  }
  const units = o.politenessUnits as unknown;
  if (
    units !== undefined &&
    typeof units !== 'function' &&
    (typeof units !== 'object' || units === null || typeof (units as { unitOf?: unknown }).unitOf !== 'function')
  )
    throw new RangeError('crawl option politenessUnits must be a function of a host or a PolitenessUnits');
  if (typeof o.fetch !== 'function' && typeof o.startFetch !== 'function')
    throw new RangeError('crawl option fetch must be a function');
  return o;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
