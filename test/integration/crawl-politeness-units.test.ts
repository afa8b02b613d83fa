/**
 * `crawl --politeness-by ip` from the built CLI against one real loopback server (docs/how-it-works.md#politeness-units):
 * three names mapped onto 127.0.0.7 by --resolve are one unit, so the server's own arrival log shows no two
 * requests (robots.txt included) closer than the interval over all three names; per host, the same server sees
 * them much closer. A Retry-After from one name pauses the other two. A name that does not resolve (no
 * --resolve, and a local resolver that refuses every name: no DNS query leaves the machine) is its own unit
 * and is crawled as an error while the others finish.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrawlReport } from '../../src/core/crawl/crawlReport';
import { buildCli, ROOT, runCli } from '../helpers/cli';
import { startLoopback, text, type Arrival, type LoopbackServer } from '../helpers/loopback';
import { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../helpers/serverLag';

const ADDRESS = '127.0.0.7';
const NAMES = ['shop.test', 'blog.test', 'www.test'];
const DELAY_MS = 300;
/** The bench's resolver preload with an empty table: every name that is not an IP literal is refused. */
const NO_DNS = {
  NODE_OPTIONS: `--import=${join(ROOT, 'bench', 'lib', 'resolvePreload.mjs')}`,
  CRAWL_BENCH_RESOLVE: '{}',
};

let srv: LoopbackServer;
let dir: string;
/** Names whose /p1 answers 429 with Retry-After once. */
const throttled = new Set<string>();

before(async () => {
  buildCli();
  dir = mkdtempSync(join(tmpdir(), 'units-'));
  srv = await startLoopback({
    host: ADDRESS,
    routes: { '/robots.txt': text(200, 'User-agent: *\nAllow: /\n') },
    handler: (req, res) => {
      const name = (req.headers.host ?? '').split(':')[0]!;
      if (req.url === '/p1' && throttled.delete(name)) {
        res.writeHead(429, { 'retry-after': '2', 'content-type': 'text/plain' }).end('slow down');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>page</body></html>');
    },
  });
});
after(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

const seeds = (names = NAMES) => names.flatMap((n) => [1, 2, 3].map((i) => `http://${n}:${srv.port}/p${i}`));
const resolveFlags = () => NAMES.flatMap((n) => ['--resolve', `${n}=${ADDRESS}`]);
const nameOf = (a: Arrival) => String(a.headers.host).split(':')[0]!;

async function crawl(
  by: 'ip' | 'host',
  extra: { names?: string[]; env?: Record<string, string>; args?: string[] } = {},
) {
  const report = join(dir, `report-${by}-${Date.now()}.json`);
  const from = srv.arrivals.length;
  const lag = measureServerLag();
  const run = await runCli(
    [
      'crawl',
      '--politeness-by',
      by,
      '--delay',
      String(DELAY_MS / 1000),
      '--max-depth',
      '0',
      '--max-retries',
      '1',
      '--timeout',
      '3',
      ...resolveFlags(),
      '--report',
      report,
      ...(extra.args ?? []),
      ...seeds(extra.names),
    ],
    { ...(extra.env ? { env: extra.env } : {}) },
  );
  const serverLagMs = lag.stop();
  return {
    run,
    serverLagMs,
    arrivals: srv.arrivals.slice(from),
    doc: JSON.parse(readFileSync(report, 'utf8')) as CrawlReport,
  };
}

test('--politeness-by ip: three names on one address get one interval between them, at the server', async (t) => {
  const { run, arrivals, serverLagMs, doc } = await crawl('ip');
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, new RegExp(`unit ${ADDRESS.replace(/\./g, '\\.')}: 3 hosts kept polite as one`));
  // Every name's robots.txt and its three pages reached the one server.
  assert.equal(arrivals.length, 12);
  assert.deepEqual(new Set(arrivals.map(nameOf)), new Set(NAMES));
  // The arrival times are stamped by this process's event loop: 2 ms of loopback slack plus however late that
  // loop was during the run (measured) can make a gap look shorter than it was on the wire.
  const allowance = LOOPBACK_SLACK_MS + serverLagMs;
  t.diagnostic(`slack ${LOOPBACK_SLACK_MS} ms + the server's event-loop delay ${serverLagMs.toFixed(1)} ms`);
  for (const gap of gaps(arrivals.map((a) => a.at)))
    assert.ok(gap + allowance >= DELAY_MS, `the address saw two requests ${gap} ms apart`);
  // The report names the unit for each host, and the gaps over the unit.
  for (const h of doc.hosts) assert.equal(h.unit, ADDRESS, h.host);
  const unit = doc.summary.units?.[0];
  assert.equal(unit?.unit, ADDRESS);
  assert.equal(unit?.hosts.length, 3);
  assert.equal(unit?.requests, 12);
  assert.ok(unit!.minIntervalSeconds! >= DELAY_MS / 1000);
  assert.match(run.stdout, new RegExp(`unit ${ADDRESS.replace(/\./g, '\\.')} \\(3 hosts: `));
});

test("--politeness-by ip: the plan's total for the unit is the crawl's, within the fidelity bench's 8%", async () => {
  // The same hosts, pages and delay planned by unit, offline (--resolve names every host), with loopback's
  // answer time (a few ms) rather than the plan's default for the internet.
  const est = await runCli([
    'estimate',
    '--json',
    '--latency',
    '0.005',
    '--politeness-by',
    'ip',
    '--delay',
    String(DELAY_MS / 1000),
    '--pages-per-host',
    '3',
    ...resolveFlags(),
    ...NAMES.map((n) => `http://${n}:${srv.port}/`),
  ]);
  assert.equal(est.status, 0, est.stderr);
  const planned = JSON.parse(est.stdout) as { totalSeconds: number; units: Array<{ unit: string }> };
  assert.deepEqual(
    planned.units.map((u) => u.unit),
    [ADDRESS],
  );
  const { run, doc } = await crawl('ip');
  assert.equal(run.status, 0, run.stderr);
  const elapsed = doc.summary.elapsedSeconds;
  const error = planned.totalSeconds / elapsed - 1;
  assert.ok(
    Math.abs(error) <= 0.08,
    `planned ${planned.totalSeconds} s, crawled ${elapsed} s (${(error * 100).toFixed(1)}%)`,
  );
});

test("--politeness-by ip with page budgets: each member is compared as its unit: planned and actual time are the unit's", async () => {
  const { run, doc } = await crawl('ip', { args: ['--pages-per-host', '3'] });
  assert.equal(run.status, 0, run.stderr);
  const rows = doc.comparison!.hosts!;
  assert.equal(rows.length, 3);
  const planned = rows.map((r) => r.plannedSeconds!);
  // One time for the three: their 12 requests one interval apart (a member alone would be 4 requests).
  assert.equal(new Set(planned).size, 1, planned.join(', '));
  assert.ok(planned[0]! >= (11 * DELAY_MS) / 1000, `planned ${planned[0]} s`);
  // And one actual time: the unit's, from any member's first request to any member's last answer.
  const actual = rows.map((r) => r.actualSeconds);
  assert.equal(new Set(actual).size, 1, actual.join(', '));
  assert.ok(actual[0]! >= (11 * DELAY_MS) / 1000, `actual ${actual[0]} s`);
});

test('--politeness-by host: the same server sees the three names much closer than the interval', async () => {
  const { run, arrivals, doc } = await crawl('host');
  assert.equal(run.status, 0, run.stderr);
  assert.equal(arrivals.length, 12);
  const shortest = Math.min(...gaps(arrivals.map((a) => a.at)));
  assert.ok(shortest < DELAY_MS / 2, `the shortest gap was ${shortest} ms`);
  assert.equal(doc.summary.units, undefined);
  for (const h of doc.hosts) assert.equal(h.unit, undefined);
});

test('--politeness-by ip: a Retry-After from one name pauses the other names of its address', async () => {
  throttled.add('shop.test');
  const { run, arrivals } = await crawl('ip');
  assert.equal(run.status, 0, run.stderr);
  const refused = arrivals.find((a) => nameOf(a) === 'shop.test' && a.path === '/p1')!;
  assert.ok(refused, 'shop.test/p1 was asked');
  const during = arrivals.filter((a) => a.at > refused.at + LOOPBACK_SLACK_MS && a.at < refused.at + 2000 - 50);
  assert.deepEqual(
    during.map((a) => `${nameOf(a)}${a.path}`),
    [],
    'no request to any name of the address during the 2 s pause',
  );
  assert.match(run.stdout, /pause .*unit 127\.0\.0\.7/);
});

test('--politeness-by ip: a name that resolves to nothing is its own unit, crawled as an error; the others finish', async () => {
  const names = [...NAMES, 'gone.test'];
  const { run, doc } = await crawl('ip', { names, env: NO_DNS });
  // The run ends early for that host only (exit 1: a host was dropped).
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /gone\.test:\d+: no address \(no such host\): its own unit/);
  const gone = doc.hosts.find((h) => h.host.startsWith('gone.test'))!;
  assert.equal(gone.unit, undefined);
  assert.ok(gone.errors > 0 && gone.dropped !== undefined, JSON.stringify(gone));
  for (const n of NAMES) {
    const h = doc.hosts.find((x) => x.host === `${n}:${srv.port}`)!;
    assert.equal(h.pages, 3, n);
    assert.equal(h.unit, ADDRESS);
  }
});
