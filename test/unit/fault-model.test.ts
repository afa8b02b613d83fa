/**
 * Fault models (docs/calibration-and-simulation.md#fault-models): the fit on synthetic request sequences (a
 * min-interval limiter's refused and accepted gaps give its interval; a token bucket its burst; 5xx at random
 * no limiter), the plan's walk and the engine against the same limiter (the sawtooth), and the band's width
 * against the test crawl's size.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  fitFaultModel,
  FAULT_RATE_PRIOR,
  posteriorRate,
  randomFaults,
  type FitCounts,
  type FitRequest,
} from '../../src/core/calibrate/faultModel';
import type { HostCalibration, LimiterModel } from '../../src/core/calibrate/types';
import { runCrawl } from '../../src/core/crawl/engine';
import type { PageRequest, PageResult } from '../../src/core/crawl/types';
import { plan } from '../../src/core/plan';
import { REQUEST_OVERHEAD } from '../../src/core/politeness/pacing';
import { mulberry32 } from '../../src/core/random';
import { rateDraw } from '../../src/core/simulate/draws';
import { simulate } from '../../src/core/simulate/simulate';
import { percentileSorted } from '../../src/core/statistics';
import { VirtualClock } from '../../src/core/simulate/virtualClock';
import { calibrationFromReport } from '../../src/core/calibrate/fromCrawlReport';
import { calibration, hostCalibration, testCrawlReport, withModel } from '../helpers/calibration';

const counts = (o: Partial<Omit<FitCounts, 'retryAfterShare'>> = {}): FitCounts => ({
  tooManyRequests: 0,
  serverErrors: 0,
  serviceUnavailable: 0,
  timeouts: 0,
  otherErrors: 0,
  retryAfterShare: () => 1,
  periodic: () => false,
  ...o,
});

/**
 * A crawler's starts against a limiter `refuses(t, accepted)`: robots.txt at 0, then gaps of `delay` raised to
 * max(2 × gap, 1 s) on a refusal and × 0.9 per accepted request (the engine's host rate), as FitRequests.
 */
function sawtooth(
  n: number,
  delay: number,
  refuses: (t: number, last: { accepted: number; any: number }) => boolean,
  status = 429,
): FitRequest[] {
  const out: FitRequest[] = [{ startMs: 0, status: 200 }];
  const last = { accepted: 0, any: 0 };
  let t = 0;
  let gap = delay;
  for (let i = 0; i < n; i++) {
    t = Math.round(t + gap * 1000);
    const refused = refuses(t, last);
    out.push({ startMs: t, status: refused ? status : 200 });
    last.any = t;
    if (refused) gap = Math.max(2 * gap, 1);
    else {
      last.accepted = t;
      gap = Math.max(delay, gap * 0.9);
    }
  }
  return out;
}

test('fit: a min-interval limiter (500 ms since the last accepted request): its interval between the longest refused gap and the shortest accepted one', () => {
  const seq = sawtooth(80, 0.2, (t, last) => t - last.accepted < 500);
  const refusals = seq.filter((r) => r.status === 429).length;
  assert.ok(refusals >= 8, `${refusals} refusals`);
  const m = fitFaultModel(seq, counts({ tooManyRequests: refusals }));
  assert.deepEqual(m.kinds, ['min-interval']);
  const l = m.limiter!;
  assert.equal(l.kind, 'min-interval');
  assert.equal(l.since, 'accepted');
  assert.equal(l.status, 429);
  // The sawtooth's gaps: refused at 0.2 and 0.478 s, accepted from 0.531 s up.
  assert.deepEqual(l.intervalRangeSeconds, [0.478, 0.531]);
  // The fit: the range's geometric middle (an interval is a scale).
  assert.equal(l.intervalSeconds, Math.round(Math.sqrt(0.478 * 0.531) * 10_000) / 10_000);
  assert.equal(m.evidence.explained, refusals);
  assert.equal(m.evidence.mispredicted, 0);
  assert.equal(m.undetermined, false);
  assert.equal(m.evidence.refusedGapsSeconds.at(-1), 0.478);
  assert.equal(m.evidence.acceptedGapsSeconds[0], 0.531);
});

test('fit: a limiter seen refusing twice is undetermined, and says so', () => {
  const seq = sawtooth(12, 0.2, (t, last) => t - last.accepted < 500);
  const refusals = seq.filter((r) => r.status === 429).length;
  assert.equal(refusals, 2);
  const m = fitFaultModel(seq, counts({ tooManyRequests: refusals }));
  assert.equal(m.limiter?.kind, 'min-interval');
  assert.equal(m.undetermined, true);
  assert.match(
    m.note!,
    /2 refusals: too few to tell a min-interval limiter \([0-9.]+–[0-9.]+ s\)(, a token bucket of \d+ \(a token per [0-9.]+–[0-9.]+ s\))? and random 429s apart/,
  );
  const [lo, hi] = m.limiter!.intervalRangeSeconds;
  assert.ok(lo < 0.5 && 0.5 <= hi, `${lo}–${hi}`);
});

test('fit: a token bucket (burst 5, 2 tokens a second) against a crawl at 0.2 s: a bucket of 5, its refill 0.5 s', () => {
  let tokens = 5;
  let at = 0;
  const seq = sawtooth(120, 0.2, (t) => {
    tokens = Math.min(5, tokens + (t - at) / 500);
    at = t;
    if (tokens < 1) return true;
    tokens -= 1;
    return false;
  });
  const refusals = seq.filter((r) => r.status === 429).length;
  const m = fitFaultModel(seq, counts({ tooManyRequests: refusals }));
  assert.equal(m.limiter?.kind, 'token-bucket');
  assert.equal(m.limiter.burst, 5);
  const [lo, hi] = m.limiter.intervalRangeSeconds;
  assert.ok(lo <= 0.5 && 0.5 <= hi, `refill ${lo}–${hi} s`);
  // At most one request misread: the report's whole milliseconds against a bucket's fractional tokens.
  assert.ok(m.evidence.mispredicted + refusals - m.evidence.explained <= 1, JSON.stringify(m.evidence));
});

test('fit: 5xx at random, whatever the gap: no limiter, random 5xx at their posterior rate', () => {
  const random = mulberry32(7);
  const seq: FitRequest[] = [{ startMs: 0, status: 200 }];
  let t = 0;
  for (let i = 0; i < 200; i++) {
    t += 200 + Math.round(random() * 60);
    seq.push({ startMs: t, status: random() < 0.04 ? 503 : 200 });
  }
  const errors = seq.filter((r) => r.status === 503).length;
  assert.ok(errors >= 4, `${errors} 503s`);
  const m = fitFaultModel(seq, counts({ serverErrors: errors, serviceUnavailable: errors }));
  assert.equal(m.limiter, null);
  assert.deepEqual(m.kinds, ['random-5xx']);
  const cal = hostCalibration('h.example', { samples: [0.05], rate503: errors / 100 });
  const fitted = randomFaults({ ...cal, requests: 200, model: m });
  // Two 503s in a row are one event (a retry refused again): at 4% that is rare, and those are left out.
  const repeats = m.evidence.repeated!.serverErrors;
  assert.ok(repeats <= 1, `${repeats} repeats`);
  assert.equal(fitted.serverErrors.rate, (errors - repeats + 0.5) / 225);
  assert.equal(fitted.serverErrors.rate, posteriorRate(errors - repeats, 200));
});

test("fit: a limiter's refusals are not random faults: the plan's random rates leave them out", () => {
  const seq = sawtooth(80, 0.2, (t, last) => t - last.accepted < 500);
  const refusals = seq.filter((r) => r.status === 429).length;
  const m = fitFaultModel(seq, counts({ tooManyRequests: refusals }));
  const cal = hostCalibration('h.example', { samples: [0.05], rate429: refusals / 100, ra: 1 });
  const fitted = randomFaults({ ...cal, requests: 80, model: m });
  assert.equal(fitted.tooManyRequests.count, 0);
  assert.equal(fitted.tooManyRequests.rate, 0);
});

/** A min-interval limiter of `seconds` since the last accepted request, 429 with Retry-After: 1 on every refusal. */
const limiter = (seconds: number, range: [number, number] = [seconds, seconds]): LimiterModel => ({
  kind: 'min-interval',
  intervalSeconds: seconds,
  intervalRangeSeconds: range,
  since: 'accepted',
  burst: 1,
  status: 429,
  retryAfterShare: 1,
});

test("the plan's walk against a min-interval limiter is what the engine does against it: one sawtooth down to the limit, learned at its second refusal", async () => {
  const latency = 0.05;
  const base = hostCalibration('h0.example', { samples: [latency], rate429: 0.1, ra: 1 });
  base.faults.tooManyRequests.latencySeconds = [0.002];
  const cal = withModel(base, { limiter: limiter(0.5), explained: 10 });
  const p = plan({
    seeds: [{ host: 'h0.example' }],
    pages: { perHost: 80 },
    delaySeconds: 0.2,
    calibration: calibration([cal]),
  });
  const h = p.hosts[0]!;
  assert.deepEqual(h.calibrated, ['latency', 'faults']);
  // The engine on the simulation's clock, with a fetcher behind a 500 ms limiter that counts robots.txt.
  const clock = new VirtualClock(0, REQUEST_OVERHEAD.afterIntervalSeconds * 1000);
  let lastAccepted: number | undefined;
  let refused = 0;
  let last = 0;
  const startFetch = (req: PageRequest, done: (r: PageResult) => void): void => {
    const startedAt = clock.now();
    const ok = lastAccepted === undefined || startedAt - lastAccepted >= 500;
    if (ok) lastAccepted = startedAt;
    else refused++;
    const seconds = req.url.endsWith('/robots.txt') ? 0.01 : ok ? latency : 0.002;
    const endedAt = startedAt + seconds * 1000 + REQUEST_OVERHEAD.afterResponseSeconds * 1000;
    clock.at(endedAt, () => {
      last = endedAt;
      done({
        status: ok ? 200 : 429,
        headers: ok ? {} : { 'retry-after': '1' },
        bytes: 0,
        truncated: false,
        startedAt,
        endedAt,
      });
    });
  };
  const seeds = ['http://h0.example/robots.txt', ...Array.from({ length: 80 }, (_, i) => `http://h0.example/${i + 1}`)];
  const finished = runCrawl({
    seeds,
    clock,
    random: () => 0.5,
    startFetch,
    delaySeconds: 0.2,
    maxPages: Infinity,
    maxDepth: 0,
  });
  clock.run();
  await finished;
  // The first refusal comes before the host accepted any pace, so it teaches nothing: after the Retry-After the
  // gaps come down 0.9, 0.81, … 0.531 s, and 0.478 s is refused. That one is learned
  // (docs/crawl-engine.md#the-learned-limit): the host stays at 0.531 s, and no refusal follows.
  assert.equal(refused, 2, `${refused} refusals`);
  assert.equal(h.requests - 1 - 80, refused, 'the walk refuses as often as the limiter did');
  assert.ok(Math.abs(last / 1000 - h.seconds) / h.seconds < 0.01, `engine ${last / 1000} s, plan ${h.seconds} s`);
});

test('the band: a fault rate drawn from its posterior is wider with fewer requests, and never 0 wide', () => {
  const width = (count: number, requests: number): number => {
    const random = mulberry32(3);
    const draws = Array.from({ length: 4000 }, () => rateDraw(count, requests, random)).sort((a, b) => a - b);
    return percentileSorted(draws, 90) - percentileSorted(draws, 10);
  };
  const w20 = width(2, 20);
  const w200 = width(20, 200);
  const w2000 = width(200, 2000);
  assert.ok(w20 > w200 && w200 > w2000, `${w20} > ${w200} > ${w2000}`);
  assert.ok(width(0, 20) > 0, 'nothing seen in 20 requests leaves a rate open');
  // The posterior's mean: (count + 0.5) / (requests + 25).
  const random = mulberry32(5);
  let sum = 0;
  for (let i = 0; i < 20_000; i++) sum += rateDraw(2, 20, random);
  const expected = (2 + FAULT_RATE_PRIOR.faults) / (20 + FAULT_RATE_PRIOR.requests);
  assert.ok(Math.abs(sum / 20_000 - expected) < 0.002, `mean ${sum / 20_000}, expected ${expected}`);
});

test("the band of a calibrated plan narrows as the test crawl grows, and a limiter's band holds the plan", () => {
  const band = (requests: number, range: [number, number]) => {
    const base = hostCalibration('h0.example', { samples: [0.04, 0.05, 0.06], rate429: 0.1, ra: 1 });
    base.faults.tooManyRequests.latencySeconds = [0.002];
    const cal = withModel(base, { limiter: limiter(0.5, range), explained: Math.round(requests / 8), requests });
    const p = plan({
      seeds: [{ host: 'h0.example' }],
      pages: { perHost: 60 },
      delaySeconds: 0.2,
      calibration: calibration([cal]),
    });
    const s = simulate(p, { runs: 100 });
    return { p, s, width: s.p90Seconds - s.p10Seconds };
  };
  const few = band(20, [0.3, 0.7]);
  const many = band(2000, [0.495, 0.505]);
  assert.ok(few.width > many.width, `${few.width} s > ${many.width} s`);
  assert.ok(many.width > 0, 'a measured host is never 0 wide');
  assert.ok(many.s.p10Seconds <= many.p.totalSeconds * 1.01 && many.p.totalSeconds <= many.s.p90Seconds * 1.01);
});

test("the band: a test crawl that met no fault leaves one open, half of them a hang of the crawl's timeout; one that met faults draws only those", () => {
  const run = (c: HostCalibration) =>
    simulate(
      plan({
        seeds: [{ host: 'h0.example' }],
        pages: { perHost: 40 },
        delaySeconds: 0.2,
        calibration: calibration([c]),
      }),
      { runs: 200, seed: 7 },
    );
  const base = withModel(hostCalibration('h0.example', { samples: [0.04, 0.05, 0.06] }), { requests: 12 });
  const without = run(base);
  const open = run({ ...base, timeoutSeconds: 5 });
  // 40 pages at a rate drawn from no fault in 12 requests (posterior mean 0.5 / 37): most runs meet none, the
  // slow tail meets a 5 s hang and the raised interval after it.
  assert.ok(open.p90Seconds >= without.p90Seconds + 4, `p90 ${open.p90Seconds} s against ${without.p90Seconds} s`);
  assert.ok(open.p10Seconds < without.p90Seconds, 'runs that meet no fault stay where they were');
  // A test crawl that met a random fault draws that kind from its own count: no unseen one is added.
  const met = { ...base, timeoutSeconds: 5 };
  met.faults = {
    ...met.faults,
    timeouts: { count: 1, rate: 1 / 12, latencySeconds: [5], retryAfterSeconds: [], every: null },
  };
  const seen = run(met);
  const { timeoutSeconds: _dropped, ...metWithoutTimeout } = met;
  const seenNoTimeout = run(metWithoutTimeout);
  assert.equal(seen.p50Seconds, seenNoTimeout.p50Seconds);
  assert.equal(seen.p90Seconds, seenNoTimeout.p90Seconds);
});

test('requests per page: a test crawl that met 2 redirects in 10 pages plans 10 of them for 50 pages, as requests and not pages', () => {
  const base = hostCalibration('h0.example', { samples: [0.05] });
  const typed = plan({
    seeds: [{ host: 'h0.example' }],
    pages: { perHost: 50 },
    delaySeconds: 0.2,
    calibration: calibration([base]),
  });
  const cal = {
    ...base,
    perPage: { pages: 10, redirects: 2, retries: 0, disallowed: 1, requestsPerPage: 1.2 },
  };
  const p = plan({
    seeds: [{ host: 'h0.example' }],
    pages: { perHost: 50 },
    delaySeconds: 0.2,
    calibration: calibration([cal]),
  });
  const h = p.hosts[0]!;
  const t = typed.hosts[0]!;
  assert.equal(h.pages, 50);
  assert.equal(h.nonPageRequests, 10);
  assert.equal(h.requests, 61, 'robots.txt, 50 pages, 10 redirects');
  assert.equal(t.nonPageRequests, 0);
  // Ten more steps of the host's pace.
  assert.ok(Math.abs(h.seconds - t.seconds - 10 * h.stepSeconds) < 1e-6, `${h.seconds} − ${t.seconds}`);
});

test("requests per page: calibration counts a host's pages, retries and redirects from the report", async () => {
  const c = calibrationFromReport(JSON.parse(JSON.stringify(await testCrawlReport())));
  const a = c.hosts.find((x) => x.host === 'a.example')!;
  // a.example: 12 pages, a 429 on every 4th request, each retried.
  assert.equal(a.perPage!.pages, 12);
  assert.equal(a.perPage!.retries, a.faults.tooManyRequests.count);
  assert.equal(a.perPage!.redirects, 0);
  assert.equal(a.perPage!.requestsPerPage, Math.round((a.requests / 12) * 1000) / 1000);
  assert.deepEqual(a.model!.kinds, ['counting']);
});

test('fit: a run of refusals with no success between (a retry refused again, as in an outage window) is one piece of evidence: no token bucket from it', () => {
  // A test crawl's host as it went: a 429 (Retry-After: 2) early, then two 503s 1 s apart (a retry refused
  // again), then successes. A bucket of 10 refilled every ~1.9 s explains both 503s, but they are one event.
  const seq: FitRequest[] = (
    [
      [0, 200],
      [125, 200],
      [227, 200],
      [327, 200],
      [428, 200],
      [530, 429],
      [2535, 200],
      [3437, 200],
      [4247, 200],
      [4977, 200],
      [5637, 200],
      [6228, 200],
      [6761, 200],
      [7241, 200],
      [7672, 503],
      [8674, 503],
      [10675, 200],
      [12476, 200],
      [14097, 200],
    ] as const
  ).map(([startMs, status]) => ({ startMs, status }));
  const m = fitFaultModel(seq, counts({ tooManyRequests: 1, serverErrors: 2, serviceUnavailable: 2 }));
  assert.notEqual(m.limiter?.kind, 'token-bucket', JSON.stringify(m.limiter));
  assert.ok(m.kinds.includes('random-5xx'), m.kinds.join(', '));
  // The two 503s are one event in the random rate: 1 in 18 page requests, not 2.
  assert.deepEqual(m.evidence.repeated, { tooManyRequests: 0, serverErrors: 1 });
  const cal = hostCalibration('h.example', { samples: [0.05], rate503: 0.02 });
  cal.faults.serverErrors = { ...cal.faults.serverErrors, count: 2, statuses: { '503': 2 } };
  const fitted = randomFaults({ ...cal, requests: 18, model: m });
  assert.equal(fitted.serverErrors.count, 1);
  assert.equal(fitted.serverErrors.rate, posteriorRate(1, 18));
});

test('fit: refusals in runs count as their runs: a limiter seen in two runs of two is undetermined, and says so', () => {
  // A min-interval limiter of 500 ms since the last accepted request, met at 0.2 s; each refusal retried 0.3 s
  // later (refused again), then 1 s later (accepted).
  const seq: FitRequest[] = [{ startMs: 0, status: 200 }];
  let t = 0;
  let accepted = 0;
  for (let i = 0; i < 30; i++) {
    t += i % 10 === 9 ? 200 : 600;
    const refused = t - accepted < 500;
    seq.push({ startMs: t, status: refused ? 429 : 200 });
    if (refused) {
      t += 300;
      seq.push({ startMs: t, status: 429 });
      t += 1000;
      seq.push({ startMs: t, status: 200 });
    }
    accepted = t;
  }
  const refusals = seq.filter((r) => r.status === 429).length;
  assert.equal(refusals, 6);
  const m = fitFaultModel(seq, counts({ tooManyRequests: refusals }));
  assert.equal(m.limiter?.kind, 'min-interval');
  assert.equal(m.undetermined, false, 'three runs tell');
  const two = fitFaultModel(seq.slice(0, 24), counts({ tooManyRequests: 4 }));
  assert.equal(two.undetermined, true);
  assert.match(two.note!, /4 refusals in 2 runs: too few to tell a min-interval limiter/);
});

test("the plan's walk counts the fault a test crawl did not meet, at its posterior mean: a fitted host without faults is planned above its clean time", () => {
  const base = withModel(hostCalibration('h0.example', { samples: [0.04, 0.05, 0.06] }), { requests: 12 });
  const planOf = (c: HostCalibration, pages: number) =>
    plan({
      seeds: [{ host: 'h0.example' }],
      pages: { perHost: pages },
      delaySeconds: 0.2,
      calibration: calibration([c]),
    }).hosts[0]!;
  // No fault in 12 requests: a rate of 0.5 / 37 (1.35%). The walk gives the median count of a Poisson(N × rate):
  // none while N × rate < ln 2 (51 requests), one from there.
  assert.equal(posteriorRate(0, 12), 0.5 / 37);
  const few = planOf({ ...base, timeoutSeconds: 5 }, 45);
  assert.equal(few.faultSeconds, 0, 'below the median count of one: none');
  const many = planOf({ ...base, timeoutSeconds: 5 }, 60);
  // One fault in 60: the 500 (the hang is the band's tail), retried, the interval raised to 1 s and recovering.
  assert.ok(many.faultSeconds > 1 && many.faultSeconds < 5, `${many.faultSeconds} s`);
  assert.equal(many.requests, 62, "robots.txt, 60 pages and the 500's retry");
  assert.deepEqual(many.calibrated, ['latency'], 'a fault not measured is not listed as calibrated');
  // A host the test crawl met a fault on plans that fault, not an unseen one as well.
  const met = { ...base, timeoutSeconds: 5 };
  met.faults = {
    ...met.faults,
    timeouts: { count: 1, rate: 1 / 12, latencySeconds: [5], retryAfterSeconds: [], every: null },
  };
  const { timeoutSeconds: _t, ...noTimeout } = met;
  assert.equal(planOf(met, 60).seconds, planOf(noTimeout, 60).seconds);
  // Without a fitted model (a calibration written by hand) no fault is added.
  const { model: _m, ...handWritten } = base;
  assert.equal(planOf({ ...handWritten, timeoutSeconds: 5 }, 60).faultSeconds, 0);
});

test("a counting limiter's faults keep their count and period: repeats come out of random rates only", () => {
  const cal = hostCalibration('h.example', { samples: [0.05], rate503: 0.1, every: true });
  cal.faults.serverErrors = { ...cal.faults.serverErrors, count: 2, every: 10, rate: 0.1 };
  const m = fitFaultModel([{ startMs: 0, status: 200 }], counts());
  const model = { ...m, evidence: { ...m.evidence, repeated: { tooManyRequests: 0, serverErrors: 1 } } };
  const fitted = randomFaults({ ...cal, requests: 21, model });
  assert.equal(fitted.serverErrors.every, 10);
  assert.equal(fitted.serverErrors.count, 2);
  assert.equal(fitted.serverErrors.rate, 0.1);
});
