/**
 * The contact question in a real extension host (src/extension/contact.ts; docs/identity.md). The fixture workspace sets no `crawlPlanner.contactUrl`.
 *
 * The real host is REAL_HOST_NO_TRAFFIC, which no packet can reach: a request that goes ahead fails at once
 * and its robots.txt reads as unreachable. The question is answered with VS Code's own
 * `notification.acceptPrimaryAction` (the keyboard shortcut for a notification's first button), which is
 * "Set Contact URL"; no command presses the second, "Crawl Anyway", so test/unit/contact-guard.test.ts covers
 * that answer with the notification injected. Headers are checked on a loopback server this test starts.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { COMMANDS, EXTENSION_ID, SETTINGS } from '../../../src/extension/ids';
import { REAL_HOST_NO_TRAFFIC } from '../../helpers/realHost';
import { test, waitFor } from './harness';

/** A loopback server that answers robots.txt and records each request's User-Agent. */
async function robotsServer(): Promise<{ origin: string; userAgents: string[]; close(): Promise<void> }> {
  const userAgents: string[] = [];
  const server: Server = createServer((req, res) => {
    userAgents.push(req.headers['user-agent'] ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    userAgents,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const version = () =>
  String((vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { version: string }).version);

/** Runs a command and resolves with its outcome, or rejects when it has not ended within `ms`. */
function settlesWithin<T>(what: string, run: Thenable<T>, ms: number): Promise<T> {
  return Promise.race([
    Promise.resolve(run),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms (a question left open?)`)), ms),
    ),
  ]);
}

const settingsEditorOpen = () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === 'Settings'));

test('no contact: a robots.txt fetch from a real host waits for the question; "Set Contact URL" opens the setting and nothing is opened', async () => {
  assert.equal(vscode.workspace.getConfiguration().get(SETTINGS.contactUrl), '', 'the fixture sets no contact');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('notifications.clearAll');
  assert.equal(settingsEditorOpen(), false);

  let outcome: { value: unknown } | undefined;
  Promise.resolve(vscode.commands.executeCommand(COMMANDS.openRobotsTxt, REAL_HOST_NO_TRAFFIC)).then(
    (value) => (outcome = { value }),
    (err: unknown) => (outcome = { value: err }),
  );
  // Until the question is up there is no notification, and the command does nothing.
  await waitFor(
    'the question to be answered with its first button',
    async () => {
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      return outcome;
    },
    30_000,
    250,
  );
  assert.equal(outcome!.value, undefined, 'the robots.txt document was not opened');
  await waitFor('the Settings editor', settingsEditorOpen, 10_000);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
});

test('answered once in this workspace: the next request goes ahead without a question, with no contact in the header', async () => {
  // Going ahead: the document opens, its robots.txt unreachable (nothing answers at that host).
  const uri = await settlesWithin(
    'Open robots.txt',
    vscode.commands.executeCommand<string | undefined>(COMMANDS.openRobotsTxt, REAL_HOST_NO_TRAFFIC),
    20_000,
  );
  assert.ok(uri, 'the document was opened');
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  assert.match(document?.getText() ?? '', /^# unreachable/m);

  const srv = await robotsServer();
  try {
    await settlesWithin('Open robots.txt', vscode.commands.executeCommand(COMMANDS.openRobotsTxt, srv.origin), 20_000);
    assert.deepEqual(srv.userAgents, [`CrawlPlanner/${version()}`]);
  } finally {
    await srv.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
});

test('with crawlPlanner.contactUrl set, the header carries it as (+contact)', async () => {
  const config = vscode.workspace.getConfiguration();
  await config.update(SETTINGS.contactUrl, 'mailto:ops@example.com', vscode.ConfigurationTarget.Workspace);
  const srv = await robotsServer();
  try {
    await settlesWithin('Open robots.txt', vscode.commands.executeCommand(COMMANDS.openRobotsTxt, srv.origin), 20_000);
    assert.deepEqual(srv.userAgents, [`CrawlPlanner/${version()} (+mailto:ops@example.com)`]);
  } finally {
    await srv.close();
    await config.update(SETTINGS.contactUrl, undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
});
