/**
 * `crawl-planner estimate` as text end to end: the per-host table, the total in human units, the binding constraint
 * in words, per-worker delay, deadline and machines; the seed notes (credentials, IP literals, local addresses,
 * invisible characters, duplicates) on stderr and in --json; and --help. The BUILT dist/cli.js in a child process,
 * as a user runs it (test/helpers/estimateCli.ts). No network: estimate never fetches anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimate, estimateJson as json, seedsFile, useEstimateCli } from '../helpers/estimateCli';

useEstimateCli();

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
