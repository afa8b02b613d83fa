import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCrawl } from '../../src/core/crawl/engine';
import type { PageRequest, PageResult } from '../../src/core/crawl/types';
import { plan, type PlanInput } from '../../src/core/plan';
import { REQUEST_OVERHEAD } from '../../src/core/politeness/pacing';
import { deriveSeed, mulberry32 } from '../../src/core/random';
import { SAMPLE_RUNS } from '../../src/core/simulate/bands';
import { hostModel } from '../../src/core/simulate/model';
import { simulate } from '../../src/core/simulate/simulate';
import { VirtualClock } from '../../src/core/simulate/virtualClock';
import { mean, percentile, percentileSorted, thinSorted } from '../../src/core/statistics';
import { calibration, hostCalibration } from '../helpers/calibration';

const hosts = (n: number) => Array.from({ length: n }, (_, i) => ({ host: `h${i}.example` }));

// ---- Percentiles and sampling helpers. ----

test('percentiles are nearest-rank: p10, p50, p90 of 1…10 are 1, 5, 9', () => {
  const sorted = Array.from({ length: 10 }, (_, i) => i + 1);
  assert.equal(percentileSorted(sorted, 10), 1);
  assert.equal(percentileSorted(sorted, 50), 5);
  assert.equal(percentileSorted(sorted, 90), 9);
  assert.equal(percentileSorted(sorted, 100), 10);
  assert.equal(percentileSorted([], 50), 0);
  assert.equal(percentile([3, 1, 2], 50), 2);
  assert.equal(mean([1, 2, 3, 4]), 2.5);
});

test('thinSorted keeps the first and last and evenly spaced ranks between', () => {
  assert.deepEqual(thinSorted([1, 2, 3], 5), [1, 2, 3]);
  assert.deepEqual(thinSorted([0, 1, 2, 3, 4, 5, 6, 7, 8], 3), [0, 4, 8]);
  assert.deepEqual(thinSorted([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 4), [0, 3, 6, 9]);
});

test('a fixed seed gives a fixed sequence; derived seeds give other sequences', () => {
  const a = mulberry32(42);
  const b = mulberry32(42);
  const first = [a(), a(), a()];
  assert.deepEqual([b(), b(), b()], first);
  // mulberry32(42)'s first draw, as the algorithm defines it (a regression guard for the simulation's seeds).
  assert.equal(first[0], 0.6011037519201636);
  for (const x of first) assert.ok(x >= 0 && x < 1);
  assert.notEqual(mulberry32(deriveSeed(42, 'run 0'))(), mulberry32(deriveSeed(42, 'run 1'))());
});

// ---- The simulation's clock. ----

test("the virtual clock runs each instant's posted tasks before the next timer, timers by (time, order), and adds its lateness to setTimer only", () => {
  const clock = new VirtualClock(1000, 2);
  const log: string[] = [];
  clock.at(1010, () => log.push(`at 1010 @${clock.now()}`));
  clock.setTimer(10, () => {
    log.push(`timer 10 @${clock.now()}`);
    clock.post(() => log.push(`posted @${clock.now()}`));
  });
  clock.at(1012, () => log.push(`at 1012 @${clock.now()}`));
  const cancel = clock.setTimer(5, () => log.push('cancelled timer'));
  clock.setTimer(0, () => log.push(`timer 0 @${clock.now()}`));
  cancel();
  assert.equal(clock.run(), 4);
  assert.deepEqual(log, ['timer 0 @1000', 'at 1010 @1010', 'timer 10 @1012', 'posted @1012', 'at 1012 @1012']);
});

// ---- The engine does what the plan says: with fixed answer times the simulation's makespan is the plan's. ----

const fixedPlans: Array<[string, PlanInput]> = [
  ['interval-bound', { seeds: hosts(3), pages: { perHost: 10 }, delaySeconds: 1, latencySeconds: 0.5 }],
  ['latency-bound', { seeds: hosts(3), pages: { perHost: 10 }, delaySeconds: 1, latencySeconds: 2 }],
  ['end reading', { seeds: hosts(3), pages: { perHost: 10 }, delaySeconds: 1, latencySeconds: 0.5, delayFrom: 'end' }],
  ['no delay', { seeds: hosts(3), pages: { perHost: 10 }, delaySeconds: 0, latencySeconds: 0.25 }],
  ['a Crawl-delay', { seeds: hosts(3), pages: { perHost: 10 }, crawlDelayByHost: { 'h1.example': 3 } }],
  ['uneven pages', { seeds: hosts(4), pages: { total: 37 }, delaySeconds: 0.3, latencySeconds: 0.1 }],
];
for (const [name, input] of fixedPlans) {
  test(`simulation = plan with fixed answer times: ${name}`, () => {
    const p = plan(input);
    const s = simulate(p, { runs: 3 });
    assert.equal(s.method, 'engine');
    assert.ok(Math.abs(s.p50Seconds - p.totalSeconds) < 1e-6, `simulated ${s.p50Seconds}, planned ${p.totalSeconds}`);
    assert.equal(s.p10Seconds, s.p90Seconds);
    for (const h of s.hosts) {
      const planned = p.hosts.find((x) => x.host === h.host)!.seconds;
      assert.ok(Math.abs(h.p50Seconds - planned) < 1e-6, `${h.host}: simulated ${h.p50Seconds}, planned ${planned}`);
    }
    // Every request the plan counts, robots.txt included, is made.
    assert.equal(s.requests, 3 * p.hosts.reduce((sum, h) => sum + h.requests, 0));
  });
}

test('simulation with the workers binding: the global slots make it at least the workers bound', () => {
  const p = plan({ seeds: hosts(20), pages: { perHost: 10 }, workers: 2, latencySeconds: 0.5 });
  assert.equal(p.bindingConstraint, 'workers');
  const s = simulate(p, { runs: 1 });
  assert.ok(s.p50Seconds >= p.totalSeconds, `${s.p50Seconds} < ${p.totalSeconds}`);
  assert.ok(s.p50Seconds < p.totalSeconds * 1.01);
});

// ---- A calibration to draw from. ----

const jitter = Array.from({ length: 21 }, (_, i) => 0.05 + i * 0.01);

test('sampling: answer times are drawn from the measured samples, faults at their measured rates', () => {
  const cal = hostCalibration('h0.example', { samples: [0.1, 0.3], rate429: 0.1, rate503: 0.05 });
  const p = plan({ seeds: hosts(1), pages: { perHost: 10 }, calibration: calibration([cal]) });
  const model = hostModel(p.hosts[0]!, cal);
  const random = mulberry32(7);
  const seen = new Set<number>();
  for (let i = 0; i < 1000; i++) seen.add(model.latency(random));
  assert.deepEqual([...seen].sort(), [0.1, 0.3]);
  assert.deepEqual(
    model.faults.map((f) => f.rate),
    [0.1, 0.05],
  );
  const draws = model.faults[0]!.draw(random, 0);
  assert.equal(draws.status, 429);
  assert.equal(draws.retryAfterSeconds, 1);
  const result = draws.result(20);
  assert.ok('status' in result && result.status === 429 && result.headers['retry-after'] === '1');
});

test('a fixed seed gives the same simulation; another seed another one', () => {
  const cal = calibration([0, 1, 2].map((i) => hostCalibration(`h${i}.example`, { samples: jitter, rate429: 0.05 })));
  const p = plan({ seeds: hosts(3), pages: { perHost: 60 }, delaySeconds: 0.2, calibration: cal });
  const once = simulate(p, { runs: 30, seed: 9 });
  assert.deepEqual(simulate(p, { runs: 30, seed: 9 }), once);
  const other = simulate(p, { runs: 30, seed: 10 });
  assert.notDeepEqual(other.p50Seconds, once.p50Seconds);
  assert.ok(once.p10Seconds <= once.p50Seconds && once.p50Seconds <= once.p90Seconds);
  assert.ok(once.p10Seconds < once.p90Seconds, 'answer times and faults drawn at random spread the runs');
  // The timeline is the p50 run's: every host from its robots.txt to its last answer, pages up to its pages.
  assert.equal(once.timeline.seconds, once.p50Seconds);
  for (const h of once.timeline.hosts) {
    assert.equal(h.startSeconds, 0);
    assert.deepEqual(h.pages[0], [0, 0]);
    assert.equal(h.pages.at(-1)![1], 60);
    assert.ok(h.endSeconds <= once.p50Seconds + 1e-9);
    for (const pause of h.pauses)
      assert.ok(Math.abs(pause.untilSeconds - pause.fromSeconds - pause.retryAfterSeconds) < 1e-9);
  }
  assert.ok(
    once.timeline.hosts.some((h) => h.pauses.length > 0),
    'a 429 rate of 5% over 180 requests pauses some host',
  );
});

// ---- Faults in the plan: the walk is what the engine does with faults that come at their rate. ----

test('the plan with periodic faults is what the engine does when every 5th request gets a 429 with Retry-After', async () => {
  const latency = 0.08;
  const cal = hostCalibration('h0.example', { samples: [latency], rate429: 0.2, ra: 2, every: true });
  cal.faults.tooManyRequests.latencySeconds = [0.02];
  const p = plan({ seeds: hosts(1), pages: { perHost: 40 }, delaySeconds: 0.2, calibration: calibration([cal]) });
  const h = p.hosts[0]!;
  assert.deepEqual(h.calibrated, ['latency', 'faults']);
  assert.ok(h.faultSeconds > 5, `faults add ${h.faultSeconds} s`);
  // The engine itself, on the simulation's clock, with a fetcher that answers 429 to every 5th page request.
  const clock = new VirtualClock(0, REQUEST_OVERHEAD.afterIntervalSeconds * 1000);
  let pageRequests = 0;
  let last = 0;
  const startFetch = (req: PageRequest, done: (r: PageResult) => void): void => {
    const startedAt = clock.now();
    const robots = req.url.endsWith('/robots.txt');
    const throttled = !robots && ++pageRequests % 5 === 0;
    const seconds = robots ? 0.01 : throttled ? 0.02 : latency;
    const endedAt = startedAt + seconds * 1000 + REQUEST_OVERHEAD.afterResponseSeconds * 1000;
    clock.at(endedAt, () => {
      last = endedAt;
      done({
        status: throttled ? 429 : 200,
        headers: throttled ? { 'retry-after': '2' } : {},
        bytes: 0,
        truncated: false,
        startedAt,
        endedAt,
      });
    });
  };
  const seeds = ['http://h0.example/robots.txt', ...Array.from({ length: 40 }, (_, i) => `http://h0.example/${i + 1}`)];
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
  const result = await finished;
  assert.equal(result.summary.pages, 41);
  assert.ok(
    Math.abs(last / 1000 - h.seconds) < 1e-6,
    `engine ${last / 1000}, plan ${h.seconds} (${pageRequests} page requests, planned ${h.requests - 1})`,
  );
});

// ---- Per-host sums: the band of a plan too large to run request by request. ----

test('per-host sums agree with the request-by-request band where both can run', () => {
  // Mild faults (1% each): a 429 or 503 raises the interval to 1 s for a few requests. Heavier ones make the
  // spread's tail too long for 40 sample runs (and for 200 runs of the engine) to agree on a p90.
  const cal = calibration(
    [0, 1, 2, 3].map((i) =>
      hostCalibration(`h${i}.example`, { samples: jitter, rate429: i % 2 === 0 ? 0.01 : 0, rate503: 0.01 }),
    ),
  );
  const p = plan({ seeds: hosts(4), pages: { perHost: 400 }, delaySeconds: 0.5, calibration: cal });
  const engine = simulate(p, { runs: 200, seed: 3 });
  // A budget that makes each host's sample runs a quarter of its pages: its time is then a sum drawn from their spread.
  const sums = simulate(p, { runs: 200, seed: 3, budgetRequests: 4 * SAMPLE_RUNS * 100 });
  assert.equal(engine.method, 'engine');
  assert.equal(sums.method, 'per-host-sums');
  const near = (a: number, b: number, share: number, what: string) =>
    assert.ok(Math.abs(a - b) <= share * b, `${what}: per-host sums ${a.toFixed(1)} s, engine ${b.toFixed(1)} s`);
  near(sums.p50Seconds, engine.p50Seconds, 0.03, 'p50');
  near(sums.p10Seconds, engine.p10Seconds, 0.05, 'p10');
  near(sums.p90Seconds, engine.p90Seconds, 0.05, 'p90');
  for (let i = 0; i < 4; i++)
    near(sums.hosts[i]!.p50Seconds, engine.hosts[i]!.p50Seconds, 0.03, `${engine.hosts[i]!.host} p50`);
});

test("per-host sums: a host with nothing drawn at random takes the plan's time", () => {
  const p = plan({ seeds: hosts(2), pages: { perHost: 1_000_000 }, delaySeconds: 1, latencySeconds: 0.5 });
  const s = simulate(p, { runs: 200 });
  assert.equal(s.method, 'per-host-sums');
  assert.equal(s.p10Seconds, p.totalSeconds);
  assert.equal(s.p90Seconds, p.totalSeconds);
  assert.equal(s.timeline.run, null);
});
