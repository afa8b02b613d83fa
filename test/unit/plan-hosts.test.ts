/**
 * The plan per host (src/core/plan/): pages spread over hosts or given per host (`estimate --sitemaps`,
 * `--pages-for`), hosts grouped from seeds, per-host latency and concurrency, the defaults it reports, the
 * deadline's margin, and sharding hosts over machines (fnv1a32, machineForHost, imbalance).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fnv1a32,
  machineForHost,
  plan,
  spreadPages,
  tidy,
  validatePlanInput,
  type PlanInput,
} from '../../src/core/plan';
import { A, hosts, only } from '../helpers/plan';

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
    pageSizeBytes: null,
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
