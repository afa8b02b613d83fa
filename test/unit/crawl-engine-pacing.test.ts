/**
 * The crawl engine's pacing on virtual time: the interval read from start or from end, one in flight per host,
 * global slots, per-host concurrency, the token bucket, Crawl-delay as a floor, the adaptive delay, and the
 * interval measured from when a request reached its connection. Every test is deterministic: the fake site's
 * latency is virtual time and jitter is a seeded source (test/helpers/crawlEngine.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrawl } from '../../src/core/crawl/engine';
import type { CrawlOptions } from '../../src/core/crawl/types';
import { fakeRobots, seededRandom, startGaps } from '../helpers/crawlFakes';
import { VirtualClock } from '../helpers/virtualClock';
import { assertGapsAtLeast, setup, T0, urlsOf } from '../helpers/crawlEngine';

describe('crawl engine: scheduling', () => {
  it('3 hosts × 10 pages at a 1 s interval run in parallel: ~10 s, not 30', async () => {
    const seeds = ['a.test', 'b.test', 'c.test'].flatMap((h) => urlsOf(h, 10));
    const { crawl, rec, site } = setup({ ...Object.fromEntries(seeds.map((u) => [u, { status: 200 }])) });
    const result = await crawl({ seeds });
    assert.equal(result.summary.pages, 30);
    assert.equal(result.summary.endReason, 'complete');
    assert.ok(
      result.summary.elapsedSeconds >= 9 && result.summary.elapsedSeconds < 10.5,
      `elapsed ${result.summary.elapsedSeconds}`,
    );
    assertGapsAtLeast(rec.events, 1000);
    for (const h of result.summary.hosts) {
      assert.equal(h.requests, 10);
      assert.equal(h.minIntervalSeconds, 1);
      assert.equal(h.meanIntervalSeconds, 1);
      assert.equal(h.plannedIntervalSeconds, 1);
      assert.equal(h.intervalSource, 'configured');
    }
    assert.equal(site.maxInFlight, 3);
  });

  it('one in flight per host: a 2.5 s response holds the next start (start reading)', async () => {
    const seeds = urlsOf('slow.test', 4);
    const { crawl, rec, site } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 2500 }])));
    await crawl({ seeds, delaySeconds: 1, delayFrom: 'start' });
    assert.equal(site.maxInFlightPerHost.get('slow.test'), 1);
    assert.deepEqual(startGaps(rec.events).get('slow.test'), [2500, 2500, 2500]);
  });

  it('end reading: the gap is latency + interval', async () => {
    const seeds = urlsOf('e.test', 4);
    const { crawl, rec } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 500 }])));
    await crawl({ seeds, delaySeconds: 1, delayFrom: 'end' });
    assert.deepEqual(startGaps(rec.events).get('e.test'), [1500, 1500, 1500]);
  });

  it('start reading with fast responses: exactly the interval', async () => {
    const seeds = urlsOf('s.test', 4);
    const { crawl, rec } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 200 }])));
    await crawl({ seeds, delaySeconds: 1.5 });
    assert.deepEqual(startGaps(rec.events).get('s.test'), [1500, 1500, 1500]);
    const starts = rec.of('request-start');
    assert.equal(starts[0]!.sinceLastStartSeconds, undefined);
    assert.equal(starts[1]!.sinceLastStartSeconds, 1.5);
    assert.equal(starts[1]!.intervalSeconds, 1.5);
  });

  it('global slots: never more than `concurrency` in flight over all hosts', async () => {
    const seeds = Array.from({ length: 10 }, (_, i) => `http://h${i}.test/`);
    const { crawl, site } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 1000 }])));
    const result = await crawl({ seeds, concurrency: 3 });
    assert.equal(site.maxInFlight, 3);
    assert.equal(result.summary.pages, 10);
    assert.equal(result.summary.elapsedSeconds, 4); // ceil(10 / 3) rounds of 1 s
  });

  it('per-host concurrency 2 with a 1 s interval: two in flight, starts still 1 s apart', async () => {
    const seeds = urlsOf('p.test', 6);
    const { crawl, rec, site } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 1800 }])));
    await crawl({ seeds, perHostConcurrency: 2 });
    assert.equal(site.maxInFlightPerHost.get('p.test'), 2);
    assertGapsAtLeast(rec.events, 1000);
  });

  it('token bucket: a burst of 4 then 2 per second', async () => {
    const seeds = urlsOf('tb.test', 6);
    const { crawl, rec } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 10 }])));
    await crawl({ seeds, delaySeconds: 0, perHostConcurrency: 6, tokenBucket: { ratePerSecond: 2, burst: 4 } });
    const starts = rec.of('request-start').map((e) => e.at - T0);
    assert.deepEqual(starts, [0, 0, 0, 0, 500, 1000]);
  });

  it('Crawl-delay from robots.txt is a floor merged by max', async () => {
    const seeds = urlsOf('cd.test', 3);
    const { crawl, rec, clock } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
    const robots = fakeRobots(clock, () => ({ verdict: 'allowed', outcome: 'ok', crawlDelaySeconds: 3 }));
    const result = await crawl({ seeds, robots: robots.gate, delaySeconds: 1 });
    assert.deepEqual(startGaps(rec.events).get('cd.test'), [3000, 3000]);
    assert.equal(rec.of('request-start')[0]!.intervalSource, 'crawl-delay');
    assert.equal(result.summary.hosts[0]!.plannedIntervalSeconds, 3);
    assert.equal(result.summary.hosts[0]!.intervalSource, 'crawl-delay');
  });

  it('adaptive: max(1 s, 10 × latency) between starts', async () => {
    const seeds = urlsOf('ad.test', 3);
    const { crawl, rec } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 300 }])));
    await crawl({ seeds, delaySeconds: 0, adaptive: true });
    assert.deepEqual(startGaps(rec.events).get('ad.test'), [3000, 3000]);
    assert.equal(rec.of('request-start')[1]!.intervalSource, 'adaptive');
  });
});

describe('crawl engine: the interval is measured from when a request reached its connection', () => {
  it('a slow connect (sentAt after the scheduled start) pushes the next start to sentAt + interval', async () => {
    const clock = new VirtualClock(T0);
    const connectMs = [300, 0, 0, 0]; // the first request pays for a new connection
    const sentAts: number[] = [];
    const startedAts: number[] = [];
    let n = 0;
    const fetch: CrawlOptions['fetch'] = async () => {
      const startedAt = clock.now();
      startedAts.push(startedAt);
      await clock.sleep(connectMs[n++] ?? 0);
      const sentAt = clock.now();
      sentAts.push(sentAt);
      await clock.sleep(50);
      return { status: 200, headers: {}, bytes: 0, truncated: false, startedAt, sentAt, endedAt: clock.now() };
    };
    const seeds = urlsOf('a.test', 4);
    await clock.run(runCrawl({ clock, random: seededRandom(1), fetch, seeds, delaySeconds: 1 }));
    assert.equal(sentAts.length, 4);
    // What the server sees: arrivals (sentAt) never closer than the interval.
    for (let i = 1; i < sentAts.length; i++)
      assert.ok(sentAts[i]! - sentAts[i - 1]! >= 1000, `arrival gap ${sentAts[i]! - sentAts[i - 1]!} ms`);
    assert.equal(startedAts[1]! - startedAts[0]!, 1300, 'the second start waits for sentAt + 1 s, not start + 1 s');
  });
});
