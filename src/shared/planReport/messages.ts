/**
 * The typed messages between the extension and the plan report, the second webview (a panel in the editor
 * area, ARCHITECTURE.md §The webview protocol; docs/extension.md §The plan report). Its rules are the
 * planner's: string-literal `type` unions, both sides switch exhaustively, and the extension trusts nothing
 * from the webview: `parseReportMessage` checks every field before any work is done.
 *
 * The report shows every host of a plan of up to 100,000 hosts. The webview never holds them all: it asks for
 * the rows it draws (`rows`, a window of at most {@link MAX_REPORT_ROWS}) in an order and a filter, and the
 * extension sorts, filters and searches. A later section (a timeline, a p10–p90 band) is a field of
 * `ReportView` and a renderer in src/webview/planReport/.
 *
 * Pure: no vscode, no DOM, no I/O. Bundled into both the extension and the report webview.
 */
import type { ChartModel } from '../../core/format/planSummary';
import type { BindingConstraint, IntervalSource, PlanWarningCode } from '../../core/plan';
import type { MakespanHistogram } from '../../core/simulate/histogram';
import type { TimelineRequest } from '../../core/simulate/requestLog';
import {
  assertNever,
  checkMessage,
  hasKnownType,
  type Invalid,
  isRecord,
  type MessageFields,
  type MessageHead,
  unknownKeys,
} from '../messageChecks';
import type { NoticeLevel, SimulationView } from '../planner/viewModel';

/** Rows asked for at once at most (a screen is about 40). */
export const MAX_REPORT_ROWS = 500;
/** Timeline hosts asked for at once at most. */
export const MAX_TIMELINE_ROWS = 200;
/** The search text at most. */
export const MAX_REPORT_SEARCH_CHARS = 256;

/** The columns the table sorts by. */
export const REPORT_SORT_KEYS = [
  'plan',
  'host',
  'seeds',
  'pages',
  'interval',
  'source',
  'period',
  'pagesPerHour',
  'duration',
  'machine',
] as const;
export type ReportSortKey = (typeof REPORT_SORT_KEYS)[number];

/** Which hosts the table shows: all, the binding one, skipped ones, or those whose interval one source sets. */
export const REPORT_FILTERS = [
  'all',
  'binding',
  'skipped',
  'configured',
  'crawl-delay',
  'adaptive',
  'latency',
] as const;
export type ReportFilter = (typeof REPORT_FILTERS)[number];

/** The table's view of the hosts: an order, a filter and a search (a part of the host name, any case). */
export interface ReportQuery {
  sort: ReportSortKey;
  descending: boolean;
  filter: ReportFilter;
  search: string;
}

/** One host's row, as text (the extension formats; the webview only draws). */
export interface ReportRowView {
  host: string;
  seeds: string;
  pages: string;
  /** "10 s" */
  interval: string;
  /** "Crawl-delay", "delay", "adaptive", "latency" */
  source: string;
  intervalSource: IntervalSource;
  /** "10 s" */
  period: string;
  pagesPerHour: string;
  /** "2 h 46 m 40 s", or "skipped" */
  duration: string;
  /** The machine it is sharded to, when the plan shards. */
  machine?: string;
  binding: boolean;
  skipped: boolean;
}

/** The report's header: the plan in a few lines and its chart. */
export interface ReportView {
  /** "11 d 13 h 47 m for 1,000,000 pages over 100,000 hosts" */
  totalText: string;
  bindingConstraint: BindingConstraint;
  bindingDescription: string;
  hostCount: number;
  /** Where the seeds came from: "seeds box" or the file's name. */
  seedsFrom: string;
  warnings: Array<{ code: PlanWarningCode; host?: string; text: string }>;
  warningCount: number;
  chart: ChartModel;
  /** The plan shards its hosts over machines: the table has a Machine column. */
  sharded: boolean;
  /** The form's settings that shape every row: "delay 1 s start to start · latency 0.5 s · 8 workers". */
  settingsText: string;
}

/**
 * The simulation of the report's plan (docs/extension.md §Calibration and simulation): the band as the sidebar
 * has it, and what the report draws it with.
 */
export interface ReportSimulationView extends SimulationView {
  /** Numbers the simulations of one plan: timeline rows are asked for by it. */
  number: number;
  /** How the band and the timeline were made, in words (per-host sums say so). */
  methodText: string;
  /** The time axis's end: the latest of the plan, the run drawn (its p50, its hosts' ends and pauses); the band's p90 may lie past it. */
  axisSeconds: number;
  /** The runs' makespans in round bins (at most HISTOGRAM_MAX_BINS); null when the simulation has none. */
  histogram: MakespanHistogram | null;
  /** What the timeline's ticks leave out, in words ("Ticks: … at most 300 per host …"); empty when nothing. */
  ticksText: string;
}

/** One host's line in the timeline: when it starts and ends, its pages over time, its Retry-After pauses. */
export interface TimelineRowView {
  host: string;
  /** The host that limits the crawl (drawn first). */
  binding: boolean;
  startSeconds: number;
  endSeconds: number;
  /** [seconds, pages fetched by then], ascending. */
  pages: Array<[number, number]>;
  totalPages: number;
  pauses: Array<{ fromSeconds: number; untilSeconds: number; label: string }>;
  /** Its requests in the run, each a tick (at most TIMELINE_MAX_REQUESTS); null when the run kept none for it. */
  requests: TimelineRequest[] | null;
  /** How many requests it made in the run (null: not counted, per-host sums), and how many were 429 or 503. */
  requestCount: number | null;
  refusedCount: number;
  /** "robots.txt at 0 s, 12 pages by 29.4 s, 2 Retry-After pauses" */
  summary: string;
}

export type HostToReport =
  /** The plan (after `ready`, and whenever the planner's plan changes); null: no plan, `problems` say why. `plan` numbers it. */
  | { type: 'report'; plan: number; report: ReportView | null; problems: string[] }
  /** Rows `offset`… of the hosts in `query`'s view of plan `plan`, and how many hosts that view has. */
  | { type: 'rows'; plan: number; request: number; total: number; offset: number; rows: ReportRowView[] }
  | { type: 'notice'; level: NoticeLevel; message: string }
  /**
   * The simulation of plan `plan` (after each `report`, and when it changes): null with `status` while it runs,
   * when it failed, or when Simulate is off (then `status` says so).
   */
  | { type: 'simulation'; plan: number; simulation: ReportSimulationView | null; status: string }
  /** Timeline hosts `offset`… of simulation `simulation` of plan `plan`, the binding host first, and how many there are. */
  | {
      type: 'timeline';
      plan: number;
      simulation: number;
      request: number;
      total: number;
      offset: number;
      hosts: TimelineRowView[];
    };

export type ReportToHost =
  /** The webview is loaded. */
  | { type: 'ready' }
  /** Rows `offset` to `offset + count` of plan `plan` in `query`'s view; `request` comes back with them. */
  | { type: 'rows'; plan: number; request: number; query: ReportQuery; offset: number; count: number }
  /** Save the rows in `query`'s view as CSV, or the whole plan as the `estimate --json` document. */
  | { type: 'export'; format: 'csv' | 'json'; query: ReportQuery }
  /** Timeline hosts `offset` to `offset + count` of simulation `simulation` of plan `plan`. */
  | { type: 'timeline'; plan: number; simulation: number; request: number; offset: number; count: number };

export type ReportMessageType = ReportToHost['type'];
export type HostReportMessageType = HostToReport['type'];

function isCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/** Checks a query field by field; returns a fresh query or why not. */
export function parseReportQuery(raw: unknown): ReportQuery | Invalid {
  if (!isRecord(raw)) return { error: 'query: not an object' };
  const extra = unknownKeys(raw, ['sort', 'descending', 'filter', 'search']);
  if (extra !== undefined) return { error: `query: unknown field ${JSON.stringify(extra.slice(0, 40))}` };
  const { sort, descending, filter, search } = raw;
  if (!(REPORT_SORT_KEYS as readonly unknown[]).includes(sort)) return { error: 'query.sort: not a column' };
  if (typeof descending !== 'boolean') return { error: 'query.descending: not a boolean' };
  if (!(REPORT_FILTERS as readonly unknown[]).includes(filter)) return { error: 'query.filter: not a filter' };
  if (typeof search !== 'string' || search.length > MAX_REPORT_SEARCH_CHARS)
    return { error: `query.search: not a string of at most ${MAX_REPORT_SEARCH_CHARS} characters` };
  return { sort: sort as ReportSortKey, descending, filter: filter as ReportFilter, search };
}

/**
 * Validates a message from the report webview. Every field is checked (types, ranges, known values);
 * anything unknown or extra is refused. The host logs and ignores what comes back as `{ error }`.
 */
export function parseReportMessage(input: unknown): ReportToHost | Invalid {
  return checkMessage(input, REPORT_MESSAGE_FIELDS, reportMessage);
}

/** The fields each message may carry (besides `type`), checked before its own checks. */
const REPORT_MESSAGE_FIELDS: MessageFields<ReportToHost> = {
  ready: [],
  rows: ['plan', 'request', 'query', 'offset', 'count'],
  timeline: ['plan', 'simulation', 'request', 'offset', 'count'],
  export: ['format', 'query'],
};

/** A message's own checks, once it has a known type and only that type's fields. */
function reportMessage(raw: MessageHead<ReportToHost>): ReportToHost | Invalid {
  switch (raw.type) {
    case 'ready':
      return { type: 'ready' };
    case 'rows': {
      if (!isCount(raw.plan, Number.MAX_SAFE_INTEGER) || !isCount(raw.request, Number.MAX_SAFE_INTEGER))
        return { error: 'rows: plan and request must be whole numbers' };
      if (!isCount(raw.offset, 10_000_000)) return { error: 'rows: offset must be a whole number from 0' };
      if (!isCount(raw.count, MAX_REPORT_ROWS)) return { error: `rows: count must be 0 to ${MAX_REPORT_ROWS}` };
      const query = parseReportQuery(raw.query);
      if ('error' in query) return { error: `rows: ${query.error}` };
      return { type: 'rows', plan: raw.plan, request: raw.request, query, offset: raw.offset, count: raw.count };
    }
    case 'timeline': {
      if (
        !isCount(raw.plan, Number.MAX_SAFE_INTEGER) ||
        !isCount(raw.simulation, Number.MAX_SAFE_INTEGER) ||
        !isCount(raw.request, Number.MAX_SAFE_INTEGER)
      ) {
        return { error: 'timeline: plan, simulation and request must be whole numbers' };
      }
      if (!isCount(raw.offset, 10_000_000)) return { error: 'timeline: offset must be a whole number from 0' };
      if (!isCount(raw.count, MAX_TIMELINE_ROWS)) return { error: `timeline: count must be 0 to ${MAX_TIMELINE_ROWS}` };
      return {
        type: 'timeline',
        plan: raw.plan,
        simulation: raw.simulation,
        request: raw.request,
        offset: raw.offset,
        count: raw.count,
      };
    }
    case 'export': {
      if (raw.format !== 'csv' && raw.format !== 'json') return { error: 'export: format must be csv or json' };
      const query = parseReportQuery(raw.query);
      if ('error' in query) return { error: `export: ${query.error}` };
      return { type: 'export', format: raw.format, query };
    }
    default:
      return assertNever(raw.type);
  }
}

const HOST_REPORT_MESSAGE_TYPE_SET = {
  report: true,
  rows: true,
  notice: true,
  simulation: true,
  timeline: true,
} as const satisfies Record<HostReportMessageType, true>;

/** The report webview's guard on incoming messages: an object with a known `type`. */
export function isHostReportMessage(raw: unknown): raw is HostToReport {
  return hasKnownType<HostToReport>(raw, HOST_REPORT_MESSAGE_TYPE_SET);
}
