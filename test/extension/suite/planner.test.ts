/**
 * The planner at real sizes in a real VS Code: a seeds file of 50,000 lines (1.2 MB) becomes the planner's
 * source (Load Seeds from File with a path), the plan report opens on it and follows it, and the planner
 * keeps the file across hide/show. The webview's own side (the box, the table, the report's rows) is driven
 * in Chromium by test/e2e/scenarios/h-scale.js.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS, PLAN_REPORT_PANEL } from '../../../src/extension/ids';
import { test } from './harness';

const LINES = 50_000;

function seedList(n: number): string {
  return (
    `# ${n} hosts\n` +
    Array.from({ length: n }, (_, i) => `https://host-${String(i).padStart(6, '0')}.example.com/`).join('\n') +
    '\n'
  );
}

function reportTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(PLAN_REPORT_PANEL));
}

test("Load Seeds from File with a path: 50,000 seed lines (1.2 MB) become the planner's source, kept across hide/show", async () => {
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  const file = vscode.Uri.joinPath(folder, 'big-seeds.txt');
  const text = seedList(LINES);
  assert.ok(Buffer.byteLength(text) > 1024 * 1024);
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
  const started = Date.now();
  const loaded = await vscode.commands.executeCommand<{
    label: string;
    seedLines: number;
    bytes: number;
    firstLines: string[];
    problem?: string;
  }>(COMMANDS.loadSeedsFile, 'big-seeds.txt');
  const ms = Date.now() - started;
  assert.equal(loaded.label, 'big-seeds.txt');
  assert.equal(loaded.seedLines, LINES, 'the comment line is not a seed line');
  assert.equal(loaded.bytes, Buffer.byteLength(text));
  assert.equal(loaded.problem, undefined);
  assert.equal(loaded.firstLines[0], 'https://host-000000.example.com/');
  console.log(`    (read and checked ${LINES} seed lines in ${ms} ms)`);
  // Hidden and shown again: still the file.
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  assert.equal(await vscode.commands.executeCommand(COMMANDS.openPlanner), true);
  const again = await vscode.commands.executeCommand<{ seedLines: number }>(COMMANDS.loadSeedsFile, file.toString());
  assert.equal(again.seedLines, LINES, 'a URI works as well as a path');
});

test("Open Plan Report opens one editor tab on the planner's plan and resolves once it shows it", async () => {
  const started = Date.now();
  assert.equal(await vscode.commands.executeCommand(COMMANDS.openPlanReport), true);
  console.log(`    (the report of ${LINES} hosts showed after ${Date.now() - started} ms)`);
  assert.equal(reportTabs().length, 1);
  assert.equal(await vscode.commands.executeCommand(COMMANDS.openPlanReport), true, 'open again: the same tab');
  assert.equal(reportTabs().length, 1);
  await vscode.window.tabGroups.close(reportTabs());
  assert.equal(reportTabs().length, 0);
});

test('Load Seeds from File refuses an argument that is not a path', async () => {
  await assert.rejects(
    () => Promise.resolve(vscode.commands.executeCommand(COMMANDS.loadSeedsFile, 42)),
    /the seeds file: give a path or a URI/,
  );
  await assert.rejects(
    () => Promise.resolve(vscode.commands.executeCommand(COMMANDS.loadSeedsFile, '   ')),
    /the seeds file: give a path or a URI/,
  );
});
