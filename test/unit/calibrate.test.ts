import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationFromReport, CalibrationError } from '../../src/core/calibrate/fromCrawlReport';
import { calibrationMatcher } from '../../src/core/calibrate/match';
import type { Calibration, HostCalibration } from '../../src/core/calibrate/types';
import type { CrawlReport } from '../../src/core/crawl/crawlReport';
import { reportToJson } from '../../src/core/format/safeJson';
import { testCrawlReport } from '../helpers/calibration';
import { plan } from '../../src/core/plan';
import { formatCalibrationText } from '../../src/core/format/calibrationText';

/** The test crawl's report, as its file reads back. */
async function crawlReport(): Promise<CrawlReport> {
  return JSON.parse(reportToJson(await testCrawlReport())) as CrawlReport;
}

test('calibration: per host, the answer times, the faults with their rates and Retry-After pauses, robots.txt and the intervals', async () => {
  const report = await crawlReport();
  const c = calibrationFromReport(report);
  assert.deepEqual(
    c.hosts.map((h) => h.host),
    ['a.example', 'b.example'],
  );
  const a = c.hosts[0]!;
  // 12 pages and a 429 on every 4th request: 15 requests (requests 4, 8 and 12 are 429s). A limiter that
  // counts: the rate is 1/4, not 3 in 15 (the 3 requests after the last 429 say nothing about it).
  assert.equal(a.requests, 15);
  assert.equal(a.faults.tooManyRequests.count, 3);
  assert.equal(a.faults.tooManyRequests.every, 4);
  assert.equal(a.faults.tooManyRequests.rate, 1 / 4);
  assert.deepEqual(a.faults.tooManyRequests.retryAfterSeconds, [2, 2, 2]);
  assert.deepEqual(a.faults.tooManyRequests.latencySeconds, [0.02, 0.02, 0.02]);
  assert.equal(a.faults.serverErrors.count, 0);
  assert.equal(a.faults.serverErrors.rate, 0);
  // The answers that were not faults: 100, 110, …, 210 ms; nearest-rank p50 of 12 is the 6th, p90 the 11th.
  const expected = Array.from({ length: 12 }, (_, i) => (100 + 10 * i) / 1000);
  assert.deepEqual(a.latency.samplesSeconds, expected);
  assert.equal(a.latency.count, 12);
  assert.equal(a.latency.p50Seconds, 0.15);
  assert.equal(a.latency.p90Seconds, 0.2);
  assert.equal(a.latency.minSeconds, 0.1);
  assert.equal(a.latency.maxSeconds, 0.21);
  assert.ok(Math.abs(a.latency.meanSeconds - 0.155) < 1e-12);
  assert.equal(a.robotsLatencySeconds, 0.005);
  assert.equal(a.interval.crawlDelaySeconds, null);
  assert.equal(a.interval.keptSeconds, 0.5);

  const b = c.hosts[1]!;
  // 4 pages, one 503 and one timeout, each retried: 6 requests.
  assert.equal(b.requests, 6);
  // One fault of a kind is no pattern: its rate is count / requests.
  assert.equal(b.faults.serverErrors.count, 1);
  assert.equal(b.faults.serverErrors.every, null);
  assert.equal(b.faults.serverErrors.rate, 1 / 6);
  assert.deepEqual(b.faults.serverErrors.statuses, { '503': 1 });
  assert.deepEqual(b.faults.serverErrors.retryAfterSeconds, [1]);
  assert.equal(b.faults.timeouts.count, 1);
  assert.equal(b.faults.timeouts.rate, 1 / 6);
  assert.deepEqual(b.faults.timeouts.latencySeconds, [0.3]);
  assert.equal(b.faults.otherErrors.count, 0);
  assert.deepEqual(b.latency.samplesSeconds, [0.05, 0.05, 0.05, 0.05]);
  assert.equal(b.robotsLatencySeconds, 0.008);
  // The Crawl-delay from the crawl's own plan; the interval it kept, and what it achieved.
  assert.equal(b.interval.crawlDelaySeconds, 2);
  assert.equal(b.interval.source, 'crawl-delay');
  assert.equal(b.interval.keptSeconds, 2);
  assert.ok(b.interval.achievedMinSeconds! >= 2);
  assert.ok(b.interval.achievedMeanSeconds! >= b.interval.achievedMinSeconds!);
  assert.equal(c.source.pages, report.summary.pages);
  assert.equal(c.source.requests, report.summary.requests);
  // On virtual time the crawl has no overhead of its own: every gap after an ordinary answer is the interval
  // (0.5 s, or b's 2 s) or the answer (a's pages answer in 100 ms or more, under the interval).
  assert.ok(c.overhead.afterInterval.count >= 10);
  assert.equal(c.overhead.afterInterval.maxSeconds, 0);
});

test('calibration: faults that come irregularly get count / requests; faults at N, 2N, … within one get 1/N', () => {
  const at = (positions: number[], n: number) =>
    calibrationFromReport({
      schemaVersion: 1,
      requests: Array.from({ length: n }, (_, i) => ({
        url: `http://a.example/${i}`,
        host: 'a.example',
        outcome: 'response',
        status: positions.includes(i + 1) ? 429 : 200,
        latencyMs: 10,
        robotsTxt: false,
      })),
      summary: { hosts: [] },
      comparison: {},
    }).hosts[0]!.faults.tooManyRequests;
  assert.deepEqual([at([3, 11, 12], 20).every, at([3, 11, 12], 20).rate], [null, 3 / 20]);
  assert.deepEqual([at([10, 20], 21).every, at([10, 20], 21).rate], [10, 1 / 10]);
  assert.deepEqual([at([9, 21, 30], 31).every, at([9, 21, 30], 31).rate], [10, 1 / 10]);
  assert.deepEqual([at([1, 2], 10).every, at([1, 2], 10).rate], [null, 2 / 10]);
});

test("calibration: the crawl's own time per request, from the gaps after ordinary answers", () => {
  // An interval of 100 ms, answers in 10 ms, starts 103 ms apart: 3 ms after each interval; then answers in
  // 200 ms and starts 201 ms apart: 1 ms after each answer.
  const requests: Array<Record<string, unknown>> = [];
  let t = 1_000;
  for (let i = 0; i < 6; i++, t += 103)
    requests.push({
      url: `http://a.example/${i}`,
      host: 'a.example',
      outcome: 'response',
      status: 200,
      latencyMs: 10,
      startedAt: t,
      endedAt: t + 10,
      intervalSeconds: 0.1,
      robotsTxt: false,
    });
  for (let i = 6; i < 12; i++, t += 201)
    requests.push({
      url: `http://a.example/${i}`,
      host: 'a.example',
      outcome: 'response',
      status: 200,
      latencyMs: 200,
      startedAt: t,
      endedAt: t + 200,
      intervalSeconds: 0.1,
      robotsTxt: false,
    });
  const o = calibrationFromReport({ schemaVersion: 1, requests, summary: { hosts: [] }, comparison: {} }).overhead;
  assert.deepEqual(o.afterInterval.samplesSeconds, [0.003, 0.003, 0.003, 0.003, 0.003, 0.003]);
  assert.deepEqual(o.afterResponse.samplesSeconds, [0.001, 0.001, 0.001, 0.001, 0.001]);
  // A start 2 s late waited for something else (its queue empty), and a retry for its own time: neither counts.
  t += 2_000;
  requests.push({
    url: 'http://a.example/12',
    host: 'a.example',
    outcome: 'response',
    status: 200,
    latencyMs: 10,
    startedAt: t,
    endedAt: t + 10,
    intervalSeconds: 0.1,
    robotsTxt: false,
  });
  requests.push({
    url: 'http://a.example/13',
    host: 'a.example',
    outcome: 'response',
    status: 200,
    latencyMs: 10,
    startedAt: t + 150,
    endedAt: t + 160,
    intervalSeconds: 0.1,
    robotsTxt: false,
    attempt: 2,
  });
  const later = calibrationFromReport({ schemaVersion: 1, requests, summary: { hosts: [] }, comparison: {} }).overhead;
  assert.deepEqual(later.afterInterval.samplesSeconds, o.afterInterval.samplesSeconds);
  assert.deepEqual(later.afterResponse.samplesSeconds, o.afterResponse.samplesSeconds);
});

test("calibration: without the crawl's plan, a Crawl-delay is read from the interval the host was kept to", async () => {
  const report = await crawlReport();
  const c = calibrationFromReport({ ...report, plan: null });
  assert.equal(c.hosts[1]!.interval.crawlDelaySeconds, 2);
  assert.equal(c.hosts[0]!.interval.crawlDelaySeconds, null);
});

test('calibration: more samples than CALIBRATION_MAX_SAMPLES are thinned to evenly spaced quantiles, the percentiles from all', () => {
  const requests = Array.from({ length: 3001 }, (_, i) => ({
    url: `http://a.example/${i}`,
    host: 'a.example',
    outcome: 'response',
    status: 200,
    latencyMs: i,
    robotsTxt: false,
  }));
  const c = calibrationFromReport({ schemaVersion: 1, requests, summary: { hosts: [] }, comparison: {} });
  const l = c.hosts[0]!.latency;
  assert.equal(l.count, 3001);
  assert.equal(l.samplesSeconds.length, 1000);
  assert.equal(l.samplesSeconds[0], 0);
  assert.equal(l.samplesSeconds[999], 3);
  assert.equal(l.p50Seconds, 1.5);
  assert.equal(l.p90Seconds, 2.7);
});

const bad: Array<[string, unknown, RegExp]> = [
  ['a list', [1, 2], /^not a crawl report: the file is not a JSON object$/],
  [
    'an estimate document',
    { schemaVersion: 1, totalSeconds: 10, hosts: [] },
    /^not a crawl report \(one that crawl --report writes\): it has no requests and summary$/,
  ],
  ['a robots document', { schemaVersion: 1, origins: [], results: [] }, /^not a crawl report/],
  [
    'another schema version',
    { schemaVersion: 2, requests: [], summary: {}, comparison: {} },
    /^crawl report schemaVersion 2 is not supported \(this version reads 1\)$/,
  ],
  [
    'a request that is not a record',
    { schemaVersion: 1, requests: [7], summary: {}, comparison: {} },
    /^crawl report: requests\[0\] is not a request record$/,
  ],
  [
    'a request without a time',
    {
      schemaVersion: 1,
      requests: [{ host: 'a', outcome: 'response', status: 200, latencyMs: 'x' }],
      summary: {},
      comparison: {},
    },
    /requests\[0\]\.latencyMs is not a time/,
  ],
  [
    'an error of no known kind',
    {
      schemaVersion: 1,
      requests: [{ host: 'a', outcome: 'error', error: { kind: 'boom' }, latencyMs: 1 }],
      summary: {},
      comparison: {},
    },
    /requests\[0\]\.error has no known kind/,
  ],
  [
    'no answered page request',
    {
      schemaVersion: 1,
      requests: [{ host: 'a', outcome: 'unfinished', latencyMs: null }],
      summary: {},
      comparison: {},
    },
    /no page request got an answer/,
  ],
];
for (const [name, doc, message] of bad) {
  test(`calibration: ${name} is refused with a clear error`, () => {
    assert.throws(
      () => calibrationFromReport(doc),
      (err: unknown) => err instanceof CalibrationError && message.test(err.message),
    );
  });
}

test('calibration matches a planned host by host and port, or by its name when the report has it on one other port only', () => {
  const host = (name: string) => ({ host: name }) as HostCalibration;
  const c = {
    hosts: [
      host('a.example:8001'),
      host('b.example:8001'),
      host('b.example:8002'),
      host('127.0.0.11:4000'),
      host('c.example'),
    ],
  } as unknown as Calibration;
  const of = calibrationMatcher(c);
  assert.equal(of('a.example:8001')?.host, 'a.example:8001');
  assert.equal(of('a.example:9999')?.host, 'a.example:8001');
  assert.equal(of('a.example')?.host, 'a.example:8001');
  assert.equal(of('b.example:8002')?.host, 'b.example:8002');
  assert.equal(of('b.example:9999'), undefined, 'two ports of b.example: which one is not known');
  assert.equal(of('127.0.0.11:5000')?.host, '127.0.0.11:4000');
  assert.equal(of('c.example:8080')?.host, 'c.example');
  assert.equal(of('d.example'), undefined);
  assert.equal(calibrationMatcher(null)('a.example:8001'), undefined);
});

test('calibration: a host that blocked the test crawl is not planned on its numbers, and the plan says so', async () => {
  const report = await crawlReport();
  const b = report.summary.hosts.find((h) => h.host === 'b.example')!;
  b.blocking = {
    signals: 2,
    kind: 'refusals',
    text: '403 share rose from 0% to 40% over the last 20 requests',
    action: 'dropped',
  };
  const c = calibrationFromReport(JSON.parse(JSON.stringify(report)));
  assert.deepEqual(
    c.hosts.map((h) => h.host),
    ['a.example'],
  );
  assert.deepEqual(c.blocked, [
    {
      host: 'b.example',
      kind: 'refusals',
      text: '403 share rose from 0% to 40% over the last 20 requests',
      action: 'dropped',
    },
  ]);
  assert.equal(calibrationMatcher(c)('b.example'), undefined, 'b.example is planned with the typed values');
  const p = plan({ seeds: [{ host: 'a.example' }, { host: 'b.example' }], pages: { total: 100 }, calibration: c });
  assert.deepEqual(p.hosts.find((h) => h.host === 'b.example')!.calibrated, []);
  const text = formatCalibrationText(p, c, false);
  assert.match(
    text,
    /b\.example blocked the test crawl \(403 share rose from 0% to 40% over the last 20 requests\): the plan does not use its numbers \(typed values\)/,
  );
  assert.doesNotMatch(text, /did not measure: b\.example/);
  // An older report (no `blocking`): every host is measured, none blocked.
  assert.equal(calibrationFromReport(await crawlReport()).blocked, undefined);
});
