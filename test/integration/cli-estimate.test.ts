/**
 * `crawl-planner estimate` end to end: the BUILT dist/cli.js in a child process, as a user runs it.
 * No network: estimate never fetches anything.
 */
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tidy, type EstimateDocument } from '../../src/core/plan';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
let dir = '';

before(() => {
  execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT, stdio: 'pipe' });
  dir = mkdtempSync(path.join(tmpdir(), 'crawl-planner-estimate-'));
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function estimate(...args: string[]): Run {
  const r = spawnSync(process.execPath, [CLI, 'estimate', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json(...args: string[]): EstimateDocument {
  const r = estimate(...args, '--json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as EstimateDocument;
}

function seedsFile(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

// ---- JSON numbers. ----

test('JSON: 1,000,000 pages at 1 s take 1,001,300.5 s: robots.txt, then a page every 1 s + 1.3 ms', () => {
  const doc = json('https://a.example/', '--pages', '1000000', '--delay', '1');
  assert.equal(doc.schemaVersion, 1);
  assert.equal(doc.totalSeconds, 1_001_300.50005);
  assert.equal(doc.totalHuman, '11 d 14 h 8 m');
  assert.equal(doc.bindingConstraint, 'host-interval');
  assert.equal(doc.bindingHost, 'a.example');
  assert.equal(doc.perWorkerDelaySeconds, null);
  assert.deepEqual(doc.invalidSeeds, []);
  assert.deepEqual(doc.warnings, []);
  assert.equal(doc.sharding, null);
  assert.deepEqual(doc.hosts, [
    {
      host: 'a.example',
      seeds: 1,
      pages: 1_000_000,
      latencySeconds: 0.5,
      crawlDelaySeconds: null,
      intervalSeconds: 1,
      intervalSource: 'configured',
      politenessSource: 'configured',
      periodSeconds: 1,
      pagesPerSecond: 1,
      pagesPerHour: 3600,
      pagesPerDay: 86_400,
      seconds: 1_001_300.50005,
      firstPageSeconds: 1.0013,
      stepSeconds: 1.0013,
      faultSeconds: 0,
      requests: 1_000_001,
      nonPageRequests: 0,
      latencyP50Seconds: null,
      latencyP90Seconds: null,
      calibrated: [],
      skipped: false,
    },
  ]);
});

const numbers: Array<{ name: string; args: string[]; check: (doc: EstimateDocument) => void }> = [
  {
    name: 'Crawl-delay 10 s → 360 pages/h, 8,640 pages/day',
    args: ['https://a.example/', '--pages', '100', '--crawl-delay', 'a.example=10'],
    check: (doc) => {
      assert.equal(doc.hosts[0]!.intervalSource, 'crawl-delay');
      assert.equal(doc.hosts[0]!.pagesPerHour, 360);
      assert.equal(doc.hosts[0]!.pagesPerDay, 8640);
      assert.equal(doc.bindingConstraint, 'crawl-delay');
    },
  },
  {
    name: '4 workers at 2 req/s → per-worker delay 2 s',
    args: ['https://a.example/', '--pages', '100', '--workers', '4', '--rate', '2'],
    check: (doc) => assert.equal(doc.perWorkerDelaySeconds, 2),
  },
  {
    name: 'adaptive, latency 0.3 s → 3 s',
    args: ['https://a.example/', '--pages', '100', '--adaptive', '--latency', '0.3'],
    check: (doc) => {
      assert.equal(doc.hosts[0]!.intervalSeconds, 3);
      assert.equal(doc.hosts[0]!.intervalSource, 'adaptive');
      assert.equal(doc.bindingConstraint, 'adaptive');
    },
  },
  {
    name: 'adaptive, latency 0.05 s → floored at 1 s',
    args: ['https://a.example/', '--pages', '100', '--adaptive', '--latency', '0.05', '--delay', '0.2'],
    check: (doc) => assert.equal(doc.hosts[0]!.intervalSeconds, 1),
  },
  {
    name: '2 s latency, 1 s interval, start reading → 2 s period, source latency',
    args: ['https://a.example/', '--pages', '100', '--latency', '2', '--delay-from', 'start'],
    check: (doc) => {
      assert.equal(doc.hosts[0]!.periodSeconds, 2);
      assert.equal(doc.hosts[0]!.pagesPerSecond, 0.5);
      assert.equal(doc.hosts[0]!.intervalSource, 'latency');
      assert.equal(doc.warnings[0]!.code, 'latency-exceeds-interval');
    },
  },
  {
    name: '2 s latency, 1 s interval, end reading → 3 s period',
    args: ['https://a.example/', '--pages', '100', '--latency', '2', '--delay-from', 'end'],
    check: (doc) => assert.equal(doc.hosts[0]!.periodSeconds, 3),
  },
  {
    name: '--latency-for overrides one host (a URL works as the host)',
    args: [
      'https://a.example/',
      'https://b.example/',
      '--pages-per-host',
      '10',
      '--latency-for',
      'https://B.example/x=0.25',
    ],
    check: (doc) =>
      assert.deepEqual(
        doc.hosts.map((h) => h.latencySeconds),
        [0.5, 0.25],
      ),
  },
  {
    name: '--crawl-delay-policy skip leaves the host out of the totals',
    args: [
      'https://a.example/',
      'https://b.example/',
      '--pages-per-host',
      '10',
      '--crawl-delay',
      'b.example=60',
      '--crawl-delay-policy',
      'skip',
    ],
    check: (doc) => {
      assert.equal(doc.hosts[1]!.skipped, true);
      assert.equal(doc.totalPages, 10);
      assert.equal(doc.skippedPages, 10);
      assert.equal(doc.totalSeconds, 10.51305);
      assert.equal(doc.warnings[0]!.code, 'crawl-delay-host-skipped');
      assert.equal(doc.warnings[0]!.host, 'b.example');
    },
  },
  {
    name: '--max-crawl-delay and cap',
    args: ['https://a.example/', '--pages', '10', '--crawl-delay', 'a.example=60', '--max-crawl-delay', '20'],
    check: (doc) => {
      assert.equal(doc.hosts[0]!.intervalSeconds, 20);
      assert.equal(doc.warnings[0]!.code, 'crawl-delay-capped');
    },
  },
  {
    name: '--rate binds across many hosts',
    args: ['https://a.example/', 'https://b.example/', 'https://c.example/', '--pages', '3000', '--rate', '1'],
    check: (doc) => {
      assert.equal(doc.bindingConstraint, 'global-rate');
      assert.equal(doc.bindingHost, null);
      assert.equal(doc.totalSeconds, 3002.5); // 3,000 pages and 3 robots.txt at 1 req/s
    },
  },
  {
    name: '--per-host-concurrency warns per-host-burst',
    args: ['https://a.example/', '--pages', '100', '--per-host-concurrency', '2'],
    check: (doc) => {
      assert.equal(doc.hosts[0]!.pagesPerHour, 7200);
      assert.deepEqual(
        doc.warnings.map((w) => w.code),
        ['per-host-burst'],
      );
    },
  },
  {
    name: '--deadline 36h is 129,600 s',
    args: ['https://a.example/', '--pages', '1000000', '--deadline', '36h'],
    check: (doc) => {
      const { options, ...verdict } = doc.deadline!;
      // robots.txt, then a page every 1 s + 1.3 ms, the last answered 0.50005 s later (REQUEST_OVERHEAD):
      // n × 1.0013 s + 0.50005 s ≤ 129,600 s → n = 129,431.
      assert.deepEqual(verdict, {
        seconds: 129_600,
        met: false,
        marginSeconds: tidy(129_600 - 1_001_300.50005),
        earliestSeconds: 1_001_300.50005,
        blockingHosts: ['a.example'],
        pagesByHost: { 'a.example': 129_431 },
      });
      assert.deepEqual(
        options.map((o) => [o.kind, o.change, o.cli]),
        [
          [
            'cap',
            { pagesByHost: { 'a.example': 129_431 } },
            { add: ['--pages-per-host', '129431'], remove: ['--pages'] },
          ],
        ],
      );
      assert.equal(doc.warnings[0]!.code, 'deadline-unreachable');
    },
  },
  {
    name: '--deadline 2d and plain seconds',
    args: ['https://a.example/', '--pages', '10', '--deadline', '172800'],
    check: (doc) =>
      assert.deepEqual(doc.deadline, {
        seconds: 172_800,
        met: true,
        // 10 × 1.0013 s + 0.50005 s; n × 1.0013 s + 0.50005 s ≤ 172,800 s → n = 172,575.
        marginSeconds: tidy(172_800 - 10.51305),
        earliestSeconds: 10.51305,
        blockingHosts: [],
        pagesByHost: { 'a.example': 172_575 },
        options: [],
      }),
  },
  {
    name: '--machines shards by FNV-1a of the host',
    args: [
      'https://a.example/',
      'https://b.example/',
      'https://c.example/',
      'https://d.example/',
      '--pages-per-host',
      '100',
      '--machines',
      '3',
    ],
    check: (doc) => {
      assert.equal(doc.sharding!.machines, 3);
      assert.equal(doc.sharding!.hash, 'fnv1a-32');
      assert.deepEqual(
        doc.sharding!.perMachine.map((m) => m.hosts),
        [['d.example'], ['c.example'], ['a.example', 'b.example']],
      );
      assert.deepEqual(
        doc.hosts.map((h) => h.machine),
        [2, 2, 1, 0],
      );
      assert.equal(doc.sharding!.imbalance, 1);
      assert.equal(doc.bindingMachine, 0);
    },
  },
];
for (const c of numbers) {
  test(`JSON: ${c.name}`, () => c.check(json(...c.args)));
}

// ---- Human output. ----

test('human: a per-host table, the total in human units, the binding constraint in words', () => {
  const r = estimate('https://a.example/', 'https://b.example/', '--pages', '1000000', '--crawl-delay', 'b.example=10');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const lines = r.stdout.split('\n');
  assert.match(lines[0]!, /^Host\s+Pages\s+Interval\s+Period\s+Pages\/h\s+Duration$/);
  assert.match(lines[1]!, /^a\.example\s+500,000\s+1 s \(configured\)\s+1 s\s+3,600\s+5 d 19 h 4 m$/);
  assert.match(lines[2]!, /^b\.example\s+500,000\s+10 s \(crawl-delay\)\s+10 s\s+360\s+57 d 21 h 4 m$/);
  assert.match(
    r.stdout,
    /^Total: 57 d 21 h 4 m \(5,000,650.5 s = 1,389.1 h = 57.9 days\) for 1,000,000 pages on 2 hosts$/m,
  );
  assert.match(r.stdout, /^Limited by: Crawl-delay at b\.example$/m);
  assert.match(
    r.stdout,
    /^ {2}b\.example limits the crawl: its Crawl-delay of 10 s, measured from start to start, gives one request every 10 s \(360 pages\/h\), so its robots\.txt and 500,000 pages take 57 d 21 h 4 m\.$/m,
  );
  assert.match(r.stdout, /^Per-worker delay: none \(no --rate/m);
  assert.match(r.stdout, /^Warnings \(1\):$/m);
  assert.match(r.stdout, /^ {2}host-dominates b\.example: b\.example takes 91% of all hosts' crawl time/m);
  assert.doesNotMatch(r.stdout, /\x1b\[/);
});

test('human: the seed example reads 11 d 14 h 8 m, 278.1 h, 11.6 days', () => {
  const r = estimate('https://a.example/', '--pages', '1000000', '--delay', '1');
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^Total: 11 d 14 h 8 m \(1,001,300.5 s = 278.1 h = 11.6 days\) for 1,000,000 pages on 1 host$/m,
  );
  assert.match(r.stdout, /^Limited by: per-host interval at a\.example$/m);
});

test('human: under an hour the total is one duration, without the seconds = hours = days repeat', () => {
  const r = estimate('https://a.example/', '--pages', '10', '--delay', '1');
  assert.equal(r.status, 0, r.stderr);
  // 10 × 1.0013 s + 0.50005 s = 10.51305 s; 3,602 × 1.0013 s + 0.50005 s = 3,607.18265 s.
  assert.match(r.stdout, /^Total: 10\.5 s for 10 pages on 1 host$/m);
  const hour = estimate('https://a.example/', '--pages', '3602', '--delay', '1');
  assert.match(hour.stdout, /^Total: 1 h 7 s \(3,607.2 s = 1 h = 0 days\) for 3,602 pages on 1 host$/m);
});

// ---- Seed notes (src/core/seedHygiene.ts). ----

test('seed notes: credentials, IP literals, local addresses, invisible characters and duplicates on stderr and in --json', () => {
  const file = seedsFile(
    'hygiene.txt',
    [
      'http://user:pass@cred.example/',
      'http://0x7f.1/',
      'http://192.168.0.10/',
      '\u202Ehttp://rlo.example/',
      'http://b.example/\u200Bx',
      'https://d.example/',
      'https://d.example/',
      'http://127.0.0.11:8470/',
    ].join('\n'),
  );
  const r = estimate('--seeds-file', file, '--pages', '10');
  assert.equal(r.status, 0, r.stderr);
  const at = (line: number) => `crawl-planner estimate: ${file} line ${line}: `;
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.deepEqual(lines, [
    `${at(4)}not a URL: "\\u202Ehttp://rlo.example/"`,
    `${at(1)}user name and password removed from the URL: "http://cred.example/"`,
    `${at(4)}hidden characters: U+202E (right-to-left override): "\\u202Ehttp://rlo.example/"`,
    `${at(5)}hidden characters: U+200B (zero-width space): "http://b.example/\\u200Bx"`,
    `${at(2)}0x7f.1 is the IP address 127.0.0.1: "http://0x7f.1/"`,
    `${at(2)}127.0.0.1 is a loopback address: this machine: "http://0x7f.1/"`,
    `${at(3)}192.168.0.10 is a private network address: "http://192.168.0.10/"`,
    'crawl-planner estimate: 1 duplicate seed (the same URL as an earlier line; it changes nothing in the plan)',
  ]);
  assert.doesNotMatch(r.stdout + r.stderr, /user:pass|\u202E|\u200B/);
  // The plan uses the seed without its credentials; the demo host (127.0.0.11:8470) gets no note.
  assert.match(r.stdout, /^cred\.example\s/m);
  const doc = json('--seeds-file', file, '--pages', '10');
  assert.equal(doc.duplicateSeeds, 1);
  assert.deepEqual(
    doc.seedNotes.map((n) => [n.line, n.code]),
    [
      [1, 'credentials'],
      [2, 'ip-literal'],
      [2, 'local-address'],
      [3, 'local-address'],
      [4, 'invisible-characters'],
      [5, 'invisible-characters'],
    ],
  );
  assert.equal(doc.seedNotes.find((n) => n.code === 'local-address')!.kind, 'loopback');
  assert.doesNotMatch(JSON.stringify(doc), /user:pass/);
});

test('seed notes: past 20 of a kind, one line counts the rest', () => {
  const file = seedsFile('private.txt', Array.from({ length: 25 }, (_, i) => `http://10.0.0.${i + 1}/`).join('\n'));
  const r = estimate('--seeds-file', file, '--pages', '25');
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 21);
  assert.equal(
    lines[20],
    'crawl-planner estimate: and 5 more seeds are on this machine or a private network (all in --json: seedNotes)',
  );
});

test('human: per-worker delay, deadline and machines are shown when asked', () => {
  const r = estimate(
    'https://a.example/',
    'https://b.example/',
    '--pages',
    '100',
    '--workers',
    '4',
    '--rate',
    '2',
    '--deadline',
    '1h',
    '--machines',
    '2',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Per-worker delay: 2 s \(4 workers \/ 2 req\/s\)$/m);
  assert.match(r.stdout, /^Deadline: 1 h, met with 59 m 9 s to spare$/m);
  assert.match(r.stdout, /^Machines \(2, hosts assigned by FNV-1a-32 of the host mod 2\):$/m);
  assert.match(r.stdout, /^ {2}Imbalance: 1× \(slowest machine \/ mean\), pages 1×$/m);
});

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

test('--help prints the options and exits 0', () => {
  const r = estimate('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^Usage: crawl-planner estimate/);
  for (const option of [
    '--pages',
    '--pages-per-host',
    '--rate',
    '--workers',
    '--delay',
    '--delay-from',
    '--latency',
    '--latency-for',
    '--crawl-delay',
    '--crawl-delay-policy',
    '--max-crawl-delay',
    '--adaptive',
    '--per-host-concurrency',
    '--machines',
    '--deadline',
    '--drop-host',
    '--json',
    '--seeds-file',
  ]) {
    assert.ok(r.stdout.includes(option), option);
  }
});

// ---- Seeds. ----

test('invalid seed lines are reported with line numbers and reasons; the rest is planned', () => {
  const file = seedsFile(
    'mixed.txt',
    [
      '# seeds',
      'https://a.example/',
      '',
      'not a url',
      'ftp://files.example/',
      'https://b.example/x  # trailing comment',
      'http://./',
    ].join('\n'),
  );
  const r = estimate('--seeds-file', file, 'https://c.example/', 'mailto:x@y.example', '--pages', '30', '--json');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stderr.trimEnd().split('\n'), [
    'crawl-planner estimate: argument 2: not http/https: "mailto:x@y.example"',
    `crawl-planner estimate: ${file} line 4: not a URL: "not a url"`,
    `crawl-planner estimate: ${file} line 5: not http/https: "ftp://files.example/"`,
    `crawl-planner estimate: ${file} line 7: no host: "http://./"`,
  ]);
  const doc = JSON.parse(r.stdout) as EstimateDocument;
  assert.deepEqual(
    doc.hosts.map((h) => [h.host, h.pages]),
    [
      ['c.example', 10],
      ['a.example', 10],
      ['b.example', 10],
    ],
  );
  assert.deepEqual(doc.invalidSeeds, [
    { line: 2, text: 'mailto:x@y.example', reason: 'not-http', message: 'not http/https', source: 'argument' },
    { line: 4, text: 'not a url', reason: 'not-a-url', message: 'not a URL', source: file },
    { line: 5, text: 'ftp://files.example/', reason: 'not-http', message: 'not http/https', source: file },
    { line: 7, text: 'http://./', reason: 'no-host', message: 'no host', source: file },
  ]);
});

test('human output notes how many seed lines were left out', () => {
  const r = estimate('https://a.example/', 'nope', '--pages', '10');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, 'crawl-planner estimate: argument 2: not a URL: "nope"\n');
  assert.match(r.stdout, /^1 invalid seed line was left out \(listed on stderr\)\.$/m);
});

test('no valid seed left → exit 2', () => {
  const file = seedsFile('bad.txt', 'nope\nftp://x.example/\n');
  const r = estimate('--seeds-file', file, '--pages', '10');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.deepEqual(r.stderr.trimEnd().split('\n'), [
    `crawl-planner estimate: ${file} line 1: not a URL: "nope"`,
    `crawl-planner estimate: ${file} line 2: not http/https: "ftp://x.example/"`,
    'crawl-planner estimate: no valid seed URL (2 invalid lines)',
  ]);
});

test('control characters in a bad seed line are not echoed to the terminal: they are shown escaped and named', () => {
  const r = estimate('https://a.example/', 'bad\x1b[2Jseed', '--pages', '10');
  assert.equal(r.status, 0);
  assert.doesNotMatch(r.stderr, /\x1b/);
  assert.equal(
    r.stderr,
    'crawl-planner estimate: argument 2: not a URL: "bad\\u001B[2Jseed"\n' +
      'crawl-planner estimate: argument 2: hidden characters: U+001B: "bad\\u001B[2Jseed"\n',
  );
});

// ---- Bad input: one line on stderr, exit 2, no stack trace. ----

const bad: Array<[string[], string]> = [
  [['--pages', '1e308'], '--pages: 1e308 is too large (at most 1,000,000,000,000)'],
  [['--pages', '0'], '--pages: 0 must be at least 1'],
  [['--pages', '1.5'], '--pages: "1.5" must be a whole number'],
  [['--pages', 'NaN'], '--pages: "NaN" is not a number'],
  [['--pages', '10', '--rate', 'abc'], '--rate: "abc" is not a number'],
  [['--pages', '10', '--rate', '-1'], '--rate: -1 must be greater than 0'],
  [['--pages', '10', '--rate', '0'], '--rate: 0 must be greater than 0'],
  [['--pages', '10', '--rate', 'Infinity'], '--rate: "Infinity" is not a number'],
  [['--pages', '10', '--rate', '1e7'], '--rate: 1e7 is too large (at most 1,000,000)'],
  [['--pages', '10', '--workers', '0'], '--workers: 0 must be at least 1'],
  [['--pages', '10', '--delay', '-0.5'], '--delay: -0.5 must be at least 0'],
  [['--pages', '10', '--delay', '86401'], '--delay: 86401 is too large (at most 86,400)'],
  [['--pages', '10', '--latency', '0'], '--latency: 0 must be greater than 0'],
  [['--pages', '10', '--latency-for', 'a.example'], '--latency-for: "a.example" must be HOST=SECONDS'],
  [['--pages', '10', '--latency-for', 'a.example=x'], '--latency-for a.example: "x" is not a number'],
  [['--pages', '10', '--crawl-delay', 'a.example=-5'], '--crawl-delay a.example: -5 must be at least 0'],
  [['--pages', '10', '--crawl-delay', 'a b=5'], '--crawl-delay: "a b" is not a host name'],
  [
    ['--pages', '10', '--crawl-delay-policy', 'ignore'],
    '--crawl-delay-policy: "ignore" must be one of cap, skip, obey',
  ],
  [['--pages', '10', '--delay-from', 'middle'], '--delay-from: "middle" must be one of start, end'],
  [['--pages', '10', '--max-crawl-delay', '1e6'], '--max-crawl-delay: 1e6 is too large (at most 86,400)'],
  [['--pages', '10', '--per-host-concurrency', '0'], '--per-host-concurrency: 0 must be at least 1'],
  [['--pages', '10', '--machines', '2.5'], '--machines: "2.5" must be a whole number'],
  [
    ['--pages', '10', '--deadline', 'soon'],
    '--deadline: "soon" is not a duration (seconds, or e.g. 90m, 36h, 2d, 1d12h)',
  ],
  [['--pages', '10', '--deadline', '0'], '--deadline: 0 must be greater than 0'],
  [
    ['--pages', '10', '--deadline', '-3h'],
    '--deadline: "-3h" is not a duration (seconds, or e.g. 90m, 36h, 2d, 1d12h)',
  ],
  [['--pages', '10', '--pages-per-host', '10'], '--pages and --pages-per-host: give one, not both'],
  [['--pages', '10', '--drop-host', 'b.example'], '--drop-host: b.example is not the host of any seed'],
  [['--pages', '10', '--drop-host', 'a b'], '--drop-host: "a b" is not a host name'],
  [['--pages', '10', '--drop-host', 'A.example'], '--drop-host: every seed host is dropped; nothing to plan'],
  [[], '--pages, --pages-per-host or --sitemaps is required'],
  [
    ['--pages-per-host', '1000000000000', 'https://b.example/'],
    '--pages-per-host: 1,000,000,000,000 × 2 hosts is more than 1,000,000,000,000 pages',
  ],
  [['--pages', '10', '--bogus'], "Unknown option '--bogus'"],
  [['--pages'], "Option '--pages <value>' argument missing"],
  [
    ['--pages', '10', '--seeds-file', '/nonexistent/seeds.txt'],
    '--seeds-file: cannot read /nonexistent/seeds.txt: ENOENT',
  ],
];
for (const [args, message] of bad) {
  test(`bad input ${JSON.stringify(args)} → exit 2: ${message}`, () => {
    const r = estimate('https://a.example/', ...args);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `crawl-planner estimate: ${message}\n`);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });
}

test('no seeds at all → exit 2', () => {
  const r = spawnSync(process.execPath, [CLI, 'estimate', '--pages', '10'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'crawl-planner estimate: no seed URLs: give them as arguments or with --seeds-file\n');
});

// ---- --calibrate and --simulate (the whole road, test crawl to full crawl: calibrate-estimate.test.ts). ----

test('--simulate adds the band to the JSON and a line to the text; with typed answer times it is the plan', () => {
  const doc = json(
    'https://a.example/',
    'https://b.example/',
    '--pages',
    '40',
    '--delay',
    '0.5',
    '--simulate',
    '--runs',
    '20',
    '--seed',
    '7',
  ) as EstimateDocument & {
    simulation: {
      method: string;
      runs: number;
      seed: number;
      p10Seconds: number;
      p50Seconds: number;
      p90Seconds: number;
      hosts: unknown[];
      timeline: { hosts: unknown[] };
    };
  };
  assert.equal(doc.simulation.method, 'engine');
  assert.equal(doc.simulation.runs, 20);
  assert.equal(doc.simulation.seed, 7);
  for (const p of [doc.simulation.p10Seconds, doc.simulation.p50Seconds, doc.simulation.p90Seconds])
    assert.ok(Math.abs(p - doc.totalSeconds) < 1e-6);
  assert.equal(doc.simulation.hosts.length, 2);
  assert.equal(doc.simulation.timeline.hosts.length, 2);
  assert.equal(doc.calibration, null);
  const text = estimate('https://a.example/', '--pages', '10', '--simulate', '--runs', '5');
  assert.equal(text.status, 0, text.stderr);
  assert.match(
    text.stdout,
    /^Simulated: no band: run a test crawl to get a band \(--calibrate REPORT\): the plan is not calibrated, so the simulation has nothing measured to draw from \(p50 10\.5 s over 5 runs; the plan says 10\.5 s\)$/m,
  );
  // Without --simulate, no simulation.
  assert.equal(
    (json('https://a.example/', '--pages', '10') as EstimateDocument & { simulation: unknown }).simulation,
    null,
  );
});

const refusals: Array<[string, string[], RegExp]> = [
  ['--runs without --simulate', ['--runs', '5'], /^crawl-planner estimate: --runs: only with --simulate$/],
  ['--seed without --simulate', ['--seed', '5'], /^crawl-planner estimate: --seed: only with --simulate$/],
  ['--runs 0', ['--simulate', '--runs', '0'], /^crawl-planner estimate: --runs: 0 must be at least 1$/],
  ['--runs 1.5', ['--simulate', '--runs', '1.5'], /^crawl-planner estimate: --runs: "1\.5" must be a whole number$/],
  [
    '--calibrate a missing file',
    ['--calibrate', 'DIR/missing.json'],
    /^crawl-planner estimate: --calibrate: cannot read .*missing\.json: ENOENT$/,
  ],
  [
    '--calibrate a file that is not JSON',
    ['--calibrate', 'DIR/not-json.json'],
    /^crawl-planner estimate: --calibrate: .*not-json\.json is not JSON \(give the report that crawl --report wrote\)$/,
  ],
  [
    '--calibrate an estimate document',
    ['--calibrate', 'DIR/estimate.json'],
    /^crawl-planner estimate: --calibrate: .*estimate\.json: not a crawl report \(one that crawl --report writes\): it has no requests and summary$/,
  ],
  [
    '--calibrate a report of another schema',
    ['--calibrate', 'DIR/v2.json'],
    /^crawl-planner estimate: --calibrate: .*v2\.json: crawl report schemaVersion 2 is not supported \(this version reads 1\)$/,
  ],
];
for (const [name, args, message] of refusals) {
  test(`${name} → exit 2 with one line`, () => {
    seedsFile('not-json.json', 'not json at all');
    seedsFile('estimate.json', JSON.stringify(json('https://a.example/', '--pages', '10')));
    seedsFile('v2.json', JSON.stringify({ schemaVersion: 2, requests: [], summary: {}, comparison: {} }));
    const r = estimate('https://a.example/', '--pages', '10', ...args.map((a) => a.replace('DIR', dir)));
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr.trimEnd(), message);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  });
}
