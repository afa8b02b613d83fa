/**
 * One host's plan under resolved settings: its interval (effectiveInterval: configured delay, Crawl-delay
 * under the cap policy, adaptive), the period between starts on one lane, its ceiling in pages per
 * second, hour and day, and how long its pages take: (⌈pages / lanes⌉ − 1) × period + latency.
 */
import { ADAPTIVE_FLOOR_SECONDS, effectiveInterval, type IntervalInput } from '../politeness/interval';
import { CRAWL_DELAY_CEILING_SECONDS, type HostPlan, type IntervalSource, type ResolvedPlanInput } from './types';

/** Rounds float noise away (10 × 0.3 = 3.0000000000000004 → 3): 12 significant digits. Monotone. */
export function tidy(x: number): number {
  // Fast path (toPrecision is slow, and plan() calls this four times per host): a number that is already
  // the closest double to a decimal with at most 6 decimals and under 10⁶ has at most 12 significant
  // digits, so toPrecision(12) would give it back unchanged.
  if (x > -1e6 && x < 1e6 && Math.round(x * 1e6) / 1e6 === x) return x === 0 ? 0 : x;
  return x === 0 ? 0 : Number(x.toPrecision(12));
}

function ownValue(record: Readonly<Record<string, number>> | undefined, key: string): number | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

export interface HostNotes {
  /** Set when a Crawl-delay above the cap was planned at the cap. */
  capped?: { declaredSeconds: number; capSeconds: number };
}

/** One host's interval, period, ceiling and duration under resolved settings. */
export function planHost(host: string, seeds: number, pages: number, r: ResolvedPlanInput): HostPlan {
  return planHostWithNotes(host, seeds, pages, r).plan;
}

export function planHostWithNotes(host: string, seeds: number, pages: number, r: ResolvedPlanInput): { plan: HostPlan; notes: HostNotes } {
  const latency = ownValue(r.latencyByHost, host) ?? r.latencySeconds;
  const declared = ownValue(r.crawlDelayByHost, host);
  const crawlDelay = declared === undefined ? undefined : Math.min(declared, CRAWL_DELAY_CEILING_SECONDS);
  const intervalInput: IntervalInput = {
    configuredSeconds: r.delaySeconds,
    crawlDelayPolicy: r.crawlDelayPolicy,
    maxCrawlDelaySeconds: r.maxCrawlDelaySeconds,
    ...(crawlDelay === undefined ? {} : { crawlDelaySeconds: crawlDelay }),
    ...(r.adaptive ? { adaptiveLatencySeconds: latency } : {}),
  };
  const decision = effectiveInterval(intervalInput);
  // A skipped host shows what obeying its Crawl-delay would cost.
  const shown = decision.skipped ? effectiveInterval({ ...intervalInput, crawlDelayPolicy: 'obey' }) : decision;
  // Only the adaptive rule computes a number (10 × 0.3 = 3.0000000000000004); tidy it, but never below
  // the numbers it has to respect. Configured delays and Crawl-delays are kept exactly as given.
  const interval = shown.source === 'adaptive' ? Math.max(tidy(shown.seconds), r.delaySeconds, ADAPTIVE_FLOOR_SECONDS) : shown.seconds;
  const period = r.delayFrom === 'start' ? Math.max(interval, latency) : Math.max(tidy(latency + interval), interval, latency);
  const intervalSource: IntervalSource = r.delayFrom === 'start' && latency > interval ? 'latency' : shown.source;
  const lanes = r.perHostConcurrency;
  const lanePages = Math.ceil(pages / lanes);
  const plan: HostPlan = {
    host,
    seeds,
    pages,
    latencySeconds: latency,
    crawlDelaySeconds: crawlDelay ?? null,
    intervalSeconds: interval,
    intervalSource,
    politenessSource: shown.source,
    periodSeconds: period,
    pagesPerSecond: tidy(lanes / period),
    pagesPerHour: tidy((3600 * lanes) / period),
    pagesPerDay: tidy((86_400 * lanes) / period),
    seconds: pages === 0 ? 0 : tidy((lanePages - 1) * period + latency),
    skipped: decision.skipped,
  };
  const capped = decision.crawlDelayAboveCap && !decision.skipped ? decision.crawlDelayAboveCap : undefined;
  return { plan, notes: capped ? { capped } : {} };
}
