/**
 * The plan a test crawl is checked against: its seed hosts, each host's page budget (or, without budgets,
 * `maxPages` spread over them), its delay, workers
 * and per-host pacing, each host's Crawl-delay from robots.txt, the expected latency, and what an earlier
 * test crawl measured. Pure: src/net/crawlSession.ts reads robots.txt (fetched, or from the cache) and passes
 * each origin's Crawl-delay in.
 */
import type { Calibration } from '../calibrate/types';
import { plan, type Plan, type PlanInput } from '../plan';
import { mergeCrawlDelaysByHost } from '../politeness/interval';
import type { RobotsOriginInspection } from '../robots/originInspection';
import { validateSeeds } from '../seeds';
import type { SampleCrawlOptions } from './sampleCrawlOptions';

export interface SamplePlanFacts {
  /** Each seed origin's robots.txt Crawl-delay, when robots.txt is obeyed (null: it declares none). */
  crawlDelays?: ReadonlyArray<Pick<RobotsOriginInspection, 'origin' | 'crawlDelaySeconds'>>;
  /** The expected response time, seconds; the plan's default without it. */
  latencySeconds?: number;
  /** What an earlier test crawl measured (`--calibrate`). */
  calibration?: Calibration;
  /** The seed hosts' addresses the crawl resolved for its units (`politenessBy: 'ip'`), and why some have none. */
  addressesByHost?: Readonly<Record<string, readonly string[]>>;
  unresolvedHosts?: Readonly<Record<string, string>>;
}

/** Each origin's Crawl-delay by its host; of two origins of one host (http and https), the larger. */
export function crawlDelaysByHost(crawlDelays: SamplePlanFacts['crawlDelays'] = []): Record<string, number> {
  return mergeCrawlDelaysByHost(crawlDelays.map((o) => [new URL(o.origin).host, o.crawlDelaySeconds] as const));
}

/** The test crawl's options and what is known of its hosts as a PlanInput. */
export function samplePlanInput(options: SampleCrawlOptions, facts: SamplePlanFacts = {}): PlanInput {
  const { seeds } = validateSeeds(options.seeds.map((text, i) => ({ text, line: i + 1 })));
  return {
    seeds,
    // A host's budget is its pages in the plan (the one rule: src/core/crawl/pageBudgets.ts).
    pages: options.pageBudgets
      ? { byHost: options.pageBudgets.byHost, otherwise: options.pageBudgets.otherwise }
      : { total: options.maxPages },
    workers: options.concurrency,
    delaySeconds: options.delaySeconds,
    delayFrom: options.delayFrom,
    ...(facts.latencySeconds !== undefined ? { latencySeconds: facts.latencySeconds } : {}),
    // robots.txt's Crawl-delays and those known before the crawl (a plan's), by max, as the engine merges them.
    crawlDelayByHost: mergeCrawlDelaysByHost(
      Object.entries(options.crawlDelayByHost ?? {}),
      crawlDelaysByHost(facts.crawlDelays),
    ),
    crawlDelayPolicy: options.crawlDelayPolicy,
    maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
    adaptive: options.adaptive,
    perHostConcurrency: options.perHostConcurrency,
    ...(facts.calibration ? { calibration: facts.calibration } : {}),
    // The crawl's own units: the plan keeps the same ones (docs/how-it-works.md#politeness-units).
    ...(options.politenessBy ? { politenessBy: options.politenessBy } : {}),
    ...(facts.addressesByHost ? { addressesByHost: facts.addressesByHost } : {}),
    ...(facts.unresolvedHosts ? { unresolvedHosts: facts.unresolvedHosts } : {}),
  };
}

/** The plan for a test crawl (see samplePlanInput). */
export function planSampleCrawl(options: SampleCrawlOptions, facts: SamplePlanFacts = {}): Plan {
  return plan(samplePlanInput(options, facts));
}
