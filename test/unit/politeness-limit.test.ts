/**
 * The learned limit (docs/crawl-engine.md#the-learned-limit): HostRate against a fixed-rate limiter that refuses
 * every request sent closer than LIMIT to the one before (start-to-start gaps are the interval in force), and
 * LimitMemory's rules one by one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LIVE_INTERVAL_SOURCES, THROTTLED_INTERVAL_SOURCES } from '../../src/core/crawl/events';
import { formatInterval } from '../../src/core/format/crawlLines';
import { HOST_RATE_DEFAULTS, HostRate, type HostRateOptions } from '../../src/core/politeness/hostRate';
import { INTERVAL_SOURCES } from '../../src/core/politeness/interval';
import { LimitMemory, PROBATION_SUCCESSES } from '../../src/core/politeness/limitMemory';

const base: HostRateOptions = {
  configuredSeconds: 0.05,
  crawlDelayPolicy: 'cap',
  maxCrawlDelaySeconds: 30,
  adaptive: false,
  ...HOST_RATE_DEFAULTS,
};
/** The limiter's interval: 4 requests per second. */
const LIMIT = 0.25;
const near = (a: number, b: number, what = '') => assert.ok(Math.abs(a - b) < 1e-9, `${what}${a} ≠ ${b}`);

/** One request at the interval in force, answered as the limiter would: a 429 with Retry-After when too close. */
function request(r: HostRate, limit = LIMIT): { seconds: number; refused: boolean } {
  const seconds = r.intervalSeconds;
  const refused = seconds < limit;
  if (refused) r.onThrottle('retry-after', 429);
  else r.onSuccess();
  return { seconds, refused };
}

/** The first page's refusal (right after robots.txt, no success yet), then requests until the next refusal. */
function untilLearned(r: HostRate): number[] {
  assert.equal(request(r).refused, true);
  const seen: number[] = [];
  for (;;) {
    const x = request(r);
    seen.push(x.seconds);
    if (x.refused) return seen;
  }
}

describe('HostRate learns a fixed-rate limiter', () => {
  it('the first refusal teaches nothing; the way down from 1 s is the old one; the refusal below the limit is learned', () => {
    const r = new HostRate(base);
    const seen = untilLearned(r);
    // 1 s × 0.9ⁿ: 0.9¹³ = 0.2542 is taken, 0.9¹⁴ = 0.2288 is refused.
    assert.equal(seen.length, 15);
    near(seen[0]!, 1);
    near(seen.at(-2)!, 0.9 ** 13);
    near(seen.at(-1)!, 0.9 ** 14);
    near(r.learnedLimitSeconds!, 0.9 ** 14, 'limit ');
    // Raised at once (×2, at least 1 s), as before.
    assert.equal(r.intervalSeconds, 1);
    assert.equal(r.source, 'retry-after');
  });

  it('the way back to the learned floor is fast (×½ per success), and the sawtooth never returns below the limit', () => {
    const r = new HostRate(base);
    untilLearned(r);
    const back: number[] = [];
    for (let i = 0; i < 3; i++) back.push(request(r).seconds);
    near(back[0]!, 1);
    near(back[1]!, 0.5);
    near(back[2]!, 0.9 ** 13);
    assert.equal(r.source, 'learned-limit');
    assert.equal(r.raised, true);
    // 200 successes at the floor (the probe's hold), none refused: the old rule would have gone back to 0.05 s.
    for (let i = 3; i < HOST_RATE_DEFAULTS.limitHoldSuccesses; i++) {
      const x = request(r);
      assert.equal(x.refused, false, `request ${i} at ${x.seconds} s`);
      near(x.seconds, 0.9 ** 13);
    }
  });

  it('probes half a recovery step below the floor every 200 successes; refused, it is back at the floor', () => {
    const r = new HostRate(base);
    untilLearned(r);
    let requests = 0;
    let refusals = 0;
    const probes: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const x = request(r);
      requests++;
      if (x.refused) {
        refusals++;
        probes.push(x.seconds);
      }
    }
    // Every probe at 0.9¹³ × √0.9 = 0.2411 s, refused; the floor it left holds.
    assert.ok(probes.length >= 9 && probes.length <= 10, `${probes.length} probes`);
    for (const p of probes) near(p, 0.9 ** 13 * Math.sqrt(0.9));
    near(r.learnedLimitSeconds!, 0.9 ** 14);
    // At most one request in 200 refused: ≤ 2% with room.
    assert.ok(refusals / requests <= 0.006, `${refusals} of ${requests}`);
  });

  it('a floor just above the limit that the timing noise trips within its probation goes up half a step', () => {
    const r = new HostRate(base);
    untilLearned(r);
    for (let i = 0; i < 10; i++) request(r);
    const floor = r.intervalSeconds;
    near(floor, 0.9 ** 13);
    // One request arrives early and is refused at the floor (the limit is not below it after all).
    r.onThrottle('retry-after', 429);
    while (r.intervalSeconds > floor * 1.2) r.onSuccess();
    near(r.intervalSeconds, 0.9 ** 13 / Math.sqrt(0.9));
    assert.equal(r.source, 'learned-limit');
  });

  it('decay: a limit that was lifted is left behind one probe step per 200 successes, back to the plan', () => {
    const r = new HostRate(base);
    untilLearned(r);
    let successes = 0;
    while (r.source !== 'configured') {
      request(r, 0);
      successes++;
      assert.ok(successes < 10_000, 'never back on the plan');
    }
    // The way back from the raise (2 successes: at 1 s and 0.5 s), then from 0.2542 s to 0.05 s in steps of √0.9:
    // ln(0.2542 / 0.05) / ln(1 / √0.9) = 30.9, so 31 holds of 200.
    assert.equal(successes, 2 + 31 * HOST_RATE_DEFAULTS.limitHoldSuccesses);
    assert.equal(r.intervalSeconds, 0.05);
    assert.equal(r.learnedLimitSeconds, undefined);
  });
});

describe('HostRate: refusals that are not about pace teach nothing', () => {
  it('random refusals at a pace the host takes: no limit, the old recovery back to the plan', () => {
    const r = new HostRate({ ...base, configuredSeconds: 1 });
    for (let i = 0; i < 5; i++) r.onSuccess();
    r.onThrottle('retry-after', 503);
    assert.equal(r.learnedLimitSeconds, undefined);
    assert.equal(r.intervalSeconds, 2);
    const seen: number[] = [];
    while (r.intervalSeconds > 1) {
      r.onSuccess();
      seen.push(r.intervalSeconds);
    }
    near(seen[0]!, 1.8);
    assert.equal(seen.length, 7);
    assert.equal(r.source, 'configured');
  });

  it('a refusal of the first request after a Retry-After pause (not one interval after a success) teaches nothing', () => {
    const r = new HostRate(base);
    untilLearned(r);
    const limit = r.learnedLimitSeconds;
    // The retry after the pause is refused as well: the memory is unchanged, the interval raised again.
    r.onThrottle('retry-after', 429);
    assert.equal(r.learnedLimitSeconds, limit);
    assert.equal(r.intervalSeconds, 2);
  });

  it('only 429 and 503 teach: a 500 or a timeout raises the interval and teaches nothing', () => {
    for (const status of [500, 502, undefined]) {
      const r = new HostRate(base);
      assert.equal(request(r).refused, true);
      for (let i = 0; i < 14; i++) r.onSuccess();
      r.onThrottle('backoff', status);
      assert.equal(r.learnedLimitSeconds, undefined, `status ${status}`);
    }
    const r = new HostRate(base);
    assert.equal(request(r).refused, true);
    for (let i = 0; i < 14; i++) r.onSuccess();
    // nginx's own limit_req answer: 503 without a Retry-After.
    r.onThrottle('backoff', 503);
    near(r.learnedLimitSeconds!, 0.9 ** 14);
  });
});

describe('LimitMemory', () => {
  it('the floor is one recovery step above the limit, and never above the cap', () => {
    const m = new LimitMemory({ recoveryFactor: 0.9, holdSuccesses: 200 });
    assert.equal(m.floorSeconds, 0);
    m.success(40, false, 1);
    m.success(30, false, 1);
    assert.equal(m.refusal(20, 10), true);
    near(m.limit!, 9);
    near(m.floorSeconds, 10);
  });

  it('refusals before any pace was taken, or after an error, teach nothing', () => {
    const m = new LimitMemory({ recoveryFactor: 0.9, holdSuccesses: 200 });
    m.success(1, false, 0.1);
    assert.equal(m.refusal(0.5, 60), false, 'one success: no gap measured yet');
    m.success(1, false, 0.1);
    m.success(0.9, false, 0.1);
    m.interrupted();
    assert.equal(m.refusal(0.5, 60), false, 'after a timeout the gap is not the interval');
    m.success(0.9, false, 0.1);
    m.success(0.8, false, 0.1);
    assert.equal(m.refusal(0.7, 60), true);
  });

  it(`after ${PROBATION_SUCCESSES} successes at the floor, a refusal there is not about pace; nor is one above it`, () => {
    const m = new LimitMemory({ recoveryFactor: 0.9, holdSuccesses: 200 });
    m.success(1, false, 0.1);
    m.success(0.5, false, 0.1);
    assert.equal(m.refusal(0.45, 60), true);
    const floor = m.floorSeconds;
    for (let i = 0; i < PROBATION_SUCCESSES; i++) m.success(floor, true, 0.1);
    assert.equal(m.refusal(floor, 60), false);
    assert.equal(m.returnsFastTo(floor), false, 'the way back is slow after a refusal that taught nothing');
    m.success(0.9, false, 0.1);
    assert.equal(m.refusal(0.8, 60), false, 'refused at 0.8 s after taking 0.5 s: not about pace');
    near(m.floorSeconds, floor);
  });
});

describe('interval sources', () => {
  it('one list: the plan’s sources, then the crawl’s own, learned-limit among them', () => {
    assert.deepEqual(LIVE_INTERVAL_SOURCES, [...INTERVAL_SOURCES, ...THROTTLED_INTERVAL_SOURCES]);
    assert.ok(LIVE_INTERVAL_SOURCES.includes('learned-limit'));
    assert.equal(formatInterval(0.2542, 'learned-limit'), 'int 0.254 s learned-limit');
  });
});
