/**
 * `crawl-planner estimate --json` end to end: the numbers of the politeness rules and of each planning option
 * (Crawl-delay, workers and rate, adaptive delay, latency, the Crawl-delay policies, deadline, machines) as the
 * JSON document gives them, table-driven. The BUILT dist/cli.js in a child process, as a user runs it
 * (test/helpers/estimateCli.ts). No network: estimate never fetches anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tidy, type EstimateDocument } from '../../src/core/plan';
import { estimateJson as json, useEstimateCli } from '../helpers/estimateCli';

useEstimateCli();

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
      bytesPerPage: null,
      bytesSource: null,
      bytes: null,
      skipped: false,
    },
  ]);
  // No test crawl and no --page-size: the bytes are unknown, not guessed.
  assert.deepEqual(doc.transfer, { bytes: null, peakBytesPerSecond: null, unknownHosts: ['a.example'] });
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
