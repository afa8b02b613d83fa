/**
 * Rendering decisions for the planner, as pure functions of the plan and the robots.txt results: table
 * rows, chart bars and their widths, labels, the accessible chart summary, seed error lines, robots.txt
 * cards. No DOM, so they are unit-tested in node; `main.ts` only turns these into elements (textContent).
 */
import { END_REASONS, formatNotFollowedReason, notFollowedHeadline } from '../core/format/crawlOutcome';
import { formatDuration, formatNumber, formatSeconds } from '../core/format/duration';
import type { HostPlan, IntervalSource, Plan } from '../core/plan';
import type { InvalidSeed } from '../core/seeds';
import { assertNever, type CrawlResultView, type PlanResultView, type RobotsOriginView, type RobotsOutcome, type RobotsSeedView, type RobotsState, type RobotsVerdict, type RobotsView } from '../shared/protocol';

/** Host table rows rendered at most (the JSON copy has all hosts). */
export const MAX_TABLE_ROWS = 200;
/** Chart bars at most (longest first). */
export const MAX_CHART_BARS = 12;
/** Seed error lines shown at most. */
export const MAX_SEED_ERRORS_SHOWN = 20;
/** A visible bar for any non-zero duration, however short next to the longest. */
export const MIN_BAR_PERCENT = 0.5;

// ---------------------------------------------------------------------------------------------
// The plan

/** What sets a host's interval, in words short enough for a table cell. */
export function intervalSourceLabel(source: IntervalSource): string {
  switch (source) {
    case 'configured':
      return 'delay';
    case 'crawl-delay':
      return 'Crawl-delay';
    case 'adaptive':
      return 'adaptive';
    case 'latency':
      return 'latency';
    default:
      return assertNever(source);
  }
}

export interface HostRow {
  host: string;
  /** "10 s · Crawl-delay": the politeness interval and what sets the pace. */
  interval: string;
  intervalSource: IntervalSource;
  /** "one request every 1.5 s" when the period differs from the interval (latency, end reading). */
  period?: string;
  /** "360" */
  pagesPerHour: string;
  /** "2 h 46 m" */
  duration: string;
  /** "1,000 pages" (or "skipped: …" for a skipped host) */
  detail: string;
  /** This host sets the total. */
  binding: boolean;
  skipped: boolean;
}

export function hostRow(h: HostPlan, plan: Plan): HostRow {
  const binding = plan.bindingHost === h.host;
  const pages = `${formatNumber(h.pages)} ${h.pages === 1 ? 'page' : 'pages'}`;
  const row: HostRow = {
    host: h.host,
    interval: `${formatSeconds(h.intervalSeconds)} · ${intervalSourceLabel(h.intervalSource)}`,
    intervalSource: h.intervalSource,
    pagesPerHour: formatNumber(h.pagesPerHour, 1),
    duration: formatDuration(h.seconds),
    detail: h.skipped ? `${pages}, skipped (Crawl-delay above the cap)` : binding ? `${pages}, limits the crawl` : pages,
    binding,
    skipped: h.skipped,
  };
  if (h.periodSeconds !== h.intervalSeconds) row.period = `one request every ${formatSeconds(h.periodSeconds)}`;
  return row;
}

/** The host table: rows in plan order, cut at `max`, and how many were left out. */
export function hostRows(plan: Plan, max = MAX_TABLE_ROWS): { rows: HostRow[]; hidden: number } {
  return { rows: plan.hosts.slice(0, max).map((h) => hostRow(h, plan)), hidden: Math.max(0, plan.hosts.length - max) };
}

/** "11 d 13 h 47 m for 1,000,000 pages over 2 hosts" (+ skipped pages). */
export function totalText(plan: Plan): string {
  const hosts = plan.hosts.length;
  let text = `${formatDuration(plan.totalSeconds)} for ${formatNumber(plan.totalPages)} ${plan.totalPages === 1 ? 'page' : 'pages'} over ${formatNumber(hosts)} ${hosts === 1 ? 'host' : 'hosts'}`;
  if (plan.skippedPages > 0) text += ` (${formatNumber(plan.skippedPages)} pages of skipped hosts not counted)`;
  return text;
}

export interface WarningItem {
  code: string;
  host?: string;
  text: string;
}

export function warningItems(plan: Plan): WarningItem[] {
  return plan.warnings.map((w) => (w.host === undefined ? { code: w.code, text: w.message } : { code: w.code, host: w.host, text: w.message }));
}

export type BarKind = 'host' | 'global-rate' | 'workers';

export interface ChartBar {
  kind: BarKind;
  /** The host, or the bound's name ("global rate", "workers"). */
  label: string;
  /** `data-host` for host bars. */
  host?: string;
  seconds: number;
  /** 0–100, one decimal; at least {@link MIN_BAR_PERCENT} for a non-zero duration. */
  percent: number;
  /** "11 d 13 h 47 m" */
  value: string;
  /** This bar sets the total. */
  binding: boolean;
}

export interface ChartModel {
  bars: ChartBar[];
  /** Host bars left out (shortest ones). */
  hidden: number;
  /** The chart in one sentence for `aria-label` (role="img"). */
  summary: string;
}

/** The bar width: `seconds` as a share of `max`, one decimal, never invisible when non-zero. */
export function barPercent(seconds: number, max: number): number {
  if (!(max > 0) || !(seconds > 0)) return 0;
  const p = Math.round((seconds / max) * 1000) / 10;
  return Math.min(100, Math.max(MIN_BAR_PERCENT, p));
}

/**
 * The duration chart: one bar per crawled host, longest first, plus a bar for the global-rate and the
 * workers bounds when they are not negligible, so whatever limits the crawl has a highlighted bar.
 * Skipped hosts and hosts without pages are not drawn.
 */
export function chartModel(plan: Plan, maxBars = MAX_CHART_BARS): ChartModel {
  const active = plan.hosts.filter((h) => !h.skipped && h.pages > 0).sort((a, b) => b.seconds - a.seconds);
  const shown = active.slice(0, maxBars);
  const bounds: Array<{ kind: BarKind; label: string; seconds: number }> = [];
  if (plan.bounds.globalRateSeconds !== null) bounds.push({ kind: 'global-rate', label: 'global rate', seconds: plan.bounds.globalRateSeconds });
  bounds.push({ kind: 'workers', label: 'workers', seconds: plan.bounds.workersSeconds });
  const max = Math.max(0, ...shown.map((h) => h.seconds), ...bounds.map((b) => b.seconds));
  const bars: ChartBar[] = shown.map((h) => ({
    kind: 'host',
    label: h.host,
    host: h.host,
    seconds: h.seconds,
    percent: barPercent(h.seconds, max),
    value: formatDuration(h.seconds),
    binding: plan.bindingHost === h.host,
  }));
  for (const b of bounds) {
    const binding = plan.bindingConstraint === b.kind;
    // A bound far below the longest bar says nothing; draw it only when it binds or is within reach.
    if (!binding && !(b.seconds >= 0.1 * max && b.seconds > 0)) continue;
    bars.push({ kind: b.kind, label: b.label, seconds: b.seconds, percent: barPercent(b.seconds, max), value: formatDuration(b.seconds), binding });
  }
  const hidden = active.length - shown.length;
  return { bars, hidden, summary: chartSummary(plan, bars, hidden) };
}

function chartSummary(plan: Plan, bars: readonly ChartBar[], hidden: number): string {
  if (bars.length === 0) return 'Crawl duration chart: nothing to crawl.';
  const parts = bars.map((b) => {
    const name = b.kind === 'host' ? b.label : `${b.label} bound`;
    return `${name} ${b.value}${b.binding ? ' (limits the crawl)' : ''}`;
  });
  const more = hidden > 0 ? `; and ${formatNumber(hidden)} shorter ${hidden === 1 ? 'host' : 'hosts'}` : '';
  return `Crawl duration, total ${formatDuration(plan.totalSeconds)}, longest first: ${parts.join('; ')}${more}.`;
}

// ---------------------------------------------------------------------------------------------
// Seeds

export interface SeedErrorItem {
  line: number;
  /** "Line 4: not a URL" */
  label: string;
  /** The line as typed (untrusted: rendered as text). */
  text: string;
}

export function seedErrorItems(result: Pick<PlanResultView, 'invalidSeeds' | 'invalidSeedCount'>, max = MAX_SEED_ERRORS_SHOWN): { items: SeedErrorItem[]; more: number } {
  const items = result.invalidSeeds.slice(0, max).map((s: InvalidSeed) => ({ line: s.line, label: `Line ${s.line}: ${s.message}`, text: s.text }));
  return { items, more: Math.max(0, result.invalidSeedCount - items.length) };
}

// ---------------------------------------------------------------------------------------------
// robots.txt

/** "L3 Disallow: /private": the deciding line as the link-like button shows it. */
export function decidingLineLabel(line: number, rule: string | undefined): string {
  const text = (rule ?? '').replace(/\s+/g, ' ').trim();
  const shown = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return shown === '' ? `L${line}` : `L${line} ${shown}`;
}

export function outcomeLabel(o: Pick<RobotsOriginView, 'outcome' | 'status'>): string {
  const http = o.status === undefined ? '' : ` (HTTP ${o.status})`;
  const outcome: RobotsOutcome = o.outcome;
  switch (outcome) {
    case 'ok':
      return `read${http}`;
    case 'unavailable':
      return `unavailable${http}: everything allowed`;
    case 'unreachable':
      return `unreachable${http}: everything disallowed`;
    default:
      return assertNever(outcome);
  }
}

export function verdictLabel(verdict: RobotsVerdict): string {
  switch (verdict) {
    case 'allowed':
      return 'allowed';
    case 'disallowed':
      return 'disallowed';
    case 'not-applicable':
      return 'not applicable';
    default:
      return assertNever(verdict);
  }
}

export interface RobotsSeedItem {
  url: string;
  verdict: RobotsVerdict;
  verdictText: string;
  /** The deciding line, for a link-like button that opens robots.txt there. */
  deciding?: { line: number; label: string };
  reason: string;
}

export interface RobotsCard {
  origin: string;
  robotsUrl: string;
  outcome: RobotsOutcome;
  outcomeText: string;
  /** "Crawl-delay: 10 s (L3)" or "No Crawl-delay for this user agent". */
  crawlDelayText: string;
  /** The plan's interval for this origin's host: "Interval in the plan: 10 s (Crawl-delay)". */
  intervalText?: string;
  /** "Group at L4: examplebot, *" or "No group applies: everything allowed". */
  groupText?: string;
  sitemaps: string[];
  /** "and 12 more sitemaps" */
  sitemapsMore?: string;
  findingsText?: string;
  /** The file does not look like text: the not-text finding's message. */
  notText?: string;
  reason: string;
  seeds: RobotsSeedItem[];
  /** The origin is no longer among the seeds' (the seeds changed since the check). */
  stale: boolean;
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

export function robotsSeedItem(r: RobotsSeedView): RobotsSeedItem {
  const item: RobotsSeedItem = { url: r.url, verdict: r.verdict, verdictText: verdictLabel(r.verdict), reason: r.reason };
  if (r.line !== undefined && r.verdict !== 'not-applicable') item.deciding = { line: r.line, label: decidingLineLabel(r.line, r.rule) };
  return item;
}

export function robotsCards(robots: RobotsView, plan: Plan | null, currentOrigins: readonly string[]): RobotsCard[] {
  const current = new Set(currentOrigins);
  return robots.origins.map((o) => {
    const card: RobotsCard = {
      origin: o.origin,
      robotsUrl: o.robotsUrl,
      outcome: o.outcome,
      outcomeText: outcomeLabel(o),
      crawlDelayText:
        o.crawlDelaySeconds === undefined
          ? o.outcome === 'ok'
            ? 'No Crawl-delay for this user agent'
            : 'No Crawl-delay (file not read)'
          : `Crawl-delay: ${formatSeconds(o.crawlDelaySeconds)}${o.crawlDelayLine !== undefined ? ` (L${o.crawlDelayLine})` : ''}`,
      sitemaps: o.sitemaps,
      reason: o.reason,
      seeds: robots.results.filter((r) => r.origin === o.origin).map(robotsSeedItem),
      stale: !current.has(o.origin),
    };
    const host = hostOf(o.origin);
    const h = plan?.hosts.find((x) => x.host === host);
    if (h) card.intervalText = `Interval in the plan: ${formatSeconds(h.intervalSeconds)} (${intervalSourceLabel(h.politenessSource)})`;
    if (o.outcome === 'ok') {
      card.groupText = o.group ? `Group at L${o.group.line}: ${o.group.userAgents.join(', ')}` : 'No group applies to this user agent: everything allowed';
    }
    if (o.sitemapCount > o.sitemaps.length) {
      const more = o.sitemapCount - o.sitemaps.length;
      card.sitemapsMore = `and ${formatNumber(more)} more ${more === 1 ? 'sitemap' : 'sitemaps'}`;
    }
    if (o.notText !== undefined) card.notText = o.notText;
    if (o.findingCount > 0) card.findingsText = `${formatNumber(o.findingCount)} ${o.findingCount === 1 ? 'finding' : 'findings'} (open the file to see them)`;
    return card;
  });
}

/** Seed origins that the last check did not cover (new seeds, or origins over the per-check limit). */
export function uncheckedOrigins(robots: RobotsView, currentOrigins: readonly string[]): string[] {
  const checked = new Set(robots.origins.map((o) => o.origin));
  return currentOrigins.filter((o) => !checked.has(o));
}

/** The line above the robots.txt cards. */
export function robotsStatusText(state: RobotsState, useRobots: boolean, currentOrigins: readonly string[]): string {
  if (!useRobots) return 'Off: robots.txt is not fetched. Turn on “Use robots.txt” to check each seed origin.';
  switch (state.state) {
    case 'off':
      return 'robots.txt not checked yet.';
    case 'loading':
      return `Checking robots.txt for ${formatNumber(state.origins)} ${state.origins === 1 ? 'origin' : 'origins'}…`;
    case 'error':
      return state.message;
    case 'done': {
      const n = state.robots.origins.length;
      let text = `Checked ${formatNumber(n)} ${n === 1 ? 'origin' : 'origins'} for “${state.robots.userAgent}”.`;
      if (state.robots.omittedOrigins > 0) text += ` ${formatNumber(state.robots.omittedOrigins)} more origins were not checked (limit per check).`;
      const unchecked = uncheckedOrigins(state.robots, currentOrigins).length;
      if (unchecked > 0) text += ` ${formatNumber(unchecked)} seed ${unchecked === 1 ? 'origin is' : 'origins are'} not checked yet: press Check robots.txt.`;
      return text;
    }
    default:
      return assertNever(state);
  }
}

/** The origin "Open robots.txt" uses: the chosen one while it is still a seed origin, else the first. */
export function chosenOrigin(origins: readonly string[], chosen: string | undefined): string | undefined {
  return chosen !== undefined && origins.includes(chosen) ? chosen : origins[0];
}

// ---------------------------------------------------------------------------------------------
// The last test crawl

export interface CrawlResultModel {
  /** "test crawl: demo hosts: page limit reached · 60 pages · 67 requests · 41 s" */
  headline: string;
  /** "8 URLs not followed:" or "Everything it met was followed." */
  notFollowedHeadline: string;
  /** One item per reason: "other host 8 (b.example 8)". */
  notFollowed: string[];
  /** True when it ran to its end (exit code 0). */
  ok: boolean;
}

export function crawlResultModel(crawl: CrawlResultView): CrawlResultModel {
  const plural = (n: number, one: string) => `${formatNumber(n)} ${one}${n === 1 ? '' : 's'}`;
  const ended = END_REASONS[crawl.endReason] ?? crawl.endReason;
  const left = notFollowedHeadline(crawl.notFollowed);
  return {
    headline: `${crawl.name}: ${ended} · ${plural(crawl.pages, 'page')} · ${plural(crawl.requests, 'request')} · ${formatDuration(crawl.elapsedSeconds)}`,
    notFollowedHeadline: left === undefined ? 'Everything it met was followed (within its hosts and limits).' : `${left}:`,
    notFollowed: crawl.notFollowed.map(formatNotFollowedReason),
    ok: crawl.exitCode === 0,
  };
}
