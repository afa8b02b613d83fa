/**
 * Events of a small crawl and a report built from them, for the crawl report's tests (report-*.test.ts,
 * src/core/crawl/crawlReport.ts): request-start, response and error events at offsets from T0, an engine
 * summary, a scripted crawl of one host, and `build` feeding events to a report builder.
 */
import type {
  CrawlEvent,
  CrawlSummary,
  ErrorEvent,
  RequestStartEvent,
  ResponseEvent,
} from '../../src/core/crawl/events';
import { createReportBuilder, type CrawlReport } from '../../src/core/crawl/crawlReport';

export const T0 = 1_700_000_000_000;

/** A request-start event for `url`, `at` ms after T0 (attempt 1, a 2 s interval from Crawl-delay). */
export function start(url: string, at: number, over: Partial<RequestStartEvent> = {}): RequestStartEvent {
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

/** A 200 response of 1,000 bytes to a request started `startedAt` ms after T0, `latencyMs` later. */
export function response(
  url: string,
  startedAt: number,
  latencyMs: number,
  over: Partial<ResponseEvent> = {},
): ResponseEvent {
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

/** An error event (connection refused, not retried) of a request started `startedAt` ms after T0. */
export function error(url: string, startedAt: number, at: number, over: Partial<ErrorEvent> = {}): ErrorEvent {
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

/** The engine's summary of crawl(): two pages, three requests, one retry after a 503. */
export function summary(over: Partial<CrawlSummary> = {}): CrawlSummary {
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
export function crawl(): CrawlEvent[] {
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

/** The report a builder makes of `events` (a plan of 31 s, maxPages 2). */
export function build(
  events: CrawlEvent[],
  extra?: Parameters<ReturnType<typeof createReportBuilder>['build']>[0],
): CrawlReport {
  const builder = createReportBuilder({ startedAt: T0, plan: { totalSeconds: 31 }, options: { maxPages: 2 } });
  for (const e of events) builder.add(e);
  return builder.build(extra);
}
