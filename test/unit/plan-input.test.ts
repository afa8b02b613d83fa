/**
 * What goes into a plan and what comes out (src/core/plan/): validatePlanInput's refusals, durations and
 * deadlines as typed (the CLI's --deadline and the sidebar's field read them alike), and estimateDocument,
 * the JSON document of `estimate --json`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  estimateDocument,
  ESTIMATE_SCHEMA_VERSION,
  parseDeadlineText,
  parseDurationText,
  plan,
  PlanInputError,
  validatePlanInput,
  type PlanInput,
} from '../../src/core/plan';
import { A, hosts } from '../helpers/plan';

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
    'bytesPerPage',
    'bytesSource',
    'bytes',
    'skipped',
  ]);
  // Plain data: survives a JSON round trip unchanged.
  assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
});
