/**
 * RobotsCache (RFC 9309 §2.4) and fetchRobotsForAll: one fetch per origin under concurrency, expiry on an
 * injected clock, Cache-Control max-age, unreachable results with Retry-After, persistence.
 */
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient, type HttpClient } from '../../src/net/http';
import { cacheControlMaxAge, RobotsCache } from '../../src/net/robotsCache';
import { defaultRetryAfterMs, fetchRobots, fetchRobotsForAll, type RobotsFetchResult } from '../../src/net/robotsFetch';
import { startLoopback, text, type LoopbackServer } from '../helpers/loopback';

const UA = 'CrawlPlannerTest/0.1';
const T = { timeout: 15_000 };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('RobotsCache against a loopback server', () => {
  let srv: LoopbackServer;
  let client: HttpClient;
  let clock = 0;
  const now = (): number => clock;
  const robotsFetches = (): number => srv.arrivalsFor('/robots.txt').length;
  const newCache = (extra: Partial<ConstructorParameters<typeof RobotsCache>[0]> = {}): RobotsCache =>
    new RobotsCache({ fetch: (o) => fetchRobots(o, { userAgent: UA, client }), now, ...extra });

  before(async () => {
    srv = await startLoopback();
    client = createHttpClient({ userAgent: UA });
  });
  after(async () => {
    await client.close();
    await srv.close();
  });
  beforeEach(() => {
    clock = 1_700_000_000_000;
    srv.route('/robots.txt', text(200, 'User-agent: *\nDisallow: /private\n'));
  });

  it('50 concurrent calls for one origin cause exactly one fetch', T, async () => {
    const cache = newCache();
    const before = robotsFetches();
    const entries = await Promise.all(Array.from({ length: 50 }, (_, i) => cache.get(srv.url(`/page/${i}`))));
    assert.equal(robotsFetches() - before, 1);
    assert.ok(
      entries.every((e) => e === entries[0]),
      'all callers share the entry',
    );
    assert.equal(entries[0]?.result.outcome, 'ok');
    assert.equal(entries[0]?.fetchedAt, clock);
    assert.equal(entries[0]?.expiresAt, clock + DAY);
    assert.equal(cache.size, 1);
  });

  it('refetches only after 24 h on the injected clock', T, async () => {
    const cache = newCache();
    const before = robotsFetches();
    await cache.get(srv.origin);
    clock += HOUR;
    await cache.get(srv.origin);
    clock += 22 * HOUR;
    await cache.get(srv.origin);
    assert.equal(robotsFetches() - before, 1);
    srv.route('/robots.txt', text(200, 'User-agent: *\nDisallow: /\n'));
    clock += HOUR + 1_000; // 24 h + 1 s after the fetch
    const e = await cache.get(srv.origin);
    assert.equal(robotsFetches() - before, 2);
    assert.equal(Buffer.from(e.result.body ?? []).toString(), 'User-agent: *\nDisallow: /\n');
  });

  it('maxAgeMs can be smaller, never larger than 24 h; refresh forces a fetch', T, async () => {
    const short = newCache({ maxAgeMs: 10 * 60_000 });
    const before = robotsFetches();
    await short.get(srv.origin);
    clock += 10 * 60_000;
    await short.get(srv.origin);
    assert.equal(robotsFetches() - before, 2);
    const long = newCache({ maxAgeMs: 7 * DAY });
    assert.equal((await long.get(srv.origin)).expiresAt, clock + DAY);
    await long.get(srv.origin, { refresh: true });
    assert.equal(robotsFetches() - before, 4);
  });

  it('Cache-Control max-age shortens the lifetime but never past 24 h', T, async () => {
    srv.route('/robots.txt', text(200, '', { 'cache-control': 'public, max-age=120' }));
    assert.equal((await newCache().get(srv.origin)).expiresAt, clock + 120_000);
    srv.route('/robots.txt', text(200, '', { 'cache-control': 'max-age=31536000' }));
    assert.equal((await newCache().get(srv.origin)).expiresAt, clock + DAY);
    srv.route('/robots.txt', text(200, '', { 'cache-control': 'max-age=0' }));
    assert.equal((await newCache().get(srv.origin)).expiresAt, clock + 60_000, 'floored at minAgeMs');
    srv.route('/robots.txt', text(200, '', { 'cache-control': 'max-age=120' }));
    assert.equal((await newCache({ honourCacheControl: false }).get(srv.origin)).expiresAt, clock + DAY);
  });

  it(
    'unreachable: Retry-After sets the retry time, lastGood is kept, unreachableSince counts the outage',
    T,
    async () => {
      const cache = newCache();
      const good = await cache.get(srv.origin);
      assert.equal(good.lastGood, good.result);
      assert.equal(good.unreachableSince, undefined);

      srv.route('/robots.txt', text(503, 'down', { 'retry-after': '600' }));
      clock += DAY;
      const down = await cache.get(srv.origin);
      assert.equal(down.result.outcome, 'unreachable');
      assert.equal(down.expiresAt, clock + 600_000);
      assert.equal(down.lastGood?.outcome, 'ok', 'the last good copy survives the outage (§2.4)');
      assert.equal(down.unreachableSince, clock);
      const outageStart = clock;

      srv.route('/robots.txt', text(500, 'still down'));
      clock += 600_000;
      const still = await cache.get(srv.origin);
      assert.equal(still.expiresAt, clock + 5 * 60_000, 'default retry without Retry-After');
      assert.equal(still.unreachableSince, outageStart);
      assert.equal(still.lastGood?.outcome, 'ok');

      srv.route('/robots.txt', text(404, ''));
      clock += 5 * 60_000;
      const back = await cache.get(srv.origin);
      assert.equal(back.result.outcome, 'unavailable');
      assert.equal(back.unreachableSince, undefined);
      assert.equal(back.lastGood, back.result);
    },
  );

  it('toJSON/fromJSON round-trips entries, bodies included', T, async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('User-agent: *\r\nDisallow: /x\r\n')]);
    srv.route('/robots.txt', text(200, bom));
    const cache = newCache();
    const original = await cache.get(srv.origin);
    const json = JSON.parse(JSON.stringify(cache));
    const restored = RobotsCache.fromJSON(json, { fetch: () => assert.fail('must not fetch while fresh'), now });
    const entry = restored.peek(srv.origin);
    assert.ok(entry);
    assert.ok(Buffer.from(entry.result.body ?? []).equals(bom));
    assert.equal(entry.fetchedAt, original.fetchedAt);
    assert.equal(entry.expiresAt, original.expiresAt);
    assert.equal((await restored.get(srv.origin)).result.status, 200);
    assert.equal(RobotsCache.fromJSON({ version: 99 }, { fetch: () => assert.fail(), now }).size, 0);
    assert.equal(
      RobotsCache.fromJSON({ version: 1, entries: [null, { origin: 'ftp://x' }] }, { fetch: () => assert.fail(), now })
        .size,
      0,
    );
  });
});

describe('RobotsCache with a scripted fetch', () => {
  function fakeResult(origin: string): RobotsFetchResult {
    return {
      origin,
      robotsUrl: `${origin}/robots.txt`,
      outcome: 'ok',
      status: 200,
      redirects: [],
      finalUrl: `${origin}/robots.txt`,
      bytes: 0,
      truncated: false,
      startedAt: 0,
      fetchedAt: 0,
      reason: 'test',
    };
  }

  it("a caller's abort stops only its own wait, not the shared fetch", T, async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const cache = new RobotsCache({
      fetch: async (o) => {
        calls++;
        await gate;
        return fakeResult(o);
      },
    });
    const ac = new AbortController();
    const impatient = cache.get('http://a.test', { signal: ac.signal });
    const patient = cache.get('http://a.test/x');
    ac.abort();
    await assert.rejects(impatient, { name: 'AbortError' });
    release();
    assert.equal((await patient).result.outcome, 'ok');
    assert.equal(calls, 1);
  });

  it('a fetch that throws is not cached and reaches every waiter', T, async () => {
    let calls = 0;
    const cache = new RobotsCache({
      fetch: async () => {
        calls++;
        throw new Error('boom');
      },
    });
    const results = await Promise.allSettled([cache.get('http://b.test'), cache.get('http://b.test')]);
    assert.ok(results.every((r) => r.status === 'rejected'));
    assert.equal(calls, 1);
    assert.equal(cache.size, 0);
    await assert.rejects(cache.get('http://b.test'));
    assert.equal(calls, 2);
  });

  it('an aborted fetch is handed back but not kept', T, async () => {
    const cache = new RobotsCache({
      fetch: async (o) => ({
        ...fakeResult(o),
        outcome: 'unreachable',
        error: { kind: 'aborted', message: 'aborted by the caller' },
      }),
    });
    assert.equal((await cache.get('http://c.test')).result.error?.kind, 'aborted');
    assert.equal(cache.size, 0);
  });

  it('fetchRobotsForAll through a cache keeps the global limit and shares duplicates', T, async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const gates: Array<() => void> = [];
    const cache = new RobotsCache({
      fetch: async (o) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((r) => gates.push(r));
        inFlight--;
        return fakeResult(o);
      },
    });
    const origins = [
      'http://a.test',
      'http://b.test/x',
      'http://a.test/y',
      'http://c.test',
      'http://d.test',
      'http://e.test',
    ];
    const all = fetchRobotsForAll(origins, { userAgent: UA, cache, concurrency: 2 });
    // Release one fetch at a time, each once the pool has refilled.
    for (let released = 0; released < 5; released++) {
      while (gates.length === 0) await new Promise((r) => setImmediate(r));
      assert.ok(inFlight <= 2);
      gates.shift()?.();
    }
    const results = await all;
    assert.equal(maxInFlight, 2);
    assert.deepEqual(
      results.map((r) => r.origin),
      ['http://a.test', 'http://b.test', 'http://a.test', 'http://c.test', 'http://d.test', 'http://e.test'],
    );
    assert.equal(results[0], results[2]);
  });
});

describe('fetchRobotsForAll over real servers', () => {
  const servers: LoopbackServer[] = [];
  before(async () => {
    for (let i = 0; i < 5; i++)
      servers.push(await startLoopback({ routes: { '/robots.txt': text(i === 4 ? 503 : 200, `# server ${i}\n`) } }));
  });
  after(async () => {
    for (const s of servers) await s.close();
  });

  it('at most `concurrency` fetches in flight; results aligned with the input', T, async () => {
    const real = createHttpClient({ userAgent: UA });
    let inFlight = 0;
    let maxInFlight = 0;
    const counting: HttpClient = {
      get: async (url, o) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await real.get(url, o);
        } finally {
          inFlight--;
        }
      },
      close: () => real.close(),
    };
    try {
      const origins = servers.map((s) => s.url('/a/page'));
      const results = await fetchRobotsForAll(origins, { userAgent: UA, client: counting, concurrency: 2 });
      assert.equal(maxInFlight, 2);
      assert.deepEqual(
        results.map((r) => r.origin),
        servers.map((s) => s.origin),
      );
      assert.deepEqual(
        results.map((r) => r.outcome),
        ['ok', 'ok', 'ok', 'ok', 'unreachable'],
      );
      assert.ok(servers.every((s) => s.arrivalsFor('/robots.txt').length === 1));
    } finally {
      await real.close();
    }
  });

  it('without a client it makes and closes its own', T, async () => {
    const results = await fetchRobotsForAll([servers[0]!.origin], { userAgent: UA });
    assert.equal(results[0]?.outcome, 'ok');
  });
});

describe('header readers', () => {
  it('cacheControlMaxAge', () => {
    assert.equal(cacheControlMaxAge('max-age=60'), 60);
    assert.equal(cacheControlMaxAge('public, MAX-AGE=60, must-revalidate'), 60);
    assert.equal(cacheControlMaxAge('s-maxage=60'), undefined);
    assert.equal(cacheControlMaxAge('max-age=-1'), undefined);
    assert.equal(cacheControlMaxAge('max-age=99999999999999'), 2 ** 31);
    assert.equal(cacheControlMaxAge(undefined), undefined);
  });

  it("defaultRetryAfterMs reads Retry-After by the crawl engine's rules (one parser for both)", () => {
    const now = Date.parse('Fri, 31 Dec 1999 23:59:00 GMT');
    const table: Array<[string, number | undefined]> = [
      ['120', 120_000],
      [' 120 ', 120_000],
      ['0', 0],
      ['00120', 120_000],
      ['-1', undefined],
      ['+120', undefined],
      ['1.5', undefined],
      ['1e3', undefined],
      ['120abc', undefined],
      ['', undefined],
      ['120, 60', 120_000], // the longest valid member
      ['Fri, 31 Dec 1999 23:59:59 GMT', 59_000],
      ['Fri, 31 Dec 1999 23:00:00 GMT', 0],
      ['fri, 31 dec 1999 23:59:59 gmt', 59_000], // lenient on case
      ['Fri, 31 Dec 1999 23:59:59 +0100', 0], // offset applied: an hour in the past
    ];
    for (const [value, ms] of table) assert.equal(defaultRetryAfterMs(value, now), ms, JSON.stringify(value));
  });
});
