/**
 * The demo hosts' deliberate failures: 429 (every Nth, and a server-side rate limiter) and 503 bursts,
 * with Retry-After in both forms. The hosts take a fake clock, so the tests step over a Retry-After
 * instead of sleeping through it; the sockets are real.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoHosts, type DemoHostConfig, type DemoHosts } from '../../src/demo';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');

class FakeTime {
  t = T0;
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

interface Got {
  status: number;
  retryAfter: string | null;
  date: string | null;
}

async function withHost(
  config: Omit<DemoHostConfig, 'name' | 'description' | 'pages'>,
  fn: (get: (path?: string) => Promise<Got>, time: FakeTime, demo: DemoHosts) => Promise<void>,
): Promise<void> {
  const time = new FakeTime();
  const demo = await startDemoHosts({ hosts: [{ name: 'x', description: '', pages: 10, ...config }], now: time.now });
  const origin = demo.hosts[0]?.origin ?? '';
  const get = async (path = '/'): Promise<Got> => {
    const r = await fetch(origin + path, { redirect: 'manual' });
    await r.arrayBuffer();
    return { status: r.status, retryAfter: r.headers.get('retry-after'), date: r.headers.get('date') };
  };
  try {
    await fn(get, time, demo);
  } finally {
    await demo.close();
  }
}

/** Milliseconds from the Date header to the Retry-After HTTP-date. */
function dateDelta(r: Got): number {
  assert.ok(r.retryAfter && r.date);
  assert.match(r.retryAfter, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/, 'IMF-fixdate');
  return Date.parse(r.retryAfter) - Date.parse(r.date);
}

describe('demo hosts: 429 Too Many Requests', () => {
  it('every Nth request, Retry-After in seconds', async () => {
    await withHost({ tooManyRequests: { every: 3, retryAfterSeconds: 2 } }, async (get, time, demo) => {
      const got: (string | number)[] = [];
      for (let i = 0; i < 7; i++) {
        const r = await get(`/page/${i + 1}`);
        got.push(r.status === 429 ? `429 ${r.retryAfter}` : r.status);
        time.advance(10_000);
      }
      assert.deepEqual(got, [200, 200, '429 2', 200, 200, '429 2', 200]);
      assert.deepEqual(
        demo.arrivals('x').map((a) => a.status),
        [200, 200, 429, 200, 200, 429, 200],
      );
      assert.deepEqual(
        demo.arrivals('x').map((a) => a.retryAfter),
        [undefined, undefined, '2', undefined, undefined, '2', undefined],
      );
    });
  });

  it('Retry-After as an HTTP-date is at least the wait after the Date header', async () => {
    await withHost(
      { tooManyRequests: { every: 2, retryAfterSeconds: 5, retryAfterForm: 'http-date' } },
      async (get, time) => {
        await get();
        const onSecond = await get();
        assert.equal(onSecond.status, 429);
        assert.equal(dateDelta(onSecond), 5000);
        assert.equal(onSecond.retryAfter, 'Tue, 01 Jan 2030 00:00:05 GMT');

        // Mid-second: the Date header floors, the target rounds up; the client never waits too little.
        time.advance(60_400);
        await get();
        const midSecond = await get();
        assert.equal(midSecond.status, 429);
        assert.ok(dateDelta(midSecond) >= 5000 && dateDelta(midSecond) <= 6000, String(dateDelta(midSecond)));
      },
    );
  });

  it('alternates the two forms, seconds first', async () => {
    await withHost(
      { tooManyRequests: { every: 2, retryAfterSeconds: 3, retryAfterForm: 'alternate' } },
      async (get) => {
        const values: (string | null)[] = [];
        for (let i = 0; i < 8; i++) {
          const r = await get();
          if (r.status === 429) values.push(r.retryAfter);
        }
        assert.equal(values.length, 4);
        assert.equal(values[0], '3');
        assert.match(values[1] ?? '', /GMT$/);
        assert.equal(values[2], '3');
        assert.match(values[3] ?? '', /GMT$/);
      },
    );
  });

  it('a server-side rate limiter answers 429 when requests come closer than the minimum interval', async () => {
    await withHost({ tooManyRequests: { minIntervalMs: 1000, retryAfterSeconds: 2 } }, async (get, time, demo) => {
      const seen: string[] = [];
      const step = async (ms: number): Promise<void> => {
        time.advance(ms);
        const r = await get();
        seen.push(`${ms}:${r.status}${r.retryAfter ? ` RA=${r.retryAfter}` : ''}`);
      };
      await step(0); // first request: nothing to compare with
      await step(100); // too soon
      await step(999); // 999 ms after the rejected one: rejected arrivals count, so still too soon
      await step(1000); // exactly the interval: fine
      await step(2000); // a client that honours Retry-After: 2 is never refused
      await step(2000);
      assert.deepEqual(seen, ['0:200', '100:429 RA=2', '999:429 RA=2', '1000:200', '2000:200', '2000:200']);
      assert.equal(demo.inFlightMax('x'), 1);
    });
  });

  it('robots.txt and the sitemap are never refused and do not count', async () => {
    await withHost(
      { sitemap: true, tooManyRequests: { every: 2, minIntervalMs: 60_000, retryAfterSeconds: 1 } },
      async (get) => {
        for (let i = 0; i < 4; i++) {
          assert.equal((await get('/robots.txt')).status, 200);
          assert.equal((await get('/sitemap.xml')).status, 200);
        }
        assert.equal((await get('/')).status, 200, 'the first counted request');
        assert.equal((await get('/')).status, 429);
      },
    );
  });
});

describe('demo hosts: 503 bursts', () => {
  it('answers 503 for forMs from the Nth request, with the seconds left, then recovers and repeats', async () => {
    await withHost({ unavailable: { atRequest: 3, forMs: 2500, repeatEvery: 4 } }, async (get, time, demo) => {
      const seen: string[] = [];
      const step = async (ms: number, path = '/'): Promise<void> => {
        time.advance(ms);
        const r = await get(path);
        seen.push(`${r.status}${r.retryAfter ? ` RA=${r.retryAfter}` : ''}`);
      };
      await step(0); // served 1
      await step(10); // served 2
      await step(10); // served 3: the burst starts, 2.5 s → 3
      await step(1000); // 1.5 s left → 2
      await step(0, '/robots.txt'); // never refused
      await step(1499); // 1 ms left → 1
      await step(1); // the burst is over: served 4
      await step(10); // 5
      await step(10); // 6
      await step(10); // 7 = 3 + 4: the next burst
      await step(2500); // over again
      assert.deepEqual(seen, [
        '200',
        '200',
        '503 RA=3',
        '503 RA=2',
        '200',
        '503 RA=1',
        '200',
        '200',
        '200',
        '503 RA=3',
        '200',
      ]);
      assert.equal(demo.arrivals('x').filter((a) => a.status === 503).length, 4);
    });
  });

  it('can send the HTTP-date form, or no Retry-After at all', async () => {
    await withHost({ unavailable: { atRequest: 1, forMs: 4000, retryAfterForm: 'http-date' } }, async (get) => {
      const r = await get();
      assert.equal(r.status, 503);
      assert.equal(dateDelta(r), 4000);
    });
    await withHost({ unavailable: { atRequest: 1, forMs: 4000, retryAfterForm: 'none' } }, async (get) => {
      const r = await get();
      assert.equal(r.status, 503);
      assert.equal(r.retryAfter, null);
    });
  });

  it('a burst takes precedence over the 429 limiter', async () => {
    await withHost(
      { unavailable: { atRequest: 2, forMs: 1000 }, tooManyRequests: { minIntervalMs: 500, retryAfterSeconds: 1 } },
      async (get, time) => {
        assert.equal((await get()).status, 200);
        time.advance(10);
        assert.equal((await get()).status, 503);
        time.advance(10);
        assert.equal((await get()).status, 503);
        time.advance(1000);
        assert.equal((await get()).status, 200);
        time.advance(10);
        assert.equal((await get()).status, 429);
      },
    );
  });
});
