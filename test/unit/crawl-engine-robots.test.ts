/**
 * The crawl engine's robots.txt gate on virtual time: disallowed URLs skipped with the deciding line, an
 * unreachable robots.txt (or a gate that throws) skipping the host, one check at a time per origin before the
 * first request, and a Crawl-delay above the cap under the skip policy. Deterministic: the fake site's latency
 * is virtual time and jitter is a seeded source (test/helpers/crawlEngine.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fakeRobots } from '../helpers/crawlFakes';
import { byUrl, setup, T0, urlsOf } from '../helpers/crawlEngine';

describe('crawl engine: robots.txt', () => {
  it('disallowed URLs are skipped, counted and reported with the line', async () => {
    const seeds = ['http://rb.test/ok', 'http://rb.test/private/a', 'http://rb.test/private/b'];
    const { crawl, rec, clock, site } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
    const robots = fakeRobots(clock, (u) =>
      u.includes('/private')
        ? { verdict: 'disallowed', line: 2, rule: 'Disallow: /private', outcome: 'ok' }
        : { verdict: 'allowed', outcome: 'ok' },
    );
    const result = await crawl({ seeds, robots: robots.gate });
    assert.equal(site.log.length, 1);
    const skips = rec.of('robots-skip');
    assert.equal(skips.length, 2);
    assert.deepEqual(
      { line: skips[0]!.line, rule: skips[0]!.rule, reason: skips[0]!.reason },
      { line: 2, rule: 'Disallow: /private', reason: 'disallowed' },
    );
    assert.equal(result.summary.robotsSkips, 2);
    assert.equal(result.summary.hosts[0]!.robotsSkips, 2);
    assert.equal(byUrl(result).get(seeds[1]!)!.outcome, 'robots-disallowed');
    assert.match(byUrl(result).get(seeds[1]!)!.detail ?? '', /line 2/);
  });

  it('robots.txt unreachable: the whole host is skipped, no page fetched', async () => {
    const seeds = [...urlsOf('down.test', 3), 'http://up.test/'];
    const { crawl, rec, clock, site } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
    const robots = fakeRobots(
      clock,
      (u) =>
        u.includes('down.test')
          ? { verdict: 'disallowed', outcome: 'unreachable', detail: 'robots.txt: 503' }
          : { verdict: 'allowed', outcome: 'ok' },
      200,
    );
    const result = await crawl({ seeds, robots: robots.gate });
    assert.equal(site.log.filter((l) => l.host === 'down.test').length, 0);
    const dropped = rec.of('host-dropped');
    assert.equal(dropped.length, 1);
    assert.equal(dropped[0]!.reason, 'robots-unreachable');
    assert.equal(dropped[0]!.urlsLeft, 3);
    assert.equal(rec.of('robots-skip').filter((s) => s.reason === 'unreachable').length, 3);
    assert.ok(result.urls.filter((u) => u.host === 'down.test').every((u) => u.outcome === 'robots-unreachable'));
    assert.equal(robots.calls.filter((c) => c.includes('down.test')).length, 1, 'no more checks once the host is out');
  });

  it('a robots gate that throws is read as unreachable', async () => {
    const { crawl, rec } = setup({ 'http://t.test/': {} });
    const result = await crawl({ seeds: ['http://t.test/'], robots: () => Promise.reject(new Error('boom')) });
    assert.equal(rec.of('host-dropped')[0]!.reason, 'robots-unreachable');
    assert.equal(result.urls[0]!.outcome, 'robots-unreachable');
  });

  it('robots.txt is asked before the first request, one call at a time per origin', async () => {
    const seeds = urlsOf('ser.test', 5);
    const { crawl, clock, site } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
    const robots = fakeRobots(clock, () => ({ verdict: 'allowed', outcome: 'ok' }), 300);
    await crawl({ seeds, robots: robots.gate });
    assert.equal(robots.maxConcurrentPerOrigin, 1);
    assert.equal(site.log[0]!.startedAt, T0 + 300, 'the first request waits for robots.txt');
  });

  it('a Crawl-delay above the cap under the skip policy drops the host', async () => {
    const { crawl, rec, clock, site } = setup({ 'http://cd.test/': {} });
    const robots = fakeRobots(clock, () => ({ verdict: 'allowed', outcome: 'ok', crawlDelaySeconds: 120 }));
    const result = await crawl({
      seeds: ['http://cd.test/'],
      robots: robots.gate,
      crawlDelayPolicy: 'skip',
      maxCrawlDelaySeconds: 30,
    });
    assert.equal(rec.of('host-dropped')[0]!.reason, 'crawl-delay-above-cap');
    assert.equal(site.log.length, 0);
    assert.equal(result.urls[0]!.outcome, 'host-dropped');
  });
});
