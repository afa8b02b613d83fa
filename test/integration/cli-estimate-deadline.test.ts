/**
 * `crawl-planner estimate --deadline` end to end: each option that meets a missed deadline, run again with its
 * flags, meets it with the option's numbers; the text says what meets it; and --drop-host leaves a host out. The
 * BUILT dist/cli.js in a child process, as a user runs it (test/helpers/estimateCli.ts). No network: estimate never
 * fetches anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimate, estimateJson as json, useEstimateCli } from '../helpers/estimateCli';

useEstimateCli();

// ---- What meets the deadline: each option's options for estimate give its plan. ----

/** `args` with an option's `cli` applied: its `remove` options (and their values) out, its `add` in. */
function withCli(args: readonly string[], cli: { add: string[]; remove: string[] }): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (cli.remove.includes(args[i]!)) i++;
    else out.push(args[i]!);
  }
  return [...out, ...cli.add];
}

const DEADLINE_CASES: Array<{ name: string; args: string[]; kinds: string[] }> = [
  {
    name: 'a Crawl-delay host over a total',
    args: [
      'https://a.example/',
      'https://b.example/',
      'https://c.example/',
      '--pages',
      '1000000',
      '--crawl-delay',
      'b.example=10',
      '--deadline',
      '30d',
    ],
    kinds: ['cap', 'drop'],
  },
  {
    name: 'pages per host, a Crawl-delay host and too few workers',
    args: [
      ...Array.from({ length: 20 }, (_, i) => `https://h${i}.example/`),
      'https://b.example/',
      '--pages-per-host',
      '1000',
      '--latency',
      '2',
      '--crawl-delay',
      'b.example=20',
      '--deadline',
      '3000',
    ],
    kinds: ['cap', 'drop'],
  },
  {
    name: 'too few workers',
    args: [
      ...Array.from({ length: 20 }, (_, i) => `https://h${i}.example/`),
      '--pages-per-host',
      '1000',
      '--latency',
      '2',
      '--deadline',
      '50m',
    ],
    kinds: ['workers', 'machines'],
  },
  {
    // Each host alone takes 1,000 × 1.0013 s + 0.50005 s = 1,001.8 s: within 1,100 s, so only the rate is short.
    name: 'a global rate',
    args: [
      'https://a.example/',
      'https://b.example/',
      'https://c.example/',
      '--pages',
      '3000',
      '--rate',
      '1',
      '--deadline',
      '1100',
    ],
    kinds: ['rate', 'machines'],
  },
];
for (const c of DEADLINE_CASES) {
  test(`deadline options (${c.name}): estimate with each option's flags meets the deadline with the option's numbers`, () => {
    const doc = json(...c.args);
    assert.equal(doc.deadline!.met, false);
    assert.deepEqual(
      doc.deadline!.options.map((o) => o.kind),
      c.kinds,
    );
    for (const o of doc.deadline!.options) {
      const again = json(...withCli(c.args, o.cli));
      assert.equal(again.deadline!.met, true, `${o.text} with ${o.cli.add.join(' ')}`);
      assert.equal(again.totalSeconds, o.totalSeconds, o.text);
      assert.equal(again.totalPages, o.pages, o.text);
      assert.deepEqual(again.deadline!.options, []);
    }
  });
}

test('human: a missed deadline says what meets it, with the options to add', () => {
  const r = estimate(
    'https://a.example/',
    'https://b.example/',
    '--pages-per-host',
    '10000',
    '--crawl-delay',
    'b.example=10',
    '--deadline',
    '1d',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Host\s+Pages\s+Interval\s+Period\s+Pages\/h\s+Duration\s+By deadline$/m);
  // b.example: 10,000 × 10.0013 s + 0.50005 s = 100,013.50005 s; n × 10.0013 s + 0.50005 s ≤ 86,400 s → n = 8,638.
  assert.match(r.stdout, /^Deadline: 1 d, missed by 3 h 46 m 54 s\n\nWhat meets the deadline:\n/m);
  assert.match(
    r.stdout,
    /^ {2}1\. Cap b\.example at 8,638 pages \(of 10,000\): 18,638 pages in 23 h 59 m 52 s\.\n {5}add: --pages-for b\.example=8638$/m,
  );
  assert.match(
    r.stdout,
    /^ {2}2\. Drop b\.example \(10,000 pages\): 10,000 pages in 2 h 46 m 54 s\.\n {5}add: --drop-host b\.example$/m,
  );
});

test('--drop-host leaves a host out; with --pages the others keep their share', () => {
  const doc = json(
    'https://a.example/',
    'https://b.example/',
    'https://c.example/',
    '--pages',
    '10',
    '--drop-host',
    'https://B.example/x',
    '--latency-for',
    'b.example=2',
  );
  // 10 over 3 hosts is 4, 3, 3: b's 3 are not planned, and its --latency-for is not called a typo.
  assert.deepEqual(
    doc.hosts.map((h) => [h.host, h.pages]),
    [
      ['a.example', 4],
      ['c.example', 3],
    ],
  );
  assert.deepEqual(doc.warnings, []);
  assert.deepEqual(
    json('https://a.example/', 'https://b.example/', '--pages-per-host', '7', '--drop-host', 'a.example').hosts.map(
      (h) => [h.host, h.pages],
    ),
    [['b.example', 7]],
  );
});
