/**
 * The robots.txt section as pure functions: a card per origin (its outcome, Crawl-delay, group, sitemaps,
 * findings and each seed's verdict with its deciding line) and the status line above the cards.
 */
import { formatNumber, formatSeconds } from '../../core/format/duration';
import { intervalSourceLabel } from '../../core/format/planSummary';
import { assertNever } from '../../shared/messageChecks';
import type {
  RobotsCoverageView,
  RobotsOriginView,
  RobotsOutcome,
  RobotsSeedView,
  RobotsState,
  RobotsVerdict,
  RobotsView,
} from '../../shared/planner/viewModel';

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

export function robotsSeedItem(r: RobotsSeedView): RobotsSeedItem {
  const item: RobotsSeedItem = {
    url: r.url,
    verdict: r.verdict,
    verdictText: verdictLabel(r.verdict),
    reason: r.reason,
  };
  if (r.line !== undefined && r.verdict !== 'not-applicable')
    item.deciding = { line: r.line, label: decidingLineLabel(r.line, r.rule) };
  return item;
}

export function robotsCards(robots: RobotsView, coverage: RobotsCoverageView | null): RobotsCard[] {
  const stale = new Set(coverage?.stale ?? []);
  const intervals = new Map((coverage?.intervals ?? []).map((i) => [i.origin, i] as const));
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
      stale: stale.has(o.origin),
    };
    const interval = intervals.get(o.origin);
    if (interval)
      card.intervalText = `Interval in the plan: ${formatSeconds(interval.intervalSeconds)} (${intervalSourceLabel(interval.source)})`;
    if (o.outcome === 'ok') {
      card.groupText = o.group
        ? `Group at L${o.group.line}: ${o.group.userAgents.join(', ')}`
        : 'No group applies to this user agent: everything allowed';
    }
    if (o.sitemapCount > o.sitemaps.length) {
      const more = o.sitemapCount - o.sitemaps.length;
      card.sitemapsMore = `and ${formatNumber(more)} more ${more === 1 ? 'sitemap' : 'sitemaps'}`;
    }
    if (o.notText !== undefined) card.notText = o.notText;
    if (o.findingCount > 0)
      card.findingsText = `${formatNumber(o.findingCount)} ${o.findingCount === 1 ? 'finding' : 'findings'} (open the file to see them)`;
    return card;
  });
}

/** The line above the robots.txt cards; `unchecked`: seed origins the last check did not cover. */
export function robotsStatusText(state: RobotsState, useRobots: boolean, unchecked: number): string {
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
      if (state.robots.omittedOrigins > 0)
        text += ` ${formatNumber(state.robots.omittedOrigins)} more origins were not checked (limit per check).`;
      const fresh = Math.max(0, unchecked - state.robots.omittedOrigins);
      if (fresh > 0)
        text += ` ${formatNumber(fresh)} seed ${fresh === 1 ? 'origin is' : 'origins are'} not checked yet: press Check robots.txt.`;
      return text;
    }
    default:
      return assertNever(state);
  }
}

/** The card's sitemaps, folded: "Sitemaps (3)", "Sitemaps (20+)" when some are not listed. */
export function sitemapsSummaryText(card: Pick<RobotsCard, 'sitemaps' | 'sitemapsMore'>): string {
  return `Sitemaps (${card.sitemaps.length + (card.sitemapsMore ? '+' : '')})`;
}
