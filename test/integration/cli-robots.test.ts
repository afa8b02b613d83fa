/**
 * `crawl-planner robots` end to end: the BUILT dist/cli.js in a child process against loopback servers
 * this test starts (never the network). Time is only asserted as a generous upper bound.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as zlib from 'node:zlib';
import type { RobotsCliDocument } from '../../src/cli/robots';
import { runRobots } from '../../src/cli/robots';
import {
  canListenOn,
  endless,
  hang,
  redirect,
  startLoopback,
  text,
  type LoopbackHandler,
  type LoopbackServer,
} from '../helpers/loopback';
import { buildCli, runCli, type CliRun } from '../helpers/cli';
import { explain, loadRobotsFile } from '../../src/core/robots';
import { sampleUrls } from '../../bench/lib/robotsUrls';

const T = { timeout: 30_000 };
let dir = '';
let otherHost = '127.0.0.1';

before(async () => {
  buildCli();
  dir = mkdtempSync(path.join(tmpdir(), 'crawl-planner-robots-'));
  if (await canListenOn('127.0.0.2')) otherHost = '127.0.0.2';
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Run = CliRun;

function cli(args: string[], options: { cwd?: string } = {}): Promise<Run> {
  return runCli(args, options);
}

const robots = (...args: string[]) => cli(['robots', ...args]);

async function robotsJson(...args: string[]): Promise<RobotsCliDocument> {
  const r = await robots(...args, '--json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as RobotsCliDocument;
}

/** A fresh server with `/robots.txt` answered by `handler`; closed after `fn`. */
async function withRobots<R>(
  handler: LoopbackHandler,
  fn: (srv: LoopbackServer) => Promise<R>,
  host = '127.0.0.1',
): Promise<R> {
  const srv = await startLoopback({ host, routes: { '/robots.txt': handler } });
  try {
    return await fn(srv);
  } finally {
    await srv.close();
  }
}

function file(name: string, content: string | Uint8Array): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

const FOO = [
  'User-agent: FooBot',
  'Disallow: /private',
  'Crawl-delay: 10',
  'Allow: /private/ok',
  '',
  'User-agent: *',
  'Disallow: /',
  'Sitemap: https://example.com/sitemap.xml',
  '',
].join('\n');

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
        host: otherHost,
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
      host: otherHost,
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

// ---- --file. ----

describe('robots --file: no network', () => {
  it('the done-when check: verdict and deciding line for each URL, JSON', T, async () => {
    const cwd = mkdtempSync(path.join(dir, 'cwd-'));
    writeFileSync(path.join(cwd, 'robots.txt'), 'User-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n');
    const r = await cli(
      [
        'robots',
        '--file',
        'robots.txt',
        '--user-agent',
        'FooBot',
        '--json',
        'http://example.com/a',
        'http://example.com/b',
      ],
      { cwd },
    );
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as RobotsCliDocument;
    assert.equal(doc.source, 'file');
    assert.equal(doc.file, 'robots.txt');
    assert.equal(doc.userAgent, null);
    assert.deepEqual(
      doc.results.map((x) => [x.url, x.verdict, x.line, x.rule]),
      [
        ['http://example.com/a', 'disallowed', 2, 'Disallow: /a'],
        ['http://example.com/b', 'allowed', null, null],
      ],
    );
    assert.equal(doc.origins[0]!.from, 'file');
    assert.equal(doc.origins[0]!.fetchedAt, null);
    assert.equal(doc.origins[0]!.status, null);
  });

  it('human output; another origin is not-applicable; nothing is fetched', T, () =>
    withRobots(text(200, 'User-agent: *\nDisallow: /\n'), async (srv) => {
      const f = file('local.txt', FOO);
      const r = await robots(
        '--file',
        f,
        '--user-agent',
        'FooBot',
        srv.url('/private/x'),
        srv.url('/open'),
        'http://other.example/private/x',
      );
      assert.equal(r.status, 0, r.stderr);
      assert.equal(srv.arrivals.length, 0, 'no request with --file');
      assert.match(r.stdout, /\(nothing fetched\)/);
      assert.match(r.stdout, new RegExp(`^${esc(srv.origin)}  ok \\(local file\\)$`, 'm'));
      assert.match(r.stdout, /^disallowed\s+L2 Disallow: \/private\s+http/m);
      assert.match(r.stdout, /^allowed\s+—\s+http/m);
      assert.match(r.stdout, /^not-applicable\s+—\s+http:\/\/other\.example\/private\/x$/m);
      assert.match(r.stdout, /Another origin: the file stands for /);
    }),
  );

  it('--origin chooses the origin the file stands for', T, async () => {
    const f = file('origin.txt', 'User-agent: *\nDisallow: /x\n');
    const doc = await robotsJson(
      '--file',
      f,
      '--origin',
      'https://b.example/anything',
      'https://a.example/x',
      'https://b.example/x',
    );
    assert.equal(doc.origins[0]!.origin, 'https://b.example');
    assert.deepEqual(
      doc.results.map((r) => r.verdict),
      ['not-applicable', 'disallowed'],
    );
  });

  it('a 600 KiB file is truncated at the limit; its size is the real one', T, async () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const tail = '\nUser-agent: *\nDisallow: /late\n';
    const pad = '#'.repeat(600 * 1024 - head.length - tail.length);
    const f = file('big.txt', head + pad + tail);
    const doc = await robotsJson('--file', f, 'http://example.com/early', 'http://example.com/late');
    assert.equal(doc.origins[0]!.truncated, true);
    assert.equal(doc.origins[0]!.bytes, 600 * 1024);
    assert.deepEqual(
      doc.results.map((r) => r.verdict),
      ['disallowed', 'allowed'],
    );
  });

  it('BOM and CRLF in a local file', T, async () => {
    const f = file(
      'bom.txt',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('User-agent: *\r\nDisallow: /x\r\n')]),
    );
    const doc = await robotsJson('--file', f, 'http://example.com/x');
    assert.equal(doc.results[0]!.line, 2);
    assert.equal(doc.results[0]!.verdict, 'disallowed');
  });
});

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

// ---- A file that is not text. ----

describe('robots: not-text', () => {
  it('--file on a binary file: parsed, and the not-text finding is in the text and the JSON', T, async () => {
    const f = file(
      'binary.txt',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
    );
    const t = await robots('--file', f, 'http://example.com/x');
    assert.equal(t.status, 0, t.stderr);
    assert.match(
      t.stdout,
      /^ {4}L1 warning not-text: This file does not look like text: its first 1,024 bytes hold NUL bytes\./m,
    );
    assert.match(t.stdout, /^allowed\s+—\s+http:\/\/example\.com\/x$/m);
    const doc = await robotsJson('--file', f, 'http://example.com/x');
    assert.ok(doc.origins[0]!.findings.some((x) => x.code === 'not-text' && x.line === 1));
  });

  it('a fetched file served as application/octet-stream gets not-text; text/plain does not', T, () =>
    withRobots(
      text(200, 'User-agent: *\nDisallow: /x\n', { 'content-type': 'application/octet-stream' }),
      async (srv) => {
        const doc = await robotsJson(srv.url('/x'));
        const f = doc.origins[0]!.findings.find((x) => x.code === 'not-text');
        assert.match(f?.message ?? '', /the server sent it as Content-Type "application\/octet-stream", not text/);
        assert.equal(doc.results[0]!.verdict, 'disallowed', 'still parsed');
        await withRobots(text(200, 'User-agent: *\nDisallow: /x\n'), async (plain) => {
          const ok = await robotsJson(plain.url('/x'));
          assert.equal(
            ok.origins[0]!.findings.some((x) => x.code === 'not-text'),
            false,
          );
        });
      },
    ),
  );
});

// ---- Bad input. ----

describe('robots: bad input', () => {
  it('a non-http URL among good ones: a clear line on stderr, the others still run (exit 0)', T, async () => {
    const f = file('mixed.txt', 'User-agent: *\nDisallow: /x\n');
    const r = await robots('--file', f, 'http://example.com/x', 'ftp://x', 'http://example.com/y');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, 'crawl-planner robots: argument 2: not an http(s) URL: ftp://x\n');
    assert.match(r.stdout, /^disallowed\s+L2 Disallow: \/x\s+http:\/\/example\.com\/x$/m);
    assert.match(r.stdout, /^allowed\s+—\s+http:\/\/example\.com\/y$/m);
    const doc = await robotsJson('--file', f, 'http://example.com/x', 'ftp://x');
    assert.equal(doc.invalid.length, 1);
    assert.equal(doc.invalid[0]!.argument, 2);
    assert.equal(doc.invalid[0]!.input, 'ftp://x');
    assert.match(doc.invalid[0]!.reason, /scheme/);
    assert.equal(doc.results.length, 1);
  });

  it('no usable URL at all: exit 2', T, async () => {
    const r = await robots('ftp://x', 'not a url');
    assert.equal(r.status, 2);
    assert.deepEqual(r.stderr.trimEnd().split('\n'), [
      'crawl-planner robots: argument 1: not an http(s) URL: ftp://x',
      'crawl-planner robots: argument 2: not an http(s) URL: not a url',
      'crawl-planner robots: no http(s) URL to check (2 invalid arguments)',
    ]);
    assert.equal(r.stdout, '');
  });

  const oneLine: Array<[string, string[], RegExp]> = [
    [
      'an invalid product token',
      ['--user-agent', 'My Bot/1.0', 'http://example.com/'],
      /^crawl-planner robots: --user-agent: "My Bot\/1\.0" is not a valid product token: it must match \[a-zA-Z_-\]\+.*RFC 9309 §2\.2\.1/,
    ],
    [
      'an empty product token',
      ['--user-agent', '', 'http://example.com/'],
      /^crawl-planner robots: --user-agent: The product token is empty/,
    ],
    [
      'a missing --file',
      ['--file', path.join('/nonexistent-dir', 'robots.txt'), 'http://example.com/'],
      /^crawl-planner robots: --file: cannot read \/nonexistent-dir\/robots\.txt: ENOENT$/,
    ],
    [
      'a directory as --file',
      ['--file', '/', 'http://example.com/'],
      /^crawl-planner robots: --file: \/ is a directory$/,
    ],
    [
      '--timeout abc',
      ['--timeout', 'abc', 'http://example.com/'],
      /^crawl-planner robots: --timeout: "abc" is not a number$/,
    ],
    [
      '--timeout 0',
      ['--timeout', '0', 'http://example.com/'],
      /^crawl-planner robots: --timeout: 0 must be greater than 0$/,
    ],
    ['--delay -1', ['--delay', '-1', 'http://example.com/'], /^crawl-planner robots: --delay: -1 must be at least 0$/],
    [
      '--max-crawl-delay Infinity',
      ['--max-crawl-delay', 'Infinity', 'http://example.com/'],
      /^crawl-planner robots: --max-crawl-delay: "Infinity" is not a number$/,
    ],
    [
      '--crawl-delay-policy wait',
      ['--crawl-delay-policy', 'wait', 'http://example.com/'],
      /^crawl-planner robots: --crawl-delay-policy: "wait" must be one of cap, skip, obey$/,
    ],
    [
      '--contact ftp',
      ['--contact', 'ftp://x', 'http://example.com/'],
      /^crawl-planner robots: --contact: "ftp:\/\/x" must be an absolute http\(s\) URL/,
    ],
    [
      '--origin without --file',
      ['--origin', 'http://example.com/', 'http://example.com/'],
      /^crawl-planner robots: --origin: only with --file/,
    ],
    ['no URL', [], /^crawl-planner robots: no URLs: give one or more http\(s\) URLs to check$/],
    [
      'an unknown option',
      ['--frobnicate', 'http://example.com/'],
      /^crawl-planner robots: Unknown option '--frobnicate'/,
    ],
  ];
  for (const [name, args, expected] of oneLine) {
    it(`${name}: exit 2, one line on stderr`, T, async () => {
      const r = await robots(...args);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.split('\n').length, 2, r.stderr);
      assert.match(r.stderr.trimEnd(), expected);
    });
  }

  it('control characters from the server and the arguments never reach the terminal', T, () =>
    withRobots(
      text(200, 'User-agent: *\nDisallow: /a\x1b[2J\nSitemap: https://example.com/\x1b]0;pwned\x07s.xml\n'),
      async (srv) => {
        const r = await robots(srv.url('/a%1B[2J'), `${srv.url('/b')}\x1b[31m`);
        assert.equal(r.status, 0, r.stderr);
        assert.doesNotMatch(r.stdout, /[\x00-\x08\x0b-\x1f\x7f]/);
      },
    ),
  );

  it('--help lists every option; the command list names robots', T, async () => {
    const r = await robots('--help');
    assert.equal(r.status, 0);
    for (const o of [
      '--user-agent',
      '--contact',
      '--delay',
      '--crawl-delay-policy',
      '--max-crawl-delay',
      '--timeout',
      '--file',
      '--origin',
      '--urls-file',
      '--json',
    ]) {
      assert.ok(r.stdout.includes(o), o);
    }
    const top = await cli(['--help']);
    assert.match(top.stdout, /^ {2}robots\s+/m);
  });
});

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
