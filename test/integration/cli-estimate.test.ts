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
import type { EstimateDocument } from '../../src/core/plan';

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
    args: ['https://a.example/', 'https://b.example/', '--pages-per-host', '10', '--latency-for', 'https://B.example/x=0.25'],
    check: (doc) => assert.deepEqual(doc.hosts.map((h) => h.latencySeconds), [0.5, 0.25]),
  },
  {
    name: '--crawl-delay-policy skip leaves the host out of the totals',
    args: ['https://a.example/', 'https://b.example/', '--pages-per-host', '10', '--crawl-delay', 'b.example=60', '--crawl-delay-policy', 'skip'],
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
      assert.deepEqual(doc.warnings.map((w) => w.code), ['per-host-burst']);
    },
  },
  {
    name: '--deadline 36h is 129,600 s',
    args: ['https://a.example/', '--pages', '1000000', '--deadline', '36h'],
    check: (doc) => {
      assert.deepEqual(doc.deadline, { seconds: 129_600, met: false, marginSeconds: 129_600 - 1_001_300.50005 });
      assert.equal(doc.warnings[0]!.code, 'deadline-unreachable');
    },
  },
  {
    name: '--deadline 2d and plain seconds',
    args: ['https://a.example/', '--pages', '10', '--deadline', '172800'],
    check: (doc) => assert.deepEqual(doc.deadline, { seconds: 172_800, met: true, marginSeconds: 172_789.48695 }),
  },
  {
    name: '--machines shards by FNV-1a of the host',
    args: ['https://a.example/', 'https://b.example/', 'https://c.example/', 'https://d.example/', '--pages-per-host', '100', '--machines', '3'],
    check: (doc) => {
      assert.equal(doc.sharding!.machines, 3);
      assert.equal(doc.sharding!.hash, 'fnv1a-32');
      assert.deepEqual(doc.sharding!.perMachine.map((m) => m.hosts), [['d.example'], ['c.example'], ['a.example', 'b.example']]);
      assert.deepEqual(doc.hosts.map((h) => h.machine), [2, 2, 1, 0]);
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
  assert.match(r.stdout, /^Total: 57 d 21 h 4 m \(5,000,650.5 s = 1,389.1 h = 57.9 days\) for 1,000,000 pages on 2 hosts$/m);
  assert.match(r.stdout, /^Limited by: Crawl-delay at b\.example$/m);
  assert.match(r.stdout, /^ {2}b\.example limits the crawl: its Crawl-delay of 10 s, measured from start to start, gives one request every 10 s \(360 pages\/h\), so its robots\.txt and 500,000 pages take 57 d 21 h 4 m\.$/m);
  assert.match(r.stdout, /^Per-worker delay: none \(no --rate/m);
  assert.match(r.stdout, /^Warnings \(1\):$/m);
  assert.match(r.stdout, /^ {2}host-dominates b\.example: b\.example takes 91% of all hosts' crawl time/m);
  assert.doesNotMatch(r.stdout, /\x1b\[/);
});

test('human: the seed example reads 11 d 14 h 8 m, 278.1 h, 11.6 days', () => {
  const r = estimate('https://a.example/', '--pages', '1000000', '--delay', '1');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Total: 11 d 14 h 8 m \(1,001,300.5 s = 278.1 h = 11.6 days\) for 1,000,000 pages on 1 host$/m);
  assert.match(r.stdout, /^Limited by: per-host interval at a\.example$/m);
});

test('human: per-worker delay, deadline and machines are shown when asked', () => {
  const r = estimate(
    'https://a.example/', 'https://b.example/', '--pages', '100', '--workers', '4', '--rate', '2', '--deadline', '1h', '--machines', '2',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Per-worker delay: 2 s \(4 workers \/ 2 req\/s\)$/m);
  assert.match(r.stdout, /^Deadline: 1 h, met with 59 m 9 s to spare$/m);
  assert.match(r.stdout, /^Machines \(2, hosts assigned by FNV-1a-32 of the host mod 2\):$/m);
  assert.match(r.stdout, /^ {2}Imbalance: 1× \(slowest machine \/ mean\), pages 1×$/m);
});

test('--help prints the options and exits 0', () => {
  const r = estimate('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^Usage: crawl-planner estimate/);
  for (const option of ['--pages', '--pages-per-host', '--rate', '--workers', '--delay', '--delay-from', '--latency', '--latency-for', '--crawl-delay', '--crawl-delay-policy', '--max-crawl-delay', '--adaptive', '--per-host-concurrency', '--machines', '--deadline', '--json', '--seeds-file']) {
    assert.ok(r.stdout.includes(option), option);
  }
});

// ---- Seeds. ----

test('invalid seed lines are reported with line numbers and reasons; the rest is planned', () => {
  const file = seedsFile(
    'mixed.txt',
    ['# seeds', 'https://a.example/', '', 'not a url', 'ftp://files.example/', 'https://b.example/x  # trailing comment', 'http://./'].join('\n'),
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
  assert.deepEqual(doc.hosts.map((h) => [h.host, h.pages]), [['c.example', 10], ['a.example', 10], ['b.example', 10]]);
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

test('control characters in a bad seed line are not echoed to the terminal', () => {
  const r = estimate('https://a.example/', 'bad\x1b[2Jseed', '--pages', '10');
  assert.equal(r.status, 0);
  assert.equal(r.stderr, 'crawl-planner estimate: argument 2: not a URL: "bad[2Jseed"\n');
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
  [['--pages', '10', '--crawl-delay-policy', 'ignore'], '--crawl-delay-policy: "ignore" must be one of cap, skip, obey'],
  [['--pages', '10', '--delay-from', 'middle'], '--delay-from: "middle" must be one of start, end'],
  [['--pages', '10', '--max-crawl-delay', '1e6'], '--max-crawl-delay: 1e6 is too large (at most 86,400)'],
  [['--pages', '10', '--per-host-concurrency', '0'], '--per-host-concurrency: 0 must be at least 1'],
  [['--pages', '10', '--machines', '2.5'], '--machines: "2.5" must be a whole number'],
  [['--pages', '10', '--deadline', 'soon'], '--deadline: "soon" is not a duration (seconds, or e.g. 90m, 36h, 2d, 1d12h)'],
  [['--pages', '10', '--deadline', '0'], '--deadline: 0 must be greater than 0'],
  [['--pages', '10', '--deadline', '-3h'], '--deadline: "-3h" is not a duration (seconds, or e.g. 90m, 36h, 2d, 1d12h)'],
  [['--pages', '10', '--pages-per-host', '10'], '--pages and --pages-per-host: give one, not both'],
  [[], '--pages, --pages-per-host or --sitemaps is required'],
  [['--pages-per-host', '1000000000000', 'https://b.example/'], '--pages-per-host: 1,000,000,000,000 × 2 hosts is more than 1,000,000,000,000 pages'],
  [['--pages', '10', '--bogus'], "Unknown option '--bogus'"],
  [['--pages'], "Option '--pages <value>' argument missing"],
  [['--pages', '10', '--seeds-file', '/nonexistent/seeds.txt'], '--seeds-file: cannot read /nonexistent/seeds.txt: ENOENT'],
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
  const doc = json('https://a.example/', 'https://b.example/', '--pages', '40', '--delay', '0.5', '--simulate', '--runs', '20', '--seed', '7') as EstimateDocument & {
    simulation: { method: string; runs: number; seed: number; p10Seconds: number; p50Seconds: number; p90Seconds: number; hosts: unknown[]; timeline: { hosts: unknown[] } };
  };
  assert.equal(doc.simulation.method, 'engine');
  assert.equal(doc.simulation.runs, 20);
  assert.equal(doc.simulation.seed, 7);
  for (const p of [doc.simulation.p10Seconds, doc.simulation.p50Seconds, doc.simulation.p90Seconds]) assert.ok(Math.abs(p - doc.totalSeconds) < 1e-6);
  assert.equal(doc.simulation.hosts.length, 2);
  assert.equal(doc.simulation.timeline.hosts.length, 2);
  assert.equal(doc.calibration, null);
  const text = estimate('https://a.example/', '--pages', '10', '--simulate', '--runs', '5');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^Simulated: 10\.5 s in every run \(nothing measured to draw from\) over 5 runs of the crawl engine on virtual time, seed 1; the plan says 10\.5 s$/m);
  // Without --simulate, no simulation.
  assert.equal((json('https://a.example/', '--pages', '10') as EstimateDocument & { simulation: unknown }).simulation, null);
});

const refusals: Array<[string, string[], RegExp]> = [
  ['--runs without --simulate', ['--runs', '5'], /^crawl-planner estimate: --runs: only with --simulate$/],
  ['--seed without --simulate', ['--seed', '5'], /^crawl-planner estimate: --seed: only with --simulate$/],
  ['--runs 0', ['--simulate', '--runs', '0'], /^crawl-planner estimate: --runs: 0 must be at least 1$/],
  ['--runs 1.5', ['--simulate', '--runs', '1.5'], /^crawl-planner estimate: --runs: "1\.5" must be a whole number$/],
  ['--calibrate a missing file', ['--calibrate', 'DIR/missing.json'], /^crawl-planner estimate: --calibrate: cannot read .*missing\.json: ENOENT$/],
  ['--calibrate a file that is not JSON', ['--calibrate', 'DIR/not-json.json'], /^crawl-planner estimate: --calibrate: .*not-json\.json is not JSON \(give the report that crawl --report wrote\)$/],
  ['--calibrate an estimate document', ['--calibrate', 'DIR/estimate.json'], /^crawl-planner estimate: --calibrate: .*estimate\.json: not a crawl report \(one that crawl --report writes\): it has no requests and summary$/],
  ['--calibrate a report of another schema', ['--calibrate', 'DIR/v2.json'], /^crawl-planner estimate: --calibrate: .*v2\.json: crawl report schemaVersion 2 is not supported \(this version reads 1\)$/],
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
