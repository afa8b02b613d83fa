/**
 * `crawl-planner estimate --robots` end to end: the BUILT dist/cli.js in a child process, fetching robots.txt
 * from loopback hosts this test starts. Each host's Crawl-delay feeds the plan; disallowed seeds and hosts
 * whose robots.txt is unreachable are left out of the page counts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EstimateRobotsSection } from '../../src/cli/estimateRobots';
import type { EstimateDocument } from '../../src/core/plan';
import { canListenOn, hang, startLoopback, text, type LoopbackServer } from '../helpers/loopback';
import { buildCli, runCli, type CliRun } from '../helpers/cli';

const T = { timeout: 30_000 };

type Doc = EstimateDocument & { robots: EstimateRobotsSection | null };

type Run = CliRun;

function estimate(...args: string[]): Promise<Run> {
  return runCli(['estimate', ...args]);
}

async function json(...args: string[]): Promise<Doc> {
  const r = await estimate(...args, '--json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Doc;
}

/** Slow host: Crawl-delay 10 and a private area. Fast host: an empty robots.txt. Down host: 503. */
let slow: LoopbackServer;
let fast: LoopbackServer;
let down: LoopbackServer;
const host = (s: LoopbackServer) => new URL(s.origin).host;

before(async () => {
  buildCli();
  const aliases =
    (await canListenOn('127.0.0.2')) && (await canListenOn('127.0.0.3')) && (await canListenOn('127.0.0.4'));
  slow = await startLoopback({
    host: aliases ? '127.0.0.2' : '127.0.0.1',
    routes: { '/robots.txt': text(200, 'User-agent: *\nCrawl-delay: 10\nDisallow: /private\n') },
  });
  fast = await startLoopback({ host: aliases ? '127.0.0.3' : '127.0.0.1', routes: { '/robots.txt': text(200, '') } });
  down = await startLoopback({
    host: aliases ? '127.0.0.4' : '127.0.0.1',
    routes: { '/robots.txt': text(503, 'maintenance') },
  });
});

after(async () => {
  await Promise.all([slow?.close(), fast?.close(), down?.close()]);
});

describe('estimate --robots', () => {
  it(
    "a host's Crawl-delay: 10 sets its interval (crawl-delay, 360 pages/h); a disallowed seed is left out",
    T,
    async () => {
      const before = { slow: slow.arrivals.length, fast: fast.arrivals.length };
      const doc = await json(
        slow.url('/'),
        slow.url('/private/x'),
        slow.url('/about'),
        fast.url('/'),
        '--pages-per-host',
        '100',
        '--robots',
      );
      // One robots.txt fetch per origin, and nothing else.
      assert.deepEqual(
        slow.arrivals.slice(before.slow).map((a) => a.path),
        ['/robots.txt'],
      );
      assert.deepEqual(
        fast.arrivals.slice(before.fast).map((a) => a.path),
        ['/robots.txt'],
      );
      assert.match(slow.arrivals.at(-1)!.userAgent!, /^CrawlPlanner\//);

      assert.deepEqual(
        doc.hosts.map((h) => h.host),
        [host(slow), host(fast)],
      );
      const s = doc.hosts[0]!;
      assert.equal(s.crawlDelaySeconds, 10);
      assert.equal(s.intervalSource, 'crawl-delay');
      assert.equal(s.pagesPerHour, 360);
      assert.equal(s.seeds, 2, 'the disallowed seed is not counted');
      assert.equal(s.pages, 100);
      assert.equal(doc.hosts[1]!.intervalSource, 'configured');
      assert.equal(doc.totalPages, 200);
      assert.deepEqual(doc.settings.crawlDelayByHost, { [host(slow)]: 10 });

      const r = doc.robots!;
      assert.equal(r.productToken, 'CrawlPlanner');
      assert.match(r.userAgent, /^CrawlPlanner\//);
      assert.deepEqual(
        r.origins.map((o) => [o.origin, o.outcome, o.status, o.crawlDelaySeconds, o.effectiveIntervalSeconds]),
        [
          [slow.origin, 'ok', 200, 10, 10],
          [fast.origin, 'ok', 200, null, 1],
        ],
      );
      assert.deepEqual(r.origins[0]!.sitemaps, []);
      assert.deepEqual(r.disallowedSeeds, [
        {
          url: slow.url('/private/x'),
          host: host(slow),
          origin: slow.origin,
          outcome: 'ok',
          line: 3,
          rule: 'Disallow: /private',
          reason: r.disallowedSeeds[0]!.reason,
          seedLine: 2,
          seedSource: 'argument',
        },
      ]);
      assert.match(r.disallowedSeeds[0]!.reason, /line 3/);
      assert.deepEqual(r.leftOutHosts, []);
      assert.deepEqual(r.crawlDelayByHost, { [host(slow)]: 10 });
    },
  );

  it('--pages N is spread over the hosts that remain; an unreachable robots.txt leaves its host out', T, async () => {
    const doc = await json(slow.url('/'), down.url('/'), down.url('/b'), fast.url('/'), '--pages', '100', '--robots');
    assert.deepEqual(
      doc.hosts.map((h) => [h.host, h.pages]),
      [
        [host(slow), 50],
        [host(fast), 50],
      ],
    );
    assert.equal(doc.totalPages, 100);
    const r = doc.robots!;
    assert.equal(r.origins[1]!.outcome, 'unreachable');
    assert.equal(r.origins[1]!.status, 503);
    assert.deepEqual(r.leftOutHosts, [{ host: host(down), reason: 'unreachable', seeds: 2 }]);
    assert.deepEqual(
      r.disallowedSeeds.map((d) => [d.url, d.outcome, d.line, d.rule]),
      [
        [down.url('/'), 'unreachable', null, null],
        [down.url('/b'), 'unreachable', null, null],
      ],
    );
  });

  it(
    'human output: a robots.txt section before the plan table; UNREACHABLE and LEFT OUT said prominently; left-out seeds on stderr',
    T,
    async () => {
      const r = await estimate(
        slow.url('/'),
        slow.url('/private/x'),
        down.url('/'),
        fast.url('/'),
        '--pages-per-host',
        '10',
        '--robots',
      );
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.split('\n');
      assert.match(lines[0]!, /^robots\.txt for CrawlPlanner \(User-Agent: CrawlPlanner\//);
      assert.match(lines[1]!, /^ {2}Origin\s+robots\.txt\s+Crawl-delay\s+Interval\s+Seeds$/);
      assert.match(
        r.stdout,
        new RegExp(
          `^ {2}${esc(slow.origin)}\\s+ok \\(200\\)\\s+10 s \\(L2\\)\\s+10 s \\(crawl-delay\\)\\s+1 of 2 allowed$`,
          'm',
        ),
      );
      assert.match(
        r.stdout,
        new RegExp(
          `^ {2}${esc(down.origin)}\\s+UNREACHABLE: every URL is disallowed\\s+—\\s+—\\s+0 of 1 allowed$`,
          'm',
        ),
      );
      assert.match(r.stdout, new RegExp(`^ {2}UNREACHABLE ${esc(down.origin)}: 503: server error`, 'm'));
      assert.match(
        r.stdout,
        new RegExp(
          `^ {2}LEFT OUT ${esc(host(down))}: robots\\.txt unreachable, every URL is disallowed; not planned$`,
          'm',
        ),
      );
      const table = lines.findIndex((l) => /^Host\s+Pages\s+Interval/.test(l));
      assert.ok(table > 3, 'the plan table comes after the robots section');
      assert.match(r.stdout, new RegExp(`^${esc(host(slow))}\\s+10\\s+10 s \\(crawl-delay\\)\\s+10 s\\s+360\\s`, 'm'));
      assert.doesNotMatch(r.stdout, new RegExp(`^${esc(host(down))}\\s`, 'm'));
      assert.match(r.stdout, /on 2 hosts$/m);
      // The seeds are on this machine (loopback test servers): each is noted first (docs/cli.md § Seed notes).
      const seeds = [slow.url('/'), slow.url('/private/x'), down.url('/'), fast.url('/')];
      assert.deepEqual(r.stderr.trimEnd().split('\n'), [
        ...seeds.map(
          (u, i) =>
            `crawl-planner estimate: argument ${i + 1}: ${new URL(u).hostname} is a loopback address: this machine: "${u}"`,
        ),
        `crawl-planner estimate: argument 2: disallowed by robots.txt (L3 Disallow: /private), left out: ${slow.url('/private/x')}`,
        `crawl-planner estimate: argument 3: robots.txt unreachable, left out: ${down.url('/')}`,
      ]);
    },
  );

  it('a --crawl-delay given by hand and a robots.txt Crawl-delay: the larger one is planned', T, async () => {
    const doc = await json(
      slow.url('/'),
      fast.url('/'),
      '--pages',
      '10',
      '--robots',
      '--crawl-delay',
      `${host(slow)}=20`,
      '--crawl-delay',
      `${host(fast)}=5`,
    );
    assert.deepEqual(doc.settings.crawlDelayByHost, { [host(slow)]: 20, [host(fast)]: 5 });
    const low = await json(slow.url('/'), '--pages', '10', '--robots', '--crawl-delay', `${host(slow)}=3`);
    assert.equal(low.hosts[0]!.crawlDelaySeconds, 10);
  });

  it('the Crawl-delay policy applies: skip leaves the host out of the totals', T, async () => {
    const doc = await json(
      slow.url('/'),
      fast.url('/'),
      '--pages-per-host',
      '10',
      '--robots',
      '--max-crawl-delay',
      '5',
      '--crawl-delay-policy',
      'skip',
    );
    assert.equal(doc.hosts[0]!.skipped, true);
    assert.equal(doc.totalPages, 10);
    assert.equal(doc.robots!.origins[0]!.skipped, true);
  });

  it('every seed disallowed: nothing to plan, exit 1, the robots section is still printed', T, async () => {
    const r = await estimate(down.url('/'), slow.url('/private/a'), '--pages', '10', '--robots', '--json');
    assert.equal(r.status, 1);
    const doc = JSON.parse(r.stdout) as { error: { code: string }; robots: EstimateRobotsSection };
    assert.equal(doc.error.code, 'no-allowed-seeds');
    assert.equal(doc.robots.leftOutHosts.length, 2);
    assert.match(r.stderr, /^crawl-planner estimate: nothing to plan: robots\.txt disallows every seed$/m);
  });

  it('a hanging robots.txt: returns within the --timeout bound, the host is left out', T, async () => {
    const hung = await startLoopback({ routes: { '/robots.txt': hang() } });
    try {
      const timeout = 1;
      const r = await estimate(
        hung.url('/'),
        fast.url('/'),
        '--pages',
        '10',
        '--robots',
        '--timeout',
        String(timeout),
        '--json',
      );
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.ms < (timeout * 3 + 2) * 1000, `took ${Math.round(r.ms)} ms`);
      const doc = JSON.parse(r.stdout) as Doc;
      assert.deepEqual(
        doc.hosts.map((h) => h.host),
        [host(fast)],
      );
      assert.deepEqual(
        doc.robots!.leftOutHosts.map((h) => h.reason),
        ['unreachable'],
      );
    } finally {
      await hung.close();
    }
  });

  it('--user-agent picks the group and is sent; a bad token is refused (exit 2, one line)', T, async () => {
    const s = await startLoopback({
      routes: {
        '/robots.txt': text(
          200,
          'User-agent: FooBot\nDisallow: /private\nCrawl-delay: 7\n\nUser-agent: *\nCrawl-delay: 4\n',
        ),
      },
    });
    try {
      const foo = await json(s.url('/'), '--pages', '10', '--robots', '--user-agent', 'FooBot', '--contact', '');
      assert.equal(s.arrivals.at(-1)!.userAgent, foo.robots!.userAgent);
      assert.match(foo.robots!.userAgent, /^FooBot\/\S+$/);
      assert.equal((foo as { error?: unknown }).error, undefined);
      assert.equal(foo.hosts[0]!.crawlDelaySeconds, 7);
      const other = await json(s.url('/'), '--pages', '10', '--robots', '--user-agent', 'OtherBot');
      assert.equal(other.hosts[0]!.crawlDelaySeconds, 4);
    } finally {
      await s.close();
    }
    const bad = await estimate('http://127.0.0.1:9/', '--pages', '10', '--robots', '--user-agent', 'Bad Bot');
    assert.equal(bad.status, 2);
    assert.equal(bad.stdout, '');
    assert.match(
      bad.stderr,
      /^crawl-planner estimate: --user-agent: "Bad Bot" is not a valid product token: it must match \[a-zA-Z_-\]\+.*\n$/,
    );
  });

  it(
    'robots options without --robots are refused; without --robots nothing is fetched and robots is null',
    T,
    async () => {
      for (const [flag, value] of [
        ['--user-agent', 'X'],
        ['--contact', 'https://x.example/'],
        ['--timeout', '3'],
      ] as const) {
        const r = await estimate(slow.url('/'), '--pages', '10', flag, value);
        assert.equal(r.status, 2);
        assert.equal(r.stderr, `crawl-planner estimate: ${flag}: only with --robots or --sitemaps\n`);
      }
      const before = slow.arrivals.length;
      const doc = await json(slow.url('/'), '--pages', '10');
      assert.equal(doc.robots, null);
      assert.equal(slow.arrivals.length, before);
      const t = await estimate(slow.url('/'), '--pages', '10', '--robots', '--timeout', 'soon');
      assert.equal(t.status, 2);
      assert.equal(t.stderr, 'crawl-planner estimate: --timeout: "soon" is not a number\n');
    },
  );
});

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
