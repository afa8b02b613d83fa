import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../../../src/extension/ids';
import { test } from './harness';

test('the extension is present and activates', async () => {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is installed in the development host`);
  await extension.activate();
  assert.equal(extension.isActive, true);
});

test('the workspace is the fixture, and trusted', () => {
  assert.ok(vscode.workspace.workspaceFolders?.length === 1, 'one workspace folder');
  assert.equal(vscode.workspace.isTrusted, true);
  assert.equal(vscode.workspace.getConfiguration('crawlPlanner').get('maxPages'), 12, 'the fixture settings apply');
});
