/**
 * `crawl-planner robots` on a fetched robots.txt, end to end: each outcome class (200 with its group, Crawl-delay,
 * interval, sitemaps and verdicts with their deciding lines; 404 unavailable; 5xx and 429 unreachable, said
 * prominently), gzip, BOM and CRLF, an endless body cut at the parsing limit, redirects within and across hosts,
 * and a server that never answers. The BUILT dist/cli.js in a child process against loopback servers the test
 * starts, never the network (test/helpers/robotsCli.ts). Time is only asserted as a generous upper bound.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import type { RobotsCliDocument } from '../../src/cli/robots';
import { runRobots } from '../../src/cli/robots';
import { endless, hang, redirect, startLoopback, text } from '../helpers/loopback';
import { esc, FOO, otherHost, robots, robotsJson, T, useRobotsCli, withRobots } from '../helpers/robotsCli';

useRobotsCli();

// ---- Outcomes through the CLI. ----

describe('robots: outcome classes', () => {
  it('200 with Crawl-delay and Disallow: group, Crawl-delay, interval, sitemaps, verdicts with deciding lines', T, () =>
    withRobots(text(200, FOO), async (srv) => {
      const args = [
        '--user-agent',
        'FooBot',
        '--contact',
        'https://ops.example/bot',
        srv.url('/private/x'),
        srv.url('/private/ok'),
        srv.url('/public'),
      ];
      const doc = await robotsJson(...args);
      assert.equal(doc.schemaVersion, 1);
      assert.equal(doc.productToken, 'FooBot');
      assert.equal(doc.source, 'network');
      assert.match(doc.userAgent!, /^FooBot\/\S+ \(\+https:\/\/ops\.example\/bot\)$/);
      assert.equal(srv.arrivalsFor('/robots.txt').length, 1, 'one fetch for one origin');
      assert.equal(srv.arrivals[0]!.userAgent, doc.userAgent);
      assert.equal(doc.origins.length, 1);
      const o = doc.origins[0]!;
      assert.equal(o.origin, srv.origin);
      assert.equal(o.outcome, 'ok');
      assert.equal(o.status, 200);
      assert.deepEqual(o.redirects, []);
      assert.equal(o.bytes, Buffer.byteLength(FOO));
      assert.equal(o.truncated, false);
      assert.match(o.fetchedAt!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(Math.abs(Date.parse(o.fetchedAt!) - Date.now()) < 60_000);
      assert.deepEqual(o.group, { line: 1, lines: [1], userAgents: ['FooBot'], matchedBy: 'product-token' });
      assert.equal(o.crawlDelaySeconds, 10);
      assert.equal(o.crawlDelayLine, 3);
      assert.equal(o.effectiveIntervalSeconds, 10);
      assert.equal(o.intervalSource, 'crawl-delay');
      assert.deepEqual(o.sitemaps, ['https://example.com/sitemap.xml']);
      assert.ok(Array.isArray(o.findings));
      assert.equal('text' in o, false, 'the raw text is omitted');
      assert.deepEqual(
        doc.results.map((r) => [r.url, r.verdict, r.line, r.rule]),
        [
          [srv.url('/private/x'), 'disallowed', 2, 'Disallow: /private'],
          [srv.url('/private/ok'), 'allowed', 4, 'Allow: /private/ok'],
          [srv.url('/public'), 'allowed', null, null],
        ],
      );
      for (const r of doc.results) assert.ok(r.reason.length > 0);
      assert.deepEqual(doc.invalid, []);

      const h = await robots(...args);
      assert.equal(h.status, 0, h.stderr);
      assert.equal(h.stderr, '');
      assert.match(h.stdout, new RegExp(`^${esc(srv.origin)}  ok$`, 'm'));
      assert.match(h.stdout, /^ {2}status {7}200$/m);
      assert.match(h.stdout, /^ {2}redirects {4}none$/m);
      assert.match(h.stdout, /^ {2}fetched at {3}\d{4}-\d\d-\d\dT[\d:.]+Z$/m);
      assert.match(h.stdout, /^ {2}group {8}L1 User-agent: FooBot \(names FooBot\)$/m);
      assert.match(h.stdout, /^ {2}Crawl-delay {2}10 s \(L3\)$/m);
      assert.match(h.stdout, /^ {2}interval {5}10 s \(crawl-delay\)$/m);
      assert.match(h.stdout, /^ {2}sitemaps {5}https:\/\/example\.com\/sitemap\.xml$/m);
      assert.match(h.stdout, /^ {2}findings {5}none$/m);
      assert.match(h.stdout, new RegExp(`^disallowed\\s+L2 Disallow: /private\\s+${esc(srv.url('/private/x'))}$`, 'm'));
      assert.match(h.stdout, new RegExp(`^allowed\\s+L4 Allow: /private/ok\\s+${esc(srv.url('/private/ok'))}$`, 'm'));
      assert.match(h.stdout, /^ {4}Disallowed by line 2 "Disallow: \/private"/m);
      assert.doesNotMatch(h.stdout, /\x1b/);
    }),
  );

  it('the * group applies to another token; findings are listed with line numbers', T, () =>
    withRobots(text(200, FOO + 'Crawl-delay: 1e3\nFoo: bar\n'), async (srv) => {
      const h = await robots('--user-agent', 'OtherBot', srv.url('/x'));
      assert.equal(h.status, 0, h.stderr);
      assert.match(h.stdout, /^ {2}group {8}L6 User-agent: \* \(the \* group: no group names OtherBot\)$/m);
      assert.match(h.stdout, /^ {2}findings {5}\d+ \(/m);
      assert.match(h.stdout, /^ {4}L10 warning unknown-directive: /m);
      assert.match(h.stdout, /^disallowed\s+L7 Disallow: \/\s+http/m);
    }),
  );

  it('404 → unavailable: every URL is allowed', T, () =>
    withRobots(text(404, 'User-agent: *\nDisallow: /\n'), async (srv) => {
      const doc = await robotsJson(srv.url('/a'));
      assert.equal(doc.origins[0]!.outcome, 'unavailable');
      assert.equal(doc.origins[0]!.status, 404);
      assert.equal(doc.origins[0]!.group, null);
      assert.equal(doc.results[0]!.verdict, 'allowed');
      assert.match(doc.results[0]!.reason, /unavailable \(HTTP 404\)/);
      const h = await robots(srv.url('/a'));
      assert.match(h.stdout, new RegExp(`^${esc(srv.origin)}  unavailable: every URL is allowed$`, 'm'));
    }),
  );

  it('503 → UNREACHABLE, said prominently; every URL disallowed', T, () =>
    withRobots(text(503, 'down'), async (srv) => {
      const doc = await robotsJson(srv.url('/a'), srv.url('/b'));
      const o = doc.origins[0]!;
      assert.equal(o.outcome, 'unreachable');
      assert.equal(o.status, 503);
      assert.equal(o.crawlDelaySeconds, null);
      assert.deepEqual(o.sitemaps, []);
      assert.deepEqual(
        doc.results.map((r) => r.verdict),
        ['disallowed', 'disallowed'],
      );
      assert.match(doc.results[0]!.reason, /^robots\.txt unreachable \(HTTP 503\)/);
      const h = await robots(srv.url('/a'));
      assert.equal(h.status, 0);
      assert.match(h.stdout, new RegExp(`^${esc(srv.origin)}  UNREACHABLE: every URL is disallowed$`, 'm'));
      assert.match(h.stdout, /^disallowed\s+—\s+http/m);
    }),
  );

  it('in a colour terminal, UNREACHABLE is bold red', T, () =>
    withRobots(text(503, 'down'), async (srv) => {
      let out = '';
      const code = await runRobots([srv.url('/a'), '--timeout', '5'], {
        out: (t) => void (out += t),
        err: () => {},
        color: true,
      });
      assert.equal(code, 0);
      assert.ok(
        out.includes('\x1b[1m\x1b[31mUNREACHABLE: every URL is disallowed\x1b[39m\x1b[22m'),
        JSON.stringify(out),
      );
    }),
  );

  it('429 → unreachable (treated like 5xx)', T, () =>
    withRobots(text(429, 'slow down', { 'retry-after': '120' }), async (srv) => {
      const doc = await robotsJson(srv.url('/a'));
      assert.equal(doc.origins[0]!.outcome, 'unreachable');
      assert.equal(doc.origins[0]!.status, 429);
      assert.equal(doc.results[0]!.verdict, 'disallowed');
    }),
  );

  it('a gzip body is decoded', T, () =>
    withRobots(
      text(200, zlib.gzipSync('User-agent: *\nDisallow: /z\n'), { 'content-encoding': 'gzip' }),
      async (srv) => {
        const doc = await robotsJson(srv.url('/z/1'), srv.url('/y'));
        assert.equal(doc.origins[0]!.outcome, 'ok');
        assert.deepEqual(
          doc.results.map((r) => [r.verdict, r.line]),
          [
            ['disallowed', 2],
            ['allowed', null],
          ],
        );
      },
    ),
  );

  it('a BOM and CRLF line ends: lines still count from 1', T, () =>
    withRobots(text(200, '\uFEFFUser-agent: *\r\nCrawl-delay: 2\r\nDisallow: /x\r\n'), async (srv) => {
      const doc = await robotsJson(srv.url('/x/1'));
      const o = doc.origins[0]!;
      assert.equal(o.crawlDelaySeconds, 2);
      assert.equal(o.crawlDelayLine, 2);
      assert.deepEqual(o.group?.lines, [1]);
      assert.equal(doc.results[0]!.verdict, 'disallowed');
      assert.equal(doc.results[0]!.line, 3);
      assert.equal(doc.results[0]!.rule, 'Disallow: /x');
      assert.ok(o.findings.some((f) => f.code === 'utf8-bom'));
    }),
  );

  it('an endless body stops at the parsing limit: truncated, rules before the cut apply', T, () =>
    withRobots(
      (_req, res) => {
        // The rules first, then comment lines for ever (chunked, honouring backpressure).
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('User-agent: *\nDisallow: /deep\n');
        const chunk = Buffer.from('#'.repeat(1023) + '\n');
        let open = true;
        res.on('close', () => (open = false));
        const pump = (): void => {
          while (open && res.write(chunk)) {
            /* until the socket buffer is full */
          }
          if (open) res.once('drain', pump);
        };
        pump();
      },
      async (srv) => {
        const r = await robots('--json', '--timeout', '20', srv.url('/deep/x'));
        assert.equal(r.status, 0, r.stderr);
        const doc = JSON.parse(r.stdout) as RobotsCliDocument;
        assert.equal(doc.origins[0]!.outcome, 'ok');
        assert.equal(doc.origins[0]!.truncated, true);
        assert.equal(doc.origins[0]!.bytes, 512_000);
        assert.equal(doc.results[0]!.verdict, 'disallowed');
        const h = await robots(srv.url('/deep/x'));
        assert.match(h.stdout, /^ {2}size {9}512,000 bytes, truncated: only the first 512,000 bytes are parsed/m);
      },
    ),
  );
});

describe('robots: endless body (helper)', () => {
  it('endless() garbage: ok, truncated, nothing disallowed', T, () =>
    withRobots(endless(), async (srv) => {
      const doc = await robotsJson('--timeout', '20', srv.url('/a'));
      assert.equal(doc.origins[0]!.outcome, 'ok');
      assert.equal(doc.origins[0]!.truncated, true);
      assert.equal(doc.results[0]!.verdict, 'allowed');
    }),
  );
});

describe('robots: redirects', () => {
  it(
    'a 5-redirect chain ending on another host: every hop is listed, the final file governs the first origin',
    T,
    async () => {
      const b = await startLoopback({
        host: otherHost(),
        routes: { '/final.txt': text(200, 'User-agent: *\nDisallow: /\n') },
      });
      const a = await startLoopback({
        routes: {
          '/robots.txt': redirect(301, '/r1'),
          '/r1': redirect(302, '/r2'),
          '/r2': redirect(303, '/r3'),
          '/r3': redirect(307, '/r4'),
          '/r4': redirect(308, b.url('/final.txt')),
        },
      });
      try {
        const doc = await robotsJson(a.url('/page'));
        const o = doc.origins[0]!;
        assert.equal(o.origin, a.origin);
        assert.equal(o.outcome, 'ok');
        assert.deepEqual(
          o.redirects.map((r) => [r.status, r.to]),
          [
            [301, a.url('/r1')],
            [302, a.url('/r2')],
            [303, a.url('/r3')],
            [307, a.url('/r4')],
            [308, b.url('/final.txt')],
          ],
        );
        assert.equal(o.redirects[0]!.from, a.url('/robots.txt'));
        assert.equal(doc.results[0]!.verdict, 'disallowed');
        assert.equal(doc.results[0]!.line, 2);
        const h = await robots(a.url('/page'));
        assert.match(
          h.stdout,
          new RegExp(`^ {2}redirects {4}5: 301 → ${esc(a.url('/r1'))}, .*, 308 → ${esc(b.url('/final.txt'))}$`, 'm'),
        );
      } finally {
        await a.close();
        await b.close();
      }
    },
  );

  it('a cross-host redirect is reflected in redirects; a sixth redirect makes it unavailable', T, async () => {
    const b = await startLoopback({
      host: otherHost(),
      routes: { '/robots.txt': text(200, 'User-agent: *\nDisallow: /b-rule\n') },
    });
    const a = await startLoopback({ routes: { '/robots.txt': redirect(301, b.url('/robots.txt')) } });
    const c = await startLoopback({
      routes: Object.fromEntries([
        ['/robots.txt', redirect(301, '/h1')],
        ...[1, 2, 3, 4, 5].map((i) => [`/h${i}`, redirect(302, `/h${i + 1}`)]),
        ['/h6', text(200, 'User-agent: *\nDisallow: /\n')],
      ]),
    });
    try {
      const doc = await robotsJson(a.url('/b-rule'), c.url('/x'));
      const [oa, oc] = doc.origins;
      assert.deepEqual(oa!.redirects, [{ from: a.url('/robots.txt'), to: b.url('/robots.txt'), status: 301 }]);
      assert.equal(doc.results[0]!.verdict, 'disallowed');
      assert.equal(doc.results[0]!.origin, a.origin);
      assert.equal(oc!.outcome, 'unavailable');
      assert.equal(oc!.redirects.length, 5);
      assert.equal(doc.results[1]!.verdict, 'allowed');
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe('robots: bounded time', () => {
  it('a server that never answers: the CLI returns within its --timeout bound, unreachable', T, () =>
    withRobots(hang(), async (srv) => {
      const timeout = 1;
      const r = await robots('--timeout', String(timeout), '--json', srv.url('/a'));
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.ms < (timeout * 3 + 2) * 1000, `took ${Math.round(r.ms)} ms`);
      const doc = JSON.parse(r.stdout) as RobotsCliDocument;
      assert.equal(doc.origins[0]!.outcome, 'unreachable');
      assert.equal(doc.origins[0]!.status, null);
      assert.equal(doc.results[0]!.verdict, 'disallowed');
    }),
  );
});
