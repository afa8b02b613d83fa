/**
 * Everything the plan report webview knows, in one object: the plan it shows and its header, the view of the
 * hosts (the query) and the rows of it received so far, the simulation and the timeline rows received, what
 * it has asked for and not yet received, and the frames and timers that will draw or send. `main.ts` makes it
 * once; each section (sections/) renders from it, and its events write to it. The extension holds the plan
 * and answers for rows; this is the page's copy of what it was sent. Pure: no DOM, so the decisions below are
 * unit-tested in node (the elements on screen are the page's, page.ts).
 */
import type {
  HostToReport,
  ReportQuery,
  ReportRowView,
  ReportSimulationView,
  ReportView,
  TimelineRowView,
} from '../../shared/planReport/messages';
import type { ReportState } from './model';

export type Timer = ReturnType<typeof setTimeout>;

/** The hosts table: the rows of the current view received so far, by position in it. */
export interface TableState {
  rows: Map<number, ReportRowView>;
  /** How many rows the view has: known (`counted`) once its first rows came. */
  total: number;
  counted: boolean;
  /** The rows asked for and not yet received. */
  waiting: { request: number; offset: number; count: number } | undefined;
  /** Where to scroll once rows come: where the report was scrolled to before a reload, until the first rows. */
  restoreScroll: number | undefined;
  /** The animation frame that will draw the window, when one is asked for. */
  frame: number | undefined;
}

/** The simulation: its view (null: none yet) and the timeline rows received so far, by host position. */
export interface TimelineState {
  simulation: ReportSimulationView | null;
  rows: Map<number, TimelineRowView>;
  /** The timeline rows asked for and not yet received. */
  waiting: { request: number } | undefined;
  frame: number | undefined;
}

export interface PlanReportState {
  /** The view of the hosts: order, filter, search (kept in getState). */
  query: ReportQuery;
  /** The plan the report shows (its number), and its header (null: no plan yet). */
  plan: number;
  report: ReportView | null;
  /** The last request's number (rows and timeline rows count together): an answer names the request it is for. */
  request: number;
  table: TableState;
  timeline: TimelineState;
  /** The pause in typing before a search is sent, and the timer that clears the notice. */
  timers: { search?: Timer; notice?: Timer };
}

/** The state of a report just loaded: the view and scroll position it saved, nothing from the extension yet. */
export function createPlanReportState(saved: ReportState): PlanReportState {
  return {
    query: saved.query,
    plan: 0,
    report: null,
    request: 0,
    table: {
      rows: new Map(),
      total: 0,
      counted: false,
      waiting: undefined,
      restoreScroll: saved.scrollTop,
      frame: undefined,
    },
    timeline: { simulation: null, rows: new Map(), waiting: undefined, frame: undefined },
    timers: {},
  };
}

/** Whether rows that came are the answer the table waits for (of this plan, to the last request). */
export function awaitedRows(state: PlanReportState, message: Extract<HostToReport, { type: 'rows' }>): boolean {
  const waiting = state.table.waiting;
  return message.plan === state.plan && waiting !== undefined && message.request === waiting.request;
}

/** Whether timeline rows that came are the answer the timeline waits for (of this plan and simulation). */
export function awaitedTimeline(state: PlanReportState, message: Extract<HostToReport, { type: 'timeline' }>): boolean {
  const simulation = state.timeline.simulation;
  return (
    simulation !== null &&
    message.plan === state.plan &&
    message.simulation === simulation.number &&
    message.request === state.timeline.waiting?.request
  );
}

/**
 * Whether a simulation that came is drawn: one of this plan, unless it is the one drawn already (the same
 * simulation again: the plan did not change, and what is drawn stays).
 */
export function takesSimulation(
  state: PlanReportState,
  message: Extract<HostToReport, { type: 'simulation' }>,
): boolean {
  if (message.plan !== state.plan) return false;
  const drawn = state.timeline.simulation;
  return !(message.simulation !== null && drawn !== null && message.simulation.number === drawn.number);
}

/** What the report keeps in getState: its view of the hosts and where it is scrolled to. */
export function savedState(state: Pick<PlanReportState, 'query'>, scrollTop: number): ReportState {
  return { v: 1, query: state.query, scrollTop };
}
