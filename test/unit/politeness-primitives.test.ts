/** Backoff with full jitter, the token bucket, host rate control and the retry table. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BACKOFF_DEFAULTS, backoffCeilingMs, backoffDelayMs } from '../../src/core/politeness/backoff';
import { HOST_RATE_DEFAULTS, HostRate, type HostRateOptions } from '../../src/core/politeness/hostRate';
import {
  isRedirectStatus,
  isRetryableError,
  isRetryableStatus,
  isThrottleStatus,
  readsRetryAfter,
} from '../../src/core/politeness/retryPolicy';
import { TokenBucket } from '../../src/core/politeness/tokenBucket';
import type { ErrorKind } from '../../src/core/crawl/events';

describe('backoff with full jitter', () => {
  const opts = { baseMs: 1000, capMs: 60_000 };
  const ceilings: Array<[number, number]> = [
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [5, 32_000],
    [6, 60_000],
    [7, 60_000],
    [100, 60_000],
    [5000, 60_000],
    [-3, 1000],
    [2.7, 4000],
    [Number.NaN, 1000],
  ];
  for (const [attempt, ceiling] of ceilings) {
    it(`ceiling for attempt ${attempt} is ${ceiling} ms`, () => assert.equal(backoffCeilingMs(attempt, opts), ceiling));
  }

  const delays: Array<[number, number, number]> = [
    // [attempt, random, delay]
    [0, 0, 0],
    [0, 0.5, 500],
    [0, 0.999, 999],
    [3, 0.25, 2000],
    [10, 0.5, 30_000],
    [0, 1, 999], // a random that returns 1 still stays below the ceiling
    [0, -0.5, 0],
    [0, Number.NaN, 0],
  ];
  for (const [attempt, r, delay] of delays) {
    it(`attempt ${attempt}, random ${r} → ${delay} ms`, () =>
      assert.equal(
        backoffDelayMs(attempt, opts, () => r),
        delay,
      ));
  }

  it('a zero ceiling gives no wait', () => {
    assert.equal(
      backoffDelayMs(3, { baseMs: 0, capMs: 0 }, () => 0.7),
      0,
    );
  });

  it('every delay is a whole number in [0, ceiling)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 64 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (attempt, r, base, cap) => {
          const o = { baseMs: base, capMs: cap };
          const d = backoffDelayMs(attempt, o, () => r);
          assert.ok(Number.isInteger(d));
          assert.ok(d >= 0 && d < backoffCeilingMs(attempt, o), `${d} in [0, ${backoffCeilingMs(attempt, o)})`);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('defaults are 1 s base and 60 s cap', () =>
    assert.deepEqual({ ...BACKOFF_DEFAULTS }, { baseMs: 1000, capMs: 60_000 }));
});

describe('TokenBucket', () => {
  it('reproduces the seed: rate 2/s, capacity 4, six takes ≈ 1.0 s', () => {
    const bucket = new TokenBucket({ ratePerSecond: 2, capacity: 4 }, 0);
    let t = 0;
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const wait = bucket.take(t);
      waits.push(wait);
      t += wait; // the caller sleeps the wait
    }
    assert.deepEqual(waits, [0, 0, 0, 0, 500, 500]);
    assert.equal(t, 1000);
  });

  it('as reservations taken all at once: the 5th waits 0.5 s, the 6th 1 s', () => {
    const bucket = new TokenBucket({ ratePerSecond: 2, capacity: 4 }, 0);
    const waits = Array.from({ length: 6 }, () => bucket.take(0));
    assert.deepEqual(waits, [0, 0, 0, 0, 500, 1000]);
  });

  it('refills at the rate up to the capacity, not beyond', () => {
    const bucket = new TokenBucket({ ratePerSecond: 10, capacity: 3 }, 0);
    for (let i = 0; i < 3; i++) bucket.take(0);
    assert.equal(bucket.tokensAt(0), 0);
    assert.equal(bucket.tokensAt(100), 1);
    assert.equal(bucket.tokensAt(10_000), 3);
    assert.equal(bucket.waitMs(0), 100);
    assert.equal(bucket.waitMs(100), 0);
    assert.equal(bucket.nextTokenAt(), 100);
    assert.equal(bucket.availableAt(50), 100);
  });

  it('nextTokenAt is when take() returns 0', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 30 }),
        (rate, cap, n) => {
          const bucket = new TokenBucket({ ratePerSecond: rate, capacity: cap }, 0);
          let t = 0;
          for (let i = 0; i < n; i++) {
            t = Math.max(t, bucket.nextTokenAt());
            assert.equal(bucket.take(t), 0);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a non-positive rate or a capacity below 1', () => {
    assert.throws(() => new TokenBucket({ ratePerSecond: 0, capacity: 1 }, 0), RangeError);
    assert.throws(() => new TokenBucket({ ratePerSecond: 1, capacity: 0.5 }, 0), RangeError);
    assert.throws(() => new TokenBucket({ ratePerSecond: Number.NaN, capacity: 2 }, 0), RangeError);
  });
});

describe('HostRate (raise fast, recover slowly)', () => {
  const base: HostRateOptions = {
    configuredSeconds: 1,
    crawlDelayPolicy: 'cap',
    maxCrawlDelaySeconds: 30,
    adaptive: false,
    ...HOST_RATE_DEFAULTS,
  };

  it('starts at the planned interval', () => {
    const r = new HostRate(base);
    assert.equal(r.intervalSeconds, 1);
    assert.equal(r.source, 'configured');
    assert.equal(r.raised, false);
  });

  it('doubles at once on a throttle, and decays ×0.9 per success back to the floor, never below', () => {
    const r = new HostRate(base);
    r.onThrottle('backoff');
    assert.equal(r.intervalSeconds, 2);
    assert.equal(r.source, 'backoff');
    r.onThrottle('backoff');
    assert.equal(r.intervalSeconds, 4);
    const seen: number[] = [];
    for (let i = 0; i < 20; i++) {
      r.onSuccess();
      seen.push(r.intervalSeconds);
    }
    assert.ok(Math.abs(seen[0]! - 3.6) < 1e-9);
    assert.ok(Math.abs(seen[1]! - 3.24) < 1e-9);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! <= seen[i - 1]!);
    assert.ok(seen.every((s) => s >= 1));
    assert.equal(seen.at(-1), 1);
    assert.equal(r.source, 'configured');
    // 4 s → 1 s takes ln(4)/ln(1/0.9) ≈ 13 successes: slow, not a snap back.
    assert.ok(seen.indexOf(1) >= 13);
  });

  it('after a Retry-After the source is retry-after and the interval is raised, not the old one', () => {
    const r = new HostRate(base);
    r.onThrottle('retry-after');
    assert.equal(r.intervalSeconds, 2);
    assert.equal(r.source, 'retry-after');
  });

  it('is bounded by maxIntervalSeconds', () => {
    const r = new HostRate({ ...base, maxIntervalSeconds: 10 });
    for (let i = 0; i < 20; i++) r.onThrottle('backoff');
    assert.equal(r.intervalSeconds, 10);
  });

  it('a 0 s floor is raised to at least minRaisedSeconds', () => {
    const r = new HostRate({ ...base, configuredSeconds: 0 });
    assert.equal(r.intervalSeconds, 0);
    r.onThrottle('backoff');
    assert.equal(r.intervalSeconds, 1);
    r.onThrottle('backoff');
    assert.equal(r.intervalSeconds, 2);
  });

  it('Crawl-delay is a floor merged by max', () => {
    const r = new HostRate(base);
    assert.equal(r.mergeCrawlDelay(5).seconds, 5);
    assert.equal(r.source, 'crawl-delay');
    assert.equal(r.mergeCrawlDelay(2).seconds, 5, 'a smaller Crawl-delay from another origin does not lower it');
    r.onThrottle('backoff');
    assert.equal(r.intervalSeconds, 10);
    for (let i = 0; i < 50; i++) r.onSuccess();
    assert.equal(r.intervalSeconds, 5);
  });

  it('a Crawl-delay above the cap: capped, or skipped under the skip policy', () => {
    assert.equal(new HostRate(base).mergeCrawlDelay(100).seconds, 30);
    const skip = new HostRate({ ...base, crawlDelayPolicy: 'skip' }).mergeCrawlDelay(100);
    assert.equal(skip.skipped, true);
    assert.equal(new HostRate({ ...base, crawlDelayPolicy: 'obey' }).mergeCrawlDelay(100).seconds, 100);
    // The bound on raising never pulls the interval below a larger floor.
    const obey = new HostRate({ ...base, crawlDelayPolicy: 'obey', maxIntervalSeconds: 60 });
    obey.mergeCrawlDelay(100);
    obey.onThrottle('backoff');
    assert.equal(obey.intervalSeconds, 100);
  });

  it('adaptive: max(1 s, 10 × latency), up at once, down slowly, never below 10 × the last latency', () => {
    const r = new HostRate({ ...base, configuredSeconds: 0, adaptive: true });
    assert.equal(r.intervalSeconds, 1, 'before any response: the 1 s floor');
    r.recordLatency(0.3);
    assert.equal(r.intervalSeconds, 3);
    assert.equal(r.source, 'adaptive');
    r.recordLatency(0.05);
    assert.ok(Math.abs(r.intervalSeconds - 2.7) < 1e-9, 'decays by 0.9, not straight to 1 s');
    r.recordLatency(0.5);
    assert.equal(r.intervalSeconds, 5, 'a slower response raises it at once');
    for (let i = 0; i < 100; i++) r.recordLatency(0.01);
    assert.equal(r.intervalSeconds, 1);
  });

  it('ignores latency when not adaptive', () => {
    const r = new HostRate(base);
    r.recordLatency(5);
    assert.equal(r.intervalSeconds, 1);
  });
});

describe('retry policy', () => {
  const statuses: Array<[number, boolean, boolean]> = [
    // [status, retried, throttles]
    [200, false, false],
    [301, false, false],
    [400, false, false],
    [401, false, false],
    [403, false, false],
    [404, false, false],
    [410, false, false],
    [429, true, true],
    [500, true, true],
    [501, false, true],
    [502, true, true],
    [503, true, true],
    [504, true, true],
    [505, false, true],
    [599, false, true],
  ];
  for (const [status, retried, throttles] of statuses) {
    it(`${status}: ${retried ? 'retried' : 'not retried'}, ${throttles ? 'raises the interval' : 'no raise'}`, () => {
      assert.equal(isRetryableStatus(status), retried);
      assert.equal(isThrottleStatus(status), throttles);
    });
  }
  const errors: Array<[ErrorKind, boolean]> = [
    ['connect', true],
    ['connect-timeout', true],
    ['headers-timeout', true],
    ['body-timeout', true],
    ['timeout', true],
    ['reset', true],
    ['dns', false],
    ['tls', false],
    ['too-large', false],
    ['bad-response', false],
    ['aborted', false],
    ['other', false],
  ];
  for (const [kind, retried] of errors) {
    it(`error ${kind}: ${retried ? 'retried' : 'final'}`, () => assert.equal(isRetryableError(kind), retried));
  }
  it('Retry-After is read on 429 and 503 only; 301/302/303/307/308 are followed', () => {
    assert.deepEqual([429, 503, 500, 301].map(readsRetryAfter), [true, true, false, false]);
    assert.deepEqual([301, 302, 303, 307, 308, 300, 304].map(isRedirectStatus), [
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
