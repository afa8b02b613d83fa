/**
 * The crawl engine's retries on virtual time: backoff with full jitter, what is retried and what is final, a
 * host dropped after consecutive failures, and Retry-After (seconds or an HTTP-date, the pause, the cap, the
 * raised interval that decays slowly after it). Every test is deterministic: the fake site's latency is
 * virtual time and jitter is a seeded source (test/helpers/crawlEngine.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrawl } from '../../src/core/crawl/engine';
import { startGaps, type FakeScript } from '../helpers/crawlFakes';
import { assertGapsAtLeast, assertLiveIntervalKept, byUrl, setup, T0, urlsOf } from '../helpers/crawlEngine';

describe('crawl engine: retries and backoff', () => {
  for (const delayFrom of ['start', 'end'] as const) {
    it(`retries go to the back of the host queue and keep the interval (${delayFrom} reading)`, async () => {
      const seeds = urlsOf('r.test', 3);
      const pages: Record<string, FakeScript> = {
        [seeds[0]!]: [{ status: 503 }, { status: 503 }, { status: 200 }],
        [seeds[1]!]: { status: 200 },
        [seeds[2]!]: { status: 200 },
      };
      const { crawl, rec } = setup(pages, { latencyMs: 100 });
      // A tiny backoff: it is the host's interval, not the backoff, that spaces the retries.
      const result = await crawl({ seeds, delayFrom, backoffBaseMs: 10, maxConsecutiveFailures: 10 });
      const order = rec.of('request-start').map((e) => `${e.url.slice(-2)}#${e.attempt}`);
      assert.deepEqual(order, ['p0#1', 'p1#1', 'p2#1', 'p0#2', 'p0#3']);
      const min = delayFrom === 'start' ? 1000 : 1100;
      assertGapsAtLeast(rec.events, min);
      assertLiveIntervalKept(rec.events);
      const p0 = byUrl(result).get(seeds[0]!)!;
      assert.equal(p0.outcome, 'fetched');
      assert.equal(p0.attempts, 3);
      assert.equal(result.summary.retries, 2);
      assert.equal(result.summary.requests, 5);
      assert.equal(result.summary.pages, 3, 'retries are requests, not pages');
      assert.deepEqual(result.summary.statusCounts, { '200': 3, '503': 2 });
    });
  }

  it('backoff is full jitter within [0, min(cap, base·2^n)) and the retry waits for it', async () => {
    const url = 'http://bo.test/x';
    const { clock, site, rec } = setup({ [url]: { error: 'connect' } }, { latencyMs: 0 });
    const result = await clock.run(
      runCrawl({
        clock,
        random: () => 0.999,
        fetch: site.fetch,
        emit: rec.emit,
        seeds: [url],
        delaySeconds: 0,
        maxRetries: 4,
        backoffBaseMs: 1000,
        backoffCapMs: 5000,
        maxConsecutiveFailures: 100,
      }),
    );
    const retries = rec.of('retry-scheduled');
    assert.deepEqual(
      retries.map((r) => r.notBefore - r.at),
      [999, 1998, 3996, 4995],
    );
    // Each retry starts at its notBefore or later: the host's interval (raised from 0 s to 1 s, 2 s, …
    // by the connection errors) still applies on top of the backoff.
    const starts = rec.of('request-start');
    for (let i = 0; i < retries.length; i++) {
      const s = starts[i + 1]!;
      assert.equal(s.at, Math.max(retries[i]!.notBefore, starts[i]!.at + s.intervalSeconds * 1000));
    }
    assert.deepEqual(
      starts.map((s) => s.intervalSeconds),
      [0, 1, 2, 4, 8],
    );
    assertLiveIntervalKept(rec.events);
    const rep = result.urls[0]!;
    assert.equal(rep.outcome, 'failed');
    assert.equal(rep.attempts, 5);
    assert.match(rep.detail ?? '', /connect/);
    assert.equal(rec.of('error').at(-1)!.willRetry, false);
    assert.equal(rec.of('error')[0]!.willRetry, true);
  });

  it('random 0 gives a zero backoff, but never a broken interval', async () => {
    const url = 'http://z.test/x';
    const { clock, site, rec } = setup({ [url]: [{ status: 500 }, { status: 500 }, {}] });
    await clock.run(
      runCrawl({ clock, random: () => 0, fetch: site.fetch, emit: rec.emit, seeds: [url], delaySeconds: 1 }),
    );
    assert.deepEqual(
      rec.of('retry-scheduled').map((r) => r.notBefore - r.at),
      [0, 0],
    );
    // 500 raises the interval: 2 s, then 4 s.
    assert.deepEqual(startGaps(rec.events).get('z.test'), [2000, 4000]);
    assertLiveIntervalKept(rec.events);
  });

  for (const status of [400, 401, 403, 404, 410, 501, 505]) {
    it(`${status} is not retried`, async () => {
      const url = 'http://nr.test/x';
      const { crawl, rec } = setup({ [url]: { status } });
      const result = await crawl({ seeds: [url] });
      assert.equal(rec.of('retry-scheduled').length, 0);
      assert.equal(result.urls[0]!.attempts, 1);
      assert.equal(result.urls[0]!.status, status);
      // A final 4xx is a fetched page (with its status); a final 5xx is a failure, retried or not.
      assert.equal(result.urls[0]!.outcome, status >= 500 ? 'failed' : 'fetched');
    });
  }

  it('non-retryable transport errors (dns, tls) are final at once', async () => {
    const { crawl, rec } = setup({ 'http://d.test/a': { error: 'dns' }, 'http://d.test/b': { error: 'tls' } });
    const result = await crawl({ seeds: ['http://d.test/a', 'http://d.test/b'] });
    assert.equal(rec.of('retry-scheduled').length, 0);
    assert.deepEqual(
      result.urls.map((u) => [u.outcome, u.attempts]),
      [
        ['failed', 1],
        ['failed', 1],
      ],
    );
    assert.equal(result.summary.errors, 2);
  });

  it('429 and 5xx retried up to maxRetries, then failed', async () => {
    const url = 'http://f.test/x';
    const { crawl } = setup({ [url]: { status: 502 } });
    const result = await crawl({ seeds: [url], maxRetries: 2, maxConsecutiveFailures: 99 });
    assert.equal(result.urls[0]!.outcome, 'failed');
    assert.equal(result.urls[0]!.attempts, 3);
    assert.equal(result.urls[0]!.status, 502);
  });

  it('a host is dropped after maxConsecutiveFailures; its URLs get host-dropped', async () => {
    const seeds = urlsOf('bad.test', 5);
    const good = urlsOf('good.test', 3);
    const { crawl, rec, site } = setup({
      ...Object.fromEntries(seeds.map((u) => [u, { status: 500 }])),
      ...Object.fromEntries(good.map((u) => [u, {}])),
    });
    const result = await crawl({
      seeds: [...seeds, ...good],
      maxConsecutiveFailures: 3,
      maxRetries: 5,
      backoffBaseMs: 10,
    });
    const dropped = rec.of('host-dropped');
    assert.equal(dropped.length, 1);
    assert.equal(dropped[0]!.host, 'bad.test');
    assert.equal(dropped[0]!.reason, 'consecutive-failures');
    assert.equal(dropped[0]!.urlsLeft, 5, 'the URL being retried and the four never started');
    assert.equal(site.log.filter((l) => l.host === 'bad.test').length, 3);
    const outcomes = result.urls.filter((u) => u.host === 'bad.test').map((u) => u.outcome);
    assert.deepEqual(outcomes, ['host-dropped', 'host-dropped', 'host-dropped', 'host-dropped', 'host-dropped']);
    assert.equal(result.urls.filter((u) => u.host === 'good.test' && u.outcome === 'fetched').length, 3);
    assert.match(result.summary.hosts.find((h) => h.host === 'bad.test')!.dropped ?? '', /consecutive-failures/);
    assert.equal(result.summary.endReason, 'complete');
  });

  it('a success resets the consecutive-failure count', async () => {
    const seeds = urlsOf('flaky.test', 6);
    const pages = Object.fromEntries(seeds.map((u, i) => [u, i % 2 === 0 ? { error: 'reset' as const } : {}]));
    const { crawl, rec } = setup(pages);
    await crawl({ seeds, maxRetries: 0, maxConsecutiveFailures: 2 });
    assert.equal(rec.of('host-dropped').length, 0);
  });

  it('a fetcher that rejects is an `other` error, not a crash', async () => {
    const { crawl, rec } = setup({ 'http://x.test/': { reject: true } });
    const result = await crawl({ seeds: ['http://x.test/'] });
    assert.equal(rec.of('error')[0]!.kind, 'other');
    assert.equal(result.urls[0]!.outcome, 'failed');
  });
});

describe('crawl engine: Retry-After', () => {
  it('429 + Retry-After seconds: the host is excluded until then, other hosts go on', async () => {
    const a = urlsOf('ra.test', 3);
    const b = urlsOf('other.test', 5);
    const pages: Record<string, FakeScript> = {
      [a[0]!]: [{ status: 429, headers: { 'retry-after': '10' } }, {}],
      [a[1]!]: {},
      [a[2]!]: {},
      ...Object.fromEntries(b.map((u) => [u, {}])),
    };
    const { crawl, rec } = setup(pages, { latencyMs: 100 });
    const result = await crawl({ seeds: [...a, ...b] });
    const paused = rec.of('host-paused');
    assert.equal(paused.length, 1);
    assert.equal(paused[0]!.host, 'ra.test');
    assert.equal(paused[0]!.retryAfter, '10');
    assert.equal(paused[0]!.status, 429);
    assert.equal(paused[0]!.until - paused[0]!.at, 10_000);
    const raStarts = rec.of('request-start').filter((s) => s.host === 'ra.test');
    assert.equal(raStarts[0]!.at, T0);
    assert.ok(
      raStarts.slice(1).every((s) => s.at >= paused[0]!.until),
      'no start during the pause',
    );
    // The other host kept its 1 s pace during the pause.
    assert.deepEqual(startGaps(rec.events).get('other.test'), [1000, 1000, 1000, 1000]);
    assert.deepEqual(result.summary.retryAfterSeen, ['10']);
    assert.deepEqual(result.summary.hosts.find((h) => h.host === 'ra.test')!.retryAfterSeen, ['10']);
    const retry = rec.of('retry-scheduled')[0]!;
    assert.equal(retry.notBefore, paused[0]!.until);
    assert.equal(retry.attempt, 2);
    assert.equal(byUrl(result).get(a[0]!)!.outcome, 'fetched');
  });

  it('two requests per host ending at one instant: a 301 handled first starts nothing before the 429 beside it pauses the host', async () => {
    const [p0, p1, p2] = urlsOf('pair.test', 3);
    const pages: Record<string, FakeScript> = {
      [p0!]: { status: 301, location: p2! },
      [p1!]: { status: 429, headers: { 'retry-after': '3' } },
      [p2!]: {},
    };
    const { crawl, rec } = setup(pages, { latencyMs: 50 });
    await crawl({ seeds: [p0!, p1!], perHostConcurrency: 2, delaySeconds: 0, maxRetries: 0 });
    const pause = rec.of('host-paused')[0]!;
    assert.equal(pause.at, T0 + 50);
    const later = rec.of('request-start').filter((s) => s.at > T0);
    assert.deepEqual(
      later.map((s) => [s.url, s.at - T0]),
      [[p2!, 3050]],
      'the redirect target waits for the pause the 429 of the same instant asked for',
    );
  });

  it('503 + Retry-After as an HTTP-date, against the Date header (server clock 1 h ahead)', async () => {
    const url = 'http://date.test/x';
    const pages: Record<string, FakeScript> = {
      [url]: [
        {
          status: 503,
          headers: { 'retry-after': 'Mon, 01 Jan 2024 01:00:20 GMT', date: 'Mon, 01 Jan 2024 01:00:00 GMT' },
        },
        {},
      ],
    };
    const { crawl, rec } = setup(pages, { latencyMs: 0 });
    await crawl({ seeds: [url] });
    const paused = rec.of('host-paused')[0]!;
    assert.equal(paused.until - paused.at, 20_000);
    assert.equal(rec.of('request-start')[1]!.at, paused.until);
  });

  it('Retry-After: 0 adds no wait but keeps the (raised) interval', async () => {
    const url = 'http://zero.test/x';
    const { crawl, rec } = setup({ [url]: [{ status: 429, headers: { 'retry-after': '0' } }, {}] }, { latencyMs: 0 });
    await crawl({ seeds: [url] });
    assert.deepEqual(startGaps(rec.events).get('zero.test'), [2000]);
  });

  it('an invalid Retry-After falls back to backoff', async () => {
    const url = 'http://inv.test/x';
    const { clock, site, rec } = setup(
      { [url]: [{ status: 429, headers: { 'retry-after': '1e3' } }, {}] },
      { latencyMs: 0 },
    );
    await clock.run(
      runCrawl({ clock, random: () => 0.5, fetch: site.fetch, emit: rec.emit, seeds: [url], delaySeconds: 0 }),
    );
    assert.equal(rec.of('host-paused').length, 0);
    assert.equal(rec.of('retry-scheduled')[0]!.notBefore - rec.of('retry-scheduled')[0]!.at, 500);
  });

  it('a Retry-After above the cap drops the host for the run', async () => {
    const a = urlsOf('cap.test', 4);
    const b = urlsOf('fine.test', 2);
    const { crawl, rec, site } = setup({
      [a[0]!]: { status: 429, headers: { 'retry-after': '3600' } },
      ...Object.fromEntries([...a.slice(1), ...b].map((u) => [u, {}])),
    });
    const result = await crawl({ seeds: [...a, ...b], retryAfterCapSeconds: 300 });
    const dropped = rec.of('host-dropped');
    assert.equal(dropped.length, 1);
    assert.equal(dropped[0]!.reason, 'retry-after-above-cap');
    assert.equal(dropped[0]!.urlsLeft, 4);
    assert.match(dropped[0]!.detail, /3600/);
    assert.equal(site.log.filter((l) => l.host === 'cap.test').length, 1);
    assert.ok(result.urls.filter((u) => u.host === 'cap.test').every((u) => u.outcome === 'host-dropped'));
    assert.equal(byUrl(result).get(a[0]!)!.status, 429);
    assert.equal(result.urls.filter((u) => u.host === 'fine.test' && u.outcome === 'fetched').length, 2);
  });

  it('a Retry-After date in year 9999 is above the cap', async () => {
    const url = 'http://y9999.test/x';
    const { crawl, rec } = setup({
      [url]: { status: 503, headers: { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' } },
    });
    const result = await crawl({ seeds: [url] });
    assert.equal(rec.of('host-dropped')[0]!.reason, 'retry-after-above-cap');
    assert.equal(result.summary.endReason, 'hosts-dropped');
  });

  it('no snap-back: after the pause the host resumes at a raised interval that decays slowly', async () => {
    const seeds = urlsOf('snap.test', 12);
    const pages: Record<string, FakeScript> = Object.fromEntries(seeds.map((u) => [u, {}]));
    pages[seeds[1]!] = [{ status: 429, headers: { 'retry-after': '30' } }, {}];
    const { crawl, rec } = setup(pages, { latencyMs: 50 });
    await crawl({ seeds });
    const paused = rec.of('host-paused')[0]!;
    const after = rec.of('request-start').filter((s) => s.at >= paused.until);
    assert.equal(after[0]!.at, paused.until);
    assert.equal(after[0]!.intervalSource, 'retry-after');
    assert.equal(after[0]!.intervalSeconds, 2);
    const gaps = after.slice(1).map((s) => s.sinceLastStartSeconds!);
    // Raised well above the planned 1 s right after the pause, and coming down gradually.
    assert.ok(gaps[0]! > 1.5, `first gap after the pause ${gaps[0]}`);
    for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i]! <= gaps[i - 1]! + 1e-9);
    assert.ok(gaps.filter((g) => g > 1).length >= 5, `at least five raised gaps: ${gaps.join(', ')}`);
    assertLiveIntervalKept(rec.events);
  });
});
