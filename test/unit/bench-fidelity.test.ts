/**
 * The fidelity bench's pure parts: the scenario generator (the same seed gives the same scenarios, within their
 * ranges), the server's limiters and 503 windows (decided by the requests' timing), and the statistics (median
 * and 90th percentile of |error|, coverage, the targets).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  crawlPages,
  FIDELITY_SEED,
  FIDELITY_SIZES,
  fidelityScenarios,
  serverSeed,
  type OutageSpec,
} from '../../bench/lib/fidelityScenarios';
import { fidelitySummary, inBand, median, signedError, type FidelityOutcome } from '../../bench/lib/fidelityStats';
import { limiterState, outageState } from '../../bench/lib/scenarioServer';
import { mulberry32 } from '../../src/core/random';

describe('fidelity scenarios', () => {
  it('are the same for the same seed and differ for another', () => {
    const a = fidelityScenarios(FIDELITY_SEED, FIDELITY_SIZES.full);
    assert.deepEqual(a, fidelityScenarios(FIDELITY_SEED, FIDELITY_SIZES.full));
    assert.notDeepEqual(a, fidelityScenarios(FIDELITY_SEED + 1, FIDELITY_SIZES.full));
    assert.equal(a.length, 20);
    assert.equal(fidelityScenarios(FIDELITY_SEED, FIDELITY_SIZES.quick).length, 5);
  });

  it('stay within their ranges, over many seeds', () => {
    let limiters = 0;
    let outages = 0;
    let hosts = 0;
    for (let seed = 0; seed < 50; seed++) {
      for (const sizes of [FIDELITY_SIZES.full, FIDELITY_SIZES.quick]) {
        for (const sc of fidelityScenarios(seed, sizes)) {
          assert.ok(sc.hosts.length >= 2 && sc.hosts.length <= 6, `${sc.id}: ${sc.hosts.length} hosts`);
          assert.ok(sc.delaySeconds >= 0.1 && sc.delaySeconds <= 0.3);
          assert.notEqual(serverSeed(sc, 'test'), serverSeed(sc, 'full'));
          for (const h of sc.hosts) {
            hosts++;
            assert.ok(h.pages >= sizes.pages[0] && h.pages <= sizes.pages[1], `${h.name}: ${h.pages} pages`);
            assert.ok(h.testPages >= sizes.testMinPages && h.testPages <= h.pages);
            assert.equal(crawlPages(h), h.pages + h.brokenLinks);
            assert.ok(h.latency.kind === 'uniform' || h.latency.maxMs <= 600);
            if (h.latency.kind === 'uniform') assert.ok(h.latency.maxMs < sc.timeoutSeconds * 1000);
            assert.ok(h.errorShare + h.hangShare <= 0.05);
            if (h.limiter) limiters++;
            if (h.outages) {
              outages++;
              const mean = (h.outages.minDurationMs + h.outages.maxDurationMs) / 2;
              const down = mean / (mean + h.outages.meanGapMs);
              assert.ok(down > 0.015 && down < 0.055, `${h.name}: down ${down}`);
            }
          }
        }
      }
    }
    // Each mechanism is drawn for some hosts and not for others.
    assert.ok(limiters > hosts * 0.3 && limiters < hosts * 0.6, `${limiters} limiters of ${hosts} hosts`);
    assert.ok(outages > hosts * 0.2 && outages < hosts * 0.5, `${outages} hosts with 503 windows of ${hosts}`);
  });
});

describe('the scenario server: limiters and 503 windows', () => {
  it('a minimum-interval limiter counts from the last accepted request, or from any', () => {
    const accepted = limiterState({
      kind: 'min-interval',
      intervalMs: 500,
      since: 'accepted',
      status: 429,
      retryAfter: { form: 'none' },
    });
    assert.deepEqual(
      [0, 300, 600, 900, 1100].map((t) => accepted.admit(t)),
      [true, false, true, false, true],
    );
    const any = limiterState({
      kind: 'min-interval',
      intervalMs: 500,
      since: 'any',
      status: 503,
      retryAfter: { form: 'seconds', seconds: 1 },
    });
    // 600 is 300 after the refused 300: refused too; 1100 is 500 after it.
    assert.deepEqual(
      [0, 300, 600, 1100].map((t) => any.admit(t)),
      [true, false, false, true],
    );
  });

  it('a token bucket passes its burst, then its rate', () => {
    const bucket = limiterState({
      kind: 'token-bucket',
      ratePerSecond: 2,
      burst: 3,
      status: 429,
      retryAfter: { form: 'none' },
    });
    assert.deepEqual(
      [0, 1, 2, 3].map((t) => bucket.admit(t)),
      [true, true, true, false],
    );
    assert.equal(bucket.admit(400), false); // 0.8 of a token
    assert.equal(bucket.admit(600), true); // 1.2
    assert.equal(bucket.admit(700), false);
  });

  it('503 windows fall on the clock: the same seed gives the same windows, whatever asks when', () => {
    const spec: OutageSpec = { meanGapMs: 2000, minDurationMs: 300, maxDurationMs: 600, retryAfter: 'left' };
    const windows = (step: number): Array<[number, number]> => {
      const o = outageState(spec, mulberry32(7));
      const out: Array<[number, number]> = [];
      for (let t = 0; t < 60_000; t += step) {
        const left = o.leftMs(t);
        if (left > 0) out.push([t, left]);
      }
      return out;
    };
    const fine = windows(10);
    assert.ok(fine.length > 0);
    // Each window ends at t + left, and a window is 300–600 ms long.
    const ends = new Set(fine.map(([t, left]) => Math.round(t + left)));
    assert.ok(ends.size > 10, `${ends.size} windows in a minute`);
    for (const end of ends) {
      const inIt = fine.filter(([t, left]) => Math.round(t + left) === end);
      const span = end - inIt[0]![0];
      assert.ok(span >= 290 && span <= 610, `window of ${span} ms`);
    }
    // A coarser pace meets fewer answers in the same windows (the windows are time, not a request count).
    const coarse = windows(250);
    assert.ok(coarse.length < fine.length / 10);
    for (const [t, left] of coarse) assert.ok(ends.has(Math.round(t + left)));
  });
});

describe('fidelity statistics', () => {
  const o = (plannedSeconds: number, actualSeconds: number, p10 = 0, p90 = Infinity): FidelityOutcome => ({
    plannedSeconds,
    actualSeconds,
    p10Seconds: p10,
    p90Seconds: p90,
  });

  it('signed error is planned / actual − 1', () => {
    assert.ok(Math.abs(signedError(11, 10) - 0.1) < 1e-12);
    assert.ok(Math.abs(signedError(9, 10) + 0.1) < 1e-12);
  });

  it('median: the middle value, or the mean of the two middle ones', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([]), 0);
  });

  it('the band holds its ends', () => {
    assert.equal(inBand(o(10, 9, 9, 11)), true);
    assert.equal(inBand(o(10, 11, 9, 11)), true);
    assert.equal(inBand(o(10, 11.01, 9, 11)), false);
    assert.equal(inBand(o(10, 8.99, 9, 11)), false);
  });

  it('summarises |error| by its median and nearest-rank 90th percentile, and the coverage, against the targets', () => {
    // Errors of +1% … +10% and −1% … −10% (|error| 1% to 10% twice each); 16 of 20 inside their band.
    const outcomes = Array.from({ length: 20 }, (_, i) => {
      const e = ((i % 10) + 1) / 100;
      const planned = 100 * (1 + (i < 10 ? e : -e));
      return o(planned, 100, i < 16 ? 90 : 101, 110);
    });
    const s = fidelitySummary(outcomes);
    assert.equal(s.scenarios, 20);
    assert.ok(Math.abs(s.medianAbsError - 0.055) < 1e-9, String(s.medianAbsError));
    // Nearest rank: the 18th of 20 sorted values (1, 1, 2, 2, …, 9, 9, 10, 10 %).
    assert.ok(Math.abs(s.p90AbsError - 0.09) < 1e-9, String(s.p90AbsError));
    assert.equal(s.coverage, 0.8);
    assert.deepEqual(s.met, { medianAbsError: false, p90AbsError: false, coverage: true });

    const good = fidelitySummary([o(100, 100, 99, 101), o(102, 100, 99, 101), o(99, 100, 98, 99.5)]);
    assert.deepEqual(good.met, { medianAbsError: true, p90AbsError: true, coverage: false }); // 2 of 3 = 67%
    assert.deepEqual(fidelitySummary([]).met, { medianAbsError: false, p90AbsError: false, coverage: false });
  });
});
