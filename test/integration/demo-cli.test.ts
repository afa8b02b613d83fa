/**
 * `crawl-planner demo` as a newcomer runs it (the built dist/cli.js on the built-in loopback demo hosts): a short
 * test crawl, the crawl planned with what it measured, run with the plan's pages per host, and planned against
 * actual with the band, every number printed the one the report holds. Without a test crawl, no band.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatDuration } from '../../src/core/format/duration';
import { buildCli, runCli } from '../helpers/cli';

let dir: string;
before(() => {
  buildCli();
  dir = mkdtempSync(join(tmpdir(), 'crawl-planner-demo-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The hosts the demo crawls: its five servers and one more name on fast's address (shop.fast.test). */
const HOSTS = 6;

interface HostRow {
  host: string;
  plannedPages: number | null;
  actualPages: number;
}

describe('crawl-planner demo', { timeout: 180_000 }, () => {
  it('test crawl → calibrated plan → the crawl with its budgets → planned against actual with the band', async () => {
    const report = join(dir, 'demo.json');
    const r = await runCli(
      ['demo', '--pages-per-host', '4', '--test-pages', '2', '--timeout', '2', '--report', report],
      {
        timeoutMs: 150_000,
      },
    );
    assert.equal(r.status, 0, r.stdout.slice(-3000) + r.stderr);
    const out = r.stdout;
    const step1 = out.indexOf('Step 1 of 2: a test crawl of 2 pages per host');
    const step2 = out.indexOf('Step 2 of 2: the crawl, 4 pages per host, planned with what the test crawl measured');
    assert.ok(step1 >= 0 && step2 > step1, 'the test crawl runs first, then the crawl');
    // The crawl's plan is calibrated from the test crawl of 2 pages on each of the 6 hosts.
    assert.match(out.slice(step2), /Calibrated from the test crawl: a test crawl of 12 pages/);
    // Two names on one address: the plan finds it, the crawl keeps them as one unit, the server check judges them together.
    assert.match(out, /shared-address: 2 hosts on 127\.0\.0\.11 \(loopback\)/);
    assert.match(r.stderr, /unit 127\.0\.0\.11: 2 hosts kept polite as one/);
    assert.match(out, /fast +127\.0\.0\.11:\d+ \(unit: 2 names\)/);

    const doc = JSON.parse(readFileSync(report, 'utf8'));
    assert.notEqual(doc.plan.calibration, null, "the crawl's plan is the calibrated one");
    assert.equal(doc.options.maxPages, 4 * HOSTS);
    const rows: HostRow[] = doc.comparison.hosts;
    assert.equal(rows.length, HOSTS);
    for (const h of rows) {
      assert.equal(h.plannedPages, 4, `${h.host}: the plan's budget`);
      assert.equal(h.actualPages, 4, `${h.host}: the crawl fetched its budget`);
    }
    assert.equal(doc.summary.pages, 4 * HOSTS);

    // The last lines say what the report holds: planned, actual, the band and where the crawl fell in it.
    const c = doc.comparison;
    assert.ok(c.band !== null && c.band.p90Seconds >= c.band.p10Seconds, 'a calibrated plan has a band');
    assert.ok(['inside', 'above', 'below'].includes(c.inBand));
    const line = out
      .split('\n')
      .find((l) => l.startsWith('Planned ') && l.includes(` for ${4 * HOSTS} pages; actual `))!;
    assert.ok(line, out.slice(-2000));
    assert.ok(
      line.startsWith(
        `Planned ${formatDuration(c.plannedSeconds)} for ${4 * HOSTS} pages; actual ${formatDuration(c.elapsedSeconds)}`,
      ),
      line,
    );
    assert.ok(line.endsWith(`(p10–p90 of ${c.band.runs} simulated runs): ${c.inBand}.`), line);
    const low = formatDuration(c.band.p10Seconds);
    const high = formatDuration(c.band.p90Seconds);
    assert.ok(line.includes(`band ${low === high ? low : `${low}–${high}`}`), line);
    assert.doesNotMatch(out.slice(step2), /no band/);
    // Politeness over both crawls, from the servers' own logs.
    assert.match(out, /Seen from the servers/);
    assert.doesNotMatch(out, /TOO FAST/);
  });

  it('--test-pages 0: no test crawl, an uncalibrated plan, no band, and how to get one', async () => {
    const report = join(dir, 'plain.json');
    const r = await runCli(
      ['demo', '--pages-per-host', '2', '--test-pages', '0', '--timeout', '2', '--report', report],
      {
        timeoutMs: 120_000,
      },
    );
    assert.equal(r.status, 0, r.stdout.slice(-3000) + r.stderr);
    assert.doesNotMatch(r.stdout, /Step 1 of 2/);
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    assert.equal(doc.plan.calibration, null);
    assert.equal(doc.comparison.band, null);
    assert.equal(doc.plan.simulation, null);
    assert.match(r.stdout, /· no band: run a test crawl to get a band$/m);
    assert.match(
      r.stdout,
      /^Planned .* for 12 pages; actual .*; no band: run a test crawl to get a band \(leave out --test-pages 0\)\.$/m,
    );
    assert.doesNotMatch(r.stdout, /p10–p90/);
  });

  it('--test-pages with --calibrate, or out of range: refused', async () => {
    const both = await runCli(['demo', '--test-pages', '2', '--calibrate', join(dir, 'missing.json')]);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--test-pages: not with --calibrate/);
    const bad = await runCli(['demo', '--test-pages', '-1']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--test-pages: -1 must be at least 0/);
  });
});
