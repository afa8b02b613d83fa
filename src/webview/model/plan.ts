/**
 * The plan's summary in the sidebar as pure functions: the host table's order and its rows' text, and the
 * lines that count what is left out. The plan's own text (total, rows, chart) is made by the extension
 * (src/core/format/planSummary.ts); this only arranges it.
 */
import { formatNumber } from '../../core/format/duration';
import type { PlanSummaryView, SummaryRow } from '../../shared/planner/viewModel';

/** What the sidebar's host table can be sorted by; `plan` is the extension's order (the binding row first). */
export type SortKey = 'plan' | 'host' | 'pages' | 'interval' | 'duration';

export interface TableSort {
  key: SortKey;
  descending: boolean;
}

/** The order a column sorts in first: numbers largest first, hosts A to Z. */
export function firstDirection(key: SortKey): boolean {
  return key !== 'host' && key !== 'plan';
}

/** The next sort after a click on `key`'s header: that column, or the other direction when it is sorted already. */
export function nextSort(current: TableSort, key: SortKey): TableSort {
  return current.key === key ? { key, descending: !current.descending } : { key, descending: firstDirection(key) };
}

const SORT_VALUES: Readonly<Record<Exclude<SortKey, 'plan'>, (r: SummaryRow) => number | string>> = {
  host: (r) => r.host,
  pages: (r) => r.sort.pages,
  interval: (r) => r.sort.intervalSeconds,
  duration: (r) => r.sort.seconds,
};

/** The rows in `sort`'s order (stable: ties keep the extension's order). */
export function sortRows(rows: readonly SummaryRow[], sort: TableSort): SummaryRow[] {
  if (sort.key === 'plan') return [...rows];
  const value = SORT_VALUES[sort.key];
  const sign = sort.descending ? -1 : 1;
  return rows
    .map((row, i) => ({ row, i, v: value(row) }))
    .sort((a, b) => {
      const c =
        typeof a.v === 'string' && typeof b.v === 'string' ? a.v.localeCompare(b.v) : (a.v as number) - (b.v as number);
      return c === 0 ? a.i - b.i : sign * c;
    })
    .map((x) => x.row);
}

/** `aria-sort` of a column header. */
export function ariaSort(sort: TableSort, key: SortKey): 'ascending' | 'descending' | 'none' {
  return sort.key !== key ? 'none' : sort.descending ? 'descending' : 'ascending';
}

/** One row of the host table as it is drawn. */
export interface HostRowView {
  /** Hosts alike in one row: "1,000 ×" on screen, "1,000 hosts like " to a screen reader; none for one host. */
  count?: { shown: string; spoken: string };
  /** The row heading's title: "1,000 hosts like a.example: 1,000 pages each, one request every 1.5 s". */
  title: string;
  className: string;
  attrs: Record<string, string>;
  /** The interval cell's title: "10 s, set by Crawl-delay". */
  intervalTitle: string;
  /** The time cell: the duration, or "skipped". */
  time: string;
}

export function hostRowView(row: SummaryRow): HostRowView {
  const view: HostRowView = {
    title: `${row.label}: ${row.detail}${row.period ? `, ${row.period}` : ''}`,
    className: [row.binding ? 'binding' : '', row.skipped ? 'skipped' : ''].filter(Boolean).join(' '),
    attrs: { 'data-host': row.host, 'data-source': row.intervalSource, 'data-count': String(row.count) },
    intervalTitle: `${row.interval}, set by ${row.source ?? 'the delay'}${row.period ? `; ${row.period}` : ''}`,
    time: row.skipped ? 'skipped' : row.duration,
  };
  if (row.count > 1)
    view.count = { shown: `${formatNumber(row.count)} ×`, spoken: `${formatNumber(row.count)} hosts like ` };
  return view;
}

/** Under the table: the rows it does not show, or ''. */
export function moreRowsText(summary: Pick<PlanSummaryView, 'groupCount' | 'groups'>): string {
  const hidden = summary.groupCount - summary.groups.length;
  return hidden > 0 ? `${formatNumber(hidden)} more ${hidden === 1 ? 'row' : 'rows'} in the plan report.` : '';
}

/** Under the warnings: those not listed, or ''. */
export function moreWarningsText(summary: Pick<PlanSummaryView, 'warningCount' | 'warnings'>): string {
  const more = summary.warningCount - summary.warnings.length;
  return more > 0 ? `and ${formatNumber(more)} more warnings in the plan report.` : '';
}

/** While a long list is planned. */
export function planningText(seeds: number): string {
  return `Planning ${formatNumber(seeds)} seeds…`;
}
