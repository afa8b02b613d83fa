import * as vscode from 'vscode';
import { COMMANDS, VIEWS } from '../../../src/extension/ids';
import { test } from './harness';

test('the planner view resolves when focused', async () => {
  // `<view id>.focus` exists for every contributed view; it fails when the view cannot be shown.
  await vscode.commands.executeCommand(`${VIEWS.planner}.focus`);
  await vscode.commands.executeCommand(COMMANDS.openPlanner);
});
