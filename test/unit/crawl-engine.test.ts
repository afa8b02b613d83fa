/**
 * The crawl engine on virtual time: politeness (interval, one in flight per host, global slots, token
 * bucket), Retry-After, retries and backoff, robots.txt, scope, redirects, stop, and outcomes.
 * Every test is deterministic: the fake site's latency is virtual time and jitter is a seeded source.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrawl } from '../../src/core/crawl/engine';
import type { CrawlOptions, CrawlResult, UrlReport } from '../../src/core/crawl/types';
import {
  fakeExtractLinks,
  fakeRobots,
  fakeSite,
  recorder,
  seededRandom,
  startGaps,
  startsByHost,
  type FakeScript,
} from '../helpers/crawlFakes';
import { VirtualClock } from '../helpers/virtualClock';

const T0 = Date.UTC(2024, 0, 1); // Mon, 01 Jan 2024 00:00:00 GMT

function setup(pages: Record<string, FakeScript>, opts: { latencyMs?: number } = {}) {
  const clock = new VirtualClock(T0);
  const site = fakeSite(clock, pages, opts);
  const rec = recorder();
  const crawl = (o: Partial<CrawlOptions> & { seeds: string[] }): Promise<CrawlResult> =>
    clock.run(
      runCrawl({
        clock,
        random: seededRandom(1),
        fetch: site.fetch,
        emit: rec.emit,
        extractLinks: fakeExtractLinks,
        ...o,
      }),
    );
  return { clock, site, rec, crawl };
}

function urlsOf(host: string, n: number, prefix = 'p'): string[] {
  return Array.from({ length: n }, (_, i) => `http://${host}/${prefix}${i}`);
}

function byUrl(result: CrawlResult): Map<string, UrlReport> {
  return new Map(result.urls.map((u) => [u.url, u]));
}

function assertGapsAtLeast(events: Parameters<typeof startGaps>[0], ms: number): void {
  for (const [host, gaps] of startGaps(events)) {
    for (const gap of gaps)
      assert.ok(gap >= ms, `${host}: a gap of ${gap} ms is below ${ms} ms (gaps ${gaps.join(', ')})`);
  }
}

/** Every start's gap to the previous start of its host is at least the interval in force at that start. */
function assertLiveIntervalKept(events: Parameters<typeof startsByHost>[0]): void {
  for (const [host, starts] of startsByHost(events)) {
    for (const s of starts.slice(1)) {
      assert.ok(s.sinceLastStartSeconds !== undefined);
      assert.ok(
        s.sinceLastStartSeconds + 1e-9 >= s.intervalSeconds,
        `${host}: ${s.sinceLastStartSeconds} s since the last start, interval ${s.intervalSeconds} s (${s.intervalSource})`,
      );
    }
  }
}

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

describe('crawl engine: scope, limits and redirects', () => {
  it('links: normalised (fragment dropped), deduplicated, other hosts and non-http out of scope', async () => {
    const { crawl, rec } = setup({
      'http://s.test/': {
        links: [
          '/a#top',
          '/a#bottom',
          'a',
          'http://S.TEST:80/b',
          'mailto:x@y',
          'http://elsewhere.test/',
          'http://[::1',
        ],
      },
      'http://s.test/a': {},
      'http://s.test/b': {},
    });
    const result = await crawl({ seeds: ['http://s.test/'] });
    const m = byUrl(result);
    assert.equal(m.get('http://s.test/a')!.outcome, 'fetched');
    assert.equal(m.get('http://s.test/b')!.outcome, 'fetched');
    assert.equal(m.get('http://elsewhere.test/')!.outcome, 'out-of-scope');
    assert.equal(m.get('http://elsewhere.test/')!.detail, 'other-host');
    assert.equal(m.get('mailto:x@y')!.detail, 'scheme');
    assert.equal(m.get('http://[::1')!.detail, 'invalid-url');
    assert.equal(result.summary.pages, 3);
    assert.equal(rec.of('response')[0]!.linksQueued, 2);
    assert.deepEqual(
      rec.events.slice(0, 3).map((e) => e.type),
      ['queued', 'request-start', 'response'],
    );
    assert.equal(rec.of('queued')[1]!.from, 'http://s.test/');
    assert.equal(rec.of('queued')[1]!.depth, 1);
  });

  it('allowOtherHosts follows links off the seed hosts', async () => {
    const { crawl } = setup({ 'http://s.test/': { links: ['http://elsewhere.test/'] }, 'http://elsewhere.test/': {} });
    const result = await crawl({ seeds: ['http://s.test/'], allowOtherHosts: true });
    assert.equal(byUrl(result).get('http://elsewhere.test/')!.outcome, 'fetched');
  });

  it('maxDepth: nothing deeper is fetched; links on the last depth are met only to be counted as not followed', async () => {
    const { crawl, site } = setup({
      'http://d.test/0': { links: ['/1'] },
      'http://d.test/1': { links: ['/2'] },
      'http://d.test/2': { links: ['/3'] },
      'http://d.test/3': {},
    });
    const result = await crawl({ seeds: ['http://d.test/0'], maxDepth: 2 });
    assert.deepEqual(
      site.log.map((l) => l.url),
      ['http://d.test/0', 'http://d.test/1', 'http://d.test/2'],
    );
    assert.deepEqual(
      result.urls.map((u) => [u.depth, u.outcome, u.detail ?? '']),
      [
        [0, 'fetched', ''],
        [1, 'fetched', ''],
        [2, 'fetched', ''],
        [3, 'out-of-scope', 'depth'],
      ],
    );
    assert.deepEqual(
      result.summary.notFollowed.map((n) => [n.reason, n.urls]),
      [['depth', 1]],
    );
  });

  it('maxPages: exactly that many pages, the rest not-started, endReason max-pages', async () => {
    const links = Array.from({ length: 20 }, (_, i) => `/l${i}`);
    const pages: Record<string, FakeScript> = { 'http://m.test/': { links } };
    for (const l of links) pages[`http://m.test${l}`] = {};
    const { crawl, site } = setup(pages);
    const result = await crawl({ seeds: ['http://m.test/'], maxPages: 5, perHostConcurrency: 3, delaySeconds: 0 });
    assert.equal(result.summary.pages, 5);
    assert.equal(site.log.length, 5, 'no request is started beyond the budget');
    assert.equal(result.summary.endReason, 'max-pages');
    assert.equal(result.urls.filter((u) => u.outcome === 'not-started' && u.detail === 'max-pages').length, 16);
  });

  it('maxPages counts final pages: a URL whose retries fail frees its place', async () => {
    const { crawl } = setup({ 'http://m2.test/a': { error: 'dns' }, 'http://m2.test/b': {}, 'http://m2.test/c': {} });
    const result = await crawl({ seeds: ['http://m2.test/a', 'http://m2.test/b', 'http://m2.test/c'], maxPages: 2 });
    assert.equal(result.summary.pages, 2);
    assert.deepEqual(
      result.urls.map((u) => u.outcome),
      ['failed', 'fetched', 'fetched'],
    );
  });

  it('a redirect chain: one request per hop, through politeness, target at the front of the queue', async () => {
    const { crawl, rec } = setup({
      'http://rd.test/a': { status: 301, location: '/b' },
      'http://rd.test/b': { status: 302, headers: { location: 'http://rd.test/c' } },
      'http://rd.test/c': {},
      'http://rd.test/x': {},
    });
    const result = await crawl({ seeds: ['http://rd.test/a', 'http://rd.test/x'] });
    assert.deepEqual(
      rec.of('request-start').map((s) => s.url.slice(-1)),
      ['a', 'b', 'c', 'x'],
    );
    assertGapsAtLeast(rec.events, 1000);
    const m = byUrl(result);
    assert.deepEqual(
      ['a', 'b', 'c', 'x'].map((k) => m.get(`http://rd.test/${k}`)!.outcome),
      ['redirected', 'redirected', 'fetched', 'fetched'],
    );
    assert.equal(m.get('http://rd.test/c')!.from, 'http://rd.test/b');
    assert.equal(rec.of('response')[0]!.location, 'http://rd.test/b');
    assert.equal(result.summary.pages, 2, 'a chain is one page');
    assert.equal(result.summary.requests, 4);
  });

  it('a redirect loop ends (the target was already met)', async () => {
    const { crawl, site } = setup({
      'http://lp.test/a': { status: 302, location: '/b' },
      'http://lp.test/b': { status: 302, location: '/a' },
    });
    const result = await crawl({ seeds: ['http://lp.test/a'] });
    assert.equal(site.log.length, 2);
    assert.equal(byUrl(result).get('http://lp.test/b')!.detail, 'not followed: already-met');
  });

  it('an endless chain of new URLs stops at maxRedirects', async () => {
    const endless = (n: number) => ({ status: 307, location: `/r${n + 1}` });
    const pages = new Proxy({} as Record<string, FakeScript>, {
      get: (_t, key: string) => {
        const n = Number(/\/r(\d+)$/.exec(key)?.[1]);
        return Number.isFinite(n) ? endless(n) : undefined;
      },
    });
    const clock = new VirtualClock(T0);
    const s2 = fakeSite(clock, pages);
    const result = await clock.run(
      runCrawl({
        clock,
        random: () => 0.5,
        fetch: s2.fetch,
        seeds: ['http://inf.test/r0'],
        maxRedirects: 5,
        delaySeconds: 0,
      }),
    );
    assert.equal(s2.log.length, 6);
    const last = result.urls.at(-1)!;
    assert.equal(last.url, 'http://inf.test/r6');
    assert.equal(last.outcome, 'out-of-scope');
    assert.equal(last.detail, 'redirect-limit');
  });

  it('a redirect to another host is out of scope unless allowed', async () => {
    const pages = { 'http://from.test/': { status: 301, location: 'https://to.test/' }, 'https://to.test/': {} };
    const a = setup(pages);
    const r1 = await a.crawl({ seeds: ['http://from.test/'] });
    assert.equal(byUrl(r1).get('https://to.test/')!.outcome, 'out-of-scope');
    const b = setup(pages);
    const r2 = await b.crawl({ seeds: ['http://from.test/'], allowOtherHosts: true });
    assert.equal(byUrl(r2).get('https://to.test/')!.outcome, 'fetched');
  });
});

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
