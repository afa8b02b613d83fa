/**
 * Bytes before the crawl (docs/calibration-and-simulation.md#bytes), on loopback as a user runs it: a test crawl
 * of pages of varied sizes, one host gzipped and one not, then `estimate --calibrate` for the full crawl, then
 * the full crawl. The plan's bytes on the wire must come within 10% of what the full crawl transferred (its
 * report's `summary.transferred.wireBytes`). And `--page-size`: a plan with it, and its refusals (exit 2).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { CrawlReport } from '../../src/core/crawl/crawlReport';
import type { EstimateDocument } from '../../src/core/plan';
import { buildCli, runCli } from '../helpers/cli';
import { startLoopback, type LoopbackServer } from '../helpers/loopback';

const TEST_PAGES = 15;
const FULL_PAGES = 60;
const WORDS = ['crawl', 'planner', 'polite', 'host', 'interval', 'page', 'bytes', 'wire', 'gzip', 'metered'];

/** Page i: a tree (i links to 2i + 1 and 2i + 2), its size cycling over 5 sizes from 3 KB to 60 KB. */
function page(i: number): string {
  const links = [2 * i + 1, 2 * i + 2].map((k) => `<a href="/p/${k}">${k}</a>`).join(' ');
  const target = [3_000, 60_000, 12_000, 30_000, 7_000][i % 5]!;
  let seed = i + 1;
  const words: string[] = [];
  let length = 0;
  while (length < target) {
    // A small LCG: text that compresses as prose does, differently per page.
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const w = `${WORDS[seed % WORDS.length]!}${seed % 97}`;
    words.push(w);
    length += w.length + 1;
  }
  return `<!doctype html><html><body>${links}<p>${words.join(' ')}</p></body></html>`;
}

function site(host: string, gzip: boolean): Promise<LoopbackServer> {
  return startLoopback({
    host,
    // The gzipped host has a robots.txt; the other answers 404 (a body not read: 0 bytes on the wire, known).
    routes: gzip
      ? {
          '/robots.txt': (_q, res) =>
            void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n'),
        }
      : { '/robots.txt': (_q, res) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('no robots.txt') },
    handler: (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const m = /^\/(?:p\/(\d+))?$/.exec(path);
      if (!m) return void res.writeHead(404).end();
      const body = Buffer.from(page(Number(m[1] ?? 0)));
      const accepts = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      if (gzip && accepts)
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(body));
      else res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    },
  });
}

describe("bytes: a test crawl, the plan's transfer, the full crawl (loopback)", { timeout: 120_000 }, () => {
  let dir = '';
  let servers: LoopbackServer[] = [];
  let seeds: string[] = [];
  const crawl = (pages: number, report: string) =>
    runCli(
      [
        'crawl',
        ...seeds,
        '--delay',
        '0.05',
        '--max-depth',
        '100',
        '--pages-per-host',
        String(pages),
        '--report',
        report,
      ],
      { timeoutMs: 60_000 },
    );

  before(async () => {
    buildCli();
    dir = mkdtempSync(join(tmpdir(), 'crawl-planner-bytes-'));
    servers = await Promise.all([site('127.0.0.161', true), site('127.0.0.162', false)]);
    seeds = servers.map((s) => s.url('/'));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("plans the full crawl's bytes on the wire within 10%, gzip on and off", async (t) => {
    const testReport = join(dir, 'test.json');
    const test = await crawl(TEST_PAGES, testReport);
    assert.equal(test.status, 0, test.stderr);
    assert.match(test.stdout, /^transferred [\d.]+ [KM]B on the wire \([\d.]+ [KM]B decoded\), response bodies$/m);
    const measured = JSON.parse(readFileSync(testReport, 'utf8')) as CrawlReport;
    const pageRecords = measured.requests.filter((r) => !r.robotsTxt && r.status === 200);
    assert.ok(
      pageRecords.every((r) => typeof r.wireBytes === 'number'),
      'every page records its bytes on the wire',
    );
    const zipped = pageRecords.filter((r) => r.host === new URL(seeds[0]!).host);
    assert.ok(
      zipped.every((r) => r.wireBytes! < r.bytes! / 2),
      'the gzipped host sends fewer bytes than it decodes to',
    );
    const plain = pageRecords.filter((r) => r.host === new URL(seeds[1]!).host);
    assert.ok(
      plain.every((r) => r.wireBytes === r.bytes),
      'without gzip the wire is the body',
    );

    const estimate = await runCli([
      'estimate',
      ...seeds,
      '--calibrate',
      testReport,
      '--pages-per-host',
      String(FULL_PAGES),
      '--delay',
      '0.05',
      '--json',
    ]);
    assert.equal(estimate.status, 0, estimate.stderr);
    const doc = JSON.parse(estimate.stdout) as EstimateDocument;
    assert.ok(doc.hosts.every((h) => h.bytesSource === 'calibrated'));
    assert.deepEqual(doc.transfer.unknownHosts, []);
    assert.ok(doc.transfer.peakBytesPerSecond! > 0);
    const host = doc.calibration!.hosts[0]!;
    assert.ok(host.pageBytes!.wire!.p90 >= host.pageBytes!.wire!.p50);

    const text = await runCli([
      'estimate',
      ...seeds,
      '--calibrate',
      testReport,
      '--pages-per-host',
      String(FULL_PAGES),
      '--delay',
      '0.05',
    ]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /Bytes/);
    assert.match(
      text.stdout,
      /^Transfer: [\d.]+ [KM]B of response bodies on the wire, peak [\d.]+ [KM]B\/s with every host at its own rate \(page size from the test crawl\)$/m,
    );

    const fullReport = join(dir, 'full.json');
    const full = await crawl(FULL_PAGES, fullReport);
    assert.equal(full.status, 0, full.stderr);
    const report = JSON.parse(readFileSync(fullReport, 'utf8')) as CrawlReport;
    assert.equal(report.summary.pages, 2 * FULL_PAGES);
    const wire = report.summary.transferred!.wireBytes;
    assert.equal(
      wire,
      report.requests.reduce((s, r) => s + (r.wireBytes ?? 0), 0),
    );
    assert.equal(report.summary.transferred!.wireBytesUnknown, 0);
    const error = doc.transfer.bytes! / wire - 1;
    t.diagnostic(
      `planned ${doc.transfer.bytes} bytes on the wire, the crawl transferred ${wire}: ${(error * 100).toFixed(1)}%`,
    );
    for (const h of doc.hosts) {
      const actual = report.requests.filter((r) => r.host === h.host).reduce((s, r) => s + (r.wireBytes ?? 0), 0);
      t.diagnostic(
        `${h.host}: planned ${h.bytes}, transferred ${actual}: ${((h.bytes! / actual - 1) * 100).toFixed(1)}%`,
      );
    }
    assert.ok(Math.abs(error) < 0.1, `the plan's bytes are ${(error * 100).toFixed(1)}% off`);
  });

  it('--page-size sizes the hosts no test crawl measured', async () => {
    const run = await runCli([
      'estimate',
      'http://a.example/',
      'http://b.example/',
      '--pages-per-host',
      '1000',
      '--page-size',
      '80KB',
      '--json',
    ]);
    assert.equal(run.status, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as EstimateDocument;
    assert.equal(doc.settings.pageSizeBytes, 80_000);
    assert.equal(doc.transfer.bytes, 160_000_000);
    assert.deepEqual(
      doc.hosts.map((h) => [h.bytes, h.bytesSource]),
      [
        [80_000_000, 'page-size'],
        [80_000_000, 'page-size'],
      ],
    );
    const text = await runCli(['estimate', 'http://a.example/', '--pages', '1000']);
    assert.match(
      text.stdout,
      /^Transfer: unknown: page size not measured \(plan with a test crawl's report, --calibrate REPORT, or give --page-size\)$/m,
    );
  });

  for (const [value, problem] of [
    ['-5KB', /^crawl-planner estimate: --page-size: -5KB must be at least 1 byte$/],
    ['0', /^crawl-planner estimate: --page-size: 0 must be at least 1 byte$/],
    ['20GB', /^crawl-planner estimate: --page-size: 20GB is too large \(at most 10 GB per page\)$/],
    ['lots', /^crawl-planner estimate: --page-size: "lots" is not a size \(bytes, or e\.g\. 80KB, 1\.5MB, 2GiB\)$/],
    ['1.5.2MB', /is not a size/],
  ] as const) {
    it(`--page-size ${value} is refused with one line, exit 2`, async () => {
      const run = await runCli(['estimate', 'http://a.example/', '--pages', '10', '--page-size', value]);
      assert.equal(run.status, 2);
      assert.equal(run.stdout, '');
      const lines = run.stderr.trim().split('\n');
      assert.match(lines[0]!, problem);
    });
  }
});
