/**
 * A plan in a few lines, for the sidebar and the plan report (docs/extension.md §What it shows): the total in
 * words, hosts with the same numbers grouped into one row (binding first), the duration chart, and the text
 * of each host's row. Pure: the extension builds these from a Plan of up to 100,000 hosts and posts only what
 * is shown.
 */
import { formatDuration, formatNumber, formatSeconds } from './duration';
import type { HostPlan, IntervalSource, Plan } from '../plan/types';

/** Chart bars at most (longest first). */
export const MAX_CHART_BARS = 12;
/** A visible bar for any non-zero duration, however short next to the longest. */
export const MIN_BAR_PERCENT = 0.5;
/** Hosts with the same pages, interval and duration share a row from this many on (two stay two rows). */
export const GROUP_MIN_HOSTS = 3;

const SOURCE_LABELS: Readonly<Record<IntervalSource, string>> = {
  configured: 'delay',
  'crawl-delay': 'Crawl-delay',
  adaptive: 'adaptive',
  latency: 'latency',
};

/** What sets a host's interval, in words short enough for a table cell. */
export function intervalSourceLabel(source: IntervalSource): string {
  return SOURCE_LABELS[source];
}

/**
 * "11 d 13 h 47 m for 1,000,000 pages over 2 hosts" (+ skipped pages); with hosts whose pages are unknown, over
 * the other hosts, and says it leaves those out: "at least 1 m 3 s for 120 pages over 2 hosts; leaves out 1 host
 * whose pages are unknown".
 */
export function totalText(plan: Plan): string {
  const unknown = plan.unknownHosts.length;
  const hosts = plan.hosts.length - unknown;
  let text = `${unknown > 0 ? 'at least ' : ''}${formatDuration(plan.totalSeconds)} for ${formatNumber(plan.totalPages)} ${plan.totalPages === 1 ? 'page' : 'pages'} over ${formatNumber(hosts)} ${hosts === 1 ? 'host' : 'hosts'}`;
  if (plan.skippedPages > 0) text += ` (${formatNumber(plan.skippedPages)} pages of skipped hosts not counted)`;
  if (unknown > 0)
    text += `; leaves out ${formatNumber(unknown)} ${unknown === 1 ? 'host' : 'hosts'} whose pages are unknown`;
  return text;
}

// ---------------------------------------------------------------------------------------------
// Host groups

/** Hosts that share every number of their row; a host alone when fewer than {@link GROUP_MIN_HOSTS} do. */
export interface HostGroup {
  /** The host the row is named after: the binding host when the group holds it, else the first in plan order. */
  host: HostPlan;
  /** How many hosts the row stands for (1: a host alone). */
  count: number;
  /** The group holds the host that sets the total. */
  binding: boolean;
}

function groupKey(h: HostPlan): string {
  const pages = h.pagesUnknown !== undefined ? `?${h.pagesUnknown.code}` : h.pages;
  return `${pages}|${h.intervalSeconds}|${h.intervalSource}|${h.periodSeconds}|${h.seconds}|${h.skipped ? 1 : 0}`;
}

/**
 * The plan's hosts as rows: hosts with the same pages, interval (and what sets it), period, duration and
 * skip grouped when at least {@link GROUP_MIN_HOSTS} share them. Order: the group of the binding host
 * first, then the longest duration first, skipped hosts last; ties keep plan order.
 */
export function hostGroups(plan: Plan): HostGroup[] {
  const byKey = new Map<string, HostPlan[]>();
  for (const h of plan.hosts) {
    const key = groupKey(h);
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [h]);
    else list.push(h);
  }
  const groups: Array<HostGroup & { first: number }> = [];
  const index = new Map<HostPlan, number>();
  plan.hosts.forEach((h, i) => index.set(h, i));
  for (const list of byKey.values()) {
    const members = list.length >= GROUP_MIN_HOSTS ? [list] : list.map((h) => [h]);
    for (const m of members) {
      const binding = m.find((h) => h.host === plan.bindingHost);
      groups.push({
        host: binding ?? m[0]!,
        count: m.length,
        binding: binding !== undefined,
        first: index.get(m[0]!)!,
      });
    }
  }
  groups.sort(
    (a, b) =>
      Number(b.binding) - Number(a.binding) ||
      Number(a.host.skipped) - Number(b.host.skipped) ||
      b.host.seconds - a.host.seconds ||
      a.first - b.first,
  );
  return groups.map(({ host, count, binding }) => ({ host, count, binding }));
}

/** One row of the host table as text, for a group or one host. */
export interface HostRowText {
  /** "a.example", or "998 hosts like a.example". */
  label: string;
  /** The host the row is named after (`data-host`). */
  host: string;
  count: number;
  /** "1,000 pages" (", limits the crawl" / ", skipped (…)"), per host for a group. */
  detail: string;
  pages: string;
  /** "10 s": the politeness interval. */
  interval: string;
  intervalSource: IntervalSource;
  /** What sets the pace when it is not the configured delay: "Crawl-delay", "adaptive", "latency". */
  source?: string;
  /** "one request every 1.5 s" when the period differs from the interval (latency, end reading). */
  period?: string;
  /** "360" */
  pagesPerHour: string;
  /** "2 h 46 m" */
  duration: string;
  binding: boolean;
  skipped: boolean;
}

/** The text of a host's row (`count` > 1: a group's row, named after `h`). */
export function hostRowText(h: HostPlan, binding: boolean, count = 1): HostRowText {
  const unknown = h.pagesUnknown;
  const pages =
    unknown !== undefined
      ? `pages unknown (${unknown.reason}), left out of the total`
      : `${formatNumber(h.pages)} ${h.pages === 1 ? 'page' : 'pages'}${count > 1 ? ' each' : ''}`;
  const row: HostRowText = {
    label: count > 1 ? `${formatNumber(count)} hosts like ${h.host}` : h.host,
    host: h.host,
    count,
    detail: h.skipped
      ? `${pages}, skipped (Crawl-delay above the cap)`
      : binding
        ? `${pages}, limits the crawl`
        : pages,
    pages: unknown !== undefined ? 'unknown' : formatNumber(h.pages),
    interval: formatSeconds(h.intervalSeconds),
    intervalSource: h.intervalSource,
    pagesPerHour: formatNumber(h.pagesPerHour, 1),
    duration: unknown !== undefined && !h.skipped ? '—' : formatDuration(h.seconds),
    binding,
    skipped: h.skipped,
  };
  if (h.intervalSource !== 'configured') row.source = intervalSourceLabel(h.intervalSource);
  if (h.periodSeconds !== h.intervalSeconds) row.period = `one request every ${formatSeconds(h.periodSeconds)}`;
  return row;
}

// ---------------------------------------------------------------------------------------------
// The chart

export type BarKind = 'host' | 'global-rate' | 'workers';

export interface ChartBar {
  kind: BarKind;
  /** The host ("998 hosts like a.example" for a group), or the bound's name ("global rate", "workers"). */
  label: string;
  /** `data-host` for host bars: the host the bar is named after. */
  host?: string;
  /** How many hosts a host bar stands for. */
  count?: number;
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
  /** Hosts not drawn (in the shortest rows). */
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
 * The duration chart: one bar per row of {@link hostGroups} that crawls (skipped hosts and hosts without
 * pages are not drawn), longest first, plus a bar for the global-rate and the workers bounds when they are
 * not negligible, so whatever limits the crawl has a highlighted bar.
 */
export function chartModel(
  plan: Plan,
  maxBars = MAX_CHART_BARS,
  groups: readonly HostGroup[] = hostGroups(plan),
): ChartModel {
  const active = groups
    .filter((g) => !g.host.skipped && g.host.pages > 0)
    .sort((a, b) => b.host.seconds - a.host.seconds);
  const shown = active.slice(0, maxBars);
  const bounds: Array<{ kind: BarKind; label: string; seconds: number }> = [];
  if (plan.bounds.globalRateSeconds !== null)
    bounds.push({ kind: 'global-rate', label: 'global rate', seconds: plan.bounds.globalRateSeconds });
  bounds.push({ kind: 'workers', label: 'workers', seconds: plan.bounds.workersSeconds });
  const max = Math.max(0, ...shown.map((g) => g.host.seconds), ...bounds.map((b) => b.seconds));
  const bars: ChartBar[] = shown.map((g) => ({
    kind: 'host',
    label: g.count > 1 ? `${formatNumber(g.count)} hosts like ${g.host.host}` : g.host.host,
    host: g.host.host,
    count: g.count,
    seconds: g.host.seconds,
    percent: barPercent(g.host.seconds, max),
    value: formatDuration(g.host.seconds),
    binding: g.binding && plan.bindingHost !== null,
  }));
  for (const b of bounds) {
    const binding = plan.bindingConstraint === b.kind;
    // A bound far below the longest bar says nothing; draw it only when it binds or is within reach.
    if (!binding && !(b.seconds >= 0.1 * max && b.seconds > 0)) continue;
    bars.push({
      kind: b.kind,
      label: b.label,
      seconds: b.seconds,
      percent: barPercent(b.seconds, max),
      value: formatDuration(b.seconds),
      binding,
    });
  }
  const hidden = active.slice(maxBars).reduce((n, g) => n + g.count, 0);
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
