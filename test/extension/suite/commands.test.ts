import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS, EXTENSION_ID } from '../../../src/extension/ids';
import { test } from './harness';

test('every command is registered, and every contributed command is one of them', async () => {
  const registered = new Set(await vscode.commands.getCommands(true));
  for (const id of Object.values(COMMANDS)) assert.ok(registered.has(id), `${id} is registered`);
  const contributed = (
    vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { commands: Array<{ command: string }> };
    }
  ).contributes.commands;
  assert.deepEqual(contributed.map((c) => c.command).sort(), Object.values(COMMANDS).sort());
});

test('Estimate Crawl Time with arguments returns the estimate document', async () => {
  const document = await vscode.commands.executeCommand<{
    totalPages: number;
    hosts: unknown[];
    schemaVersion: number;
  }>(COMMANDS.estimate, {
    urls: ['https://a.example/', 'https://b.example/'],
    pages: 1000,
    show: false,
  });
  assert.equal(document.schemaVersion, 1);
  assert.equal(document.totalPages, 1000);
  assert.equal(document.hosts.length, 2);
});

test('Copy Plan as JSON with arguments copies the plan', async () => {
  const json = await vscode.commands.executeCommand<string>(COMMANDS.copyPlanJson, {
    urls: 'https://a.example/',
    pages: 10,
  });
  assert.equal(JSON.parse(await vscode.env.clipboard.readText()).totalPages, 10);
  assert.equal(json, await vscode.env.clipboard.readText());
});

test('Stop Test Crawl with nothing running stops nothing', async () => {
  assert.equal(await vscode.commands.executeCommand(COMMANDS.stopTestCrawl), 0);
});
