/**
 * The plan report's data (docs/extension.md §The plan report): a Plan of up to 100,000 hosts as a table the
 * webview reads a window at a time. The extension sorts, filters and searches here, keeps the last orders
 * (a sort of 100,000 hosts takes tens of milliseconds), formats only the rows asked for, and writes the CSV
 * export. Pure (no vscode).
 */
import { csvRow } from '../../core/format/csv';
import { formatDuration, formatNumber, formatSeconds } from '../../core/format/duration';
import { chartModel, hostGroups, intervalSourceLabel, totalText } from '../../core/format/planSummary';
import type { HostPlan, Plan } from '../../core/plan';
import type { ReportQuery, ReportRowView, ReportSortKey, ReportView } from '../../shared/planReport/messages';

/** Chart bars in the report (the sidebar draws 12). */
export const REPORT_CHART_BARS = 30;
/** Warnings listed in the report at most (a plan can warn about every host). */
export const REPORT_WARNINGS = 200;
/** Orders kept (sorted and filtered views of the hosts). */
const ORDERS_KEPT = 4;

/** The report's header for a plan. */
export function reportView(plan: Plan, seedsFrom: string): ReportView {
  const r = plan.input;
  const settings = [
    `delay ${formatSeconds(r.delaySeconds)} ${r.delayFrom === 'start' ? 'start to start' : 'from the end of a response'}`,
    `latency ${formatSeconds(r.latencySeconds)}`,
    `${formatNumber(r.workers)} ${r.workers === 1 ? 'worker' : 'workers'}`,
    r.rate === null ? 'no global rate' : `${formatNumber(r.rate, 3)} req/s`,
    `Crawl-delay ${r.crawlDelayPolicy} at ${formatSeconds(r.maxCrawlDelaySeconds)}`,
  ];
  return {
    totalText: totalText(plan),
    bindingConstraint: plan.bindingConstraint,
    bindingDescription: plan.bindingDescription,
    hostCount: plan.hosts.length,
    seedsFrom,
    warnings: plan.warnings
      .slice(0, REPORT_WARNINGS)
      .map((w) =>
        w.host === undefined ? { code: w.code, text: w.message } : { code: w.code, host: w.host, text: w.message },
      ),
    warningCount: plan.warnings.length,
    chart: chartModel(plan, REPORT_CHART_BARS, hostGroups(plan)),
    sharded: plan.sharding !== null,
    settingsText: settings.join(' · '),
  };
}

/** One host's row as text. */
export function reportRow(h: HostPlan, plan: Plan): ReportRowView {
  const row: ReportRowView = {
    host: h.host,
    seeds: formatNumber(h.seeds),
    pages: h.pagesUnknown !== undefined ? 'unknown' : formatNumber(h.pages),
    interval: formatSeconds(h.intervalSeconds),
    source: intervalSourceLabel(h.intervalSource),
    intervalSource: h.intervalSource,
    period: formatSeconds(h.periodSeconds),
    pagesPerHour: formatNumber(h.pagesPerHour, 1),
    duration: h.skipped ? 'skipped' : h.pagesUnknown !== undefined ? 'pages unknown' : formatDuration(h.seconds),
    binding: plan.bindingHost === h.host,
    skipped: h.skipped,
  };
  if (h.machine !== undefined) row.machine = String(h.machine);
  return row;
}

type NumberKey = Exclude<ReportSortKey, 'plan' | 'host' | 'source'>;

const NUMBER_KEYS: Readonly<Record<NumberKey, (h: HostPlan) => number>> = {
  seeds: (h) => h.seeds,
  pages: (h) => h.pages,
  interval: (h) => h.intervalSeconds,
  period: (h) => h.periodSeconds,
  pagesPerHour: (h) => h.pagesPerHour,
  // Skipped hosts take no time in the plan: they sort below every crawled host.
  duration: (h) => (h.skipped ? -1 : h.seconds),
  machine: (h) => h.machine ?? 0,
};

/** The hosts of a plan as a table: sorted, filtered and searched views, rows by position, the CSV export. */
export class ReportTable {
  private readonly orders = new Map<string, Int32Array>();

  constructor(readonly plan: Plan) {}

  /** The positions (in plan order) of the hosts `query` shows, in its order. */
  view(query: ReportQuery): Int32Array {
    const key = `${query.sort}|${query.descending}|${query.filter}|${query.search.trim().toLowerCase()}`;
    const cached = this.orders.get(key);
    if (cached !== undefined) {
      // Most recently used last.
      this.orders.delete(key);
      this.orders.set(key, cached);
      return cached;
    }
    const order = this.compute(query);
    this.orders.set(key, order);
    if (this.orders.size > ORDERS_KEPT) this.orders.delete(this.orders.keys().next().value!);
    return order;
  }

  private compute(query: ReportQuery): Int32Array {
    const hosts = this.plan.hosts;
    const search = query.search.trim().toLowerCase();
    const binding = this.plan.bindingHost;
    const keep = (h: HostPlan): boolean => {
      switch (query.filter) {
        case 'all':
          break;
        case 'binding':
          if (h.host !== binding) return false;
          break;
        case 'skipped':
          if (!h.skipped) return false;
          break;
        default:
          if (h.intervalSource !== query.filter) return false;
      }
      return search === '' || h.host.includes(search);
    };
    const picked: number[] = [];
    for (let i = 0; i < hosts.length; i++) if (keep(hosts[i]!)) picked.push(i);
    const sign = query.descending ? -1 : 1;
    if (query.sort === 'plan') {
      if (query.descending) picked.reverse();
      return Int32Array.from(picked);
    }
    let compare: (a: number, b: number) => number;
    if (query.sort === 'host' || query.sort === 'source') {
      const text =
        query.sort === 'host'
          ? (i: number) => hosts[i]!.host
          : (i: number) => intervalSourceLabel(hosts[i]!.intervalSource);
      compare = (a, b) => {
        const x = text(a);
        const y = text(b);
        return x < y ? -sign : x > y ? sign : a - b;
      };
    } else {
      const value = NUMBER_KEYS[query.sort];
      const values = new Float64Array(hosts.length);
      for (const i of picked) values[i] = value(hosts[i]!);
      compare = (a, b) => (values[a]! - values[b]!) * sign || a - b;
    }
    return Int32Array.from(picked.sort(compare));
  }

  /** Rows `offset` to `offset + count` of `query`'s view, and how many hosts the view has. */
  rows(query: ReportQuery, offset: number, count: number): { total: number; rows: ReportRowView[] } {
    const order = this.view(query);
    const rows: ReportRowView[] = [];
    for (let i = offset; i < Math.min(order.length, offset + count); i++)
      rows.push(reportRow(this.plan.hosts[order[i]!]!, this.plan));
    return { total: order.length, rows };
  }

  /** The CSV of `query`'s view, in pieces of about `chunk` rows (100,000 hosts: about 10 MB). */
  *csv(query: ReportQuery, chunk = 5_000): Generator<string> {
    const sharded = this.plan.sharding !== null;
    yield csvRow([
      'host',
      'seeds',
      'pages',
      'interval_seconds',
      'interval_source',
      'period_seconds',
      'pages_per_hour',
      'duration_seconds',
      'duration',
      'skipped',
      'limits_the_crawl',
      ...(sharded ? ['machine'] : []),
    ]);
    const order = this.view(query);
    let piece = '';
    for (let i = 0; i < order.length; i++) {
      const h = this.plan.hosts[order[i]!]!;
      piece += csvRow([
        h.host,
        h.seeds,
        // Empty, never 0, for a host whose pages are unknown (the estimate document's null).
        h.pagesUnknown !== undefined ? null : h.pages,
        h.intervalSeconds,
        h.intervalSource,
        h.periodSeconds,
        h.pagesPerHour,
        h.skipped || h.pagesUnknown !== undefined ? null : h.seconds,
        h.skipped ? 'skipped' : h.pagesUnknown !== undefined ? 'pages unknown' : formatDuration(h.seconds),
        h.skipped,
        this.plan.bindingHost === h.host,
        ...(sharded ? [h.machine ?? null] : []),
      ]);
      if ((i + 1) % chunk === 0) {
        yield piece;
        piece = '';
      }
    }
    if (piece !== '') yield piece;
  }
}
