/**
 * The fidelity bench's pure parts: the scenario generator (the same seed gives the same scenarios, within their
 * ranges) and the statistics (median and 90th percentile of |error|, coverage, the targets).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  crawlPages,
  FIDELITY_SEED,
  FIDELITY_SIZES,
  fidelityScenarios,
  serverSeed,
} from '../../bench/lib/fidelityScenarios';
import { fidelitySummary, inBand, median, signedError, type FidelityOutcome } from '../../bench/lib/fidelityStats';

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
