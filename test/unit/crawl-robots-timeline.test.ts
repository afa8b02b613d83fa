/**
 * robots.txt on the host's timeline, on virtual time: with a gate that fetches (and `peek`s), the robots.txt
 * request is the host's first request, taken from its queue like a page, so the first page keeps the
 * interval after it (Crawl-delay from that very file included, both readings), no host waits for another's
 * robots.txt, and a robots.txt fetched before the run counts only when it was a moment ago. Then what the
 * crawl did not follow, by reason and host.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrawl } from '../../src/core/crawl/engine';
import type { CrawlOptions, CrawlResult } from '../../src/core/crawl/types';
import {
  fakeExtractLinks,
  fakeSite,
  fetchingRobots,
  recorder,
  seededRandom,
  startsByHost,
  type FakeRobotsFile,
  type FakeScript,
} from '../helpers/crawlFakes';
import { VirtualClock } from '../helpers/virtualClock';

const T0 = Date.UTC(2024, 0, 1);

function setup(
  pages: Record<string, FakeScript>,
  robotsFiles: Record<string, FakeRobotsFile>,
  opts: { latencyMs?: number } = {},
) {
  const clock = new VirtualClock(T0);
  const site = fakeSite(clock, pages, opts);
  const robots = fetchingRobots(clock, robotsFiles);
  const rec = recorder();
  const crawl = (o: Partial<CrawlOptions> & { seeds: string[] }): Promise<CrawlResult> =>
    clock.run(
      runCrawl({
        clock,
        random: seededRandom(1),
        fetch: site.fetch,
        emit: rec.emit,
        extractLinks: fakeExtractLinks,
        robots: robots.gate,
        ...o,
      }),
    );
  return { clock, site, robots, rec, crawl };
}

const pagesOf = (host: string, n: number, script: FakeScript = {}): Record<string, FakeScript> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`http://${host}/p${i}`, script]));

/** Page starts of a host (from the fake site's log), relative to T0. */
function pageStarts(site: ReturnType<typeof fakeSite>, host: string): number[] {
  return site.log.filter((e) => e.host === host).map((e) => e.startedAt - T0);
}

describe("robots.txt opens its host's timeline", () => {
  it('start reading: the first page starts one interval after robots.txt started, and robots.txt is a request', async () => {
    const seeds = Object.keys(pagesOf('a.test', 3));
    const { crawl, site, robots, rec } = setup(pagesOf('a.test', 3), { 'http://a.test': { latencyMs: 100 } });
    const result = await crawl({ seeds, delaySeconds: 1 });
    assert.deepEqual(
      robots.fetches.map((f) => f.startedAt - T0),
      [0],
    );
    assert.deepEqual(pageStarts(site, 'a.test'), [1000, 2000, 3000]);
    const starts = startsByHost(rec.events).get('a.test')!;
    assert.deepEqual(
      starts.map((s) => [s.url, s.at - T0, s.robotsTxt ?? false]),
      [
        ['http://a.test/robots.txt', 0, true],
        ['http://a.test/p0', 1000, false],
        ['http://a.test/p1', 2000, false],
        ['http://a.test/p2', 3000, false],
      ],
    );
    const response = rec.of('response').find((e) => e.robotsTxt);
    assert.ok(response);
    assert.equal(response.status, 200);
    assert.equal(response.latencyMs, 100);
    assert.equal(result.summary.requests, 4);
    assert.equal(result.summary.pages, 3);
    assert.equal(result.summary.statusCounts['200'], 4);
    const host = result.summary.hosts[0]!;
    assert.equal(host.requests, 4);
    assert.equal(host.minIntervalSeconds, 1);
  });

  it('a Crawl-delay learned from that very file applies to the gap to the first page', async () => {
    const seeds = Object.keys(pagesOf('cd.test', 2));
    const { crawl, site } = setup(pagesOf('cd.test', 2), {
      'http://cd.test': { latencyMs: 50, decide: () => ({ verdict: 'allowed', outcome: 'ok', crawlDelaySeconds: 3 }) },
    });
    await crawl({ seeds, delaySeconds: 1 });
    assert.deepEqual(pageStarts(site, 'cd.test'), [3000, 6000]);
  });

  it('end reading: the first page starts one interval (Crawl-delay included) after robots.txt ended', async () => {
    const seeds = [...Object.keys(pagesOf('e.test', 2)), ...Object.keys(pagesOf('ecd.test', 1))];
    const { crawl, site } = setup(
      { ...pagesOf('e.test', 2, { latencyMs: 100 }), ...pagesOf('ecd.test', 1) },
      {
        'http://e.test': { latencyMs: 400 },
        'http://ecd.test': {
          latencyMs: 400,
          decide: () => ({ verdict: 'allowed', outcome: 'ok', crawlDelaySeconds: 2 }),
        },
      },
    );
    await crawl({ seeds, delaySeconds: 1, delayFrom: 'end' });
    assert.deepEqual(pageStarts(site, 'e.test'), [1400, 2500]);
    assert.deepEqual(pageStarts(site, 'ecd.test'), [2400]);
  });

  it('no crawl-wide barrier: a host whose robots.txt is slow holds back no other host', async () => {
    const seeds = [...Object.keys(pagesOf('slow.test', 1)), ...Object.keys(pagesOf('quick.test', 2))];
    const { crawl, site } = setup(
      { ...pagesOf('slow.test', 1), ...pagesOf('quick.test', 2) },
      {
        'http://slow.test': { latencyMs: 5000 },
        'http://quick.test': { latencyMs: 10 },
      },
    );
    await crawl({ seeds, delaySeconds: 1 });
    assert.deepEqual(pageStarts(site, 'quick.test'), [1000, 2000]);
    assert.deepEqual(pageStarts(site, 'slow.test'), [5000]);
  });

  it('robots.txt requests take global slots like pages', async () => {
    const hosts = ['g1.test', 'g2.test', 'g3.test'];
    const seeds = hosts.flatMap((h) => Object.keys(pagesOf(h, 1)));
    const { crawl, robots, site } = setup(
      Object.assign({}, ...hosts.map((h) => pagesOf(h, 1, { latencyMs: 300 }))),
      Object.fromEntries(hosts.map((h) => [`http://${h}`, { latencyMs: 300 }])),
    );
    await crawl({ seeds, delaySeconds: 0, concurrency: 1 });
    const spans = [
      ...robots.fetches.map((f) => [f.startedAt, f.endedAt!] as const),
      ...site.log.map((e) => [e.startedAt, e.endedAt!] as const),
    ].sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++)
      assert.ok(spans[i]![0] >= spans[i - 1]![1], `requests overlap: ${JSON.stringify(spans)}`);
    assert.equal(spans.length, 6);
  });

  it("a second origin of the same host keeps the host's interval for its robots.txt too", async () => {
    const { crawl, robots, site } = setup(
      { 'http://two.test/': { status: 301, location: 'https://two.test/x', latencyMs: 20 }, 'https://two.test/x': {} },
      { 'http://two.test': { latencyMs: 10 }, 'https://two.test': { latencyMs: 10 } },
    );
    await crawl({ seeds: ['http://two.test/'], delaySeconds: 1 });
    assert.deepEqual(
      robots.fetches.map((f) => [f.origin, f.startedAt - T0]),
      [
        ['http://two.test', 0],
        ['https://two.test', 2000],
      ],
    );
    assert.deepEqual(pageStarts(site, 'two.test'), [1000, 3000]);
  });

  it('robots.txt fetched before the run: long ago holds nothing back, a moment ago holds the first page back', async () => {
    const seeds = ['http://old.test/p0', 'http://recent.test/p0'];
    const { crawl, site, robots, rec } = setup(
      { ...pagesOf('old.test', 1), ...pagesOf('recent.test', 1) },
      {
        'http://old.test': { fetchedAt: T0 - 60_000, latencyMs: 20 },
        'http://recent.test': { fetchedAt: T0 - 300, latencyMs: 20 },
      },
    );
    const result = await crawl({ seeds, delaySeconds: 1 });
    assert.deepEqual(pageStarts(site, 'old.test'), [0]);
    assert.deepEqual(pageStarts(site, 'recent.test'), [700]);
    assert.equal(robots.fetches.length, 0, 'nothing fetched again');
    assert.equal(rec.of('request-start').filter((e) => e.robotsTxt).length, 0, 'not a request of this run');
    assert.equal(result.summary.requests, 2);
  });

  it('an unreachable robots.txt is reported as the request it was, and the host is left out', async () => {
    const { crawl, rec, site } = setup(pagesOf('down.test', 3), { 'http://down.test': { latencyMs: 30, status: 503 } });
    const result = await crawl({ seeds: Object.keys(pagesOf('down.test', 3)), delaySeconds: 1 });
    assert.equal(site.log.length, 0);
    assert.equal(rec.of('host-dropped')[0]!.reason, 'robots-unreachable');
    assert.deepEqual(
      rec.of('response').map((e) => [e.url, e.status, e.robotsTxt]),
      [['http://down.test/robots.txt', 503, true]],
    );
    assert.equal(result.summary.requests, 1);
    assert.ok(result.urls.every((u) => u.outcome === 'robots-unreachable'));
  });

  it('a transport error on robots.txt is an error event of that request', async () => {
    const { crawl, rec } = setup(pagesOf('err.test', 1), { 'http://err.test': { latencyMs: 30, error: 'connect' } });
    const result = await crawl({ seeds: ['http://err.test/p0'], delaySeconds: 1 });
    assert.deepEqual(
      rec.of('error').map((e) => [e.url, e.kind, e.robotsTxt, e.willRetry]),
      [['http://err.test/robots.txt', 'connect', true, false]],
    );
    assert.equal(result.summary.errors, 1);
    assert.equal(result.urls[0]!.outcome, 'robots-unreachable');
  });

  it('a stop while robots.txt is in flight ends its URLs as not started', async () => {
    const clock = new VirtualClock(T0);
    const site = fakeSite(clock, pagesOf('st.test', 2));
    const robots = fetchingRobots(clock, { 'http://st.test': { latencyMs: 10_000 } });
    const stop = new AbortController();
    void clock.sleep(100).then(() => stop.abort());
    const result = await clock.run(
      runCrawl({
        clock,
        random: seededRandom(1),
        fetch: site.fetch,
        robots: robots.gate,
        seeds: Object.keys(pagesOf('st.test', 2)),
        stop: stop.signal,
        graceMs: 0,
      }),
    );
    assert.equal(result.summary.endReason, 'stopped');
    assert.equal(site.log.length, 0);
    assert.ok(
      result.urls.every((u) => u.outcome === 'not-started'),
      JSON.stringify(result.urls),
    );
  });
});

describe('not followed, by reason and host', () => {
  it('a host whose 8 links redirect to another: "other host 8" naming it, and the run is still complete', async () => {
    const links = Array.from({ length: 8 }, (_, i) => `/r${i}`);
    const pages: Record<string, FakeScript> = { 'http://one.test/': { links } };
    for (let i = 0; i < 8; i++) pages[`http://one.test/r${i}`] = { status: 301, location: `http://two.test/t${i}` };
    const { crawl } = setup(pages, {}, { latencyMs: 10 });
    const result = await crawl({ seeds: ['http://one.test/'], delaySeconds: 0 });
    assert.equal(result.summary.endReason, 'complete');
    assert.deepEqual(result.summary.notFollowed, [
      { reason: 'other-host', urls: 8, hosts: [{ host: 'two.test', urls: 8 }], moreHosts: 0 },
    ]);
    assert.equal(result.summary.pages, 1);
  });

  it('counts robots.txt disallows, the depth limit and the page limit, each with its hosts', async () => {
    const { crawl } = setup(
      {
        'http://d.test/': {
          links: ['/a', '/private/1', '/private/2', 'http://x.test/', 'http://y.test/', 'http://y.test/2'],
        },
        'http://d.test/a': { links: ['/deep'] },
      },
      {
        'http://d.test': {
          decide: (u) =>
            u.includes('/private') ? { verdict: 'disallowed', outcome: 'ok' } : { verdict: 'allowed', outcome: 'ok' },
        },
      },
      { latencyMs: 10 },
    );
    const result = await crawl({ seeds: ['http://d.test/'], delaySeconds: 0, maxDepth: 1 });
    assert.deepEqual(
      result.summary.notFollowed.map((n) => [n.reason, n.urls, n.hosts.map((h) => `${h.host}:${h.urls}`).join(' ')]),
      [
        ['other-host', 3, 'y.test:2 x.test:1'],
        ['robots-disallowed', 2, 'd.test:2'],
        ['depth', 1, 'd.test:1'],
      ],
    );
    const capped = await setup(pagesOf('m.test', 5), {}).crawl({
      seeds: Object.keys(pagesOf('m.test', 5)),
      delaySeconds: 0,
      maxPages: 2,
    });
    assert.deepEqual(capped.summary.notFollowed, [
      { reason: 'max-pages', urls: 3, hosts: [{ host: 'm.test', urls: 3 }], moreHosts: 0 },
    ]);
  });

  it('names at most 10 hosts per reason and counts the rest', async () => {
    const links = Array.from({ length: 13 }, (_, i) => `http://h${String(i).padStart(2, '0')}.test/`);
    const { crawl } = setup({ 'http://many.test/': { links } }, {});
    const result = await crawl({ seeds: ['http://many.test/'] });
    const [other] = result.summary.notFollowed;
    assert.equal(other!.urls, 13);
    assert.equal(other!.hosts.length, 10);
    assert.equal(other!.moreHosts, 3);
    assert.equal(other!.hosts[0]!.host, 'h00.test', 'ties by name');
  });

  it("followOtherHostRedirects follows the redirects, each through that host's robots.txt and queue, but not links found there", async () => {
    const pages: Record<string, FakeScript> = { 'http://one.test/': { links: ['/r0', '/r1', '/r2'] } };
    for (let i = 0; i < 3; i++) pages[`http://one.test/r${i}`] = { status: 301, location: `http://two.test/t${i}` };
    for (let i = 0; i < 3; i++)
      pages[`http://two.test/t${i}`] = { links: ['http://two.test/elsewhere', 'http://one.test/'] };
    const { crawl, robots, site } = setup(
      pages,
      {
        'http://two.test': {
          latencyMs: 50,
          decide: (u) =>
            u.endsWith('/t2') ? { verdict: 'disallowed', outcome: 'ok' } : { verdict: 'allowed', outcome: 'ok' },
        },
      },
      { latencyMs: 10 },
    );
    const result = await crawl({ seeds: ['http://one.test/'], delaySeconds: 1, followOtherHostRedirects: true });
    const twoRobots = robots.fetches.filter((f) => f.origin === 'http://two.test');
    assert.equal(twoRobots.length, 1);
    const twoPages = pageStarts(site, 'two.test');
    assert.deepEqual(
      site.log
        .filter((e) => e.host === 'two.test')
        .map((e) => e.url)
        .sort(),
      ['http://two.test/t0', 'http://two.test/t1'],
    );
    assert.equal(
      twoPages[0]! - (twoRobots[0]!.startedAt - T0),
      1000,
      'the first page one interval after its robots.txt',
    );
    assert.equal(twoPages[1]! - twoPages[0]!, 1000);
    assert.deepEqual(
      result.summary.notFollowed.map((n) => [n.reason, n.urls, n.hosts.map((h) => h.host).join(' ')]),
      [
        ['other-host', 1, 'two.test'],
        ['robots-disallowed', 1, 'two.test'],
      ],
    );
  });

  it("--allow-other-hosts follows them, through the other host's robots.txt and queue", async () => {
    const pages: Record<string, FakeScript> = { 'http://one.test/': { links: ['/r0', '/r1'] } };
    for (let i = 0; i < 2; i++) pages[`http://one.test/r${i}`] = { status: 301, location: `http://two.test/t${i}` };
    pages['http://two.test/t0'] = {};
    pages['http://two.test/t1'] = {};
    const { crawl, robots, site } = setup(pages, { 'http://two.test': { latencyMs: 50 } }, { latencyMs: 10 });
    const result = await crawl({ seeds: ['http://one.test/'], delaySeconds: 1, allowOtherHosts: true });
    assert.deepEqual(result.summary.notFollowed, []);
    const twoRobots = robots.fetches.find((f) => f.origin === 'http://two.test')!;
    const twoPages = pageStarts(site, 'two.test');
    assert.equal(twoPages.length, 2);
    assert.ok(
      twoPages[0]! >= twoRobots.startedAt - T0 + 1000,
      `first page of two.test at ${twoPages[0]}, robots.txt at ${twoRobots.startedAt - T0}`,
    );
    assert.equal(twoPages[1]! - twoPages[0]!, 1000);
  });
});
