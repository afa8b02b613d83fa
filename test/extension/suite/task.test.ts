import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { COMMANDS, TASK_TYPE } from '../../../src/extension/ids';
import { test, waitFor } from './harness';

interface DemoHost {
  name: string;
  origin: string;
  baseUrl: string;
  seeds: string[];
}

async function reports(folder: vscode.Uri): Promise<string[]> {
  try {
    const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder, '.crawl-planner', 'reports'));
    return entries.map(([name]) => name).filter((n) => /^crawl-.*\.json$/.test(n));
  } catch {
    return [];
  }
}

let demo: DemoHost[] = [];

test('Start Demo Hosts starts them (and is idempotent)', async () => {
  const started = await vscode.commands.executeCommand<{ hosts: DemoHost[] }>(COMMANDS.startDemoHosts);
  assert.ok(started.hosts.length >= 3, 'several demo hosts');
  for (const h of started.hosts) assert.match(h.origin, /^http:\/\/127\.0\.0\.\d+:\d+$/);
  demo = started.hosts;
  const again = await vscode.commands.executeCommand<{ hosts: DemoHost[] }>(COMMANDS.startDemoHosts);
  assert.deepEqual(
    again.hosts.map((h) => h.origin),
    demo.map((h) => h.origin),
  );
});

test("Inspect robots.txt finds the polite host's Disallow and Crawl-delay", async () => {
  const polite = demo.find((h) => h.name === 'polite');
  assert.ok(polite, 'the polite demo host');
  const inspection = await vscode.commands.executeCommand<{
    origins: Array<{ origin: string; outcome: string; crawlDelaySeconds: number | null }>;
    results: Array<{ url: string; verdict: string; line: number | null }>;
  }>(COMMANDS.inspectRobots, { urls: [polite.baseUrl, `${polite.baseUrl}private/x`], show: false });
  assert.equal(inspection.origins[0]!.outcome, 'ok');
  assert.equal(inspection.origins[0]!.crawlDelaySeconds, 2);
  assert.deepEqual(
    inspection.results.map((r) => r.verdict),
    ['allowed', 'disallowed'],
  );
  const uri = await vscode.commands.executeCommand<string>(
    COMMANDS.openRobotsTxt,
    polite.origin,
    inspection.results[1]!.line,
  );
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  assert.ok(document, 'the robots.txt document is open');
  assert.match(document.getText(), /Disallow: \/private/);
});

test('the crawlPlanner task for the demo hosts is provided and runs to exit code 0 with a report', async () => {
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  const before = await reports(folder);
  const tasks = await vscode.tasks.fetchTasks({ type: TASK_TYPE });
  const task = tasks.find((t) => t.name === 'test crawl: demo hosts');
  assert.ok(task, `provided: ${tasks.map((t) => t.name).join(', ')}`);

  let exitCode: number | undefined;
  const processEnded = vscode.tasks.onDidEndTaskProcess((e) => {
    if (e.execution.task.name === task.name) exitCode = e.exitCode;
  });
  let ended = false;
  const taskEnded = vscode.tasks.onDidEndTask((e) => {
    if (e.execution.task.name === task.name) ended = true;
  });
  try {
    await vscode.tasks.executeTask(task);
    await waitFor('the task to end', () => ended, 120_000);
    const added = (await reports(folder)).filter((n) => !before.includes(n));
    assert.equal(added.length, 1, 'one new report');
    const report = JSON.parse(
      new TextDecoder().decode(
        await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '.crawl-planner', 'reports', added[0]!)),
      ),
    ) as {
      summary: { pages: number; endReason: string; hosts: Array<{ dropped?: string }> };
    };
    // Exit code 0 means: ran to its end (all work or the page limit) and no host dropped.
    assert.ok(['complete', 'max-pages'].includes(report.summary.endReason), report.summary.endReason);
    assert.ok(report.summary.hosts.every((h) => h.dropped === undefined));
    assert.ok(report.summary.pages > 0 && report.summary.pages <= 12);
    if (exitCode !== undefined) assert.equal(exitCode, 0);
  } finally {
    processEnded.dispose();
    taskEnded.dispose();
  }
}, 150_000);

test('Run Test Crawl with arguments resolves with exit code 0 and the report', async () => {
  const result = await vscode.commands.executeCommand<{ exitCode: number; report?: string }>(COMMANDS.runTestCrawl, {
    seeds: [demo[0]!.baseUrl],
    maxPages: 4,
    report: 'out/run-test-crawl.json',
  });
  assert.ok(result, 'the crawl ran');
  assert.equal(result.exitCode, 0);
  assert.ok(result.report?.endsWith('/out/run-test-crawl.json'), result.report);
  const stat = await vscode.workspace.fs.stat(vscode.Uri.parse(result.report!));
  assert.ok(stat.size > 100);
}, 120_000);

test('Stop Test Crawl stops a running crawl; the report is still written', async () => {
  // A site of our own on loopback, so the test knows when the crawl is really crawling: the first page
  // request has arrived (after robots.txt, the host's first request).
  const pages: string[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nAllow: /\n');
      return;
    }
    pages.push(req.url ?? '');
    const n = Number(/^\/page\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>page ${n}</title>${[1, 2, 3].map((i) => `<a href="/page/${n * 3 + i}">page ${n * 3 + i}</a>`).join(' ')}`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const running = vscode.commands.executeCommand<{ exitCode: number; report?: string }>(COMMANDS.runTestCrawl, {
      seeds: [`${origin}/`],
      maxPages: 200,
      delay: 1,
      report: 'out/stopped.json',
    });
    await waitFor('the first page request', () => pages.length > 0, 60_000);
    // The status bar and the context key follow the run; Stop Test Crawl reports how many it stopped.
    assert.equal(await vscode.commands.executeCommand<number>(COMMANDS.stopTestCrawl), 1);
    const result = await running;
    assert.ok(result, 'the crawl ran');
    assert.equal(result.exitCode, 1, 'stopped early');
    assert.ok(result.report?.endsWith('/out/stopped.json'), result.report);
    const report = JSON.parse(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(result.report!))),
    ) as {
      summary: { pages: number; endReason: string };
    };
    assert.equal(report.summary.endReason, 'stopped');
    assert.ok(report.summary.pages >= 1 && report.summary.pages < 200, `${report.summary.pages} pages`);
    assert.ok(
      pages.length < 200,
      `the site saw ${pages.length} page requests for a 200-page crawl stopped after the first`,
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}, 120_000);

test('Stop Demo Hosts stops them', async () => {
  assert.equal(await vscode.commands.executeCommand(COMMANDS.stopDemoHosts), true);
  assert.equal(await vscode.commands.executeCommand(COMMANDS.stopDemoHosts), false);
});
