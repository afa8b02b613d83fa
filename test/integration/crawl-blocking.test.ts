/**
 * Blocking suspected, from the built CLI against a real loopback server (docs/crawl-engine.md#blocking-suspected):
 * a host that answers its first 10 pages and then 403 to everything. Under the default `--on-block slow`, the
 * first signal doubles the host's interval and the second drops it: judged from the server's own arrival log
 * (how many requests it got after the switch, and their gaps), and from the report (the events, the host's
 * `blocking`, its dropped URLs) and the live lines. A bad --on-block is one line and exit 2.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrawlReport } from '../../src/core/crawl/crawlReport';
import { buildCli, runCli } from '../helpers/cli';
import { startLoopback, text, type LoopbackServer } from '../helpers/loopback';
import { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../helpers/serverLag';

const ADDRESS = '127.0.0.71';
const PAGES = 40;
/** Pages answered before the host switches to 403. */
const SWITCH = 10;
const DELAY_MS = 100;

let srv: LoopbackServer;
let dir: string;
let served = 0;
/** The first test's report, for the calibration test. */
let blockedReport: string | undefined;

before(async () => {
  buildCli();
  dir = mkdtempSync(join(tmpdir(), 'blocking-'));
  srv = await startLoopback({
    host: ADDRESS,
    routes: { '/robots.txt': text(200, 'User-agent: *\nAllow: /\n') },
    handler: (_req, res) => {
      if (served++ < SWITCH) {
        const links = Array.from({ length: 10 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join('');
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><body>${'text '.repeat(400)}${links}</body></html>`);
        return;
      }
      res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body>Forbidden</body></html>');
    },
  });
});
after(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a host that switches to 403 after 10 requests is slowed, then dropped by the second signal (the default)', async (t) => {
  const report = join(dir, 'report.json');
  const seeds = Array.from({ length: PAGES }, (_, i) => srv.url(`/p${i}`));
  const lag = measureServerLag();
  const run = await runCli([
    'crawl',
    '--delay',
    String(DELAY_MS / 1000),
    '--max-depth',
    '0',
    '--max-pages',
    String(PAGES),
    '--timeout',
    '3',
    '--report',
    report,
    ...seeds,
  ]);
  const serverLagMs = lag.stop();
  assert.equal(run.status, 1, `hosts dropped: exit 1\n${run.stderr}`);
  const pages = srv.arrivals.filter((a) => a.path !== '/robots.txt');
  const afterSwitch = pages.slice(SWITCH);
  t.diagnostic(`the server got ${pages.length} page requests, ${afterSwitch.length} after the switch to 403`);
  assert.ok(afterSwitch.length >= 5 && afterSwitch.length <= 20, `${afterSwitch.length} requests after the switch`);
  assert.ok(pages.length < PAGES, 'the host was dropped before its queue ran out');

  const doc = JSON.parse(readFileSync(report, 'utf8')) as CrawlReport;
  blockedReport = report;
  const events = doc.blockingSuspected;
  assert.equal(events.length, 2);
  assert.deepEqual(
    events.map((e) => [e.kind, e.action, e.signal]),
    [
      ['refusals', 'slowed', 1],
      ['refusals', 'dropped', 2],
    ],
  );
  assert.match(events[0]!.text, /^403 share rose from 0% to \d+% over the last \d+ requests$/);
  assert.equal(events[0]!.intervalSeconds, (2 * DELAY_MS) / 1000);
  const host = doc.summary.hosts[0]!;
  assert.equal(host.blocking?.signals, 2);
  assert.equal(host.blocking?.action, 'dropped');
  assert.match(host.dropped ?? '', /^blocking-suspected: refusals: 403 share rose/);
  assert.equal(doc.droppedHosts[0]?.reason, 'blocking-suspected');
  assert.equal(doc.droppedUrls.length, PAGES - pages.length);
  assert.equal(doc.summary.endReason, 'hosts-dropped');

  // At the server: the gaps after the first signal are the doubled interval.
  const firstSignalAt = events[0]!.at;
  const slowed = pages.filter((a) => a.at > firstSignalAt + 5).map((a) => a.at);
  const allowance = LOOPBACK_SLACK_MS + serverLagMs;
  for (const gap of gaps(slowed))
    assert.ok(gap + allowance >= 2 * DELAY_MS, `the server saw two requests ${gap} ms apart after the slow-down`);
  for (const m of doc.hosts) assert.equal(m.measured?.startsBelowInterval, 0);

  // The live lines: the signal, the drop, the summary's mark and line.
  assert.match(
    run.stdout,
    /block {2}blocking suspected \(refusals\): 403 share rose from 0% to \d+% .* · slowed: interval doubled to 0\.2 s/,
  );
  assert.match(run.stdout, /block {2}blocking suspected \(refusals\): .* · host dropped/);
  assert.match(run.stdout, /drop {3}blocking-suspected: refusals: /);
  assert.match(run.stdout, new RegExp(`${ADDRESS.replace(/\./g, '\\.')}:\\d+ ! `));
  assert.match(
    run.stdout,
    /^! blocking suspected on 127\.0\.0\.71:\d+: 403 share rose .* \(refusals; 2 signals; dropped\)$/m,
  );
});

test('estimate --calibrate with that report: the host blocked the test crawl, so the plan keeps the typed values', async () => {
  assert.ok(blockedReport !== undefined, 'the crawl test ran first');
  const run = await runCli(['estimate', '--calibrate', blockedReport, '--pages', '100', srv.url('/')]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(
    run.stdout,
    /127\.0\.0\.71:\d+ blocked the test crawl \(403 share rose from \d+% to 100% over the last 5 requests\): the plan does not use its numbers \(typed values\)/,
  );
  const json = await runCli(['estimate', '--json', '--calibrate', blockedReport, '--pages', '100', srv.url('/')]);
  const doc = JSON.parse(json.stdout) as { calibration: { hosts: unknown[]; blocked: Array<{ action: string }> } };
  assert.deepEqual(doc.calibration.hosts, []);
  assert.equal(doc.calibration.blocked[0]?.action, 'dropped');
});

test('--on-block with a bad value: one line naming the flag, exit 2, nothing fetched', async () => {
  const before = srv.arrivals.length;
  const run = await runCli(['crawl', '--on-block', 'loud', srv.url('/p0')]);
  assert.equal(run.status, 2);
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  assert.match(run.stderr, /--on-block: "loud" must be one of warn, slow, stop/);
  assert.equal(srv.arrivals.length, before);
});
