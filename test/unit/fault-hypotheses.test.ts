/**
 * What a short test crawl cannot tell apart (src/core/calibrate/hypotheses.ts): one refusal of a token bucket
 * of 2 (a token per 600 ms) met at 0.25 s fits a min-interval limiter at the crawl's own pace just as well. The
 * fit keeps the other kind as `alternative`; the plan walks the fit (the simplest explanation) and the band
 * draws each of the three (the fit, the alternative, random refusals).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitFaultModel, type FitCounts, type FitRequest } from '../../src/core/calibrate/faultModel';
import { faultHypotheses } from '../../src/core/calibrate/hypotheses';
import type { HostCalibration } from '../../src/core/calibrate/types';
import { plan } from '../../src/core/plan';
import { simulate } from '../../src/core/simulate/simulate';
import { calibration, hostCalibration } from '../helpers/calibration';

/** A crawler at `delay` (the first page 30 ms later, after robots.txt's answer) against a bucket of 2, a token per 600 ms. */
function againstBucket(n: number, delay: number): FitRequest[] {
  let tokens = 2;
  let at = 0;
  const refuses = (t: number): boolean => {
    tokens = Math.min(2, tokens + (t - at) / 600);
    at = t;
    if (tokens < 1) return true;
    tokens -= 1;
    return false;
  };
  refuses(0);
  const out: FitRequest[] = [{ startMs: 0, status: 200 }];
  let t = 30;
  let gap = delay;
  for (let i = 0; i < n; i++) {
    t = Math.round(t + gap * 1000);
    const refused = refuses(t);
    out.push({ startMs: t, status: refused ? 429 : 200 });
    gap = refused ? Math.max(2 * gap, 1) : Math.max(delay, gap * 0.9);
  }
  return out;
}

const counts = (refusals: number): FitCounts => ({
  tooManyRequests: refusals,
  serverErrors: 0,
  serviceUnavailable: 0,
  timeouts: 0,
  otherErrors: 0,
  retryAfterShare: () => 0,
  periodic: () => false,
});

const seq = againstBucket(11, 0.25);
const model = fitFaultModel(seq, counts(1));

test("fit: one refusal fits a min-interval limiter at the crawl's pace and a token bucket alike: the other kind is kept as the alternative", () => {
  assert.equal(seq.filter((r) => r.status === 429).length, 1);
  assert.equal(model.undetermined, true);
  assert.equal(model.limiter?.kind, 'min-interval');
  const alt = model.alternative!;
  assert.equal(alt.kind, 'token-bucket');
  assert.equal(alt.burst, 2);
  const [lo, hi] = alt.intervalRangeSeconds;
  assert.ok(lo <= 0.6 && 0.6 <= hi, `the bucket's own 600 ms in ${lo}–${hi} s`);
  assert.match(
    model.note!,
    /one refusal: too few to tell a min-interval limiter \(.*\), a token bucket of 2 \(a token per .* s\) and random 429s apart/,
  );
  // A determined fit has no alternative.
  const many = fitFaultModel(
    againstBucket(120, 0.25),
    counts(againstBucket(120, 0.25).filter((r) => r.status === 429).length),
  );
  assert.equal(many.undetermined, false);
  assert.equal(many.alternative, undefined);
});

test('an undetermined limiter: the plan walks the fit, and the band draws the fit, the alternative and random refusals', () => {
  const measured = hostCalibration('h0.example', { samples: [0.01, 0.015, 0.02] });
  const base: HostCalibration = {
    ...measured,
    requests: 11,
    faults: {
      ...measured.faults,
      tooManyRequests: { count: 1, rate: 1 / 11, latencySeconds: [0.002], retryAfterSeconds: [], every: null },
    },
    model,
  };
  const planOf = (c: HostCalibration) =>
    plan({
      seeds: [{ host: 'h0.example' }],
      pages: { perHost: 35 },
      delaySeconds: 0.25,
      calibration: calibration([c]),
    });
  const open = faultHypotheses(base);
  assert.deepEqual(
    open.map((c) => c.model!.limiter?.kind ?? 'random'),
    ['min-interval', 'token-bucket', 'random'],
  );
  // Random refusals come at their posterior rate, never as a counting limiter's every Nth request.
  const counted = {
    ...base,
    faults: { ...base.faults, tooManyRequests: { ...base.faults.tooManyRequests, every: 2 } },
  };
  assert.equal(faultHypotheses(counted).at(-1)!.faults.tooManyRequests.every, null);
  // Each hypothesis planned alone (as a determined model).
  const alone = open.map((c) => planOf({ ...c, model: { ...c.model!, undetermined: false } }).totalSeconds);
  const [fit, bucket] = alone as [number, number, number];
  // The bucket's long-run pace, a token per 0.6 s, is much slower than the crawl's 0.25 s.
  assert.ok(bucket > fit * 1.5, `bucket ${bucket} s, min-interval ${fit} s`);
  const p = planOf(base);
  assert.equal(p.totalSeconds, fit);
  const band = simulate(p, { runs: 150, seed: 11 });
  assert.ok(band.p10Seconds <= Math.min(...alone) * 1.05, `p10 ${band.p10Seconds} s, walks ${alone.join(', ')} s`);
  assert.ok(band.p90Seconds >= bucket * 0.9, `p90 ${band.p90Seconds} s, the bucket's walk ${bucket} s`);
});
