/**
 * `crawl-planner sitemaps` end to end: the BUILT dist/cli.js in a child process against loopback servers
 * this test starts (never the network): the JSON document, the text table, exit codes, and bad input
 * (exit 2, one stderr line).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import type { SitemapSizing } from '../../src/core/sitemaps';
import { startLoopback, text, type LoopbackServer } from '../helpers/loopback';
import { buildCli, runCli } from '../helpers/cli';

const T = { timeout: 30_000 };
let srv: LoopbackServer;
const DAY = 86_400_000;

before(async () => {
  buildCli();
  srv = await startLoopback({ host: '127.0.0.1' });
  const now = Date.now();
  const lastmod = (d: number) => new Date(now - d * DAY).toISOString();
  srv.route('/robots.txt', text(200, `User-agent: *\nDisallow: /private\n\nSitemap: ${srv.url('/index.xml')}\n`));
  srv.route(
    '/index.xml',
    text(
      200,
      `<sitemapindex><sitemap><loc>${srv.url('/a.xml.gz')}</loc></sitemap><sitemap><loc>${srv.url('/missing.xml')}</loc></sitemap></sitemapindex>`,
      { 'content-type': 'application/xml' },
    ),
  );
  const urls = [
    [srv.url('/new'), lastmod(2)],
    [srv.url('/month'), lastmod(20)],
    [srv.url('/old'), lastmod(800)],
    [srv.url('/private/x'), lastmod(1)],
    ['https://elsewhere.example/y', lastmod(1)],
  ];
  srv.route(
    '/a.xml.gz',
    text(
      200,
      zlib.gzipSync(
        `<urlset>${urls.map(([u, m]) => `<url><loc>${u}</loc><lastmod>${m}</lastmod></url>`).join('')}</urlset>`,
      ),
      { 'content-type': 'application/gzip' },
    ),
  );
});

after(async () => {
  await srv?.close();
});

const sitemaps = (...args: string[]) => runCli(['sitemaps', '--delay', '0.01', ...args]);

describe('crawl-planner sitemaps', () => {
  it('--json: hosts[] with urls, disallowed, files, lastmod and errors', T, async () => {
    const r = await sitemaps('--json', '--user-agent', 'SizeBot', '--changed-since', '30d', srv.url('/any/page'));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', 'loopback: no contact warning');
    const doc = JSON.parse(r.stdout) as SitemapSizing;
    assert.equal(doc.schemaVersion, 1);
    assert.equal(doc.productToken, 'SizeBot');
    assert.match(doc.userAgent, /^SizeBot\/\S+$/);
    assert.equal(doc.complete, true);
    assert.equal(doc.requests, 4);
    assert.deepEqual(doc.limits, {
      urlsPerFile: 50_000,
      bytesPerFile: 52_428_800,
      files: 1_000,
      urls: 1_000_000,
      bytes: 1_073_741_824,
      indexDepth: 2,
    });
    assert.ok(Math.abs(Date.parse(doc.changedSince!) - (Date.now() - 30 * DAY)) < 60_000);
    assert.equal(doc.hosts.length, 1);
    const h = doc.hosts[0]!;
    assert.equal(h.host, new URL(srv.origin).host);
    assert.deepEqual([h.urls, h.disallowed, h.files, h.otherHosts.urls], [3, 1, 2, 1]);
    assert.deepEqual(
      { ...h.lastmod, newest: null, oldest: null },
      { newest: null, oldest: null, last7d: 1, last30d: 2, last365d: 2, dated: 3, undated: 0, invalid: 0, future: 0 },
    );
    assert.equal(h.changedSince, 2);
    assert.deepEqual(
      h.errors.map((e) => [e.code, e.url]),
      [['http-status', srv.url('/missing.xml')]],
    );
    assert.equal(h.source, 'robots.txt');
    assert.deepEqual(
      h.robots.map((o) => [o.origin, o.outcome, o.sitemaps]),
      [[srv.origin, 'ok', [srv.url('/index.xml')]]],
    );
  });

  it('text: a table per host, then where the sitemaps came from and every error', T, async () => {
    const r = await sitemaps(srv.url('/'));
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[0]!, /^Sitemaps for CrawlPlanner \(User-Agent: CrawlPlanner\/\S+\)$/);
    assert.match(r.stdout, /^Host\s+URLs\s+Disallowed\s+Other hosts\s+Files\s+Newest\s+Oldest\s+7 d\s+30 d\s+365 d$/m);
    assert.match(
      r.stdout,
      new RegExp(
        `^${esc(new URL(srv.origin).host)}\\s+3\\s+1\\s+1\\s+2\\s+\\d{4}-\\d\\d-\\d\\d\\s+\\d{4}-\\d\\d-\\d\\d\\s+1\\s+2\\s+2$`,
        'm',
      ),
    );
    assert.match(r.stdout, /: sitemaps from robots\.txt; interval 0.01 s/);
    assert.match(r.stdout, /^ {2}other hosts, not counted: elsewhere\.example \(1\)$/m);
    assert.match(r.stdout, new RegExp(`^ {2}http-status ${esc(srv.url('/missing.xml'))}: 404: `, 'm'));
    assert.match(r.stdout, /^3 URLs on 1 host, 4 requests; lastmod windows end /m);
    assert.doesNotMatch(r.stdout, /\x1b/);
  });

  it('exit 1 when no sitemap file could be read; the host is "unknown" in the table, not 0 URLs', T, async () => {
    const empty = await startLoopback({ routes: { '/robots.txt': text(200, 'User-agent: *\nDisallow:\n') } });
    try {
      const r = await sitemaps(empty.url('/'));
      assert.equal(r.status, 1, r.stderr);
      assert.match(
        r.stdout,
        /^ {2}no-sitemap http:\/\/\S+\/sitemap\.xml: robots\.txt names no sitemap, and \S+ answered 404$/m,
      );
      const h = esc(new URL(empty.origin).host);
      assert.match(r.stdout, new RegExp(`^${h}\\s+unknown\\s+0\\s`, 'm'));
      assert.match(r.stdout, /^0 URLs on 0 hosts, 2 requests; /m);
      assert.match(
        r.stdout,
        new RegExp(
          `^1 host's pages are unknown: no sitemap of it could be read \\(${h}; the errors above say why\\)\\.$`,
          'm',
        ),
      );
    } finally {
      await empty.close();
    }
  });

  it('--max-files: a cap on the run says the counts are lower bounds', T, async () => {
    const r = await sitemaps('--max-files', '1', srv.url('/'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /limit: 2 sitemap files not read: the cap of 1 files per run was reached/);
    assert.match(r.stdout, /A cap on the run was reached: the counts are lower bounds/);
  });

  it('is listed in the main help', T, async () => {
    const r = await runCli(['--help']);
    assert.match(r.stdout, /^ {2}sitemaps {3}how many pages each host publishes in its sitemaps/m);
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['no URL', [], /no URLs: give one or more http\(s\) URLs/],
    ['a URL that is not http(s)', ['ftp://a.example/'], /argument 1: not an http\(s\) URL: ftp:\/\/a\.example\//],
    ['a negative delay', ['--delay', '-1', 'http://127.0.0.1:9/'], /--delay: -1 must be at least 0/],
    ['zero files', ['--max-files', '0', 'http://127.0.0.1:9/'], /--max-files: 0 must be at least 1/],
    ['URLs that are not a number', ['--max-urls', 'lots', 'http://127.0.0.1:9/'], /--max-urls: "lots" is not a number/],
    [
      'a changed-since that is neither',
      ['--changed-since', 'last week', 'http://127.0.0.1:9/'],
      /--changed-since: "last week" is neither a date/,
    ],
    [
      'a changed-since in the future',
      ['--changed-since', '2999-01-01', 'http://127.0.0.1:9/'],
      /--changed-since: 2999-01-01 is in the future/,
    ],
    [
      'an impossible date',
      ['--changed-since', '2024-02-30', 'http://127.0.0.1:9/'],
      /--changed-since: "2024-02-30" is neither a date/,
    ],
    ['a zero timeout', ['--timeout', '0', 'http://127.0.0.1:9/'], /--timeout: 0 must be greater than 0/],
    ['an invalid product token', ['--user-agent', 'My Bot/1.0', 'http://127.0.0.1:9/'], /--user-agent: /],
    ['an invalid contact', ['--contact', 'call me', 'http://127.0.0.1:9/'], /--contact: /],
    [
      'an unknown policy',
      ['--crawl-delay-policy', 'maybe', 'http://127.0.0.1:9/'],
      /--crawl-delay-policy: "maybe" must be one of cap, skip, obey/,
    ],
    ['an unknown option', ['--pages', '3', 'http://127.0.0.1:9/'], /Unknown option '--pages'/],
    [
      'a real host without a contact under --require-contact',
      ['--require-contact', 'https://example.com/'],
      /--require-contact: no contact set \(this would reach example\.com\)/,
    ],
  ];
  for (const [name, args, message] of bad) {
    it(`bad input: ${name} → exit 2, one line on stderr, nothing fetched`, T, async () => {
      const r = await runCli(['sitemaps', ...args]);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      const lines = r.stderr.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0]!, /^crawl-planner sitemaps: /);
      assert.match(lines[0]!, message);
    });
  }
});

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
