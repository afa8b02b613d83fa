/**
 * The calibrated plan against a rate limiter nobody here wrote: Debian's nginx (test/helpers/nginx.ts) serving
 * one host of 50 pages behind `limit_req` at 4 requests a second (a request less than 250 ms after the last
 * one it served is refused with 429 and `Retry-After: 1`), crawled at a 0.1 s delay, so that the limiter
 * refuses. The three steps a user takes, with the built CLI: a test crawl of 20 pages, `estimate --calibrate`
 * of the 50, the full crawl of the 50. The calibration must fit a min-interval limiter whose range holds
 * nginx's 250 ms, and the plan must come within 5% of the full crawl's makespan (its first request's start
 * to its last answer). Fails, never skips, without nginx.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Calibration } from '../../src/core/calibrate/types';
import type { EstimateDocument } from '../../src/core/plan';
import { buildCli, runCli } from '../helpers/cli';
import { freePort, startNginx, type NginxServer } from '../helpers/nginx';

const T = { timeout: 120_000 };
const DELAY = 0.1;
const PAGES = 50;
const TEST_PAGES = 20;
/** nginx's limit_req rate: 4 a second, no burst: a 250 ms interval. */
const LIMIT_SECONDS = 0.25;

const page = (title: string, links: readonly string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><ul>${links
    .map((l) => `<li><a href="${l}">${l}</a></li>`)
    .join('')}</ul></body></html>\n`;

/** `/` and `/p/1.html` … `/p/49.html`, each linking to the next three and home. */
function siteFiles(): Record<string, string> {
  const path = (i: number) => (i === 0 ? '/' : `/p/${i}.html`);
  const files: Record<string, string> = { '/robots.txt': 'User-agent: *\nDisallow:\n' };
  for (let i = 0; i < PAGES; i++) {
    const links = [1, 2, 3]
      .map((k) => i + k)
      .filter((j) => j < PAGES)
      .map(path);
    files[path(i)] = page(`page ${i}`, [...links, '/']);
  }
  return files;
}

interface ReportJson {
  summary: { pages: number };
  requests: Array<{ startedAt: number; endedAt: number | null; status: number | null }>;
}

const servers: NginxServer[] = [];
let dir = '';
before(() => {
  buildCli();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawl-planner-calibrate-'));
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  if (dir && !process.env.KEEP_CALIBRATE_TEST) fs.rmSync(dir, { recursive: true, force: true });
});

async function crawl(url: string, pages: number, report: string): Promise<ReportJson> {
  const r = await runCli(
    ['crawl', url, '--delay', String(DELAY), '--max-pages', String(pages), '--max-depth', '100', '--report', report],
    {
      timeoutMs: 90_000,
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(fs.readFileSync(report, 'utf8')) as ReportJson;
}

describe('calibration against nginx limit_req', () => {
  it('a test crawl fits a min-interval limiter; the calibrated plan is within 5% of the full crawl', T, async () => {
    const address = '127.0.0.61';
    const port = await freePort(address);
    const nginx = await startNginx([
      { host: address, port, files: siteFiles(), limit: { rate: '4r/s', status: 429, retryAfter: '1' } },
    ]);
    servers.push(nginx);
    const site = nginx.sites[0]!;
    const host = `${site.host}:${site.port}`;

    const testFile = path.join(dir, 'test.json');
    const test = await crawl(site.url('/'), TEST_PAGES, testFile);
    assert.equal(test.summary.pages, TEST_PAGES);
    assert.ok(
      test.requests.some((q) => q.status === 429),
      'the limiter refused some of the test crawl at a 0.1 s delay',
    );

    const r = await runCli(
      [
        'estimate',
        site.url('/'),
        '--delay',
        String(DELAY),
        '--pages',
        String(PAGES),
        '--calibrate',
        testFile,
        '--json',
      ],
      { timeoutMs: 30_000 },
    );
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as EstimateDocument & { calibration: Calibration | null };
    const c = doc.calibration!.hosts.find((h) => h.host === host)!;
    const limiter = c.model!.limiter!;
    assert.equal(limiter.kind, 'min-interval', JSON.stringify(c.model));
    assert.equal(limiter.status, 429);
    assert.ok(
      limiter.intervalRangeSeconds[0] < LIMIT_SECONDS && LIMIT_SECONDS <= limiter.intervalRangeSeconds[1] + 0.003,
      `nginx's 250 ms in the fitted range ${limiter.intervalRangeSeconds.join('–')} s`,
    );
    assert.equal(c.model!.evidence.mispredicted, 0);
    assert.equal(doc.hosts[0]!.pages, PAGES);
    assert.ok(doc.hosts[0]!.requests > PAGES + 1, 'the plan counts the refused requests apart from the pages');

    const full = await crawl(site.url('/'), PAGES, path.join(dir, 'full.json'));
    assert.equal(full.summary.pages, PAGES);
    const starts = full.requests.map((q) => q.startedAt);
    const ends = full.requests.flatMap((q) => (q.endedAt === null ? [] : [q.endedAt]));
    const actual = (Math.max(...ends) - Math.min(...starts)) / 1000;
    const error = doc.totalSeconds / actual - 1;
    assert.ok(
      Math.abs(error) <= 0.05,
      `planned ${doc.totalSeconds} s, crawled ${actual} s (${(error * 100).toFixed(1)}%)`,
    );
  });
});
