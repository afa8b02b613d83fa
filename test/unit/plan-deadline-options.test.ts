/**
 * The deadline solver's options (src/core/plan/deadline.ts), each kind with its numbers and the change it
 * stands for applied to the plan: cap and drop for a host too slow alone; workers, rate and machines when no
 * host is; nothing when the deadline is met; options checked with the plan function the solver is handed; and
 * the "What meets the deadline" text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPlanChange, plan, type Plan, type PlanInput } from '../../src/core/plan';
import { solveDeadline } from '../../src/core/plan/deadline';
import { formatPlanText } from '../../src/core/format/planText';
import { applied, hosts, many, optionOf } from '../helpers/planDeadline';

// ---- Cap and drop: a host too slow alone. ----

// A host's robots.txt comes first, then its pages a step apart, the step being the interval plus the
// per-request overhead (REQUEST_OVERHEAD: 1.3 ms after an interval, 0.05 ms after an answer): n pages at an
// interval I with a 0.5 s answer take n × (I + 0.0013 s) + 0.50005 s.
// a.example: 10,000 pages at 1 s = 10,013.50005 s. b.example: 10,000 pages at its 10 s Crawl-delay = 100,013.50005 s.
const SLOW_B: PlanInput = {
  seeds: hosts('a.example', 'b.example'),
  pages: { perHost: 10_000 },
  crawlDelayByHost: { 'b.example': 10 },
  deadlineSeconds: 86_400,
};

test('a host too slow alone blocks the deadline; its pages by the deadline come from its own interval', () => {
  const d = plan(SLOW_B).deadline!;
  assert.equal(d.met, false);
  assert.equal(d.earliestSeconds, 100_013.50005);
  assert.deepEqual(d.blockingHosts, ['b.example']);
  // n × 10.0013 s + 0.50005 s ≤ 86,400 s → n = 8,638; at 1 s: n × 1.0013 s + 0.50005 s ≤ 86,400 s → n = 86,287.
  assert.deepEqual(d.pagesByHost, { 'a.example': 86_287, 'b.example': 8_638 });
  assert.deepEqual(
    d.options.map((o) => o.kind),
    ['cap', 'drop'],
  );
});

test('cap: the blocking host at what it gives by the deadline', () => {
  const p = plan(SLOW_B);
  const cap = optionOf(p, 'cap');
  assert.deepEqual(cap, {
    kind: 'cap',
    hosts: ['b.example'],
    pages: 18_638,
    // 8,638 × 10.0013 s + 0.50005 s.
    totalSeconds: 86_391.72945,
    text: 'Cap b.example at 8,638 pages (of 10,000): 18,638 pages in 23 h 59 m 52 s.',
    change: { pagesByHost: { 'b.example': 8_638 } },
    // --pages-per-host 10000 stays as it is.
    cli: { add: ['--pages-for', 'b.example=8638'], remove: [] },
  });
  const q = applied(SLOW_B, cap);
  assert.equal(q.totalSeconds, 86_391.72945);
  assert.equal(q.deadline!.met, true);
  assert.deepEqual(q.deadline!.options, []);
  // One page more and it is missed.
  assert.equal(plan(applyPlanChange(SLOW_B, { pagesByHost: { 'b.example': 8_639 } })).deadline!.met, false);
});

test('drop: the blocking host left out, the other keeping its pages', () => {
  const drop = optionOf(plan(SLOW_B), 'drop');
  assert.deepEqual(drop, {
    kind: 'drop',
    hosts: ['b.example'],
    pages: 10_000,
    totalSeconds: 10_013.50005,
    text: 'Drop b.example (10,000 pages): 10,000 pages in 2 h 46 m 54 s.',
    change: { dropHosts: ['b.example'] },
    cli: { add: ['--drop-host', 'b.example'], remove: [] },
  });
  const q = applied(SLOW_B, drop);
  assert.deepEqual(
    q.hosts.map((h) => [h.host, h.pages]),
    [['a.example', 10_000]],
  );
  assert.deepEqual(q.warnings, []);
});

test('cap with a total: every host keeps its share, given as --pages-per-host and --pages-for', () => {
  // 30,001 pages over 3 hosts: 10,001, 10,000, 10,000.
  const input: PlanInput = {
    seeds: hosts('a.example', 'b.example', 'c.example'),
    pages: { total: 30_001 },
    crawlDelayByHost: { 'c.example': 10 },
    deadlineSeconds: 86_400,
  };
  const cap = optionOf(plan(input), 'cap');
  assert.deepEqual(cap.change, { pagesByHost: { 'c.example': 8_638 } });
  assert.deepEqual(cap.cli, {
    add: ['--pages-per-host', '10001', '--pages-for', 'b.example=10000', '--pages-for', 'c.example=8638'],
    remove: ['--pages'],
  });
  assert.deepEqual(
    applied(input, cap).hosts.map((h) => h.pages),
    [10_001, 10_000, 8_638],
  );
  // Dropping keeps the shares too: the dropped host's share is not spread over the others.
  const drop = optionOf(plan(input), 'drop');
  assert.deepEqual(
    applied(input, drop).hosts.map((h) => [h.host, h.pages]),
    [
      ['a.example', 10_001],
      ['b.example', 10_000],
    ],
  );
});

test('cap every host at the same count: one --pages-per-host', () => {
  const input: PlanInput = { seeds: many(4), pages: { perHost: 1_000 }, deadlineSeconds: 100 };
  const d = plan(input).deadline!;
  assert.equal(d.blockingHosts.length, 4);
  const cap = optionOf(plan(input), 'cap');
  // n × 1.0013 s + 0.50005 s ≤ 100 s → n = 99 (99.62875 s).
  assert.deepEqual(cap.cli, { add: ['--pages-per-host', '99'], remove: ['--pages-per-host'] });
  assert.match(
    cap.text,
    /^Cap 4 hosts at the pages each gives by the deadline \(h0\.example 99 of 1,000; h1\.example 99 of 1,000; h2\.example 99 of 1,000; and 1 more\): 396 pages in 1 m 40 s\.$/,
  );
  // Dropping every host leaves nothing to crawl: not an option.
  assert.equal(
    d.options.some((o) => o.kind === 'drop'),
    false,
  );
});

test('cap, with the workers it still needs', () => {
  // 20 hosts × 1,000 pages at a 2 s latency: robots.txt and 1,000 pages 2.00005 s apart, 2,002.05005 s each,
  // but 8 workers need 20,020 requests × 2 s / 8 = 5,005 s; b.example has a 100 s Crawl-delay, planned at the 30 s cap.
  const input: PlanInput = {
    seeds: [...many(20), { host: 'b.example' }],
    pages: { perHost: 1_000 },
    latencySeconds: 2,
    crawlDelayByHost: { 'b.example': 100 },
    deadlineSeconds: 3_000,
  };
  const cap = optionOf(plan(input), 'cap');
  // n × 30.0013 s + 2.00005 s ≤ 3,000 s → 99 pages (2,972.12875 s); then (20 × 1,001 + 100) requests × 2 s / W
  // ≤ 3,000 s → W = 14 (2,874.3 s).
  assert.deepEqual(cap.change, { pagesByHost: { 'b.example': 99 }, workers: 14 });
  assert.equal(cap.text, 'Cap b.example at 99 pages (of 1,000), with 14 workers (now 8): 20,099 pages in 49 m 32 s.');
  assert.deepEqual(cap.cli.add, ['--pages-for', 'b.example=99', '--workers', '14']);
  assert.ok(applied(input, cap).totalSeconds <= 3_000);
  assert.ok(plan(applyPlanChange(input, { ...cap.change, workers: 13 })).totalSeconds > 3_000);
});

test('nothing meets a deadline shorter than one response', () => {
  const input: PlanInput = { seeds: hosts('a.example'), pages: { total: 10 }, latencySeconds: 10, deadlineSeconds: 5 };
  const d = plan(input).deadline!;
  assert.deepEqual(d.pagesByHost, { 'a.example': 0 });
  assert.deepEqual(d.blockingHosts, ['a.example']);
  assert.deepEqual(d.options, []);
  assert.match(formatPlanText(plan(input), 0, false), /^ {2}Nothing within the plan's limits meets it\.$/m);
});

// ---- Workers, rate, machines: no host too slow alone. ----

// 50 hosts × 1,000 pages at a 2 s latency: robots.txt and 1,000 pages 2.00005 s apart, 2,002.05005 s each;
// 8 workers need 50 × 1,001 requests × 2 s / 8 = 12,512.5 s.
const WORKERS: PlanInput = { seeds: many(50), pages: { perHost: 1_000 }, latencySeconds: 2, deadlineSeconds: 3_000 };

test('workers: the fewest that meet it', () => {
  const p = plan(WORKERS);
  assert.deepEqual(p.deadline!.blockingHosts, []);
  assert.equal(p.deadline!.earliestSeconds, 2_002.05005);
  const o = optionOf(p, 'workers');
  // 100,100 s of requests / W ≤ 3,000 s → W = 34 (2,944.11764706 s).
  assert.deepEqual(o, {
    kind: 'workers',
    hosts: [],
    pages: 50_000,
    totalSeconds: 2_944.11764706,
    text: 'Raise the workers from 8 to 34: 50,000 pages in 49 m 4 s.',
    change: { workers: 34 },
    cli: { add: ['--workers', '34'], remove: [] },
  });
  assert.ok(plan(applyPlanChange(WORKERS, { workers: 33 })).totalSeconds > 3_000);
});

test('machines: a count that meets it, one fewer does not', () => {
  const o = optionOf(plan(WORKERS), 'machines');
  const m = o.change.machines!;
  assert.deepEqual(Object.keys(o.change), ['machines']);
  assert.ok(applied(WORKERS, o).totalSeconds <= 3_000);
  assert.ok(plan(applyPlanChange(WORKERS, { machines: m - 1 })).totalSeconds > 3_000);
  assert.deepEqual(o.cli.add, ['--machines', String(m)]);
  assert.match(o.text, new RegExp(`^Shard the hosts over ${m} machines, each with 8 workers: 50,000 pages in `));
});

test('rate: the least, to three significant digits', () => {
  // 3,000 pages and 3 robots.txt at 1 req/s take 3,002.5 s; each host alone 1,000 × 1.0013 s + 0.50005 s =
  // 1,001.80005 s; (3,003 − 1) / R + 0.5 s ≤ 1,100 s → R ≥ 2.7303 → 2.74 (1,096.1 s).
  const input: PlanInput = {
    seeds: hosts('a.example', 'b.example', 'c.example'),
    pages: { total: 3_000 },
    rate: 1,
    deadlineSeconds: 1_100,
  };
  const p = plan(input);
  assert.deepEqual(
    p.deadline!.options.map((o) => o.kind),
    ['rate', 'machines'],
  );
  const o = optionOf(p, 'rate');
  assert.deepEqual(o.change, { rate: 2.74 });
  assert.equal(o.text, 'Raise the global rate from 1 req/s to 2.74 req/s: 3,000 pages in 18 m 16 s.');
  assert.deepEqual(o.cli.add, ['--rate', '2.74']);
  assert.ok(applied(input, o).totalSeconds <= 1_100);
  assert.ok(plan(applyPlanChange(input, { rate: 2.73 })).totalSeconds > 1_100);
  // Machines: the rate is per machine, so spreading the hosts helps too.
  assert.ok(applied(input, optionOf(p, 'machines')).totalSeconds <= 1_100);
});

test('workers and rate both short: one option raises both', () => {
  const input: PlanInput = {
    seeds: many(50),
    pages: { perHost: 1_000 },
    latencySeconds: 2,
    rate: 5,
    deadlineSeconds: 3_000,
  };
  const o = optionOf(plan(input), 'workers');
  // (50,050 − 1) / R + 2 s ≤ 3,000 s → R ≥ 16.694 → 16.7 (2,998.9 s); W = 34 as above.
  assert.deepEqual(o.change, { rate: 16.7, workers: 34 });
  assert.equal(
    o.text,
    'Raise the workers from 8 to 34 and the global rate from 5 req/s to 16.7 req/s: 50,000 pages in 49 m 59 s.',
  );
  assert.deepEqual(o.cli.add, ['--workers', '34', '--rate', '16.7']);
  assert.equal(
    plan(input).deadline!.options.some((x) => x.kind === 'rate'),
    false,
  );
});

test('sharded already: workers and rate are per machine, machines counted from the present number', () => {
  const input: PlanInput = { ...WORKERS, machines: 2 };
  const p = plan(input);
  for (const o of p.deadline!.options) assert.ok(applied(input, o).totalSeconds <= 3_000, o.text);
  assert.match(optionOf(p, 'workers').text, /^Raise the workers from 8 to \d+ per machine: /);
  assert.match(optionOf(p, 'machines').text, /^Shard over \d+ machines instead of 2, each with 8 workers: /);
});

test('text: when every host fits alone, the section says what is short', () => {
  const text = formatPlanText(plan(WORKERS), 0, false);
  assert.match(
    text,
    /^ {2}Every host fits in it alone: what is short is the worker slots or the global rate\.\n {2}1\. Raise the workers from 8 to 34: 50,000 pages in 49 m 4 s\.\n {5}add: --workers 34\n {2}2\. Shard the hosts over \d+ machines/m,
  );
  assert.doesNotMatch(text, /No number of workers/);
});

test('a deadline that is met offers nothing to change', () => {
  const d = plan({ ...WORKERS, deadlineSeconds: 20_000 }).deadline!;
  assert.equal(d.met, true);
  assert.deepEqual(d.options, []);
  // (n + 1) × 2.00005 s ≤ 20,000 s → n = 9,998.
  assert.equal(d.pagesByHost['h0.example'], 9_998);
});

// ---- The solver re-plans with the plan function it is given. ----

test('options are checked with the plan function the solver is handed, not a copy of its formulas', () => {
  // A plan whose maths differ (every request costs 20% more time than today's plan says): the solver
  // offers only what that plan says meets the deadline.
  const slower = (input: PlanInput): Plan => {
    const p = plan(input);
    return {
      ...p,
      totalSeconds: p.totalSeconds * 1.2,
      bounds: { ...p.bounds, workersSeconds: p.bounds.workersSeconds * 1.2 },
    };
  };
  const base = plan({ ...WORKERS, deadlineSeconds: undefined });
  const verdict = { seconds: 3_000, met: false, marginSeconds: 3_000 - base.totalSeconds };
  const d = solveDeadline(WORKERS, base, verdict, slower);
  const workers = d.options.find((o) => o.kind === 'workers')!;
  // 100,100 s × 1.2 / W ≤ 3,000 s → W = 41.
  assert.deepEqual(workers.change, { workers: 41 });
  for (const o of d.options) assert.ok(slower(applyPlanChange(WORKERS, o.change)).totalSeconds <= 3_000, o.text);
});

// ---- Text. ----

test('text: a missed deadline gets "What meets the deadline" with each option and its options for estimate', () => {
  const text = formatPlanText(plan(SLOW_B), 0, false);
  assert.match(text, /^Host\s+Pages\s+Interval\s+Period\s+Pages\/h\s+Duration\s+By deadline$/m);
  assert.match(text, /^b\.example\s+10,000\s+10 s \(crawl-delay\)\s+10 s\s+360\s+1 d 3 h 47 m\s+8,638$/m);
  assert.match(text, /^What meets the deadline:$/m);
  assert.match(
    text,
    /^ {2}Earliest finish possible: 1 d 3 h 47 m, b\.example alone at its own interval \(the politeness bound\)\.$/m,
  );
  assert.match(
    text,
    /^ {2}No number of workers or machines, and no higher rate, helps b\.example: only fewer pages from it\.$/m,
  );
  assert.match(
    text,
    /^ {2}1\. Cap b\.example at 8,638 pages \(of 10,000\): 18,638 pages in 23 h 59 m 52 s\.\n {5}add: --pages-for b\.example=8638$/m,
  );
  assert.match(
    text,
    /^ {2}2\. Drop b\.example \(10,000 pages\): 10,000 pages in 2 h 46 m 54 s\.\n {5}add: --drop-host b\.example$/m,
  );
  // Met: no section, and no "By deadline" section text.
  assert.doesNotMatch(formatPlanText(plan({ ...SLOW_B, deadlineSeconds: 1e6 }), 0, false), /What meets the deadline/);
});

test('text: a host that needs quoting is quoted, and a long list of options is cut', () => {
  const input: PlanInput = {
    seeds: [{ host: '[::1]:8080' }, ...many(11)],
    pages: { perHost: 1_000 },
    crawlDelayByHost: { '[::1]:8080': 10 },
    deadlineSeconds: 600,
  };
  const text = formatPlanText(plan(input), 0, false);
  // n × 1.0013 s + 0.50005 s ≤ 600 s → 598; at the 10 s Crawl-delay, n × 10.0013 s + 0.50005 s ≤ 600 s → 59.
  assert.match(text, /add: --pages-per-host 598 --pages-for '\[::1\]:8080=59'/);
  // Twelve hosts blocked: capped at 598 (all but one), so one --pages-per-host and one --pages-for.
  const wide: PlanInput = {
    seeds: many(12),
    pages: { byHost: Object.fromEntries(many(12).map((h, i) => [h.host, 1_000 + i])) },
    deadlineSeconds: 600,
  };
  const wideText = formatPlanText(plan(wide), 0, false);
  assert.match(wideText, /add: (--pages-for h\d+\.example=598 ){8}… \(4 more, all in --json's cli\.add\)$/m);
});
