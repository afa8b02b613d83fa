/**
 * `crawl-planner crawl` and `demo` as a user runs them: the built dist/cli.js against the demo hosts on
 * loopback, checked from the report and the servers' arrival logs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultDemoConfig, startDemoHosts, type DemoHosts } from '../../src/demo';
import { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../helpers/serverLag';
import { buildCli, runCli, type CliOptions } from '../helpers/cli';
import { redirect, startLoopback, text, type LoopbackServer } from '../helpers/loopback';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function run(args: string[], opts: CliOptions = {}): Promise<Run> {
  const r = await runCli(args, opts);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let demo: DemoHosts;
let dir: string;
before(async () => {
  buildCli();
  demo = await startDemoHosts(defaultDemoConfig());
  dir = mkdtempSync(join(tmpdir(), 'crawl-planner-cli-'));
});
after(async () => {
  await demo?.close();
  rmSync(dir, { recursive: true, force: true });
});

function fast() {
  return demo.hosts.find((h) => h.name === 'fast')!;
}

describe('crawl-planner crawl', { timeout: 120_000 }, () => {
  it('--max-pages 50 --delay 0.5 --report: no host has two starts closer than 0.5 s, in the report and at the server', async () => {
    const report = join(dir, 'r.json');
    const log = join(dir, 'r.ndjson');
    const before = demo.arrivals('fast').length;
    const lag = measureServerLag();
    const r = await run([
      'crawl',
      fast().seeds[0]!,
      '--max-pages',
      '50',
      '--delay',
      '0.5',
      '--timeout',
      '3',
      '--report',
      report,
      '--log',
      log,
    ]);
    const serverLagMs = lag.stop();
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /GET \//);
    assert.match(r.stdout, /Report: /);
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    assert.ok(doc.requests.length > 10);
    const byHost = new Map<string, number[]>();
    for (const rec of doc.requests) byHost.set(rec.host, [...(byHost.get(rec.host) ?? []), rec.startedAt]);
    for (const [host, starts] of byHost) {
      starts.sort((a, b) => a - b);
      for (let i = 1; i < starts.length; i++)
        assert.ok(starts[i]! - starts[i - 1]! >= 500, `${host}: starts ${starts[i]! - starts[i - 1]!} ms apart`);
    }
    // On the wire: when each request reached its connection.
    const sent = doc.requests
      .filter((rec: { sentAt: number | null }) => rec.sentAt !== null)
      .map((rec: { sentAt: number }) => rec.sentAt);
    for (const gap of gaps(sent)) assert.ok(gap >= 500, `requests sent ${gap} ms apart`);
    // At the server: 2 ms of loopback slack plus whatever the server's own event loop was late by.
    const arrivals = demo
      .arrivals('fast')
      .slice(before)
      .filter((a) => a.path !== '/robots.txt')
      .map((a) => a.at);
    for (const gap of gaps(arrivals))
      assert.ok(
        gap + LOOPBACK_SLACK_MS + serverLagMs >= 500,
        `server saw ${gap} ms (event-loop delay ${serverLagMs} ms)`,
      );
    // The NDJSON log has every event, one JSON object per line, ending with done.
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.at(-1).type, 'done');
    assert.equal(lines.filter((e) => e.type === 'request-start').length, doc.requests.length);
  });

  it('--json prints events as JSON lines instead of the live view', async () => {
    const r = await run(['crawl', fast().seeds[0]!, '--max-pages', '3', '--delay', '0.2', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.ok(events.some((e) => e.type === 'response'));
    assert.equal(events.at(-1).type, 'done');
  });

  it('Ctrl+C stops new requests, still writes the report, and exits non-zero', async () => {
    const report = join(dir, 'stopped.json');
    let sent = false;
    const r = await run(['crawl', fast().seeds[0]!, '--max-pages', '30', '--delay', '0.5', '--report', report], {
      onStdout: (chunk, child) => {
        if (!sent && /GET \/page/.test(chunk)) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /Stopping/);
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    assert.equal(doc.summary.endReason, 'stopped');
    assert.ok(doc.summary.pages < 30);
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['an ftp seed', ['ftp://example.com/'], /not http/],
    ['a negative delay', ['http://127.0.0.1:9/', '--delay', '-1'], /--delay/],
    ['a non-numeric page count', ['http://127.0.0.1:9/', '--max-pages', 'abc'], /--max-pages/],
    ['zero concurrency', ['http://127.0.0.1:9/', '--concurrency', '0'], /--concurrency/],
    ['an invalid product token', ['http://127.0.0.1:9/', '--user-agent', 'My Bot/1.0'], /--user-agent/],
    ['no seeds', [], /no seed/],
    ['a host burst without a host rate', ['http://127.0.0.1:9/', '--host-burst', '3'], /--host-burst: only with/],
  ];
  for (const [what, args, pattern] of bad) {
    it(`refuses ${what} with one line and exit code 2`, async () => {
      const r = await run(['crawl', ...args]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, pattern);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    });
  }

  it('refuses a report path that cannot be written before the crawl starts (the server sees nothing)', async () => {
    const before = demo.arrivals('fast').length;
    const blocker = join(dir, 'file');
    writeFileSync(blocker, 'x');
    const r = await run(['crawl', fast().seeds[0]!, '--report', join(blocker, 'sub', 'r.json')]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--report: cannot write/);
    assert.equal(demo.arrivals('fast').length, before);
  });
});

describe('crawl-planner crawl: what was not followed', { timeout: 60_000 }, () => {
  let one: LoopbackServer;
  let two: LoopbackServer;
  const TARGETS = 8;
  before(async () => {
    two = await startLoopback({
      host: '127.0.0.3',
      routes: { '/robots.txt': text(200, 'User-agent: *\nAllow: /\n') },
      handler: text(200, '<p>moved here</p>', { 'content-type': 'text/html' }),
    });
    const links = Array.from({ length: TARGETS }, (_, i) => `<a href="/r${i}">r${i}</a>`).join('');
    const routes: Record<string, ReturnType<typeof text>> = {
      '/robots.txt': text(200, 'User-agent: *\nAllow: /\n'),
      '/': text(200, `<html><body>${links}</body></html>`, { 'content-type': 'text/html' }),
    };
    for (let i = 0; i < TARGETS; i++) routes[`/r${i}`] = redirect(301, two.url(`/t${i}`));
    one = await startLoopback({ host: '127.0.0.2', routes });
  });
  after(async () => {
    await one?.close();
    await two?.close();
  });

  it('a host whose 8 links redirect to another: the final line and the summary count them and name the host', async () => {
    const r = await run(['crawl', one.url('/'), '--delay', '0', '--max-pages', '20']);
    assert.equal(r.code, 0, r.stderr);
    const host = new URL(two.origin).host;
    assert.match(r.stdout, /^Crawl finished: complete \(all work done\) · 8 URLs not followed$/m);
    assert.match(r.stdout, new RegExp(`^not followed: other host 8 \\(${host.replace(/\./g, '\\.')} 8\\)$`, 'm'));
    assert.equal(two.arrivals.length, 0, 'nothing was asked of the other host');
  });

  it("--follow-other-host-redirects follows them through that host's robots.txt and its interval", async () => {
    const report = join(dir, 'follow.json');
    const lag = measureServerLag();
    const r = await run([
      'crawl',
      one.url('/'),
      '--delay',
      '0.2',
      '--max-pages',
      '20',
      '--follow-other-host-redirects',
      '--report',
      report,
    ]);
    const serverLagMs = lag.stop();
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /not followed/);
    const arrivals = two.arrivals.map((a) => [a.path, a.at] as const);
    assert.equal(arrivals[0]![0], '/robots.txt');
    assert.deepEqual(
      arrivals
        .slice(1)
        .map(([p]) => p)
        .sort(),
      Array.from({ length: TARGETS }, (_, i) => `/t${i}`).sort(),
    );
    // On the wire, exactly: when each request to the other host (robots.txt included) reached its connection.
    const host = new URL(two.origin).host;
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    const sent = doc.requests
      .filter((rec: { host: string; sentAt: number | null }) => rec.host === host && rec.sentAt !== null)
      .map((rec: { sentAt: number }) => rec.sentAt);
    assert.equal(sent.length, arrivals.length);
    for (const gap of gaps(sent)) assert.ok(gap >= 200, `requests sent ${gap} ms apart`);
    // At the server: 2 ms of loopback slack plus whatever the server's own event loop was late by.
    for (const gap of gaps(arrivals.map(([, at]) => at))) {
      assert.ok(
        gap + LOOPBACK_SLACK_MS + serverLagMs >= 200,
        `server saw ${gap} ms (event-loop delay ${serverLagMs} ms)`,
      );
    }
  });
});

describe('crawl-planner demo', { timeout: 120_000 }, () => {
  it('starts the demo hosts, plans, crawls live, and checks politeness from the servers', async () => {
    const r = await run(['demo', '--max-pages', '20', '--timeout', '2'], { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stdout.slice(-3000) + r.stderr);
    assert.match(r.stdout, /Demo hosts \(5/);
    assert.match(r.stdout, /Limited by:/);
    assert.match(r.stdout, /GET \//);
    assert.match(r.stdout, /Planned .* actual /);
    assert.match(r.stdout, /Seen from the servers/);
    assert.doesNotMatch(r.stdout, /TOO FAST/);
  });

  it('--serve prints the hosts and runs until Ctrl+C', async () => {
    let stopped = false;
    const r = await run(['demo', '--serve', '--port', '0'], {
      timeoutMs: 20_000,
      onStdout: (chunk, child) => {
        if (!stopped && /Serving until Ctrl\+C/.test(chunk)) {
          stopped = true;
          child.kill('SIGINT');
        }
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /http:\/\/127\.0\.0\.\d+:\d+\//);
    assert.match(r.stdout, /Demo hosts stopped/);
  });
});
