import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/extension/ids';
import { test } from './harness';

test('the planner view loads: its webview says ready and receives the state (the round trip)', async () => {
  // Hidden, the view is not retained: showing it again loads a new webview, which must say `ready` and
  // be answered with the state. Open Planner resolves to true only once that round trip is done.
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  assert.equal(await vscode.commands.executeCommand(COMMANDS.openPlanner), true, 'the first load');
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  assert.equal(await vscode.commands.executeCommand(COMMANDS.openPlanner), true, 'a reload after being hidden');
  // Already showing: no reload, still true.
  assert.equal(await vscode.commands.executeCommand(COMMANDS.openPlanner), true, 'shown already');
});
