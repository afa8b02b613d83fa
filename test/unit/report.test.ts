import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type {
  CrawlEvent,
  CrawlSummary,
  ErrorEvent,
  RequestStartEvent,
  ResponseEvent,
} from '../../src/core/crawl/events';
import {
  REPORT_SCHEMA_VERSION,
  createReportBuilder,
  summarizeFromRequests,
  type CrawlReport,
} from '../../src/core/crawl/crawlReport';
import { eventToJsonLine, reportToJson } from '../../src/core/format/safeJson';

const T0 = 1_700_000_000_000;

function start(url: string, at: number, over: Partial<RequestStartEvent> = {}): RequestStartEvent {
  return {
    type: 'request-start',
    at: T0 + at,
    url,
    host: new URL(url).host,
    method: 'GET',
    attempt: 1,
    intervalSeconds: 2,
    intervalSource: 'crawl-delay',
    ...over,
  };
}

function response(url: string, startedAt: number, latencyMs: number, over: Partial<ResponseEvent> = {}): ResponseEvent {
  return {
    type: 'response',
    at: T0 + startedAt + latencyMs,
    url,
    host: new URL(url).host,
    status: 200,
    attempt: 1,
    startedAt: T0 + startedAt,
    latencyMs,
    bytes: 1000,
    truncated: false,
    linksQueued: 2,
    intervalSeconds: 2,
    intervalSource: 'crawl-delay',
    ...over,
  };
}

function error(url: string, startedAt: number, at: number, over: Partial<ErrorEvent> = {}): ErrorEvent {
  return {
    type: 'error',
    at: T0 + at,
    url,
    host: new URL(url).host,
    attempt: 1,
    kind: 'connect',
    message: 'ECONNREFUSED 127.0.0.1:9',
    startedAt: T0 + startedAt,
    willRetry: false,
    ...over,
  };
}

function summary(over: Partial<CrawlSummary> = {}): CrawlSummary {
  return {
    startedAt: T0,
    endedAt: T0 + 34_200,
    elapsedSeconds: 34.2,
    plannedSeconds: 31,
    pages: 2,
    requests: 3,
    statusCounts: { '200': 2, '503': 1 },
    retries: 1,
    robotsSkips: 1,
    errors: 0,
    retryAfterSeen: ['5'],
    hosts: [
      {
        host: 'a.example',
        requests: 3,
        pages: 2,
        minIntervalSeconds: 2,
        meanIntervalSeconds: 2.5,
        plannedIntervalSeconds: 2,
        intervalSource: 'crawl-delay',
        retryAfterSeen: ['5'],
        retries: 1,
        robotsSkips: 1,
        errors: 0,
      },
    ],
    notFollowed: [],
    endReason: 'complete',
    ...over,
  };
}

/** A small crawl of one host: a page, a 503 with Retry-After then a retry that works, a robots skip. */
function crawl(): CrawlEvent[] {
  const a = 'http://a.example/';
  const b = 'http://a.example/b';
  return [
    { type: 'queued', at: T0, url: a, host: 'a.example', depth: 0 },
    {
      type: 'robots-skip',
      at: T0 + 1,
      url: 'http://a.example/private/x',
      host: 'a.example',
      line: 3,
      rule: 'Disallow: /private',
      reason: 'disallowed',
    },
    start(a, 0),
    response(a, 0, 120),
    start(b, 2_000, { sinceLastStartSeconds: 2 }),
    response(b, 2_000, 80, { status: 503, linksQueued: 0 }),
    { type: 'host-paused', at: T0 + 2_080, host: 'a.example', until: T0 + 7_080, retryAfter: '5', status: 503 },
    {
      type: 'retry-scheduled',
      at: T0 + 2_080,
      url: b,
      host: 'a.example',
      attempt: 2,
      notBefore: T0 + 7_080,
      reason: '503',
    },
    start(b, 7_100, { attempt: 2, intervalSeconds: 5, intervalSource: 'retry-after', sinceLastStartSeconds: 5.1 }),
    response(b, 7_100, 90, { attempt: 2, intervalSeconds: 5, intervalSource: 'retry-after' }),
    { type: 'progress', at: T0 + 8_000, done: 2, planned: 2, queued: 0, inFlight: 0, ratePerSecond: 0.25 },
    { type: 'done', at: T0 + 34_200, summary: summary() },
  ];
}

function build(
  events: CrawlEvent[],
  extra?: Parameters<ReturnType<typeof createReportBuilder>['build']>[0],
): CrawlReport {
  const builder = createReportBuilder({ startedAt: T0, plan: { totalSeconds: 31 }, options: { maxPages: 2 } });
  for (const e of events) builder.add(e);
  return builder.build(extra);
}

describe('report: one record per request', () => {
  it('pairs request-start with its response by (url, attempt)', () => {
    const r = build(crawl());
    assert.equal(r.requests.length, 3);
    const first = r.requests[0]!;
    assert.deepEqual(first, {
      url: 'http://a.example/',
      host: 'a.example',
      attempt: 1,
      startedAt: T0,
      sentAt: null,
      endedAt: T0 + 120,
      outcome: 'response',
      status: 200,
      error: null,
      latencyMs: 120,
      bytes: 1000,
      truncated: false,
      intervalSeconds: 2,
      intervalSource: 'crawl-delay',
      sinceLastStartSeconds: null,
      location: null,
      linksQueued: 2,
      retried: false,
      robotsTxt: false,
    });
  });

  it('keeps when the request reached its connection (sentAt) when the fetcher reported it', () => {
    const events = crawl().map((e) =>
      e.type === 'response' && e.url === 'http://a.example/' ? { ...e, sentAt: T0 + 3 } : e,
    );
    assert.equal(build(events).requests[0]!.sentAt, T0 + 3);
  });

  it('gives a retry its own record with attempt 2, and marks the first as retried', () => {
    const [, first, second] = build(crawl()).requests;
    assert.equal(first!.url, 'http://a.example/b');
    assert.equal(first!.attempt, 1);
    assert.equal(first!.status, 503);
    assert.equal(first!.retried, true);
    assert.equal(second!.url, 'http://a.example/b');
    assert.equal(second!.attempt, 2);
    assert.equal(second!.status, 200);
    assert.equal(second!.startedAt, T0 + 7_100);
    assert.equal(second!.intervalSource, 'retry-after');
    assert.equal(second!.intervalSeconds, 5);
    assert.equal(second!.sinceLastStartSeconds, 5.1);
    assert.equal(second!.retried, false);
  });

  it('records an error with status null, bytes null and error {kind, message}', () => {
    const url = 'http://down.example/';
    const r = build([
      start(url, 0),
      error(url, 0, 3_000, { kind: 'connect-timeout', message: 'timed out after 3000 ms' }),
    ]);
    const rec = r.requests[0]!;
    assert.equal(rec.outcome, 'error');
    assert.equal(rec.status, null);
    assert.equal(rec.bytes, null);
    assert.deepEqual(rec.error, { kind: 'connect-timeout', message: 'timed out after 3000 ms' });
    assert.equal(rec.latencyMs, 3_000);
    assert.equal(rec.endedAt, T0 + 3_000);
    assert.equal(rec.intervalSeconds, 2);
  });

  it('an error that will be retried produces two records, the second with attempt 2', () => {
    const url = 'http://a.example/flaky';
    const r = build([
      start(url, 0),
      error(url, 0, 100, { kind: 'reset', willRetry: true }),
      {
        type: 'retry-scheduled',
        at: T0 + 100,
        url,
        host: 'a.example',
        attempt: 2,
        notBefore: T0 + 2_000,
        reason: 'reset',
      },
      start(url, 2_000, { attempt: 2 }),
      response(url, 2_000, 50, { attempt: 2 }),
    ]);
    assert.deepEqual(
      r.requests.map((x) => [x.attempt, x.outcome, x.status, x.error?.kind ?? null, x.retried]),
      [
        [1, 'error', null, 'reset', true],
        [2, 'response', 200, null, false],
      ],
    );
    assert.deepEqual(r.retries, [
      { url, host: 'a.example', at: T0 + 100, attempt: 2, notBefore: T0 + 2_000, reason: 'reset' },
    ]);
  });

  it('keeps requests in start order even when responses arrive out of order', () => {
    const slow = 'http://a.example/slow';
    const fast = 'http://b.example/fast';
    const r = build([start(slow, 0), start(fast, 10), response(fast, 10, 5), response(slow, 0, 900)]);
    assert.deepEqual(
      r.requests.map((x) => x.url),
      [slow, fast],
    );
  });

  it('uses the outcome’s own startedAt when no request-start was seen', () => {
    const url = 'http://a.example/x';
    const r = build([response(url, 500, 40), error('http://a.example/y', 600, 700)]);
    assert.equal(r.requests[0]!.startedAt, T0 + 500);
    assert.equal(r.requests[0]!.intervalSeconds, 2);
    assert.equal(r.requests[1]!.startedAt, T0 + 600);
    assert.equal(r.requests[1]!.intervalSeconds, null);
  });

  it('lists a start with no outcome as unfinished', () => {
    const url = 'http://a.example/hang';
    const r = build([start(url, 0)], { endedAt: T0 + 5_000 });
    assert.equal(r.requests.length, 1);
    assert.equal(r.requests[0]!.outcome, 'unfinished');
    assert.equal(r.requests[0]!.endedAt, null);
    assert.equal(r.requests[0]!.status, null);
    assert.equal(r.endedAt, T0 + 5_000);
  });

  it('pairs a URL fetched twice with the same attempt number first-in first-out', () => {
    const url = 'http://a.example/again';
    const r = build([
      start(url, 0),
      start(url, 10),
      response(url, 0, 100, { status: 200 }),
      response(url, 10, 200, { status: 304 }),
    ]);
    assert.deepEqual(
      r.requests.map((x) => [x.startedAt - T0, x.status]),
      [
        [0, 200],
        [10, 304],
      ],
    );
  });
});

describe('report: the rest of the document', () => {
  it('carries the schema version, plan, options, the engine summary and the comparison', () => {
    const r = build(crawl());
    assert.equal(r.schemaVersion, REPORT_SCHEMA_VERSION);
    assert.equal(r.schemaVersion, 1);
    assert.deepEqual(r.plan, { totalSeconds: 31 });
    assert.deepEqual(r.options, { maxPages: 2 });
    assert.equal(r.summarySource, 'engine');
    assert.deepEqual(r.summary, summary());
    assert.equal(r.startedAt, T0);
    assert.equal(r.endedAt, T0 + 34_200);
    assert.deepEqual(r.comparison, {
      elapsedSeconds: 34.2,
      plannedSeconds: 31,
      elapsedVsPlannedPercent: 10.3,
      band: null,
      inBand: null,
      hosts: null,
    });
  });

  it('with page budgets, each host planned against actual: pages, requests, time from its first request to its last answer', () => {
    const r = build(crawl(), {
      plannedHosts: [
        { host: 'a.example', pages: 2, requests: 3, seconds: 6.5 },
        { host: 'u.example', pages: null, requests: 1, seconds: 0 },
      ],
    });
    assert.deepEqual(r.comparison.hosts, [
      {
        host: 'a.example',
        plannedPages: 2,
        actualPages: 2,
        plannedRequests: 3,
        actualRequests: 3,
        plannedSeconds: 6.5,
        actualSeconds: 7.19,
        secondsVsPlannedPercent: 10.6,
      },
      {
        host: 'u.example',
        plannedPages: null,
        actualPages: 0,
        plannedRequests: null,
        actualRequests: 0,
        plannedSeconds: null,
        actualSeconds: 0,
        secondsVsPlannedPercent: null,
      },
    ]);
  });

  it("with the plan's simulated band, says where the elapsed time falls in it", () => {
    const at = (p10Seconds: number, p90Seconds: number) => {
      const band = { p10Seconds, p50Seconds: (p10Seconds + p90Seconds) / 2, p90Seconds, runs: 200 };
      const events = crawl().map((e) => (e.type === 'done' ? { ...e, summary: summary({ plannedBand: band }) } : e));
      return build(events).comparison;
    };
    assert.deepEqual(at(30, 35), {
      elapsedSeconds: 34.2,
      plannedSeconds: 31,
      elapsedVsPlannedPercent: 10.3,
      band: { p10Seconds: 30, p50Seconds: 32.5, p90Seconds: 35, runs: 200 },
      inBand: 'inside',
      hosts: null,
    });
    assert.equal(at(30, 34.2).inBand, 'inside');
    assert.equal(at(30, 34).inBand, 'above');
    assert.equal(at(34.3, 40).inBand, 'below');
  });

  it('lists robots skips, pauses, dropped hosts and dropped URLs', () => {
    const events: CrawlEvent[] = [
      ...crawl().slice(0, -1),
      {
        type: 'host-dropped',
        at: T0 + 9_000,
        host: 'a.example',
        reason: 'retry-after-above-cap',
        detail: 'Retry-After 86400 s',
        urlsLeft: 2,
      },
    ];
    const r = build(events, {
      urls: [
        { url: 'http://a.example/', host: 'a.example', outcome: 'fetched', status: 200, attempts: 1, depth: 0 },
        {
          url: 'http://a.example/c',
          host: 'a.example',
          outcome: 'host-dropped',
          attempts: 0,
          depth: 1,
          detail: 'host dropped',
        },
        { url: 'http://a.example/d', host: 'a.example', outcome: 'host-dropped', attempts: 0, depth: 1 },
      ],
    });
    assert.deepEqual(r.robotsSkips, [
      {
        url: 'http://a.example/private/x',
        host: 'a.example',
        at: T0 + 1,
        reason: 'disallowed',
        line: 3,
        rule: 'Disallow: /private',
      },
    ]);
    assert.deepEqual(r.pauses, [
      { host: 'a.example', at: T0 + 2_080, until: T0 + 7_080, retryAfter: '5', status: 503 },
    ]);
    assert.deepEqual(r.droppedHosts, [
      {
        host: 'a.example',
        at: T0 + 9_000,
        reason: 'retry-after-above-cap',
        detail: 'Retry-After 86400 s',
        urlsLeft: 2,
      },
    ]);
    assert.deepEqual(r.droppedUrls, ['http://a.example/c', 'http://a.example/d']);
    assert.equal(r.urls!.length, 3);
  });

  it('has urls null and droppedUrls empty without an outcome list', () => {
    const r = build(crawl());
    assert.equal(r.urls, null);
    assert.deepEqual(r.droppedUrls, []);
  });

  it('puts the measured intervals next to the engine’s per-host figures', () => {
    const r = build(crawl());
    assert.equal(r.hosts.length, 1);
    const h = r.hosts[0]!;
    assert.equal(h.host, 'a.example');
    assert.equal(h.minIntervalSeconds, 2);
    assert.deepEqual(h.measured, {
      host: 'a.example',
      requests: 3,
      minIntervalSeconds: 2,
      meanIntervalSeconds: 3.55,
      startsBelowInterval: 0,
    });
  });

  it('derives a summary from the events when no done event came', () => {
    const r = build(
      crawl().filter((e) => e.type !== 'done'),
      { endedAt: T0 + 10_000 },
    );
    assert.equal(r.summarySource, 'derived');
    const s = r.summary;
    assert.equal(s.elapsedSeconds, 10);
    assert.equal(s.pages, 2);
    assert.equal(s.requests, 3);
    assert.deepEqual(s.statusCounts, { '200': 2, '503': 1 });
    assert.equal(s.retries, 1);
    assert.equal(s.robotsSkips, 1);
    assert.equal(s.errors, 0);
    assert.deepEqual(s.retryAfterSeen, ['5']);
    assert.equal(s.endReason, 'stopped');
    assert.equal(s.plannedSeconds, undefined);
    assert.equal(r.comparison.elapsedVsPlannedPercent, null);
    const h = s.hosts[0]!;
    assert.equal(h.plannedIntervalSeconds, 2);
    assert.equal(h.intervalSource, 'crawl-delay');
    assert.equal(h.minIntervalSeconds, 2);
    assert.equal(h.meanIntervalSeconds, 3.55);
    assert.deepEqual(h.retryAfterSeen, ['5']);
    assert.deepEqual(s.notFollowed, []);
  });

  it('a derived summary counts what was not followed from the URL outcomes it is given', () => {
    const urls = [
      { url: 'http://a.example/', host: 'a.example', outcome: 'fetched' as const, attempts: 1, depth: 0 },
      {
        url: 'http://b.example/x',
        host: 'b.example',
        outcome: 'out-of-scope' as const,
        attempts: 0,
        depth: 1,
        detail: 'other-host',
      },
      {
        url: 'http://b.example/y',
        host: 'b.example',
        outcome: 'out-of-scope' as const,
        attempts: 0,
        depth: 1,
        detail: 'other-host',
      },
      { url: 'mailto:x@y', host: '', outcome: 'out-of-scope' as const, attempts: 0, depth: 1, detail: 'scheme' },
      { url: 'http://a.example/p', host: 'a.example', outcome: 'robots-disallowed' as const, attempts: 0, depth: 1 },
    ];
    const r = build(
      crawl().filter((e) => e.type !== 'done'),
      { endedAt: T0 + 10_000, urls },
    );
    assert.deepEqual(r.summary.notFollowed, [
      { reason: 'other-host', urls: 2, hosts: [{ host: 'b.example', urls: 2 }], moreHosts: 0 },
      { reason: 'robots-disallowed', urls: 1, hosts: [{ host: 'a.example', urls: 1 }], moreHosts: 0 },
    ]);
  });

  it('build() can be called again and the result is plain JSON', () => {
    const builder = createReportBuilder({ startedAt: T0 });
    for (const e of crawl()) builder.add(e);
    const once = builder.build();
    const twice = builder.build();
    assert.deepEqual(once, twice);
    assert.deepEqual(JSON.parse(reportToJson(once)), once);
    assert.equal(once.plan, null);
    assert.equal(once.options, null);
  });
});

describe('summarizeFromRequests', () => {
  const cases: Array<{
    name: string;
    starts: Array<[string, number, number?]>;
    expected: Array<[string, number, number | null, number | null, number]>;
  }> = [
    { name: 'one start: no interval', starts: [['a', 0]], expected: [['a', 1, null, null, 0]] },
    {
      name: 'regular 2 s gaps',
      starts: [
        ['a', 0, 2],
        ['a', 2_000, 2],
        ['a', 4_000, 2],
      ],
      expected: [['a', 3, 2, 2, 0]],
    },
    {
      name: 'min and mean of uneven gaps, input unsorted',
      starts: [
        ['a', 6_500, 2],
        ['a', 0, 2],
        ['a', 4_500, 2],
        ['a', 2_000, 2],
      ],
      expected: [['a', 4, 2, 6.5 / 3, 0]],
    },
    {
      name: 'starts closer than the interval are counted',
      starts: [
        ['a', 0, 2],
        ['a', 1_500, 2],
        ['a', 3_500, 2],
        ['a', 4_000, 0.5],
      ],
      expected: [['a', 4, 0.5, 4 / 3, 1]],
    },
    {
      name: '1 ms of slack',
      starts: [
        ['a', 0, 2],
        ['a', 1_999, 2],
      ],
      expected: [['a', 2, 1.999, 1.999, 0]],
    },
    {
      name: 'hosts apart, in order of first start',
      starts: [
        ['b', 100],
        ['a', 0],
        ['b', 1_100],
        ['a', 3_000],
      ],
      expected: [
        ['b', 2, 1, 1, 0],
        ['a', 2, 3, 3, 0],
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const records = c.starts.map(([host, at, interval]) => ({
        host,
        startedAt: at,
        intervalSeconds: interval ?? null,
      }));
      const got = summarizeFromRequests(records).map((m) => [
        m.host,
        m.requests,
        m.minIntervalSeconds,
        m.meanIntervalSeconds,
        m.startsBelowInterval,
      ]);
      assert.equal(got.length, c.expected.length);
      for (let i = 0; i < got.length; i++) {
        const [host, n, min, mean, below] = got[i]!;
        const [eh, en, emin, emean, ebelow] = c.expected[i]!;
        assert.equal(host, eh);
        assert.equal(n, en);
        assert.equal(below, ebelow);
        for (const [g, e] of [
          [min, emin],
          [mean, emean],
        ] as const) {
          if (e === null) assert.equal(g, null);
          else assert.ok(Math.abs((g as number) - e) < 1e-9, `${g} ≠ ${e}`);
        }
      }
    });
  }

  it('agrees with the engine summary on the sample crawl', () => {
    const r = build(crawl());
    const measured = summarizeFromRequests(r.requests)[0]!;
    assert.equal(measured.minIntervalSeconds, r.summary.hosts[0]!.minIntervalSeconds);
  });
});

describe('eventToJsonLine', () => {
  const hostile = 'x\x1b[2J\u009b31m\x07\r\n\u2028\u202e';
  const events: CrawlEvent[] = [
    ...crawl(),
    error('http://a.example/e', 0, 10, { message: hostile }),
    { type: 'host-dropped', at: T0, host: 'a.example', reason: 'consecutive-failures', detail: hostile, urlsLeft: 3 },
  ];

  for (const event of events) {
    it(`${event.type} round-trips through one JSON line`, () => {
      const line = eventToJsonLine(event);
      assert.doesNotMatch(line, /[\r\n]/);
      assert.deepEqual(JSON.parse(line), event);
    });
  }

  it('puts type and at first and sorts the other keys', () => {
    const line = eventToJsonLine(response('http://a.example/', 0, 10));
    assert.deepEqual(Object.keys(JSON.parse(line)), [
      'type',
      'at',
      'attempt',
      'bytes',
      'host',
      'intervalSeconds',
      'intervalSource',
      'latencyMs',
      'linksQueued',
      'startedAt',
      'status',
      'truncated',
      'url',
    ]);
    assert.ok(line.startsWith('{"type":"response","at":'));
  });

  it('is the same text whatever order the event’s keys were built in', () => {
    const e = response('http://a.example/', 0, 10);
    const reversed = Object.fromEntries(Object.entries(e).reverse()) as unknown as CrawlEvent;
    assert.equal(eventToJsonLine(reversed), eventToJsonLine(e));
  });

  it('escapes control, C1 and bidi characters so the log is safe to cat', () => {
    const line = eventToJsonLine(error('http://a.example/e', 0, 10, { message: hostile }));
    assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202e]/);
    assert.match(line, /\\u001b\[2J\\u009b31m\\u0007\\r\\n\\u2028\\u202e/);
  });

  it('a whole log parses back line by line', () => {
    const log = events.map((e) => `${eventToJsonLine(e)}\n`).join('');
    const back = log
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as CrawlEvent);
    assert.deepEqual(back, events);
  });
});
