/**
 * `crawl-planner estimate` on bad input, end to end: invalid seed lines reported with line numbers and reasons,
 * control characters never echoed, and every bad option or missing seed an exit 2 with one line on stderr and no
 * stack trace. The BUILT dist/cli.js in a child process, as a user runs it (test/helpers/estimateCli.ts). No
 * network: estimate never fetches anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { EstimateDocument } from '../../src/core/plan';
import { estimate, seedsFile, useEstimateCli } from '../helpers/estimateCli';
import { CLI } from '../helpers/cli';

useEstimateCli();

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
