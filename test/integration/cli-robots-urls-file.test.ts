/**
 * `crawl-planner robots --urls-file`, end to end: bulk input on the verdict-only path, the same verdicts and
 * deciding lines as the core on a 108 KB real-world file, fetched origins with one fetch each, and bad --urls-file
 * input. The BUILT dist/cli.js in a child process against loopback servers the test starts, never the network
 * (test/helpers/robotsCli.ts). Time is only asserted as a generous upper bound.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RobotsCliDocument } from '../../src/cli/robots';
import { text } from '../helpers/loopback';
import { runCli } from '../helpers/cli';
import { explain, loadRobotsFile } from '../../src/core/robots';
import { sampleUrls } from '../../bench/lib/robotsUrls';
import { file, robots, robotsJson, T, useRobotsCli, withRobots } from '../helpers/robotsCli';

useRobotsCli();

// ---- Bulk input: --urls-file. ----

const REAL_WORLD = path.join(__dirname, '../fixtures/robotstxt-real-world/ipwatchdog.robots.txt');

describe('robots --urls-file: bulk input on the verdict-only path', () => {
  it(
    '5,000 URLs on the 108 KB real-world file: the same verdicts and deciding lines as the core, JSON and text',
    T,
    async () => {
      const rules = readFileSync(REAL_WORLD, 'utf8');
      const urls = sampleUrls('https://ipwatchdog.com', rules, 5_000, 7);
      const list = file('urls.txt', `# sample\n${urls.join('\n')}\n\n`);
      const doc = await robotsJson('--file', REAL_WORLD, '--urls-file', list);
      assert.equal(doc.urlsFile, list);
      assert.equal(doc.results.length, 5_000);
      const core = loadRobotsFile(readFileSync(REAL_WORLD), { robotsUrl: 'https://ipwatchdog.com/robots.txt' });
      let disallowed = 0;
      doc.results.forEach((r, i) => {
        const e = explain(core, urls[i]!, 'CrawlPlanner');
        assert.deepEqual(
          [r.url, r.verdict, r.line, r.rule],
          [new URL(urls[i]!).href, e.verdict, e.line ?? null, e.rule ?? null],
          urls[i],
        );
        assert.equal(
          r.reason,
          e.line !== undefined
            ? `${e.verdict === 'allowed' ? 'Allowed' : 'Disallowed'} by line ${e.line}.`
            : 'No rule matches, so it is allowed.',
        );
        if (r.verdict === 'disallowed') disallowed++;
      });
      assert.ok(
        disallowed > 500 && disallowed < 4_500,
        `${disallowed} disallowed: the sample hits rules and misses them`,
      );

      const t = await robots('--file', REAL_WORLD, '--urls-file', list);
      assert.equal(t.status, 0, t.stderr);
      assert.match(
        t.stdout,
        new RegExp(
          `^5,000 URLs: ${(5_000 - disallowed).toLocaleString('en-US')} allowed, ${disallowed.toLocaleString('en-US')} disallowed, 0 not-applicable$`,
          'm',
        ),
      );
      const rows = t.stdout.split('\n').filter((l) => /^(allowed|disallowed|not-applicable) /.test(l));
      assert.equal(rows.length, 5_000, 'one row per URL, no reason lines');
    },
  );

  it(
    '- reads standard input; arguments come first; invalid lines are named by file and line, ten at most on stderr',
    T,
    async () => {
      const f = file('bulk.txt', 'User-agent: *\nDisallow: /x\n');
      const bad = Array.from({ length: 12 }, (_, i) => `ftp://bad/${i}`);
      const input = ['http://example.com/x', ...bad, 'http://example.com/y'].join('\n');
      const r = await runCli(['robots', '--file', f, '--urls-file', '-', '--json', 'http://example.com/x/first'], {
        input,
      });
      assert.equal(r.status, 0, r.stderr);
      const doc = JSON.parse(r.stdout) as RobotsCliDocument;
      assert.equal(doc.urlsFile, '-');
      assert.deepEqual(
        doc.results.map((x) => [new URL(x.url).pathname, x.verdict]),
        [
          ['/x/first', 'disallowed'],
          ['/x', 'disallowed'],
          ['/y', 'allowed'],
        ],
      );
      assert.equal(doc.invalid.length, 12);
      assert.deepEqual(
        [doc.invalid[0]!.argument, doc.invalid[0]!.location, doc.invalid[0]!.input],
        [3, 'stdin line 2', 'ftp://bad/0'],
      );
      const err = r.stderr.trimEnd().split('\n');
      assert.equal(err.length, 11);
      assert.equal(err[0], 'crawl-planner robots: stdin line 2: not an http(s) URL: ftp://bad/0');
      assert.equal(
        err[10],
        'crawl-planner robots: … and 2 more inputs that are not an http(s) URL (--json lists them all)',
      );
    },
  );

  it('fetched origins work too: one fetch per origin, verdicts for every line', T, () =>
    withRobots(text(200, 'User-agent: *\nDisallow: /private\n'), async (srv) => {
      const list = file('net.txt', [srv.url('/private/a'), srv.url('/public'), srv.url('/private/b')].join('\n'));
      const doc = await robotsJson('--urls-file', list);
      assert.equal(srv.arrivalsFor('/robots.txt').length, 1);
      assert.deepEqual(
        doc.results.map((x) => [x.verdict, x.line]),
        [
          ['disallowed', 2],
          ['allowed', null],
          ['disallowed', 2],
        ],
      );
    }),
  );

  it('bad --urls-file input: exit 2, one line', T, async () => {
    const missing = await robots('--urls-file', '/nonexistent-dir/urls.txt');
    assert.equal(missing.status, 2);
    assert.equal(missing.stderr, 'crawl-planner robots: --urls-file: cannot read /nonexistent-dir/urls.txt: ENOENT\n');
    const empty = await robots('--urls-file', file('empty.txt', '# nothing\n\n'));
    assert.equal(empty.status, 2);
    assert.match(empty.stderr, /^crawl-planner robots: no URLs: .*empty\.txt has none\n$/);
  });
});
