/**
 * The plan report webview's one state (src/webview/planReport/state.ts) and the decisions its sections take
 * from it: which answers are the ones waited for, and whether a simulation that comes is drawn. Pure, so
 * they run here in node; the sections only turn them into elements.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostToReport, ReportSimulationView } from '../../src/shared/planReport/messages';
import { DEFAULT_QUERY, parseReportState } from '../../src/webview/planReport/model';
import {
  awaitedRows,
  awaitedTimeline,
  createPlanReportState,
  savedState,
  takesSimulation,
} from '../../src/webview/planReport/state';

const simulationView = (number: number): ReportSimulationView => ({
  method: 'engine',
  runs: 10,
  seed: 1,
  p10Seconds: 1,
  p50Seconds: 2,
  p90Seconds: 3,
  planSeconds: 2,
  bandText: 'p10 1 s · p50 2 s · p90 3 s',
  text: 'Simulated',
  timelineHosts: 3,
  number,
  methodText: 'the crawl engine',
  axisSeconds: 3,
  histogram: { fromSeconds: 1, binSeconds: 1, counts: [3, 4, 3] },
  ticksText: '',
});

type Rows = Extract<HostToReport, { type: 'rows' }>;
type Timeline = Extract<HostToReport, { type: 'timeline' }>;
const rows = (plan: number, request: number): Rows => ({ type: 'rows', plan, request, total: 0, offset: 0, rows: [] });
const timeline = (plan: number, simulation: number, request: number): Timeline => ({
  type: 'timeline',
  plan,
  simulation,
  request,
  total: 0,
  offset: 0,
  hosts: [],
});

test('a report just loaded has the view and the scroll position it saved, and nothing from the extension', () => {
  const query = { ...DEFAULT_QUERY, sort: 'host' as const, search: 'a' };
  const state = createPlanReportState({ v: 1, query, scrollTop: 340 });
  assert.deepEqual(state.query, query);
  assert.equal(state.report, null);
  assert.equal(state.request, 0);
  assert.equal(state.table.restoreScroll, 340);
  assert.equal(state.table.rows.size, 0);
  assert.equal(state.timeline.simulation, null);
  assert.deepEqual(savedState(state, 12), { v: 1, query, scrollTop: 12 });
  assert.deepEqual(parseReportState(savedState(state, 12)), { v: 1, query, scrollTop: 12 });
});

test('rows are taken only as the answer to the request the table waits for, of the plan shown', () => {
  const state = createPlanReportState(parseReportState(undefined));
  state.plan = 2;
  assert.equal(awaitedRows(state, rows(2, 5)), false, 'nothing asked');
  state.table.waiting = { request: 5, offset: 0, count: 10 };
  assert.equal(awaitedRows(state, rows(2, 5)), true);
  assert.equal(awaitedRows(state, rows(2, 4)), false, 'an older request');
  assert.equal(awaitedRows(state, rows(1, 5)), false, 'another plan');
});

test('timeline rows are taken only for the simulation drawn, as the answer to the request waited for', () => {
  const state = createPlanReportState(parseReportState(undefined));
  state.plan = 2;
  state.timeline.waiting = { request: 7 };
  assert.equal(awaitedTimeline(state, timeline(2, 1, 7)), false, 'no simulation drawn');
  state.timeline.simulation = simulationView(1);
  assert.equal(awaitedTimeline(state, timeline(2, 1, 7)), true);
  assert.equal(awaitedTimeline(state, timeline(2, 0, 7)), false, 'another simulation');
  assert.equal(awaitedTimeline(state, timeline(1, 1, 7)), false, 'another plan');
  assert.equal(awaitedTimeline(state, timeline(2, 1, 6)), false, 'an older request');
  state.timeline.waiting = undefined;
  assert.equal(awaitedTimeline(state, timeline(2, 1, 7)), false, 'nothing asked');
});

test('a simulation is drawn when it is of the plan shown and not the one drawn already', () => {
  const state = createPlanReportState(parseReportState(undefined));
  state.plan = 2;
  const message = (plan: number, simulation: ReportSimulationView | null) =>
    ({ type: 'simulation', plan, simulation, status: 'Simulating…' }) as const;
  assert.equal(takesSimulation(state, message(1, simulationView(1))), false, 'another plan');
  assert.equal(takesSimulation(state, message(2, simulationView(1))), true);
  assert.equal(takesSimulation(state, message(2, null)), true, 'none: the status is shown');
  state.timeline.simulation = simulationView(1);
  assert.equal(takesSimulation(state, message(2, simulationView(1))), false, 'the same again: what is drawn stays');
  assert.equal(takesSimulation(state, message(2, simulationView(2))), true, 'a new one');
  assert.equal(takesSimulation(state, message(2, null)), true, 'none any more');
});
