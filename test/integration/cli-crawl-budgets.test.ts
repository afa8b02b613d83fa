/**
 * `crawl --pages-per-host`, `--pages-for` and `--plan` as a user runs them: the built dist/cli.js against
 * three real loopback HTTP servers, each a small site of linked pages, checked from the servers' arrival logs
 * and the report's planned against actual (docs/crawl-engine.md#per-host-page-budgets).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { HostComparison } from '../../src/core/crawl/hostComparison';
import { buildCli, runCli } from '../helpers/cli';
import { startLoopback, type LoopbackHandler, type LoopbackServer } from '../helpers/loopback';

/** A site: / links to /p0…/p(n-1), each page links back to / and to the next page; robots.txt allows all. */
function site(n: number): LoopbackHandler {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const m = /^\/p(\d+)$/.exec(path);
    let status = 200;
    let type = 'text/html';
    let body: string;
    if (path === '/robots.txt') {
      type = 'text/plain';
      body = 'User-agent: *\nAllow: /\n';
    } else if (path !== '/' && (m === null || Number(m[1]) >= n)) {
      status = 404;
      body = 'not found';
    } else {
      const links = path === '/' ? Array.from({ length: n }, (_, i) => `/p${i}`) : ['/', `/p${Number(m![1]) + 1}`];
      body = `<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
    }
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
}

let servers: LoopbackServer[];
let dir: string;
before(async () => {
  buildCli();
  servers = await Promise.all(
    ['127.0.0.31', '127.0.0.32', '127.0.0.33'].map((host) => startLoopback({ host, handler: site(12) })),
  );
  dir = mkdtempSync(join(tmpdir(), 'crawl-planner-budgets-'));
});
after(async () => {
  await Promise.all((servers ?? []).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** Page requests (robots.txt left out) each server got since `from` (arrival counts taken before the run). */
function pageArrivals(from: number[]): number[] {
  return servers.map((s, i) => s.arrivals.slice(from[i]).filter((a) => a.path !== '/robots.txt').length);
}
const marks = () => servers.map((s) => s.arrivals.length);
const hostOf = (s: LoopbackServer) => new URL(s.origin).host;
const FAST = ['--delay', '0.05', '--timeout', '3'];

/** A row of the report's comparison.hosts, as the engine's type declares it. */
type ReportHostRow = HostComparison;

describe('crawl with page budgets', { timeout: 120_000 }, () => {
  it('--pages-per-host 4 --pages-for HOST=2: each host stops at its budget, at the server and in the report', async () => {
    const report = join(dir, 'budgets.json');
    const from = marks();
    const [a, b, c] = servers as [LoopbackServer, LoopbackServer, LoopbackServer];
    const r = await runCli([
      'crawl',
      a.url('/'),
      b.url('/'),
      c.url('/'),
      '--pages-per-host',
      '4',
      '--pages-for',
      `${hostOf(b)}=2`,
      ...FAST,
      '--report',
      report,
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /is below the hosts' page budgets/);
    assert.deepEqual(pageArrivals(from), [4, 2, 4], 'no page request beyond a host budget');
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    assert.equal(doc.options.maxPages, 10, 'no --max-pages: the budgets added up');
    const rows: ReportHostRow[] = doc.comparison.hosts;
    assert.deepEqual(
      rows.map((h) => [h.host, h.plannedPages, h.actualPages]),
      [
        [hostOf(a), 4, 4],
        [hostOf(b), 2, 2],
        [hostOf(c), 4, 4],
      ],
    );
    for (const h of rows) {
      // robots.txt and the pages: what the plan counts, and what the servers saw.
      assert.equal(h.plannedRequests, h.plannedPages! + 1);
      assert.equal(h.actualRequests, h.actualPages + 1);
      assert.ok(h.plannedSeconds! > 0 && h.actualSeconds > 0);
    }
    assert.match(r.stdout, /Planned against actual, per host/);
    assert.match(r.stdout, new RegExp(`${hostOf(b).replace(/\./g, '\\.')}\\s+2 / 2\\s+3 / 3`));
    assert.equal(
      doc.urls.filter((u: { outcome: string; detail?: string }) => u.detail === 'host-pages').length,
      9 + 11 + 9, // each site: / and 12 linked pages
      "each host's links beyond its budget are not started (host-pages)",
    );
  });

  it('--max-pages below the budgets: each host gets a share, and the plan counts the same', async () => {
    const report = join(dir, 'capped.json');
    const from = marks();
    const r = await runCli([
      'crawl',
      ...servers.map((s) => s.url('/')),
      '--pages-per-host',
      '6',
      '--max-pages',
      '7',
      ...FAST,
      '--report',
      report,
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /--max-pages 7 is below the hosts' page budgets \(18 pages\): each host gets a share of 7/);
    assert.deepEqual(pageArrivals(from), [3, 2, 2]);
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    assert.deepEqual(
      doc.comparison.hosts.map((h: ReportHostRow) => h.plannedPages),
      [3, 2, 2],
    );
  });

  it('the same flags, limits and error texts as estimate', async () => {
    const seed = servers[0]!.url('/');
    for (const bad of [
      ['--pages-per-host', '0'],
      ['--pages-per-host', '2.5'],
      ['--pages-per-host', '3', '--pages-for', 'nohost'],
      ['--pages-per-host', '3', '--pages-for', 'a.test=-1'],
    ]) {
      const crawl = await runCli(['crawl', seed, ...bad]);
      const estimate = await runCli(['estimate', seed, ...bad]);
      assert.equal(crawl.status, 2);
      assert.equal(estimate.status, 2);
      const last = (s: string) =>
        s
          .trim()
          .split('\n')
          .at(-1)!
          .replace(/^crawl-planner \w+: /, '');
      assert.equal(last(crawl.stderr), last(estimate.stderr), bad.join(' '));
    }
    const other = servers[1]!;
    const alone = await runCli(['crawl', seed, other.url('/'), '--pages-for', `${hostOf(servers[0]!)}=2`]);
    assert.equal(alone.status, 2);
    assert.match(
      alone.stderr,
      new RegExp(`--pages-for: needs --pages-per-host for the other hosts \\(${hostOf(other)}\\)`),
    );
  });

  it('--pages-for alone when it names every seed host', async () => {
    const from = marks();
    const [a, b] = servers as [LoopbackServer, LoopbackServer];
    const r = await runCli([
      'crawl',
      a.url('/'),
      b.url('/'),
      '--pages-for',
      `${hostOf(a)}=3`,
      '--pages-for',
      `${b.url('/')}=1`,
      ...FAST,
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(pageArrivals(from), [3, 1, 0]);
  });
});

describe('crawl --plan', { timeout: 120_000 }, () => {
  let estimate: Record<string, unknown> & { hosts: Array<Record<string, unknown>> };
  before(async () => {
    const [a, b, c] = servers as [LoopbackServer, LoopbackServer, LoopbackServer];
    const r = await runCli([
      'estimate',
      a.url('/'),
      b.url('/'),
      c.url('/'),
      '--pages-per-host',
      '3',
      '--pages-for',
      `${hostOf(a)}=5`,
      '--delay',
      '0.05',
      '--crawl-delay',
      `${hostOf(b)}=0.3`,
      '--json',
    ]);
    assert.equal(r.status, 0, r.stderr);
    estimate = JSON.parse(r.stdout);
  });

  it("runs the plan: its seeds, each host's planned pages as its budget, its delay; planned against actual", async () => {
    const path = join(dir, 'plan.json');
    writeFileSync(path, JSON.stringify(estimate));
    const report = join(dir, 'plan-report.json');
    const from = marks();
    const r = await runCli(['crawl', '--plan', path, '--timeout', '3', '--report', report]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(pageArrivals(from), [5, 3, 3]);
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    assert.equal(doc.options.delaySeconds, 0.05, "the plan's delay");
    // The plan's Crawl-delay for b (typed in estimate): the crawl keeps it, and plans with it.
    const b = doc.summary.hosts.find((h: { host: string }) => h.host === hostOf(servers[1]!));
    assert.deepEqual([b.plannedIntervalSeconds, b.intervalSource], [0.3, 'crawl-delay']);
    const starts = doc.requests
      .filter((q: { host: string }) => q.host === b.host)
      .map((q: { startedAt: number }) => q.startedAt)
      .sort((x: number, y: number) => x - y);
    for (let i = 1; i < starts.length; i++)
      assert.ok(starts[i] - starts[i - 1] >= 300, `b: ${starts[i] - starts[i - 1]} ms`);
    assert.deepEqual(
      doc.comparison.hosts.map((h: ReportHostRow) => [h.plannedPages, h.actualPages, h.plannedRequests]),
      estimate.hosts.map((h) => [h.pages, h.pages, h.requests]),
    );
  });

  it('a host whose pages are unknown is not crawled, with a line saying why and what to plan it with', async () => {
    const c = hostOf(servers[2]!);
    const doc = structuredClone(estimate);
    doc.complete = false;
    doc.unknownHosts = [c];
    doc.hosts[2] = {
      ...doc.hosts[2],
      pages: null,
      pagesUnknown: { code: 'unreadable', reason: 'its sitemap got a 503' },
    };
    const path = join(dir, 'unknown.json');
    writeFileSync(path, JSON.stringify(doc));
    const from = marks();
    const r = await runCli(['crawl', '--plan', path, '--timeout', '3']);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(
      r.stderr.includes(
        `${c}: not crawled: the plan does not know its pages (its sitemap got a 503); plan it with estimate --pages-for ${c}=N and run that plan`,
      ),
      r.stderr,
    );
    assert.deepEqual(pageArrivals(from), [5, 3, 0]);
    assert.equal(servers[2]!.arrivals.length, from[2], 'not even its robots.txt');
  });

  it('bad plan files and flags the plan sets: clear, specific errors, exit 2, nothing crawled', async () => {
    const write = (name: string, content: string): string => {
      const p = join(dir, name);
      writeFileSync(p, content);
      return p;
    };
    const cases: Array<[string[], RegExp]> = [
      [
        ['--plan', write('not.json', 'hosts: a')],
        /--plan: .*not\.json is not JSON \(give the document that estimate --json wrote\)/,
      ],
      [
        ['--plan', write('v2.json', JSON.stringify({ ...estimate, schemaVersion: 2 }))],
        /--plan: .*v2\.json: schemaVersion 2: this crawl-planner reads estimate documents of schemaVersion 1/,
      ],
      [
        ['--plan', write('report.json', JSON.stringify({ summary: {}, requests: [] }))],
        /--plan: .*report\.json: a crawl report, not an estimate document: give what estimate --json wrote/,
      ],
      [
        ['--plan', write('array.json', '[1, 2]')],
        /--plan: .*array\.json: not an estimate document \(estimate --json\): not a JSON object/,
      ],
      [
        ['--plan', write('old.json', JSON.stringify({ ...estimate, seedUrls: undefined }))],
        /--plan: .*old\.json: it has no seedUrls .*make it again with estimate --json/,
      ],
      [
        [
          '--plan',
          write('badpages.json', JSON.stringify({ ...estimate, hosts: [{ ...estimate.hosts[0], pages: -3 }] })),
        ],
        /--plan: .*badpages\.json: hosts\[0\]\.pages: -3 must be at least 0/,
      ],
      [['--plan', join(dir, 'missing.json')], /--plan: cannot read .*missing\.json: ENOENT/],
      [
        ['--plan', write('ok.json', JSON.stringify(estimate)), '--delay', '2'],
        /--delay: not with --plan \(the plan sets it\)/,
      ],
      [['--plan', join(dir, 'ok.json'), '--pages-per-host', '2'], /--pages-per-host: not with --plan/],
      [['--plan', join(dir, 'ok.json'), servers[0]!.url('/')], /--plan: give no seed URLs with it/],
    ];
    const from = marks();
    for (const [args, message] of cases) {
      const r = await runCli(['crawl', ...args]);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    assert.deepEqual(marks(), from, 'nothing was crawled');
  });
});
