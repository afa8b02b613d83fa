import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  estimateDocument,
  ESTIMATE_SCHEMA_VERSION,
  fnv1a32,
  machineForHost,
  parseDeadlineText,
  parseDurationText,
  plan,
  PlanInputError,
  spreadPages,
  tidy,
  validatePlanInput,
  type HostPlan,
  type Plan,
  type PlanInput,
} from '../../src/core/plan';

const A = [{ host: 'a.example' }];
const hosts = (n: number) => Array.from({ length: n }, (_, i) => ({ host: `h${i}.example` }));
const only = (p: Plan): HostPlan => {
  assert.equal(p.hosts.length, 1);
  return p.hosts[0]!;
};

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

// ---- Hosts, pages and per-host settings. ----

const spreads: Array<[number, number, number[]]> = [
  [10, 3, [4, 3, 3]],
  [11, 3, [4, 4, 3]],
  [12, 3, [4, 4, 4]],
  [2, 3, [1, 1, 0]],
  [1_000_000, 1, [1_000_000]],
];
for (const [total, n, expected] of spreads) {
  test(`spreadPages: ${total} pages over ${n} hosts → ${expected.join(', ')}`, () => {
    assert.deepEqual(spreadPages({ total }, n), expected);
  });
}

test('spreadPages per host gives every host the same number', () => {
  assert.deepEqual(spreadPages({ perHost: 7 }, 3), [7, 7, 7]);
});

test('hosts are grouped from seeds in first-seen order, counting seeds, case-insensitively', () => {
  const p = plan({
    seeds: [{ host: 'b.example' }, { host: 'a.example' }, { host: 'B.example' }, { host: 'a.example:8080' }],
    pages: { total: 10 },
  });
  assert.deepEqual(
    p.hosts.map((h) => [h.host, h.seeds, h.pages]),
    [
      ['b.example', 2, 4],
      ['a.example', 1, 3],
      ['a.example:8080', 1, 3],
    ],
  );
});

test('per-host latency overrides the default; keys are case-insensitive', () => {
  const p = plan({
    seeds: hosts(2),
    pages: { perHost: 10 },
    latencySeconds: 0.5,
    latencyByHost: { 'H1.EXAMPLE': 0.2 },
  });
  assert.deepEqual(
    p.hosts.map((h) => h.latencySeconds),
    [0.5, 0.2],
  );
});

test('per-host concurrency multiplies the ceiling', () => {
  const h = only(plan({ seeds: A, pages: { total: 10 }, perHostConcurrency: 3 }));
  assert.equal(h.pagesPerHour, 10_800);
  assert.equal(h.periodSeconds, 1);
});

test('defaults are filled in and reported', () => {
  const p = plan({ seeds: A, pages: { total: 1 } });
  assert.deepEqual(p.input, {
    pages: { total: 1 },
    rate: null,
    workers: 8,
    delaySeconds: 1,
    delayFrom: 'start',
    latencySeconds: 0.5,
    latencyByHost: {},
    crawlDelayByHost: {},
    crawlDelayPolicy: 'cap',
    maxCrawlDelaySeconds: 30,
    adaptive: false,
    perHostConcurrency: 1,
    machines: null,
    deadlineSeconds: null,
    calibration: null,
    politenessBy: 'host',
  });
  assert.equal(p.sharding, null);
  assert.equal(p.deadline, null);
  assert.equal(p.bindingMachine, null);
});

// ---- Deadline. ----

test('a deadline that is met has a positive margin', () => {
  const p = plan({ seeds: A, pages: { total: 100 }, deadlineSeconds: 3600 });
  // robots.txt, then 100 pages 1.0013 s apart, the last answered 0.50005 s later: 100.63005 s. By the hour:
  // n × 1.0013 s + 0.50005 s ≤ 3,600 s → n = 3,594.
  assert.deepEqual(p.deadline, {
    seconds: 3600,
    met: true,
    marginSeconds: tidy(3600 - 100.63005),
    earliestSeconds: 100.63005,
    blockingHosts: [],
    pagesByHost: { 'a.example': 3594 },
    options: [],
  });
});

test('a deadline that is missed has a negative margin', () => {
  const p = plan({ seeds: A, pages: { total: 1_000_000 }, deadlineSeconds: 2 * 86_400 });
  // The one host is the politeness bound (1,000,000 × 1.0013 s + 0.50005 s); n × 1.0013 s + 0.50005 s ≤ 2 d →
  // 172,575 pages fit (172,799.84755 s); dropping it would leave nothing.
  assert.deepEqual(p.deadline, {
    seconds: 172_800,
    met: false,
    marginSeconds: tidy(172_800 - 1_001_300.50005),
    earliestSeconds: 1_001_300.50005,
    blockingHosts: ['a.example'],
    pagesByHost: { 'a.example': 172_575 },
    options: [
      {
        kind: 'cap',
        hosts: ['a.example'],
        pages: 172_575,
        totalSeconds: 172_799.84755,
        text: 'Cap a.example at 172,575 pages (of 1,000,000): 172,575 pages in 2 d.',
        change: { pagesByHost: { 'a.example': 172_575 } },
        cli: { add: ['--pages-per-host', '172575'], remove: ['--pages'] },
      },
    ],
  });
});

// ---- Sharding. ----

const fnv: Array<[string, number]> = [
  ['', 0x811c9dc5],
  ['a', 0xe40c292c],
  ['foobar', 0xbf9cf968],
  ['a.example', 0xf1625ee8],
];
for (const [text, hash] of fnv) {
  test(`fnv1a32(${JSON.stringify(text)}) = 0x${hash.toString(16)}`, () => {
    assert.equal(fnv1a32(text), hash);
  });
}

test('machineForHost is fnv1a32 mod machines', () => {
  assert.equal(machineForHost('a.example', 3), 0xf1625ee8 % 3);
  assert.equal(machineForHost('a.example', 1), 0);
});

test('sharding: each host on exactly one machine; total is the slowest machine; imbalance is max / mean', () => {
  const seeds = ['a.example', 'b.example', 'c.example', 'd.example'].map((host) => ({ host }));
  const p = plan({ seeds, pages: { perHost: 100 }, machines: 3 });
  const s = p.sharding!;
  assert.equal(s.machines, 3);
  assert.equal(s.hash, 'fnv1a-32');
  // fnv1a32 mod 3: a → 2, b → 2, c → 1, d → 0.
  assert.deepEqual(
    s.perMachine.map((m) => m.hosts),
    [['d.example'], ['c.example'], ['a.example', 'b.example']],
  );
  assert.deepEqual(
    p.hosts.map((h) => h.machine),
    [2, 2, 1, 0],
  );
  assert.deepEqual(
    s.perMachine.map((m) => m.pages),
    [100, 100, 200],
  );
  // Each machine has 8 workers: every machine is limited by its slowest host, 100.63005 s.
  assert.deepEqual(
    s.perMachine.map((m) => m.seconds),
    [100.63005, 100.63005, 100.63005],
  );
  assert.equal(p.totalSeconds, 100.63005);
  assert.equal(s.imbalance, 1);
  assert.equal(s.pagesImbalance, 1.5);
});

test('sharding: rate and workers are per machine', () => {
  const seeds = ['a.example', 'b.example', 'c.example', 'd.example'].map((host) => ({ host }));
  const one = plan({ seeds, pages: { perHost: 100 }, rate: 1 });
  const three = plan({ seeds, pages: { perHost: 100 }, rate: 1, machines: 3 });
  assert.equal(one.totalSeconds, 403.5); // 400 pages and 4 robots.txt at 1 req/s on one machine
  assert.equal(three.totalSeconds, 201.5); // machine 2 holds a and b: 200 pages and 2 robots.txt at 1 req/s
  assert.equal(three.bindingConstraint, 'global-rate');
  assert.equal(three.bindingMachine, 2);
  assert.match(three.bindingDescription, /^On machine 2 \(the slowest of 3\), the global rate of 1 req\/s/);
  assert.equal(three.sharding!.imbalance, tidy(201.5 / ((100.63005 + 100.63005 + 201.5) / 3)));
});

test('sharding with one machine is the same plan plus a sharding section', () => {
  const input: PlanInput = { seeds: hosts(5), pages: { total: 1234 }, rate: 3, workers: 2 };
  const plain = plan(input);
  const sharded = plan({ ...input, machines: 1 });
  assert.equal(sharded.totalSeconds, plain.totalSeconds);
  assert.equal(sharded.bindingConstraint, plain.bindingConstraint);
  assert.equal(sharded.sharding!.perMachine.length, 1);
  assert.equal(sharded.sharding!.imbalance, 1);
});

// ---- Input validation. ----

const problems: Array<[string, Partial<PlanInput>, string]> = [
  ['pages.total NaN', { pages: { total: Number.NaN } }, 'pages.total: NaN is not a finite number'],
  ['pages.total 0', { pages: { total: 0 } }, 'pages.total: 0 must be at least 1'],
  ['pages.total fraction', { pages: { total: 1.5 } }, 'pages.total: 1.5 must be a whole number'],
  ['pages.total 1e308', { pages: { total: 1e308 } }, 'pages.total: 1e+308 is too large (at most 1,000,000,000,000)'],
  [
    'pages.perHost × hosts',
    { pages: { perHost: 1e12 }, seeds: hosts(2) },
    'pages.perHost: 1,000,000,000,000 × 2 hosts is more than 1,000,000,000,000 pages',
  ],
  ['rate 0', { rate: 0 }, 'rate: 0 must be greater than 0'],
  ['rate Infinity', { rate: Number.POSITIVE_INFINITY }, 'rate: Infinity is not a finite number'],
  ['workers 0', { workers: 0 }, 'workers: 0 must be at least 1'],
  ['delay negative', { delaySeconds: -1 }, 'delaySeconds: -1 must be at least 0'],
  ['delay above a day', { delaySeconds: 86_401 }, 'delaySeconds: 86401 is too large (at most 86,400)'],
  ['latency 0', { latencySeconds: 0 }, 'latencySeconds: 0 must be greater than 0'],
  [
    'latency override negative',
    { latencyByHost: { 'a.example': -1 } },
    'latencyByHost[a.example]: -1 must be greater than 0',
  ],
  [
    'crawl-delay NaN',
    { crawlDelayByHost: { 'a.example': Number.NaN } },
    'crawlDelayByHost[a.example]: NaN is not a finite number',
  ],
  ['concurrency 0', { perHostConcurrency: 0 }, 'perHostConcurrency: 0 must be at least 1'],
  ['machines fraction', { machines: 2.5 }, 'machines: 2.5 must be a whole number'],
  ['deadline 0', { deadlineSeconds: 0 }, 'deadlineSeconds: 0 must be greater than 0'],
  ['no seeds', { seeds: [] }, 'seeds: no seed host to plan'],
  ['bad delayFrom', { delayFrom: 'middle' as never }, 'delayFrom: "middle" must be start or end'],
  ['bad policy', { crawlDelayPolicy: 'ignore' as never }, 'crawlDelayPolicy: "ignore" must be cap, skip or obey'],
];
for (const [name, patch, message] of problems) {
  test(`validatePlanInput: ${name}`, () => {
    const input: PlanInput = { seeds: A, pages: { total: 10 }, ...patch };
    assert.deepEqual(
      validatePlanInput(input).map((p) => p.message),
      [message],
    );
    assert.throws(
      () => plan(input),
      (err: unknown) => err instanceof PlanInputError && err.message === message,
    );
  });
}

test('validatePlanInput accepts a full, valid input', () => {
  const input: PlanInput = {
    seeds: A,
    pages: { perHost: 10 },
    rate: 2,
    workers: 4,
    delaySeconds: 0,
    delayFrom: 'end',
    latencySeconds: 3600,
    latencyByHost: { 'a.example': 0.001 },
    crawlDelayByHost: { 'a.example': 0 },
    crawlDelayPolicy: 'obey',
    maxCrawlDelaySeconds: 86_400,
    adaptive: true,
    perHostConcurrency: 1000,
    machines: 100_000,
    deadlineSeconds: 1e10,
  };
  assert.deepEqual(validatePlanInput(input), []);
});

// ---- Durations as typed. ----

const durationTexts: Array<[string, number | undefined]> = [
  ['90', 90],
  ['1.5', 1.5],
  ['90s', 90],
  ['45m', 2700],
  ['36h', 129_600],
  ['2d', 172_800],
  ['1w', 604_800],
  ['1d12h', 129_600],
  ['1d 12h 30m', 131_400],
  ['1.5 h', 5400],
  ['2 days', 172_800],
  ['36H', 129_600],
  ['', undefined],
  ['h', undefined],
  ['36x', undefined],
  ['1d12', undefined],
  ['-1h', undefined],
  ['1e5', undefined],
  ['constructor', undefined],
  ['1 constructor', undefined],
];
for (const [text, seconds] of durationTexts) {
  test(`parseDurationText(${JSON.stringify(text)}) = ${seconds}`, () => {
    assert.equal(parseDurationText(text), seconds);
  });
}

const deadlineTexts: Array<[string, { seconds: number } | { problem: string }]> = [
  ['90', { seconds: 90 }],
  ['1.5', { seconds: 1.5 }],
  ['2d', { seconds: 172_800 }],
  [' 36h ', { seconds: 129_600 }],
  ['1d12h', { seconds: 129_600 }],
  ['0', { problem: '0 must be greater than 0' }],
  ['0h', { problem: '0h must be greater than 0' }],
  ['1e11', { problem: '1e11 is too large (at most 10,000,000,000)' }],
  ['400000w', { problem: '400000w is too large (at most 10,000,000,000 s)' }],
  ['soon', { problem: '"soon" is not a duration (seconds, or e.g. 90m, 36h, 2d, 1d12h)' }],
  ['-3h', { problem: '"-3h" is not a duration (seconds, or e.g. 90m, 36h, 2d, 1d12h)' }],
];
for (const [text, expected] of deadlineTexts) {
  test(`parseDeadlineText(${JSON.stringify(text)}): the CLI's --deadline and the sidebar's field read it alike`, () => {
    assert.deepEqual(parseDeadlineText(text), expected);
  });
}

// ---- The JSON document. ----

test('estimateDocument has a schema version, a human total, invalid seeds and every host field', () => {
  const p = plan({ seeds: A, pages: { total: 1_000_000 } });
  const doc = estimateDocument(p, [
    { line: 2, text: 'x', reason: 'not-a-url', message: 'not a URL', source: 'seeds.txt' },
  ]);
  assert.equal(doc.schemaVersion, ESTIMATE_SCHEMA_VERSION);
  assert.equal(doc.schemaVersion, 1);
  assert.equal(doc.totalSeconds, 1_001_300.50005);
  assert.equal(doc.totalHuman, '11 d 14 h 8 m');
  assert.deepEqual(doc.invalidSeeds, [
    { line: 2, text: 'x', reason: 'not-a-url', message: 'not a URL', source: 'seeds.txt' },
  ]);
  assert.deepEqual(Object.keys(doc.hosts[0]!), [
    'host',
    'seeds',
    'pages',
    'latencySeconds',
    'crawlDelaySeconds',
    'intervalSeconds',
    'intervalSource',
    'politenessSource',
    'periodSeconds',
    'pagesPerSecond',
    'pagesPerHour',
    'pagesPerDay',
    'seconds',
    'firstPageSeconds',
    'stepSeconds',
    'faultSeconds',
    'requests',
    'nonPageRequests',
    'latencyP50Seconds',
    'latencyP90Seconds',
    'calibrated',
    'skipped',
  ]);
  // Plain data: survives a JSON round trip unchanged.
  assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
});

// ---- Pages per host (`estimate --sitemaps`, `--pages-for`). ----

test('pages per host: each host its own number, the others `otherwise` (default 0), keys case-insensitive', () => {
  const p = plan({ seeds: hosts(3), pages: { byHost: { 'H0.example': 1000, 'h2.example': 10 } } });
  assert.deepEqual(
    p.hosts.map((h) => [h.host, h.pages]),
    [
      ['h0.example', 1000],
      ['h1.example', 0],
      ['h2.example', 10],
    ],
  );
  assert.equal(p.totalPages, 1010);
  assert.deepEqual(p.input.pages, { byHost: { 'h0.example': 1000, 'h2.example': 10 }, otherwise: 0 });
  const w = p.warnings.find((x) => x.code === 'hosts-without-pages');
  assert.equal(w?.message, '1 of 3 hosts gets no pages: no page count above 0 was given for it.');
  // The slowest host sets the makespan, as ever: robots.txt and 1000 pages at 1 s (+ 1.3 ms each).
  assert.equal(p.totalSeconds, 1001.80005);
  const q = plan({ seeds: hosts(2), pages: { byHost: { 'h0.example': 5 }, otherwise: 7 } });
  assert.deepEqual(
    q.hosts.map((h) => h.pages),
    [5, 7],
  );
  assert.deepEqual(spreadPages({ byHost: { b: 2 }, otherwise: 1 }, 2, ['a', 'b']), [1, 2]);
});

test('pages per host: a count for a host no seed has is warned about; bad counts are refused', () => {
  const p = plan({ seeds: A, pages: { byHost: { 'a.example': 3, 'typo.example': 4 } } });
  assert.ok(
    p.warnings.some(
      (w) =>
        w.code === 'override-for-unknown-host' &&
        w.host === 'typo.example' &&
        w.message.startsWith('A page count was given for typo.example'),
    ),
  );
  assert.equal(p.totalPages, 3);
  const fields = (pages: PlanInput['pages']) => validatePlanInput({ seeds: A, pages }).map((x) => x.field);
  assert.deepEqual(fields({ byHost: { 'a.example': -1 } }), ['pages.byHost[a.example]']);
  assert.deepEqual(fields({ byHost: { 'a.example': 1.5 } }), ['pages.byHost[a.example]']);
  assert.deepEqual(fields({ byHost: {}, otherwise: -2 }), ['pages.otherwise']);
  assert.deepEqual(fields({ byHost: { 'a.example': 1e12, 'b.example': 1 } }), ['pages.byHost']);
  assert.deepEqual(fields({ byHost: { 'a.example': 0 } }), [], 'zero pages is a count (a sitemap listing nothing)');
});
