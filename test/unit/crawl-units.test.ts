/**
 * Politeness units in the crawl engine (docs/how-it-works.md#politeness-units), on virtual time: hosts of one
 * unit share one request in flight, one interval (the largest of their members'), one pause and one rate;
 * each keeps its own robots.txt and Crawl-delay. Without units every host is its own, as before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrawl } from '../../src/core/crawl/engine';
import type { CrawlEvent } from '../../src/core/crawl/events';
import type { CrawlOptions, CrawlResult } from '../../src/core/crawl/types';
import { politenessUnits } from '../../src/core/servers/units';
import { fakeRobots, fakeSite, recorder, seededRandom, startGaps, type FakeScript } from '../helpers/crawlFakes';
import { VirtualClock } from '../helpers/virtualClock';

const T0 = Date.UTC(2024, 0, 1);

function setup(pages: Record<string, FakeScript>, latencyMs = 100) {
  const clock = new VirtualClock(T0);
  const site = fakeSite(clock, pages, { latencyMs });
  const rec = recorder();
  const crawl = (o: Partial<CrawlOptions> & { seeds: string[] }): Promise<CrawlResult> =>
    clock.run(runCrawl({ clock, random: seededRandom(1), fetch: site.fetch, emit: rec.emit, ...o }));
  return { clock, site, rec, crawl };
}

/** Every start, over the hosts given, in time order. */
function startsOver(events: CrawlEvent[], hosts: readonly string[]): number[] {
  return events
    .filter((e) => e.type === 'request-start' && hosts.includes(e.host))
    .map((e) => e.at - T0)
    .sort((a, b) => a - b);
}

function gaps(times: readonly number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]!);
}

const SHARED = ['a.test', 'b.test', 'c.test'];
/** a, b and c on one address (IPv6, as a resolver gives it), d on its own. */
const ADDRESSES = {
  'a.test': ['2001:db8::5'],
  'b.test': ['2001:db8::5'],
  'c.test': ['2001:db8::5'],
  'd.test': ['::1'],
};

function seedsOf(hosts: readonly string[], n: number): string[] {
  // Interleaved, as links are met.
  const out: string[] = [];
  for (let i = 0; i < n; i++) for (const h of hosts) out.push(`http://${h}/p${i}`);
  return out;
}

describe('politeness units in the engine', () => {
  it('three hosts on one IPv6 address keep one interval between them; a host on its own keeps its own', async () => {
    const seeds = seedsOf([...SHARED, 'd.test'], 4);
    const { crawl, rec, site } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
    const units = politenessUnits([...SHARED, 'd.test'], 'ip', ADDRESSES);
    const result = await crawl({ seeds, delaySeconds: 1, politenessUnits: units });
    const shared = startsOver(rec.events, SHARED);
    assert.equal(shared.length, 12);
    // One start a second over the three names: 12 starts take 11 s, not 3.
    assert.deepEqual(
      gaps(shared),
      Array.from({ length: 11 }, () => 1000),
    );
    assert.deepEqual(startGaps(rec.events).get('d.test'), [1000, 1000, 1000]);
    // One request in flight for the unit (the fake site counts per host; the unit's starts never overlap).
    for (const h of SHARED) assert.equal(site.maxInFlightPerHost.get(h), 1);
    // Round-robin among the members: each name's starts are three seconds apart.
    assert.deepEqual(startGaps(rec.events).get('a.test'), [3000, 3000, 3000]);
    // The events and the summary name the unit.
    const starts = rec.of('request-start');
    assert.equal(starts.find((s) => s.host === 'b.test')!.unit, '2001:db8::5');
    assert.equal(starts.find((s) => s.host === 'd.test')!.unit, undefined);
    assert.equal(result.summary.hosts.find((h) => h.host === 'a.test')!.unit, '2001:db8::5');
    assert.equal(result.summary.hosts.find((h) => h.host === 'd.test')!.unit, undefined);
    assert.deepEqual(result.summary.units, [
      {
        unit: '2001:db8::5',
        hosts: SHARED,
        requests: 12,
        minIntervalSeconds: 1,
        meanIntervalSeconds: 1,
        plannedIntervalSeconds: 1,
        intervalSource: 'configured',
      },
    ]);
  });

  it('without units (or with host units) each host keeps its own interval, as before', async () => {
    const seeds = seedsOf(SHARED, 4);
    for (const politenessUnits of [undefined, units('host')]) {
      const { crawl, rec } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
      const result = await crawl({ seeds, delaySeconds: 1, ...(politenessUnits ? { politenessUnits } : {}) });
      assert.equal(Math.min(...gaps(startsOver(rec.events, SHARED))), 0, 'the three names start together');
      for (const h of SHARED) assert.deepEqual(startGaps(rec.events).get(h), [1000, 1000, 1000]);
      assert.equal(result.summary.units, undefined);
    }
  });

  it("the unit's interval is the largest of its members': one member's Crawl-delay paces all", async () => {
    const seeds = seedsOf(SHARED, 3);
    const { crawl, rec, clock } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
    const robots = fakeRobots(clock, (url) => ({
      verdict: 'allowed',
      outcome: 'ok',
      ...(new URL(url).host === 'b.test' ? { crawlDelaySeconds: 3 } : {}),
    }));
    const result = await crawl({ seeds, delaySeconds: 1, robots: robots.gate, politenessUnits: units('ip') });
    const shared = startsOver(rec.events, SHARED);
    // a's first start comes before b's robots.txt answer is in; from then on the unit keeps 3 s.
    assert.ok(
      gaps(shared.slice(1)).every((g) => g >= 3000),
      `gaps ${gaps(shared).join(', ')}`,
    );
    assert.equal(result.summary.units![0]!.plannedIntervalSeconds, 3);
    assert.equal(result.summary.units![0]!.intervalSource, 'crawl-delay');
  });

  it('a member left out for its Crawl-delay (skip policy) does not slow the others', async () => {
    const seeds = seedsOf(SHARED, 3);
    const { crawl, rec, clock } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
    const robots = fakeRobots(clock, (url) => ({
      verdict: 'allowed',
      outcome: 'ok',
      ...(new URL(url).host === 'b.test' ? { crawlDelaySeconds: 500 } : {}),
    }));
    const result = await crawl({
      seeds,
      delaySeconds: 1,
      crawlDelayPolicy: 'skip',
      maxCrawlDelaySeconds: 30,
      robots: robots.gate,
      politenessUnits: units('ip'),
    });
    assert.match(result.summary.hosts.find((h) => h.host === 'b.test')!.dropped ?? '', /crawl-delay-above-cap/);
    assert.deepEqual(gaps(startsOver(rec.events, ['a.test', 'c.test'])), [1000, 1000, 1000, 1000, 1000]);
  });

  it('Retry-After from one member pauses the whole unit; without units only that host', async () => {
    const seeds = seedsOf(SHARED, 3);
    const pages: Record<string, FakeScript> = Object.fromEntries(seeds.map((u) => [u, {}]));
    pages['http://a.test/p0'] = [{ status: 429, headers: { 'retry-after': '10' } }, {}];
    for (const grouped of [true, false]) {
      const { crawl, rec } = setup(pages);
      await crawl({ seeds, delaySeconds: 1, ...(grouped ? { politenessUnits: units('ip') } : {}) });
      const paused = rec.of('host-paused');
      assert.equal(paused.length, 1);
      assert.equal(paused[0]!.host, 'a.test');
      assert.equal(paused[0]!.unit, grouped ? '2001:db8::5' : undefined);
      const during = rec
        .of('request-start')
        .filter((s) => s.at > paused[0]!.at && s.at < paused[0]!.until)
        .map((s) => s.host);
      if (grouped) assert.deepEqual(during, [], 'no member of the unit starts during the pause');
      else assert.ok(during.includes('b.test') && during.includes('c.test'), `during the pause: ${during.join(', ')}`);
    }
  });

  it("a 503 from one member raises the unit's interval (the rate is the unit's)", async () => {
    const seeds = seedsOf(SHARED, 3);
    const pages: Record<string, FakeScript> = Object.fromEntries(seeds.map((u) => [u, {}]));
    pages['http://a.test/p0'] = [{ status: 503 }, {}];
    const { crawl, rec } = setup(pages);
    await crawl({ seeds, delaySeconds: 1, maxRetries: 1, politenessUnits: units('ip') });
    const next = rec.of('request-start').find((s) => s.host !== 'a.test' && s.at > T0)!;
    assert.ok(next.intervalSeconds >= 2, `b or c kept ${next.intervalSeconds} s after a's 503`);
    assert.equal(next.intervalSource, 'backoff');
  });

  it('perHostConcurrency applies to the unit: two in flight over its members, starts still an interval apart', async () => {
    const seeds = seedsOf(SHARED, 4);
    const { crawl, rec } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 2500 }])));
    await crawl({ seeds, delaySeconds: 1, perHostConcurrency: 2, politenessUnits: units('ip') });
    const spans = rec
      .of('response')
      .filter((r) => SHARED.includes(r.host))
      .map((r) => [r.startedAt, r.at] as const);
    for (const [start] of spans) {
      const open = spans.filter(([s, e]) => s <= start && e > start).length;
      assert.ok(open <= 2, `${open} in flight over the unit at ${start - T0}`);
    }
    assert.ok(gaps(startsOver(rec.events, SHARED)).every((g) => g >= 1000));
  });

  it('takes a plain function of the host as well', async () => {
    const seeds = seedsOf(['x.a.test', 'y.a.test'], 2);
    const { crawl, rec } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
    await crawl({ seeds, delaySeconds: 1, politenessUnits: (h) => h.slice(2) });
    assert.deepEqual(gaps(startsOver(rec.events, ['x.a.test', 'y.a.test'])), [1000, 1000, 1000]);
  });

  it('refuses a unit option that is neither a function nor units', async () => {
    const { crawl } = setup({});
    await assert.rejects(
      crawl({ seeds: ['http://a.test/'], politenessUnits: 'ip' as unknown as CrawlOptions['politenessUnits'] }),
      /politenessUnits must be/,
    );
  });
});

function units(by: 'host' | 'ip') {
  return politenessUnits([...SHARED, 'd.test'], by, ADDRESSES);
}
