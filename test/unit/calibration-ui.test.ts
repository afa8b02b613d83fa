/**
 * Calibration and simulation in the planner (docs/extension.md §Calibration and simulation), on its host side
 * with fakes for the webview and the store: a test crawl's in-memory report calibrates the plan as its file
 * does, "Plan with what the test crawl measured" turns on and off and names what the plan took per host, and
 * Simulate runs the real simulation (in process here; the extension runs it in a worker thread, tested
 * below too), is cancelled when the plan changes, and reaches the plan report with its timeline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { calibrationFromReport } from '../../src/core/calibrate/fromCrawlReport';
import type { CrawlReport } from '../../src/core/crawl/crawlReport';
import { reportToJson } from '../../src/core/format/safeJson';
import type { Plan } from '../../src/core/plan';
import { simulate } from '../../src/core/simulate/simulate';
import { SIMULATION_DEFAULTS } from '../../src/core/simulate/options';
import type { Simulation } from '../../src/core/simulate/types';
import { PlannerController } from '../../src/extension/planner/controller';
import type { PlannerViewDeps } from '../../src/extension/planner/deps';
import { simulationBandText } from '../../src/extension/planner/estimates';
import { runSimulation } from '../../src/extension/planner/simulateRunner';
import { ReportController } from '../../src/extension/planReport/controller';
import { ReportTimeline } from '../../src/extension/planReport/timeline';
import { readSimulationFields } from '../../src/shared/planner/formFields';
import {
  DEFAULT_SIMULATION_SETTINGS,
  toCrawlResultView,
  type CrawlResultView,
  type PlannerViewSettings,
  type SimulationState,
} from '../../src/shared/planner/viewModel';
import { parseWebviewMessage, type HostToWebview } from '../../src/shared/planner/messages';
import type { PlannerForm } from '../../src/shared/planner/form';
import { parseReportMessage, type HostToReport } from '../../src/shared/planReport/messages';
import { bandSummaryText, calibrationItems } from '../../src/webview/model';
import {
  axisTicks,
  bandMarks,
  pagesPoints,
  timeX,
  TIMELINE_HEIGHT,
  TIMELINE_WIDTH,
} from '../../src/webview/planReport/model';
import { testCrawlReport } from '../helpers/calibration';
import type { CrawlSummary } from '../../src/core/crawl/events';

const settings: PlannerViewSettings = {
  userAgent: 'ExampleBot',
  defaultDelaySeconds: 0.5,
  delayFrom: 'start',
  maxCrawlDelaySeconds: 30,
  crawlDelayPolicy: 'cap',
  maxPages: 50,
};
const form: PlannerForm = {
  pagesMode: 'perHost',
  pages: 40,
  pagesByHost: {},
  rate: null,
  workers: null,
  delaySeconds: null,
  delayFrom: 'start',
  latencySeconds: null,
  machines: null,
  deadlineSeconds: null,
  userAgent: '',
  useRobots: false,
  checkServers: false,
  politenessBy: 'host',
};
/** The report's two hosts, and one it did not see. */
const SEEDS = 'http://a.example/\nhttp://b.example/\nhttp://c.example/';

type Simulate = NonNullable<PlannerViewDeps['simulate']>;

function harness(simulateFn?: Simulate) {
  const posted: HostToWebview[] = [];
  const logs: string[] = [];
  let crawlListener: Parameters<NonNullable<PlannerViewDeps['onDidEndCrawl']>>[0] | undefined;
  const deps: PlannerViewDeps = {
    getSettings: () => settings,
    isTrusted: () => true,
    inspectRobots: () => Promise.reject(new Error('not in this test')),
    runTestCrawl: () => undefined,
    openRobots: () => undefined,
    log: (m) => logs.push(m),
    onDidEndCrawl: (listener) => {
      crawlListener = listener;
      return { dispose: () => (crawlListener = undefined) };
    },
    ...(simulateFn ? { simulate: simulateFn } : {}),
  };
  const controller = new PlannerController(deps, {
    store: { load: () => ({ v: 2, form, seedsText: SEEDS }), save: async () => undefined },
    writeClipboard: async () => undefined,
  });
  controller.attach((m) => {
    posted.push(structuredClone(m));
    return Promise.resolve(true);
  });
  controller.receive({ type: 'ready' });
  return {
    controller,
    posted,
    logs,
    endCrawl: (crawl: CrawlResultView, report?: { report: CrawlReport; file?: string }) =>
      crawlListener?.(crawl, report),
    last: <T extends HostToWebview['type']>(type: T) =>
      posted.filter((m) => m.type === type).at(-1) as Extract<HostToWebview, { type: T }> | undefined,
  };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function crawlView(report: CrawlReport): CrawlResultView {
  return toCrawlResultView('test crawl: demo hosts', 0, report.summary as CrawlSummary);
}

/** The in-process simulation, as the worker runs it. */
const inProcess: Simulate = (plan, options) => Promise.resolve(simulate(plan, options));

test("a test crawl's report in memory calibrates exactly as its file does", async () => {
  const report = await testCrawlReport();
  assert.deepEqual(
    calibrationFromReport(report, 'r.json'),
    calibrationFromReport(JSON.parse(reportToJson(report)), 'r.json'),
  );
});

test('"Plan with what the test crawl measured": offered after a crawl, names the inputs per host, and turns off again', async () => {
  const report = await testCrawlReport();
  const h = harness();
  await settle();
  const typed = h.controller.currentPlan().plan!;
  assert.equal(h.last('state')!.calibration.crawl, null, 'nothing to offer before a crawl');
  assert.throws(() => h.controller.useCalibration('crawl'), /no test crawl in this window has measured anything yet/);
  h.controller.receive({ type: 'useCalibration', source: 'crawl' });
  assert.match((h.last('notice') as { message: string }).message, /run a test crawl first/);

  h.endCrawl(crawlView(report), { report, file: '.crawl-planner/reports/crawl-1.json' });
  const offered = h.last('calibration')!.calibration;
  assert.deepEqual(offered.crawl, {
    name: 'test crawl: demo hosts',
    pages: report.summary.pages,
    requests: report.summary.requests,
  });
  assert.equal(offered.using, null, 'offered, not used until asked');
  assert.equal(h.controller.currentPlan().plan, typed, 'the plan is unchanged');

  h.controller.receive({ type: 'useCalibration', source: 'crawl' });
  const calibrated = h.controller.currentPlan().plan!;
  assert.notEqual(calibrated.totalSeconds, typed.totalSeconds, 'the measured answer times and faults change the plan');
  assert.equal(h.last('calibration')!.calibration.using, 'crawl');
  const view = h.last('planResult')!.result.calibration!;
  assert.equal(view.source, 'crawl');
  assert.equal(view.label, 'test crawl: demo hosts');
  assert.match(view.headline, /^a test crawl of \d+ pages, \d+ requests in /);
  const used = Object.fromEntries(view.hosts.map((host) => [host.host, host.used]));
  // a.example answered with 429s; b.example declared a Crawl-delay and had a 503 and a timeout.
  assert.deepEqual(used['a.example'], ['latency', 'faults']);
  assert.deepEqual(used['b.example'], ['latency', 'crawl-delay', 'faults']);
  assert.deepEqual(view.unseenHosts, ['c.example']);
  assert.equal(view.unseenCount, 1);
  // Each planned host says the same in the plan itself (and so in Copy plan as JSON).
  assert.deepEqual(
    calibrated.hosts.map((x) => [x.host, x.calibrated]),
    [
      ['a.example', ['latency', 'faults']],
      ['b.example', ['latency', 'crawl-delay', 'faults']],
      ['c.example', []],
    ],
  );
  const json = JSON.parse(h.controller.currentPlanJson()!) as {
    calibration: { unseenHosts: string[]; hosts: Array<{ host: string }> };
  };
  assert.deepEqual(json.calibration.unseenHosts, ['c.example']);
  assert.deepEqual(
    json.calibration.hosts.map((x) => x.host),
    ['a.example', 'b.example'],
  );

  h.controller.receive({ type: 'useCalibration', source: 'off' });
  assert.equal(h.controller.currentPlan().plan!.totalSeconds, typed.totalSeconds, 'the typed values again');
  assert.equal(h.last('planResult')!.result.calibration, null);
  assert.equal(h.last('calibration')!.calibration.using, null);
});

test('a crawl that measured nothing offers nothing; a newer crawl replaces the one in use', async () => {
  const report = await testCrawlReport();
  const h = harness();
  await settle();
  const empty = { ...report, requests: [] } as CrawlReport;
  h.endCrawl(crawlView(report), { report: empty });
  assert.equal(h.last('calibration'), undefined);
  assert.match(h.logs.join('\n'), /nothing to calibrate from: crawl report: no page request got an answer/);
  h.endCrawl(crawlView(report), { report });
  h.controller.useCalibration('crawl');
  const bOf = () => h.controller.currentPlan().plan!.hosts.find((x) => x.host === 'b.example')!;
  const first = bOf().seconds;
  assert.ok(bOf().calibrated.length > 0);
  // The next crawl saw only a.example: b.example goes back to the typed values.
  const onlyA = { ...report, requests: report.requests.filter((r) => r.host === 'a.example') } as CrawlReport;
  h.endCrawl({ ...crawlView(report), name: 'test crawl: a' }, { report: onlyA });
  const view = h.last('planResult')!.result.calibration!;
  assert.equal(view.label, 'test crawl: a');
  assert.deepEqual(view.unseenHosts, ['b.example', 'c.example']);
  assert.deepEqual(bOf().calibrated, []);
  assert.notEqual(bOf().seconds, first);
});

test('Simulate: the band for the plan, the same for the same seed, cancelled and redone when the plan changes', async () => {
  const report = await testCrawlReport();
  const calls: Array<{ plan: Plan; signal: AbortSignal }> = [];
  const h = harness((plan, options, signal) => {
    calls.push({ plan, signal });
    return inProcess(plan, options, signal);
  });
  await settle();
  h.endCrawl(crawlView(report), { report });
  h.controller.useCalibration('crawl');
  h.controller.receive({ type: 'simulate', settings: { enabled: true, runs: 50, seed: 7 } });
  assert.deepEqual(h.last('simulation')!.simulation, { state: 'running', runs: 50, seed: 7 });
  await settle();
  const done = h.last('simulation')!.simulation;
  assert.equal(done.state, 'done');
  const sim = (done as Extract<SimulationState, { state: 'done' }>).simulation;
  assert.ok(sim.p10Seconds <= sim.p50Seconds && sim.p50Seconds <= sim.p90Seconds, JSON.stringify(sim));
  assert.ok(sim.p10Seconds < sim.p90Seconds, 'measured answer times and faults spread the runs');
  assert.equal(sim.method, 'engine');
  assert.equal(sim.timelineHosts, 3);
  assert.equal(sim.planSeconds, h.controller.currentPlan().plan!.totalSeconds);
  assert.match(sim.text, /^Simulated: p10 .* over 50 runs of the crawl engine on virtual time, seed 7; the plan says /);
  assert.equal(h.controller.currentSimulation()!.plan, h.controller.currentPlan().plan);
  // The CLI's document: the simulation is in Copy plan as JSON.
  assert.equal(
    (JSON.parse(h.controller.currentPlanJson()!) as { simulation: Simulation }).simulation.p50Seconds,
    sim.p50Seconds,
  );

  // The same seed: the same band (simulateNow, as the Simulate Plan command runs it).
  const again = await h.controller.simulateNow({ runs: 50, seed: 7 });
  assert.deepEqual(again, done);

  // A plan change while a simulation runs: that one is stopped, and the new plan is simulated.
  let release!: () => void;
  const slow = harness((plan, options, signal) => {
    calls.push({ plan, signal });
    return new Promise<Simulation>((resolve) => (release = () => resolve(simulate(plan, options))));
  });
  await settle();
  slow.controller.receive({ type: 'simulate', settings: { enabled: true, runs: 20, seed: 1 } });
  await settle();
  const first = calls.at(-1)!;
  slow.controller.receive({ type: 'formChanged', form: { ...form, pages: 10 } });
  assert.equal(first.signal.aborted, true, 'the running simulation is stopped');
  assert.equal(slow.last('simulation')!.simulation.state, 'running');
  release();
  await settle();
  const second = calls.at(-1)!;
  assert.notEqual(second, first, 'the new plan is simulated');
  assert.equal(second.plan.totalPages, 30);
  release();
  await settle();
  assert.equal(slow.last('simulation')!.simulation.state, 'done');
  assert.equal(slow.controller.currentSimulation()!.plan, slow.controller.currentPlan().plan);

  // Off: nothing runs, nothing is shown.
  slow.controller.receive({ type: 'simulate', settings: { enabled: false, runs: 20, seed: 1 } });
  assert.deepEqual(slow.last('simulation')!.simulation, { state: 'off' });
  assert.equal(slow.controller.currentSimulation(), undefined);
});

test("the simulation's worker thread gives what simulate gives, and is terminated when the plan changes", async () => {
  const report = await testCrawlReport();
  const h = harness();
  await settle();
  h.endCrawl(crawlView(report), { report });
  h.controller.useCalibration('crawl');
  const plan = h.controller.currentPlan().plan!;
  // The worker bundled as esbuild.js bundles dist/simulate.js, into a temporary folder.
  const dir = mkdtempSync(join(tmpdir(), 'crawl-planner-simulate-'));
  const script = { file: join(dir, 'simulate.js') };
  await build({
    entryPoints: [join(__dirname, '../../src/extension/planner/simulateWorker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: script.file,
    logLevel: 'silent',
  });
  const options = { runs: 30, seed: 3 };
  assert.deepEqual(await runSimulation(script, plan, options, new AbortController().signal), simulate(plan, options));
  const abort = new AbortController();
  const running = runSimulation(script, plan, { runs: 10_000, seed: 3 }, abort.signal);
  abort.abort();
  await assert.rejects(running, { name: 'AbortError' });
  rmSync(dir, { recursive: true, force: true });
});

test('the plan report gets the band and a timeline of every host, the binding host first, a window at a time', async () => {
  const report = await testCrawlReport();
  const h = harness(inProcess);
  await settle();
  h.endCrawl(crawlView(report), { report });
  h.controller.useCalibration('crawl');
  const state = await h.controller.simulateNow({ runs: 40, seed: 2 });
  assert.equal(state.state, 'done');
  const sent: HostToReport[] = [];
  const reportController = new ReportController({
    source: {
      currentPlan: () => h.controller.currentPlan(),
      seedsFrom: () => 'the seeds box',
      currentSimulation: () => h.controller.currentSimulation(),
      simulationState: () => h.controller.simulationState(),
    },
    save: async () => undefined,
    log: () => undefined,
  });
  reportController.attach((m) => void sent.push(structuredClone(m)));
  reportController.receive({ type: 'ready' });
  await settle();
  const simMessage = sent.find((m) => m.type === 'simulation') as Extract<HostToReport, { type: 'simulation' }>;
  const view = simMessage.simulation!;
  const done = (state as Extract<SimulationState, { state: 'done' }>).simulation;
  assert.deepEqual(
    [view.p10Seconds, view.p50Seconds, view.p90Seconds],
    [done.p10Seconds, done.p50Seconds, done.p90Seconds],
  );
  assert.equal(view.timelineHosts, 3);
  assert.ok(view.axisSeconds >= view.p50Seconds && view.axisSeconds >= view.planSeconds);
  for (const x of h.controller.currentSimulation()!.simulation.timeline.hosts)
    assert.ok(view.axisSeconds >= x.endSeconds);
  assert.match(view.methodText, /^The crawl engine on virtual time, 40 runs \(seed 2\)/);
  reportController.receive({
    type: 'timeline',
    plan: simMessage.plan,
    simulation: view.number,
    request: 1,
    offset: 0,
    count: 2,
  });
  const rows = sent.at(-1) as Extract<HostToReport, { type: 'timeline' }>;
  assert.equal(rows.total, 3);
  assert.equal(rows.hosts.length, 2, 'a window');
  const plan = h.controller.currentPlan().plan!;
  assert.equal(rows.hosts[0]!.host, plan.bindingHost, 'the host that limits the crawl first');
  assert.equal(rows.hosts[0]!.binding, true);
  for (const row of rows.hosts) {
    assert.ok(row.startSeconds <= row.endSeconds);
    assert.equal(row.pages.at(-1)![1], row.totalPages);
    assert.match(row.summary, /^starts at .*, \d+ pages by /);
  }
  // a.example's 429s pause it (Retry-After 2 s) in the run drawn.
  const a = new ReportTimeline(h.controller.currentSimulation()!.simulation, plan.bindingHost)
    .rows(0, 3)
    .find((r) => r.host === 'a.example')!;
  assert.ok(a.pauses.length > 0, 'pauses drawn');
  assert.match(a.pauses[0]!.label, /^429 Retry-After 2 s: paused from /);
  // A request for another simulation gets nothing.
  reportController.receive({
    type: 'timeline',
    plan: simMessage.plan,
    simulation: view.number + 1,
    request: 2,
    offset: 0,
    count: 2,
  });
  assert.deepEqual((sent.at(-1) as Extract<HostToReport, { type: 'timeline' }>).hosts, []);
  // Simulate off: the report says so.
  h.controller.receive({ type: 'simulate', settings: { enabled: false, runs: 40, seed: 2 } });
  reportController.simulationChanged();
  const off = sent.at(-1) as Extract<HostToReport, { type: 'simulation' }>;
  assert.equal(off.simulation, null);
  assert.match(off.status, /^Not simulated: turn on Simulate/);
});

test('a plan too large to simulate request by request gets per-host sums, and says so', () => {
  const h = harness();
  h.controller.receive({ type: 'formChanged', form: { ...form, pages: 1_000_000 } });
  const plan = h.controller.currentPlan().plan!;
  const sim = simulate(plan, { runs: 200, seed: 1 });
  assert.equal(sim.method, 'per-host-sums');
  const sent: HostToReport[] = [];
  const reportController = new ReportController({
    source: {
      currentPlan: () => h.controller.currentPlan(),
      seedsFrom: () => '',
      currentSimulation: () => ({ plan, simulation: sim }),
    },
    save: async () => undefined,
    log: () => undefined,
  });
  reportController.attach((m) => void sent.push(m));
  reportController.receive({ type: 'ready' });
  const view = (sent.find((m) => m.type === 'simulation') as Extract<HostToReport, { type: 'simulation' }>).simulation!;
  assert.equal(view.method, 'per-host-sums');
  assert.match(view.methodText, /^Per-host sums: the plan is too large to simulate request by request/);
  assert.match(
    bandSummaryText({
      state: 'done',
      simulation: {
        ...sim,
        planSeconds: plan.totalSeconds,
        bandText: simulationBandText(sim),
        text: '',
        timelineHosts: 3,
      },
    }),
    /per-host sums \(too large to run request by request\)/,
  );
});

test("protocol: the Simulate settings and the calibration choice are checked; the default runs are the CLI's", () => {
  assert.equal(DEFAULT_SIMULATION_SETTINGS.runs, SIMULATION_DEFAULTS.runs);
  assert.equal(DEFAULT_SIMULATION_SETTINGS.seed, SIMULATION_DEFAULTS.seed);
  assert.deepEqual(parseWebviewMessage({ type: 'simulate', settings: { enabled: true, runs: 200, seed: 0 } }), {
    type: 'simulate',
    settings: { enabled: true, runs: 200, seed: 0 },
  });
  for (const [settings, why] of [
    [{ enabled: true, runs: 0, seed: 1 }, /simulation\.runs: must be a whole number from 1 to 10,000/],
    [{ enabled: true, runs: 10_001, seed: 1 }, /simulation\.runs/],
    [{ enabled: true, runs: 5, seed: 1.5 }, /simulation\.seed/],
    [{ enabled: 'yes', runs: 5, seed: 1 }, /simulation\.enabled/],
    [{ enabled: true, runs: 5, seed: 1, extra: 1 }, /unknown field "extra"/],
  ] as const) {
    const parsed = parseWebviewMessage({ type: 'simulate', settings });
    assert.ok('error' in parsed && why.test(parsed.error), JSON.stringify(parsed));
  }
  assert.deepEqual(parseWebviewMessage({ type: 'useCalibration', source: 'crawl' }), {
    type: 'useCalibration',
    source: 'crawl',
  });
  assert.ok('error' in parseWebviewMessage({ type: 'useCalibration', source: 'file' }));
  assert.deepEqual(parseWebviewMessage({ type: 'chooseCalibrationReport' }), { type: 'chooseCalibrationReport' });
  assert.ok(
    'error' in parseWebviewMessage({ type: 'chooseCalibrationReport', path: '/etc/passwd' }),
    'the webview never names a file',
  );
  assert.deepEqual(
    parseReportMessage({ type: 'timeline', plan: 1, simulation: 2, request: 3, offset: 0, count: 200 }),
    { type: 'timeline', plan: 1, simulation: 2, request: 3, offset: 0, count: 200 },
  );
  assert.ok(
    'error' in parseReportMessage({ type: 'timeline', plan: 1, simulation: 2, request: 3, offset: 0, count: 201 }),
  );
  assert.ok(
    'error' in parseReportMessage({ type: 'timeline', plan: 1, simulation: -1, request: 3, offset: 0, count: 1 }),
  );
});

test("the Runs and Seed fields: empty takes the defaults, the CLI's limits, thousands commas", () => {
  assert.deepEqual(readSimulationFields(true, '', ''), {
    settings: { enabled: true, runs: SIMULATION_DEFAULTS.runs, seed: SIMULATION_DEFAULTS.seed },
    errors: {},
  });
  assert.deepEqual(readSimulationFields(false, '1,000', '42'), {
    settings: { enabled: false, runs: 1000, seed: 42 },
    errors: {},
  });
  assert.deepEqual(readSimulationFields(true, '0', 'x'), {
    errors: { runs: 'must be a whole number from 1 to 10,000', seed: 'not a number' },
  });
});

test("the sidebar's words: per host what was measured and what the plan took; the band", () => {
  const { items, unseen } = calibrationItems({
    source: 'crawl',
    label: 'test crawl',
    headline: 'a test crawl of 3 pages, 4 requests in 2 s',
    hosts: [
      {
        host: 'a.example',
        requests: '3',
        latency: '0.1 s / 0.2 s',
        pageBytes: '12 KB / 18 KB',
        tooManyRequests: '25.0% (Retry-After 2 s)',
        serverErrors: '—',
        errors: '—',
        crawlDelay: '—',
        achieved: '0.5 s',
        used: ['latency', 'faults'],
      },
      {
        host: 'other.example',
        requests: '1',
        latency: '0.1 s / 0.1 s',
        pageBytes: '—',
        tooManyRequests: '—',
        serverErrors: '—',
        errors: '—',
        crawlDelay: '—',
        achieved: '—',
        used: null,
      },
    ],
    hostCount: 2,
    unseenHosts: ['c.example'],
    unseenCount: 1,
  });
  assert.deepEqual(items, [
    {
      host: 'a.example',
      measured: 'latency p50 / p90 0.1 s / 0.2 s · 429 25.0% (Retry-After 2 s) · achieved 0.5 s',
      used: 'Used: latency, faults',
      planned: true,
    },
    {
      host: 'other.example',
      measured: 'latency p50 / p90 0.1 s / 0.1 s',
      used: 'Not planned (no seed on this host)',
      planned: false,
    },
  ]);
  assert.equal(unseen, 'Typed values for 1 host the report did not measure: c.example');
  assert.equal(simulationBandText({ p10Seconds: 10, p50Seconds: 10, p90Seconds: 10 }), '10 s in every run');
  assert.equal(bandSummaryText({ state: 'running', runs: 200, seed: 1 }), 'Simulating 200 runs (seed 1)…');
  assert.equal(bandSummaryText({ state: 'off' }), '');
});

test("the timeline's geometry: time to x, pages rising to the top, round ticks, the band's marks", () => {
  assert.equal(timeX(0, 30), 0);
  assert.equal(timeX(15, 30), TIMELINE_WIDTH / 2);
  assert.equal(timeX(45, 30), TIMELINE_WIDTH, 'clamped');
  assert.equal(
    pagesPoints(
      [
        [0, 0],
        [15, 5],
        [30, 10],
      ],
      10,
      30,
    ),
    `0,${TIMELINE_HEIGHT - 2} 500,${TIMELINE_HEIGHT / 2} 1000,2`,
  );
  assert.deepEqual(
    axisTicks(30).map((t) => [t.seconds, t.label]),
    [
      [0, '0 s'],
      [10, '10 s'],
      [20, '20 s'],
      [30, '30 s'],
    ],
  );
  assert.deepEqual(
    axisTicks(7).map((t) => t.seconds),
    [0, 2, 4, 6],
  );
  assert.deepEqual(axisTicks(0), []);
  assert.deepEqual(bandMarks({ p10Seconds: 10, p50Seconds: 15, p90Seconds: 20, planSeconds: 12, axisSeconds: 40 }), {
    fromX: 250,
    toX: 500,
    p50X: 375,
    planX: 300,
  });
});
