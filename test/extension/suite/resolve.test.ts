/**
 * `crawlPlanner.resolve` in a real extension host (docs/extension.md#settings): a robots.txt fetch of a name the
 * setting maps connects to the address given, with the name in the Host header; a name it does not map is not
 * sent there. The server is on 127.0.0.23, where no name resolves by itself, and the names are `.localhost`
 * ones (RFC 6761: local, so no contact question and nothing leaves the machine).
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { COMMANDS, SETTINGS } from '../../../src/extension/ids';
import { test } from './harness';

const ADDRESS = '127.0.0.23';

test('crawlPlanner.resolve: robots.txt of a mapped name is fetched from its address, with the name as Host', async () => {
  const hosts: string[] = [];
  const server: Server = createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nCrawl-delay: 3\nDisallow: /private\n');
  });
  await new Promise<void>((resolve) => server.listen(0, ADDRESS, resolve));
  const { port } = server.address() as AddressInfo;
  const configuration = vscode.workspace.getConfiguration();
  try {
    await configuration.update(
      SETTINGS.resolve,
      [`mapped.resolve-check.localhost=${ADDRESS}`, 'not an entry'],
      vscode.ConfigurationTarget.Global,
    );
    const inspection = await vscode.commands.executeCommand<{
      origins: Array<{ origin: string; outcome: string; crawlDelaySeconds: number | null }>;
      results: Array<{ url: string; verdict: string }>;
    }>(COMMANDS.inspectRobots, {
      urls: [
        `http://mapped.resolve-check.localhost:${port}/private/x`,
        `http://unmapped.resolve-check.localhost:${port}/`,
      ],
      show: false,
    });
    const mapped = inspection.origins.find((o) => o.origin.startsWith('http://mapped.'));
    assert.equal(mapped?.outcome, 'ok', JSON.stringify(inspection.origins));
    assert.equal(mapped?.crawlDelaySeconds, 3);
    assert.equal(inspection.results[0]!.verdict, 'disallowed');
    // The mapped name reached the server once, as itself; the other name was not sent to this address.
    assert.deepEqual(hosts, [`mapped.resolve-check.localhost:${port}`]);
  } finally {
    await configuration.update(SETTINGS.resolve, undefined, vscode.ConfigurationTarget.Global);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
