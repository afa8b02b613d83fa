/**
 * Calibration and simulation in a real VS Code (docs/extension.md §Calibration and simulation): a test crawl
 * of the demo hosts, then "Plan with what the test crawl measured" changes the planner's plan and names what
 * it took per host; the same from the report file (Calibrate from Crawl Report… with a path); Simulate Plan
 * gives a band, the same twice for a fixed seed. The sidebar's and the report's drawing of them is driven in
 * Chromium by test/e2e/scenarios/h-scale.js.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/extension/ids';
import type { CalibrationView, SimulationView } from '../../../src/shared/planner/viewModel';
import { test } from './harness';

interface DemoHost {
  name: string;
  origin: string;
  seeds: string[];
}

interface PlanDocument {
  totalSeconds: number;
  hosts: Array<{ host: string; calibrated: string[] }>;
  calibration: { hosts: Array<{ host: string }>; unseenHosts: string[] } | null;
  simulation: { p10Seconds: number; p50Seconds: number; p90Seconds: number } | null;
}

async function currentPlan(): Promise<PlanDocument> {
  const json = await vscode.commands.executeCommand<string | undefined>(COMMANDS.copyPlanJson);
  assert.ok(json, 'the planner has a plan');
  return JSON.parse(json) as PlanDocument;
}

let report: string | undefined;
let typedSeconds = 0;

test('after a test crawl of the demo hosts, "Plan with what the test crawl measured" changes the plan and names what it took', async () => {
  const { hosts } = await vscode.commands.executeCommand<{ hosts: DemoHost[] }>(COMMANDS.startDemoHosts);
  const seeds = hosts.flatMap((h) => h.seeds);
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  await vscode.workspace.fs.writeFile(
    vscode.Uri.joinPath(folder, 'calibration-seeds.txt'),
    new TextEncoder().encode(seeds.join('\n') + '\n'),
  );
  await vscode.commands.executeCommand(COMMANDS.loadSeedsFile, 'calibration-seeds.txt');
  const typed = await currentPlan();
  typedSeconds = typed.totalSeconds;
  assert.equal(typed.calibration, null);

  const crawl = await vscode.commands.executeCommand<{ exitCode: number; report?: string }>(COMMANDS.runTestCrawl, {
    seeds,
    maxPages: 12,
    report: 'out/calibration-crawl.json',
  });
  assert.ok(crawl?.report, 'the crawl wrote its report');
  report = crawl.report;

  const used = await vscode.commands.executeCommand<CalibrationView>(COMMANDS.planWithTestCrawl);
  assert.equal(used.source, 'crawl');
  assert.ok(used.hostCount >= 1, 'hosts measured');
  const took = used.hosts.filter((h) => h.used !== null && h.used.length > 0);
  assert.ok(took.length >= 1, `the plan took inputs from the report: ${JSON.stringify(used.hosts)}`);
  for (const h of took) assert.ok(h.used!.includes('latency'), `${h.host}: ${h.used!.join(', ')}`);
  const calibrated = await currentPlan();
  assert.notEqual(calibrated.totalSeconds, typed.totalSeconds, 'the plan changed');
  assert.ok(calibrated.calibration, 'the plan document has the calibration');
  for (const h of took) assert.deepEqual(calibrated.hosts.find((x) => x.host === h.host)?.calibrated, h.used);

  assert.equal(await vscode.commands.executeCommand(COMMANDS.planWithTestCrawl, false), null);
  const again = await currentPlan();
  assert.equal(again.calibration, null);
  assert.equal(again.totalSeconds, typed.totalSeconds, 'the typed values again');
}, 150_000);

test('Calibrate from Crawl Report with a path plans with what the report file measured', async () => {
  assert.ok(report, 'the crawl of the test before wrote a report');
  const used = await vscode.commands.executeCommand<CalibrationView>(
    COMMANDS.calibrateFromReport,
    vscode.Uri.parse(report).fsPath,
  );
  assert.equal(used.source, 'file');
  assert.match(used.label, /calibration-crawl\.json$/);
  assert.ok(used.hosts.some((h) => h.used !== null && h.used.includes('latency')));
  assert.notEqual((await currentPlan()).totalSeconds, typedSeconds);
  await assert.rejects(
    () => Promise.resolve(vscode.commands.executeCommand(COMMANDS.calibrateFromReport, 'calibration-seeds.txt')),
    /calibration-seeds\.txt is not JSON/,
  );
});

test('Simulate Plan gives a band around the calibrated plan, the same twice for a fixed seed, and the plan document carries it', async () => {
  const first = await vscode.commands.executeCommand<SimulationView>(COMMANDS.simulatePlan, { runs: 60, seed: 11 });
  assert.ok(first.p10Seconds <= first.p50Seconds && first.p50Seconds <= first.p90Seconds, JSON.stringify(first));
  assert.equal(first.runs, 60);
  assert.equal(first.seed, 11);
  assert.ok(first.timelineHosts >= 1);
  const second = await vscode.commands.executeCommand<SimulationView>(COMMANDS.simulatePlan, { runs: 60, seed: 11 });
  assert.deepEqual(second, first, 'a fixed seed: the same band');
  const doc = await currentPlan();
  assert.deepEqual(
    [doc.simulation?.p10Seconds, doc.simulation?.p50Seconds, doc.simulation?.p90Seconds],
    [first.p10Seconds, first.p50Seconds, first.p90Seconds],
  );
  // The plan report opens on the plan with its simulation.
  assert.equal(await vscode.commands.executeCommand(COMMANDS.openPlanReport), true);
  await assert.rejects(
    () => Promise.resolve(vscode.commands.executeCommand(COMMANDS.simulatePlan, { runs: 0 })),
    /runs: 0 must be at least 1/,
  );
  // Back to the typed values and no simulation, and the demo hosts stopped, for the suites after this one.
  assert.equal(await vscode.commands.executeCommand(COMMANDS.simulatePlan, false), null);
  assert.equal((await currentPlan()).simulation, null, 'Simulate is off');
  await vscode.commands.executeCommand(COMMANDS.planWithTestCrawl, false);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand(COMMANDS.stopDemoHosts);
}, 120_000);
