/**
 * What a Crawl-delay costs with the user's settings: the effective interval (effectiveInterval with the
 * configured delay, the cap and the policy), pages per hour and per day, and the time for N pages, for
 * the hover and the CodeLens.
 */
import { formatDuration, formatNumber, formatSeconds } from '../../format/duration';
import { effectiveInterval, type CrawlDelayPolicy, type IntervalDecision } from '../../politeness/interval';

export interface EditorContext {
  /** The configured per-host delay in seconds (`crawlPlanner.defaultDelay`). */
  configuredDelaySeconds: number;
  /** `crawlPlanner.maxCrawlDelay`. */
  maxCrawlDelaySeconds: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  /** N in "time for N pages": from the settings or the sidebar's plan. */
  pagesForEstimate: number;
  /** The crawler's product token (`crawlPlanner.userAgent`), to say which group it uses. */
  productToken?: string;
}

export interface CrawlDelayEstimate {
  crawlDelaySeconds: number;
  /** effectiveInterval() with the configured delay, the cap and the policy. */
  decision: IntervalDecision;
  /** Infinity when the interval is 0. */
  pagesPerHour: number;
  pagesPerDay: number;
  pages: number;
  /** pages × interval: one request per interval, response times not counted. */
  totalSeconds: number;
}

export function crawlDelayEstimate(crawlDelaySeconds: number, ctx: EditorContext): CrawlDelayEstimate {
  const decision = effectiveInterval({
    configuredSeconds: ctx.configuredDelaySeconds,
    crawlDelaySeconds,
    crawlDelayPolicy: ctx.crawlDelayPolicy,
    maxCrawlDelaySeconds: ctx.maxCrawlDelaySeconds,
  });
  const s = decision.seconds;
  const pages = Math.max(0, ctx.pagesForEstimate);
  return {
    crawlDelaySeconds,
    decision,
    pagesPerHour: s > 0 ? 3600 / s : Infinity,
    pagesPerDay: s > 0 ? 86_400 / s : Infinity,
    pages,
    totalSeconds: pages * s,
  };
}

export function rate(n: number): string {
  return formatNumber(n, n < 10 ? 1 : 0);
}

export function pagesText(n: number): string {
  return `${formatNumber(n)} ${n === 1 ? 'page' : 'pages'}`;
}

/** "360 pages/hour · 1,000,000 pages ≈ 115 d 18 h", with a prefix when the cap, the policy or your delay decides. */
export function crawlDelayLensTitle(est: CrawlDelayEstimate, ctx: EditorContext): string {
  const d = est.decision;
  if (d.skipped) {
    return `Crawl-delay ${formatSeconds(est.crawlDelaySeconds)} is above your ${formatSeconds(ctx.maxCrawlDelaySeconds)} cap: this host is skipped (policy "skip")`;
  }
  if (d.seconds <= 0) return 'No delay: the rate is set by response times and your rate limit';
  const base = `${rate(est.pagesPerHour)} pages/hour · ${pagesText(est.pages)} ≈ ${formatDuration(est.totalSeconds, 2)}`;
  if (d.crawlDelayAboveCap) return `Capped at ${formatSeconds(d.seconds)}: ${base}`;
  if (d.source === 'configured' && ctx.configuredDelaySeconds > est.crawlDelaySeconds)
    return `Your ${formatSeconds(d.seconds)} delay applies: ${base}`;
  return base;
}
