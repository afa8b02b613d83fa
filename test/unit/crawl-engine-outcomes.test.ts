/**
 * How a crawl of the engine ends and what it reports, on virtual time: stop with its grace period, progress
 * and done events, every event type, exactly one outcome per URL met, bad options refused, an emit that
 * throws, and the same event stream for the same inputs (test/helpers/crawlEngine.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrawl } from '../../src/core/crawl/engine';
import { fakeRobots, seededRandom, type FakeScript } from '../helpers/crawlFakes';
import { byUrl, setup, T0, urlsOf } from '../helpers/crawlEngine';

describe('crawl engine: stop, events, outcomes', () => {
  it('stop: no new starts, in-flight aborted after the grace period, endReason stopped', async () => {
    const seeds = urlsOf('st.test', 10);
    const { clock, site, rec } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 5000 }])));
    const stop = new AbortController();
    const done = runCrawl({
      clock,
      random: () => 0.5,
      fetch: site.fetch,
      emit: rec.emit,
      seeds,
      stop: stop.signal,
      graceMs: 2000,
    });
    void clock.sleep(7000).then(() => stop.abort());
    const result = await clock.run(done);
    assert.equal(result.summary.endReason, 'stopped');
    assert.equal(site.log.length, 2, 'starts at 0 and 5 s; none after the stop at 7 s');
    assert.equal(site.log[1]!.aborted, true);
    assert.equal(result.summary.endedAt - T0, 9000, 'aborted at stop + grace');
    const m = byUrl(result);
    assert.equal(m.get(seeds[0]!)!.outcome, 'fetched');
    assert.equal(m.get(seeds[1]!)!.outcome, 'failed');
    assert.equal(m.get(seeds[1]!)!.detail, 'aborted: crawl stopped');
    assert.equal(result.urls.filter((u) => u.outcome === 'not-started' && u.detail === 'stopped').length, 8);
    assert.equal(rec.events.at(-1)!.type, 'done');
  });

  it('stop: an in-flight request that ends within the grace period completes normally', async () => {
    const seeds = urlsOf('st2.test', 3);
    const { clock, site } = setup(Object.fromEntries(seeds.map((u) => [u, { latencyMs: 800 }])));
    const stop = new AbortController();
    const done = runCrawl({ clock, random: () => 0.5, fetch: site.fetch, seeds, stop: stop.signal, graceMs: 5000 });
    void clock.sleep(1500).then(() => stop.abort());
    const result = await clock.run(done);
    assert.deepEqual(
      result.urls.map((u) => u.outcome),
      ['fetched', 'fetched', 'not-started'],
    );
    assert.equal(result.summary.endedAt - T0, 1800);
  });

  it('a stop signal aborted before the start: nothing is fetched', async () => {
    const { crawl, site } = setup({ 'http://n.test/': {} });
    const result = await crawl({ seeds: ['http://n.test/'], stop: AbortSignal.abort() });
    assert.equal(site.log.length, 0);
    assert.equal(result.urls[0]!.outcome, 'not-started');
    assert.equal(result.summary.endReason, 'stopped');
  });

  it('progress at most once per interval of clock time, and one at the end; done last with the summary', async () => {
    const seeds = urlsOf('pg.test', 8);
    const { crawl, rec } = setup(Object.fromEntries(seeds.map((u) => [u, {}])));
    const result = await crawl({ seeds, delaySeconds: 0.5, progressIntervalMs: 2000 });
    const progress = rec.of('progress');
    for (let i = 1; i < progress.length - 1; i++) assert.ok(progress[i]!.at - progress[i - 1]!.at >= 2000);
    const last = progress.at(-1)!;
    assert.equal(last.done, 8);
    assert.equal(last.planned, 8);
    assert.equal(last.etaSeconds, 0);
    assert.ok(last.ratePerSecond > 0);
    const done = rec.of('done');
    assert.equal(done.length, 1);
    assert.equal(rec.events.at(-1)!.type, 'done');
    assert.deepEqual(done[0]!.summary, result.summary);
  });

  it('every event type is emitted by one scripted crawl', async () => {
    const pages: Record<string, FakeScript> = {
      'http://ev.test/': { links: ['/a', '/b', '/private'] },
      'http://ev.test/a': [{ error: 'connect-timeout' }, {}],
      'http://ev.test/b': [{ status: 503, headers: { 'retry-after': '5' } }, {}],
      'http://cap.test/': { status: 429, headers: { 'retry-after': '99999' } },
    };
    const { crawl, rec, clock } = setup(pages);
    const robots = fakeRobots(clock, (u) =>
      u.endsWith('/private') ? { verdict: 'disallowed', outcome: 'ok' } : { verdict: 'allowed', outcome: 'ok' },
    );
    await crawl({ seeds: ['http://ev.test/', 'http://cap.test/'], robots: robots.gate });
    const types = new Set(rec.events.map((e) => e.type));
    for (const t of [
      'queued',
      'request-start',
      'response',
      'retry-scheduled',
      'host-paused',
      'host-dropped',
      'robots-skip',
      'error',
      'progress',
      'done',
    ] as const) {
      assert.ok(types.has(t), `missing ${t}`);
    }
  });

  it('every URL met has exactly one outcome, and every queued URL is in the list', async () => {
    const pages: Record<string, FakeScript> = {
      'http://o.test/': { links: ['/1', '/2', '/3', '/r', 'http://x.test/', 'ftp://f/'] },
      'http://o.test/1': { status: 404 },
      'http://o.test/2': { error: 'dns' },
      'http://o.test/r': { status: 301, location: '/1' },
    };
    const { crawl, rec } = setup(pages);
    const result = await crawl({ seeds: ['http://o.test/', 'not a url'] });
    const urls = result.urls.map((u) => u.url);
    assert.equal(new Set(urls).size, urls.length);
    for (const q of rec.of('queued')) assert.ok(urls.includes(q.url));
    for (const u of result.urls) assert.ok(u.outcome);
    const m = byUrl(result);
    assert.equal(m.get('not a url')!.outcome, 'out-of-scope');
    assert.equal(m.get('not a url')!.detail, 'invalid-url');
    assert.equal(m.get('http://o.test/1')!.outcome, 'fetched');
    assert.equal(m.get('http://o.test/1')!.status, 404);
    assert.equal(m.get('http://o.test/2')!.outcome, 'failed');
    assert.equal(m.get('http://o.test/3')!.status, 404, 'unknown pages are 404 in the fake');
    assert.equal(m.get('http://o.test/r')!.detail, 'not followed: already-met');
  });

  it('bad options are refused with a RangeError before anything starts', async () => {
    const { clock, site } = setup({});
    const base = { clock, random: () => 0, fetch: site.fetch, seeds: ['http://a.test/'] };
    for (const bad of [
      { concurrency: 0 },
      { perHostConcurrency: 1.5 },
      { delaySeconds: -1 },
      { maxPages: Number.NaN },
      { rateRecoveryFactor: 0 },
      { delayFrom: 'middle' as 'start' },
      { tokenBucket: { ratePerSecond: 0, burst: 1 } },
    ]) {
      await assert.rejects(runCrawl({ ...base, ...bad }), RangeError, JSON.stringify(bad));
    }
    assert.equal(site.log.length, 0);
  });

  it('an emit that throws fails the crawl instead of hanging it', async () => {
    const { clock, site } = setup({ 'http://e.test/': {} });
    await assert.rejects(
      clock.run(
        runCrawl({
          clock,
          random: () => 0,
          fetch: site.fetch,
          seeds: ['http://e.test/'],
          emit: (e) => {
            if (e.type === 'response') throw new Error('formatter bug');
          },
        }),
      ),
      /formatter bug/,
    );
  });

  it('is deterministic: the same inputs give the same event stream', async () => {
    const make = async () => {
      const pages: Record<string, FakeScript> = {};
      for (const h of ['a', 'b'])
        for (let i = 0; i < 5; i++)
          pages[`http://${h}.test/${i}`] = i === 2 ? [{ status: 503 }, { error: 'reset' }, {}] : { latencyMs: 37 * i };
      const { clock, site, rec } = setup(pages);
      await clock.run(
        runCrawl({ clock, random: seededRandom(42), fetch: site.fetch, emit: rec.emit, seeds: Object.keys(pages) }),
      );
      return JSON.stringify(rec.events);
    };
    assert.equal(await make(), await make());
  });
});
