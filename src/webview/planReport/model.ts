/**
 * The plan report's decisions as pure functions (unit-tested in node): which rows a scroll position shows,
 * which of them to ask the extension for, how a heading click changes the order, and what the report keeps
 * in getState. The sections (sections/) only turn these into elements.
 */
import { formatDuration, formatNumber, formatSeconds } from '../../core/format/duration';
import { niceStep } from '../../core/statistics';
import {
  REPORT_FILTERS,
  REPORT_SORT_KEYS,
  type ReportFilter,
  type ReportQuery,
  type ReportSortKey,
} from '../../shared/planReport/messages';

/** Each row's height in CSS pixels (sections/hosts.ts hands it to the stylesheet as --row-height). */
export const ROW_HEIGHT = 22;
/** Rows drawn beyond the visible ones on each side, so a scroll shows rows already there. */
export const OVERSCAN = 30;

export const DEFAULT_QUERY: ReportQuery = { sort: 'plan', descending: false, filter: 'all', search: '' };

/**
 * The rows to draw at a scroll position: [first, end) of `total`, the visible ones and {@link OVERSCAN} more
 * on each side.
 */
export function visibleWindow(
  scrollTop: number,
  height: number,
  total: number,
  rowHeight = ROW_HEIGHT,
  overscan = OVERSCAN,
): { first: number; end: number } {
  if (total <= 0) return { first: 0, end: 0 };
  const top = Math.max(0, Math.floor(scrollTop / rowHeight));
  const shown = Math.max(1, Math.ceil(height / rowHeight) + 1);
  const first = Math.max(0, Math.min(top, total - 1) - overscan);
  const end = Math.min(total, top + shown + overscan);
  return { first, end };
}

/** The smallest range of rows in [first, end) that `has` does not hold, or undefined when it holds them all. */
export function missingRange(
  has: (index: number) => boolean,
  first: number,
  end: number,
): { offset: number; count: number } | undefined {
  let from = first;
  while (from < end && has(from)) from++;
  if (from >= end) return undefined;
  let to = end;
  while (to > from && has(to - 1)) to--;
  return { offset: from, count: to - from };
}

/** The order after a click on `key`'s heading: that column (numbers largest first, text A to Z), or the other way. */
export function nextQuerySort(query: ReportQuery, key: ReportSortKey): ReportQuery {
  if (query.sort === key) return { ...query, descending: !query.descending };
  return { ...query, sort: key, descending: key !== 'host' && key !== 'source' && key !== 'plan' };
}

/** `aria-sort` of a heading. */
export function headingSort(query: ReportQuery, key: ReportSortKey): 'ascending' | 'descending' | 'none' {
  return query.sort !== key ? 'none' : query.descending ? 'descending' : 'ascending';
}

/** "Showing 120 of 100,000 hosts" / "100,000 hosts". */
export function rowCountText(shown: number, all: number): string {
  if (shown === all) return `${formatNumber(all)} ${all === 1 ? 'host' : 'hosts'}`;
  return `Showing ${formatNumber(shown)} of ${formatNumber(all)} ${all === 1 ? 'host' : 'hosts'}`;
}

/** What the report keeps in getState: its view of the hosts and where it was scrolled to. */
export interface ReportState {
  v: 1;
  query: ReportQuery;
  scrollTop: number;
}

/** Reads back getState(); anything unexpected gives the defaults. */
export function parseReportState(value: unknown): ReportState {
  const fallback: ReportState = { v: 1, query: { ...DEFAULT_QUERY }, scrollTop: 0 };
  if (typeof value !== 'object' || value === null) return fallback;
  const v = value as Record<string, unknown>;
  const q = v.query as Record<string, unknown> | undefined;
  if (v.v !== 1 || typeof q !== 'object' || q === null) return fallback;
  const sort = (REPORT_SORT_KEYS as readonly unknown[]).includes(q.sort)
    ? (q.sort as ReportSortKey)
    : DEFAULT_QUERY.sort;
  const filter = (REPORT_FILTERS as readonly unknown[]).includes(q.filter)
    ? (q.filter as ReportFilter)
    : DEFAULT_QUERY.filter;
  const search = typeof q.search === 'string' && q.search.length <= 256 ? q.search : '';
  const descending = typeof q.descending === 'boolean' ? q.descending : false;
  const scrollTop =
    typeof v.scrollTop === 'number' && Number.isFinite(v.scrollTop) && v.scrollTop >= 0 ? v.scrollTop : 0;
  return { v: 1, query: { sort, descending, filter, search }, scrollTop };
}

// ---------------------------------------------------------------------------------------------
// The simulation's band and timeline (drawn as SVG in sections/simulation.ts)

/** Each timeline row's height in CSS pixels. */
export const TIMELINE_ROW_HEIGHT = 28;
/** Rows drawn beyond the visible ones on each side. */
export const TIMELINE_OVERSCAN = 10;
/** The SVG's width in its own units (it is stretched to the row's width). */
export const TIMELINE_WIDTH = 1000;
/** The SVG's height in its own units. */
export const TIMELINE_HEIGHT = 20;

/** Where `seconds` falls on an axis of `axisSeconds`, in SVG units (clamped to the axis). */
export function timeX(seconds: number, axisSeconds: number, width = TIMELINE_WIDTH): number {
  if (!(axisSeconds > 0) || !Number.isFinite(seconds)) return 0;
  return Math.round(Math.min(width, Math.max(0, (seconds / axisSeconds) * width)) * 10) / 10;
}

/** A host's pages over time as SVG polyline points: x by time, y from the bottom (0 pages) to the top (all). */
export function pagesPoints(
  pages: ReadonlyArray<readonly [number, number]>,
  totalPages: number,
  axisSeconds: number,
  height = TIMELINE_HEIGHT,
): string {
  const top = 2;
  const bottom = height - 2;
  return pages
    .map(([t, n]) => {
      const y = totalPages > 0 ? bottom - ((bottom - top) * Math.min(n, totalPages)) / totalPages : bottom;
      return `${timeX(t, axisSeconds)},${Math.round(y * 10) / 10}`;
    })
    .join(' ');
}

/** The time axis's ticks: round steps from 0 to at most the axis's end, each with its place in per cent and its label. */
export function axisTicks(axisSeconds: number, count = 5): Array<{ seconds: number; percent: number; label: string }> {
  return rangeTicks(0, axisSeconds, count);
}

/**
 * `seconds` as a label on an axis whose steps are `step` apart: as a duration ("4 m 15 s", "12.1 s"), or, for
 * steps finer than the tenth of a second a duration shows, to the millisecond ("12.08 s").
 */
export function secondsLabel(seconds: number, step: number): string {
  return step < 0.1 && seconds >= 1 ? formatSeconds(seconds) : formatDuration(seconds);
}

/**
 * Round ticks from `from` (the first at or after it) to at most `to`, each with its place in per cent of the range;
 * of ticks that would read alike, the first.
 */
export function rangeTicks(
  from: number,
  to: number,
  count = 5,
): Array<{ seconds: number; percent: number; label: string }> {
  const span = to - from;
  if (!(span > 0) || !Number.isFinite(span)) return [];
  const step = niceStep(span / count);
  const ticks: Array<{ seconds: number; percent: number; label: string }> = [];
  for (let k = Math.ceil(from / step - 1e-9); k * step <= to + span * 1e-9 && ticks.length <= count * 3; k++) {
    const seconds = Number((k * step).toPrecision(12));
    const label = secondsLabel(seconds, step);
    // A step finer than the labels' precision: one tick per label.
    if (ticks.at(-1)?.label === label) continue;
    ticks.push({ seconds, percent: ((seconds - from) / span) * 100, label });
  }
  return ticks;
}

/** The band's marks on the axis: p10 to p90 as a range, p50 and the plan as lines (SVG units). */
export function bandMarks(view: {
  p10Seconds: number;
  p50Seconds: number;
  p90Seconds: number;
  planSeconds: number;
  axisSeconds: number;
}): {
  fromX: number;
  toX: number;
  p50X: number;
  planX: number;
} {
  return {
    fromX: timeX(view.p10Seconds, view.axisSeconds),
    toX: timeX(view.p90Seconds, view.axisSeconds),
    p50X: timeX(view.p50Seconds, view.axisSeconds),
    planX: timeX(view.planSeconds, view.axisSeconds),
  };
}
