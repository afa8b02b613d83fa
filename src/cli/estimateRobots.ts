/**
 * `estimate --robots` (and `export --robots`): each seed origin's robots.txt read first, the seeds it
 * disallows left out, each remaining host's Crawl-delay for the plan, and the section printed before the
 * plan. Kept apart from planFromOptions.ts, which only calls `robotsStep` and prints `formatRobotsSection`.
 */
import { colors } from '../core/format/ansi';
import { formatNumber, formatSeconds } from '../core/format/duration';
import { renderTable, sanitizeText } from '../core/format/table';
import { PLAN_DEFAULTS, type PlanInput } from '../core/plan';
import type { Seed } from '../core/seeds';
import { mergeCrawlDelaysByHost } from '../core/politeness/interval';
import type { RobotsCache } from '../net/robotsCache';
import { inspectRobots, type InspectedOrigin, type InspectOptions, type RobotsInspection } from '../net/robotsInspect';
import type { RobotsOptions } from './planOptions';
import { originJson, outcomeHeadline, robotsTimeouts, type RobotsOriginJson } from './robots';

/** A seed that robots.txt disallows, left out of the plan. */
export interface DisallowedSeed {
  url: string;
  host: string;
  origin: string;
  outcome: InspectedOrigin['outcome'];
  /** The deciding robots.txt line and its text; null when the outcome (unreachable) decided. */
  line: number | null;
  rule: string | null;
  reason: string;
  /** Where the seed came from: its line (argument position or file line) and source. */
  seedLine: number;
  seedSource: string;
}

/** A seed host with no allowed seed left: not planned. */
export interface LeftOutHost {
  host: string;
  /** `unreachable`: a robots.txt of this host could not be fetched; `disallowed`: rules disallow every seed. */
  reason: 'unreachable' | 'disallowed';
  seeds: number;
}

/** The `robots` section of the estimate document (null without --robots). */
export interface EstimateRobotsSection {
  productToken: string;
  userAgent: string;
  origins: RobotsOriginJson[];
  disallowedSeeds: DisallowedSeed[];
  leftOutHosts: LeftOutHost[];
  /** Each planned host's robots.txt Crawl-delay (the largest over its origins), before the cap policy. */
  crawlDelayByHost: Record<string, number>;
}

export interface RobotsStep {
  inspection: RobotsInspection;
  header: string;
  allowed: Seed[];
  section: EstimateRobotsSection;
}

/**
 * Fetches robots.txt for every seed origin (concurrently, one fetch per origin) and splits the seeds into
 * allowed and disallowed. Each remaining host's Crawl-delay is the largest of its origins' (http and https
 * of one host are two origins but one politeness unit) and of a --crawl-delay given by hand.
 */
export async function robotsStep(
  seeds: readonly Seed[],
  options: Omit<PlanInput, 'seeds'>,
  ro: RobotsOptions,
  cache?: RobotsCache,
  http?: InspectOptions['http'],
): Promise<RobotsStep> {
  const inspection = await inspectRobots(
    seeds.map((s) => s.url),
    {
      productToken: ro.productToken,
      userAgentHeader: ro.header,
      configuredDelaySeconds: options.delaySeconds ?? PLAN_DEFAULTS.delaySeconds,
      crawlDelayPolicy: options.crawlDelayPolicy ?? PLAN_DEFAULTS.crawlDelayPolicy,
      maxCrawlDelaySeconds: options.maxCrawlDelaySeconds ?? PLAN_DEFAULTS.maxCrawlDelaySeconds,
      timeouts: robotsTimeouts(ro.timeoutSeconds),
      ...(cache ? { cache } : {}),
      ...(http ? { http } : {}),
    },
  );
  const byOrigin = new Map(inspection.origins.map((o) => [o.origin, o] as const));
  const byUrl = new Map(inspection.results.map((r) => [r.url, r] as const));
  const allowed: Seed[] = [];
  const disallowedSeeds: DisallowedSeed[] = [];
  const unreachableHosts = new Set<string>();
  for (const seed of seeds) {
    const r = byUrl.get(seed.url);
    const origin = byOrigin.get(seed.origin);
    if (r?.verdict === 'disallowed') {
      const outcome = origin?.outcome ?? 'unreachable';
      if (outcome === 'unreachable') unreachableHosts.add(seed.host);
      disallowedSeeds.push({
        url: seed.url,
        host: seed.host,
        origin: seed.origin,
        outcome,
        line: r.line,
        rule: r.rule,
        reason: r.reason,
        seedLine: seed.line,
        seedSource: seed.source ?? 'argument',
      });
    } else {
      allowed.push(seed);
    }
  }
  const kept = new Set(allowed.map((s) => s.host));
  const leftOutHosts: LeftOutHost[] = [];
  for (const host of new Set(seeds.map((s) => s.host))) {
    if (kept.has(host)) continue;
    leftOutHosts.push({
      host,
      reason: unreachableHosts.has(host) ? 'unreachable' : 'disallowed',
      seeds: seeds.filter((s) => s.host === host).length,
    });
  }
  const crawlDelayByHost = mergeCrawlDelaysByHost(
    allowed.map((seed) => [seed.host, byOrigin.get(seed.origin)?.crawlDelaySeconds] as const),
  );
  return {
    inspection,
    header: ro.header,
    allowed,
    section: {
      productToken: inspection.productToken,
      userAgent: ro.header,
      origins: inspection.origins.map(originJson),
      disallowedSeeds,
      leftOutHosts,
      crawlDelayByHost,
    },
  };
}

/** The robots.txt section printed before the plan table. */
export function formatRobotsSection(step: RobotsStep, seeds: readonly Seed[], color: boolean): string {
  const s = colors(color);
  const lines = [
    `${s.bold('robots.txt')} for ${sanitizeText(step.inspection.productToken)} (User-Agent: ${sanitizeText(step.header)})`,
  ];
  const disallowed = new Set(step.section.disallowedSeeds.map((d) => d.url));
  const rows = step.inspection.origins.map((o) => {
    const mine = seeds.filter((seed) => seed.origin === o.origin);
    const ok = mine.filter((seed) => !disallowed.has(seed.url)).length;
    const used = o.outcome === 'ok';
    return [
      sanitizeText(o.origin),
      outcomeHeadline(o, s) + (o.status !== null && o.outcome !== 'unreachable' ? ` (${o.status})` : ''),
      used && o.crawlDelaySeconds !== null
        ? `${formatSeconds(o.crawlDelaySeconds)}${o.crawlDelayLine !== null ? ` (L${o.crawlDelayLine})` : ''}`
        : '—',
      o.outcome === 'unreachable'
        ? '—'
        : o.skipped
          ? 'host skipped'
          : `${formatSeconds(o.effectiveIntervalSeconds)} (${o.intervalSource})`,
      `${formatNumber(ok)} of ${formatNumber(mine.length)} allowed`,
    ];
  });
  lines.push(
    ...renderTable(
      [
        { header: 'Origin', truncate: 'middle', maxWidth: 48 },
        { header: 'robots.txt' },
        { header: 'Crawl-delay' },
        { header: 'Interval' },
        { header: 'Seeds' },
      ],
      rows,
      { indent: '  ', styleHeader: s.bold },
    ),
  );
  for (const o of step.inspection.origins) {
    if (o.outcome === 'unreachable')
      lines.push(`  ${s.bold(s.red('UNREACHABLE'))} ${sanitizeText(o.origin)}: ${sanitizeText(o.reason)}`);
  }
  for (const h of step.section.leftOutHosts) {
    const why =
      h.reason === 'unreachable'
        ? 'robots.txt unreachable, every URL is disallowed'
        : 'robots.txt disallows every seed';
    lines.push(
      `  ${s.bold(h.reason === 'unreachable' ? s.red('LEFT OUT') : s.yellow('LEFT OUT'))} ${sanitizeText(h.host)}: ${why}; not planned`,
    );
  }
  return lines.join('\n') + '\n\n';
}
