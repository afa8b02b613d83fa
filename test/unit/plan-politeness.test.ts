/**
 * The plan's arithmetic (src/core/plan/): the numbers of the politeness rules (docs/planning.md), each in its
 * own test; the timing convention (robots.txt first, the per-request overhead, the global rate and workers
 * bounds); the binding constraint; and the Crawl-delay policies and cap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plan, tidy, type Plan, type PlanInput } from '../../src/core/plan';
import { A, hosts, only } from '../helpers/plan';

// ---- The numbers of the politeness rules (docs/planning.md), each in its own test. ----

test('seed: 1,000,000 pages at a 1 s interval take about 1,000,000 s = 278.1 h = 11.6 days', () => {
  const p = plan({ seeds: A, pages: { total: 1_000_000 }, delaySeconds: 1 });
  // Convention: the host's robots.txt at t = 0, then a page every 1 s + 1.3 ms (the per-request overhead,
  // REQUEST_OVERHEAD), done when the last response (0.5 s default latency) has arrived and been read.
  assert.equal(p.totalSeconds, 1_001_300.50005);
  assert.equal((p.totalSeconds / 3600).toFixed(1), '278.1');
  assert.equal((p.totalSeconds / 86_400).toFixed(1), '11.6');
  assert.equal(only(p).pagesPerHour, 3600);
  assert.equal(p.bindingConstraint, 'host-interval');
  assert.equal(p.bindingHost, 'a.example');
});

test('seed: a 1 s interval caps one host at 3,600 pages per hour', () => {
  assert.equal(only(plan({ seeds: A, pages: { total: 10 }, delaySeconds: 1 })).pagesPerHour, 3600);
});

test('seed: Crawl-delay 10 s gives 360 pages/hour and 8,640 pages/day', () => {
  const h = only(plan({ seeds: A, pages: { total: 1000 }, crawlDelayByHost: { 'a.example': 10 } }));
  assert.equal(h.intervalSeconds, 10);
  assert.equal(h.intervalSource, 'crawl-delay');
  assert.equal(h.pagesPerHour, 360);
  assert.equal(h.pagesPerDay, 8640);
});

test('seed: 4 workers at 2 req/s give a per-worker delay of 2 s', () => {
  const p = plan({ seeds: A, pages: { total: 100 }, workers: 4, rate: 2 });
  assert.equal(p.perWorkerDelaySeconds, 2);
});

test('seed: without a target rate there is no per-worker delay', () => {
  assert.equal(plan({ seeds: A, pages: { total: 100 }, workers: 4 }).perWorkerDelaySeconds, null);
});

test('seed: a host interval is at least the politeness interval whatever the worker count and rate', () => {
  for (const [workers, rate] of [
    [1, undefined],
    [4, 2],
    [100, 1000],
    [1_000_000, 1e6],
  ] as const) {
    const h = only(plan({ seeds: A, pages: { total: 100 }, delaySeconds: 5, workers, ...(rate ? { rate } : {}) }));
    assert.equal(h.intervalSeconds, 5, `workers ${workers}`);
    assert.equal(h.periodSeconds, 5, `workers ${workers}`);
  }
});

const adaptive: Array<[number, number, string]> = [
  [0.3, 3, 'adaptive'], // the seed's worked example: max(1, 10 × 0.3) = 3
  [0.05, 1, 'configured'], // floored at 1 s, which ties with the 1 s configured delay
  [2, 20, 'adaptive'],
];
for (const [latency, interval, source] of adaptive) {
  test(`seed: adaptive delay with latency ${latency} s is ${interval} s`, () => {
    const h = only(plan({ seeds: A, pages: { total: 10 }, adaptive: true, latencySeconds: latency }));
    assert.equal(h.intervalSeconds, interval);
    assert.equal(h.intervalSource, source);
  });
}

test('seed: the adaptive floor of 1 s applies even with a zero configured delay', () => {
  const h = only(plan({ seeds: A, pages: { total: 10 }, adaptive: true, latencySeconds: 0.05, delaySeconds: 0 }));
  assert.equal(h.intervalSeconds, 1);
  assert.equal(h.intervalSource, 'adaptive');
});

test('seed: 2 s latency with a 1 s interval read start-to-start gives a 2 s period, half the configured rate', () => {
  const h = only(plan({ seeds: A, pages: { total: 10 }, delaySeconds: 1, latencySeconds: 2, delayFrom: 'start' }));
  assert.equal(h.intervalSeconds, 1);
  assert.equal(h.intervalSource, 'latency');
  assert.equal(h.politenessSource, 'configured');
  assert.equal(h.periodSeconds, 2);
  assert.equal(h.pagesPerSecond, 0.5);
  assert.equal(h.pagesPerSecond / (1 / h.intervalSeconds), 0.5);
});

test('seed: 2 s latency with a 1 s interval read end-to-start gives a 3 s period', () => {
  const h = only(plan({ seeds: A, pages: { total: 10 }, delaySeconds: 1, latencySeconds: 2, delayFrom: 'end' }));
  assert.equal(h.periodSeconds, 3);
  assert.equal(h.intervalSource, 'configured');
  assert.equal(h.pagesPerHour, 1200);
});

// ---- The timing convention. ----

// The per-request overhead (REQUEST_OVERHEAD): 1.3 ms after an interval, 0.05 ms after an answer.
const hostSeconds: Array<{
  name: string;
  input: Partial<PlanInput>;
  pages: number;
  seconds: number;
  period: number;
  step: number;
}> = [
  {
    name: 'one page: robots.txt, an interval, one latency',
    input: { latencySeconds: 0.5 },
    pages: 1,
    seconds: 1.0013 + 0.50005,
    period: 1,
    step: 1.0013,
  },
  {
    name: 'n pages: robots.txt, then n steps and a latency',
    input: { latencySeconds: 0.5 },
    pages: 10,
    seconds: 10 * 1.0013 + 0.50005,
    period: 1,
    step: 1.0013,
  },
  {
    name: 'latency above the interval: (n + 1) × latency',
    input: { latencySeconds: 2 },
    pages: 10,
    seconds: 11 * 2.00005,
    period: 2,
    step: 2.00005,
  },
  {
    name: 'end reading: n × (latency + interval) + latency',
    input: { latencySeconds: 2, delayFrom: 'end' },
    pages: 10,
    seconds: 10 * 3.00135 + 2.00005,
    period: 3,
    step: 3.00135,
  },
  {
    name: 'two lanes: ⌈n / 2⌉ pages each',
    input: { latencySeconds: 0.5, perHostConcurrency: 2 },
    pages: 11,
    seconds: 6 * 1.0013 + 0.50005,
    period: 1,
    step: 1.0013,
  },
  {
    name: 'zero delay: paced by latency only',
    input: { latencySeconds: 0.25, delaySeconds: 0 },
    pages: 4,
    seconds: 5 * 0.25005,
    period: 0.25,
    step: 0.25005,
  },
];
for (const c of hostSeconds) {
  test(`convention: ${c.name}`, () => {
    const h = only(plan({ seeds: A, pages: { total: c.pages }, delaySeconds: 1, ...c.input }));
    assert.equal(h.seconds, tidy(c.seconds));
    assert.equal(h.periodSeconds, c.period);
    assert.equal(h.stepSeconds, c.step);
    assert.equal(h.firstPageSeconds, c.step);
    assert.equal(h.requests, c.pages + 1);
  });
}

test("convention: the global rate bound is (N − 1) / rate + the shortest latency, N counting each host's robots.txt", () => {
  const p = plan({ seeds: hosts(10), pages: { total: 1000 }, rate: 2, latencyByHost: { 'h3.example': 0.1 } });
  assert.equal(p.bounds.globalRateSeconds, 1009 / 2 + 0.1);
});

test('convention: the workers bound is Σ requests × latency / workers, robots.txt included', () => {
  const p = plan({
    seeds: hosts(2),
    pages: { perHost: 100 },
    workers: 2,
    latencySeconds: 0.5,
    latencyByHost: { 'h1.example': 1.5 },
  });
  assert.equal(p.bounds.workersSeconds, (101 * 0.5 + 101 * 1.5) / 2);
});

test('convention: with one host the rate and workers bounds fall short of the host bound by its overhead only', () => {
  // 1 req/s globally for one host at a 1 s interval: (N − 1) / 1 + latency, N = 101 with robots.txt; the
  // host itself also pays 1.3 ms per request of the crawl's own, so it binds.
  const p = plan({ seeds: A, pages: { total: 100 }, rate: 1, latencySeconds: 0.5 });
  assert.equal(p.bounds.globalRateSeconds, 100.5);
  assert.equal(p.bounds.hostSeconds, tidy(100 * 1.0013 + 0.50005));
  assert.equal(p.bindingConstraint, 'host-interval');
  // One worker and latency above the interval: each request holds the worker for 2 s, as the host's own period.
  const q = plan({ seeds: A, pages: { total: 100 }, workers: 1, latencySeconds: 2 });
  assert.equal(q.bounds.workersSeconds, 202);
  assert.equal(q.bounds.hostSeconds, tidy(101 * 2.00005));
  assert.equal(q.bindingConstraint, 'latency');
});

// ---- The binding constraint. ----

const bindings: Array<{
  name: string;
  input: PlanInput;
  constraint: Plan['bindingConstraint'];
  host: string | null;
  seconds: number;
  words: RegExp;
}> = [
  {
    name: 'host-interval',
    input: { seeds: A, pages: { total: 100 }, delaySeconds: 2 },
    constraint: 'host-interval',
    host: 'a.example',
    seconds: 200.63005, // robots.txt, 100 steps of 2.0013 s, and a 0.50005 s answer
    words:
      /^a\.example limits the crawl: the configured delay of 2 s, measured from start to start, gives one request every 2 s \(1,800 pages\/h\), so its robots\.txt and 100 pages take 3 m 21 s\.$/,
  },
  {
    name: 'crawl-delay',
    input: { seeds: hosts(2), pages: { perHost: 100 }, crawlDelayByHost: { 'h1.example': 10 } },
    constraint: 'crawl-delay',
    host: 'h1.example',
    seconds: 1000.63005, // 100 steps of 10.0013 s and a 0.50005 s answer
    words:
      /^h1\.example limits the crawl: its Crawl-delay of 10 s, measured from start to start, gives one request every 10 s \(360 pages\/h\)/,
  },
  {
    name: 'adaptive',
    input: { seeds: A, pages: { total: 100 }, adaptive: true, latencySeconds: 0.3 },
    constraint: 'adaptive',
    host: 'a.example',
    seconds: 300.43005, // 100 steps of 3.0013 s and a 0.30005 s answer
    words: /the adaptive delay max\(1 s, 10 × 0\.3 s latency\) = 3 s/,
  },
  {
    name: 'latency',
    input: { seeds: A, pages: { total: 100 }, latencySeconds: 2 },
    constraint: 'latency',
    host: 'a.example',
    seconds: 202.00505, // 101 answers of 2 s, each 0.05 ms before the next start
    words:
      /its 2 s response time, longer than its 1 s interval, with 1 request in flight per host \(50% of the configured rate\)/,
  },
  {
    name: 'global-rate',
    input: { seeds: hosts(10), pages: { perHost: 100 }, rate: 1 },
    constraint: 'global-rate',
    host: null,
    seconds: 1009 + 0.5,
    words:
      /^The global rate of 1 req\/s limits the crawl: 1,000 pages and their hosts' robots\.txt \(1,010 requests\) take 16 m 50 s at that rate/,
  },
  {
    name: 'workers',
    input: { seeds: hosts(10), pages: { perHost: 100 }, workers: 1, latencySeconds: 0.5 },
    constraint: 'workers',
    host: null,
    seconds: 505,
    words:
      /^The 1 worker limits the crawl: each request holds a worker for its response time \(0\.5 s on average\), so 1,000 pages and their hosts' robots\.txt \(1,010 requests\) take 8 m 25 s\.$/,
  },
  {
    name: 'none (every host skipped)',
    input: { seeds: A, pages: { total: 100 }, crawlDelayByHost: { 'a.example': 60 }, crawlDelayPolicy: 'skip' },
    constraint: 'none',
    host: null,
    seconds: 0,
    words: /^Nothing to crawl/,
  },
];
for (const b of bindings) {
  test(`binding constraint: ${b.name}`, () => {
    const p = plan(b.input);
    assert.equal(p.bindingConstraint, b.constraint);
    assert.equal(p.bindingHost, b.host);
    assert.equal(p.totalSeconds, b.seconds);
    assert.match(p.bindingDescription, b.words);
  });
}

test('binding constraint: the end reading is named in words', () => {
  const p = plan({ seeds: A, pages: { total: 10 }, delayFrom: 'end', latencySeconds: 0.5 });
  assert.equal(p.bindingConstraint, 'host-interval');
  assert.match(p.bindingDescription, /measured from the end of each 0\.5 s response, gives one request every 1\.5 s/);
});

// ---- Crawl-delay policies. ----

const policies: Array<{
  policy: 'cap' | 'skip' | 'obey';
  interval: number;
  skipped: boolean;
  total: number;
  counted: number;
}> = [
  // robots.txt, then 10 steps of the interval + 1.3 ms, and a 0.50005 s answer.
  { policy: 'cap', interval: 30, skipped: false, total: 300.51305, counted: 20 },
  { policy: 'skip', interval: 60, skipped: true, total: 10.51305, counted: 10 },
  { policy: 'obey', interval: 60, skipped: false, total: 600.51305, counted: 20 },
];
for (const c of policies) {
  test(`Crawl-delay 60 s above a 30 s cap under ${c.policy}`, () => {
    const p = plan({
      seeds: [{ host: 'a.example' }, { host: 'slow.example' }],
      pages: { perHost: 10 },
      crawlDelayByHost: { 'slow.example': 60 },
      crawlDelayPolicy: c.policy,
      maxCrawlDelaySeconds: 30,
    });
    const slow = p.hosts[1]!;
    assert.equal(slow.crawlDelaySeconds, 60);
    assert.equal(slow.intervalSeconds, c.interval);
    assert.equal(slow.skipped, c.skipped);
    assert.equal(p.totalSeconds, c.total);
    assert.equal(p.totalPages, c.counted);
    assert.equal(p.skippedPages, 20 - c.counted);
  });
}

test('the default Crawl-delay cap is 30 s under the cap policy', () => {
  const p = plan({ seeds: A, pages: { total: 10 }, crawlDelayByHost: { 'a.example': 45 } });
  assert.equal(p.input.maxCrawlDelaySeconds, 30);
  assert.equal(p.input.crawlDelayPolicy, 'cap');
  assert.equal(only(p).intervalSeconds, 30);
});

test('a Crawl-delay below the configured delay leaves the configured delay in charge', () => {
  const h = only(plan({ seeds: A, pages: { total: 10 }, delaySeconds: 5, crawlDelayByHost: { 'a.example': 2 } }));
  assert.equal(h.intervalSeconds, 5);
  assert.equal(h.intervalSource, 'configured');
});

test('an absurd Crawl-delay is read as the ceiling, not refused', () => {
  const h = only(
    plan({ seeds: A, pages: { total: 2 }, crawlDelayByHost: { 'a.example': 1e300 }, crawlDelayPolicy: 'obey' }),
  );
  assert.equal(h.crawlDelaySeconds, 1e7);
  assert.equal(h.intervalSeconds, 1e7);
});
