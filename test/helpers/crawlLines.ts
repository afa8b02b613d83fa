/**
 * Crawl events and a crawl formatter for the tests of the crawl's terminal lines (format-*.test.ts,
 * src/core/format/crawlLines.ts): a response, an error, host and crawl summaries, one event of every type,
 * and `run` / `one` formatting events into lines (no colour unless asked).
 */
import assert from 'node:assert/strict';
import type { CrawlEvent, CrawlSummary, ErrorEvent, HostSummary, ResponseEvent } from '../../src/core/crawl/events';
import { createCrawlFormatter, type CrawlFormatterOptions } from '../../src/core/format/crawlLines';

export const T0 = 1_700_000_000_000;

/** The escape character that starts every terminal control sequence. */
export const ESC = '\x1b';

/** A 200 response of a.example, 12.3 s into the crawl, 143 ms after its start (a 2 s Crawl-delay interval). */
export function response(over: Partial<ResponseEvent> = {}): ResponseEvent {
  return {
    type: 'response',
    at: T0 + 12_300,
    url: 'http://a.example/docs/page?x=1',
    host: 'a.example',
    status: 200,
    attempt: 1,
    startedAt: T0 + 12_157,
    latencyMs: 143,
    bytes: 5120,
    truncated: false,
    linksQueued: 3,
    intervalSeconds: 2,
    intervalSource: 'crawl-delay',
    ...over,
  };
}

/** A headers timeout on a.example that will be retried. */
export function error(over: Partial<ErrorEvent> = {}): ErrorEvent {
  return {
    type: 'error',
    at: T0 + 20_000,
    url: 'http://a.example/slow',
    host: 'a.example',
    attempt: 1,
    kind: 'headers-timeout',
    message: 'no headers within 10000 ms',
    startedAt: T0 + 10_000,
    willRetry: true,
    ...over,
  };
}

/** a.example's line of the summary: 20 requests, 18 pages, its 2 s Crawl-delay kept. */
export function hostSummary(over: Partial<HostSummary> = {}): HostSummary {
  return {
    host: 'a.example',
    requests: 20,
    pages: 18,
    minIntervalSeconds: 2,
    meanIntervalSeconds: 2.15,
    plannedIntervalSeconds: 2,
    intervalSource: 'crawl-delay',
    retryAfterSeen: [],
    retries: 1,
    robotsSkips: 2,
    errors: 1,
    ...over,
  };
}

/** The summary of a crawl of two hosts, b.example dropped for a Retry-After above the cap. */
export function summary(over: Partial<CrawlSummary> = {}): CrawlSummary {
  return {
    startedAt: T0,
    endedAt: T0 + 34_200,
    elapsedSeconds: 34.2,
    plannedSeconds: 31,
    pages: 42,
    requests: 47,
    statusCounts: { '503': 1, '200': 40, error: 1, '301': 2, '429': 3 },
    retries: 3,
    robotsSkips: 2,
    errors: 1,
    retryAfterSeen: ['120', '5', '120'],
    hosts: [
      hostSummary(),
      hostSummary({
        host: 'b.example',
        requests: 27,
        pages: 24,
        minIntervalSeconds: 0.9,
        meanIntervalSeconds: 1.5,
        plannedIntervalSeconds: 1,
        intervalSource: 'configured',
        retryAfterSeen: ['120', '5', '120'],
        retries: 2,
        robotsSkips: 0,
        errors: 0,
        dropped: 'retry-after-above-cap',
      }),
    ],
    notFollowed: [],
    endReason: 'complete',
    ...over,
  };
}

/** One of every event type, in a plausible order. */
export function allEvents(): CrawlEvent[] {
  return [
    { type: 'queued', at: T0, url: 'http://a.example/', host: 'a.example', depth: 0 },
    {
      type: 'robots-skip',
      at: T0 + 5,
      url: 'http://a.example/private/x',
      host: 'a.example',
      line: 3,
      rule: 'Disallow: /private',
      reason: 'disallowed',
    },
    {
      type: 'request-start',
      at: T0 + 10,
      url: 'http://a.example/',
      host: 'a.example',
      method: 'GET',
      attempt: 1,
      intervalSeconds: 2,
      intervalSource: 'crawl-delay',
    },
    response({ at: T0 + 153, url: 'http://a.example/', startedAt: T0 + 10 }),
    response({ status: 301, location: 'http://a.example/new' }),
    response({
      host: 'b.example',
      url: 'http://b.example/x',
      status: 429,
      intervalSource: 'configured',
      intervalSeconds: 1,
    }),
    { type: 'host-paused', at: T0 + 13_000, host: 'b.example', until: T0 + 133_000, retryAfter: '120', status: 429 },
    {
      type: 'retry-scheduled',
      at: T0 + 13_000,
      url: 'http://b.example/x',
      host: 'b.example',
      attempt: 2,
      notBefore: T0 + 17_000,
      reason: '429 Too Many Requests',
    },
    response({
      host: 'b.example',
      url: 'http://b.example/x',
      status: 503,
      attempt: 2,
      intervalSource: 'retry-after',
      intervalSeconds: 120,
    }),
    error(),
    {
      type: 'host-dropped',
      at: T0 + 200_000,
      host: 'b.example',
      reason: 'retry-after-above-cap',
      detail: 'Retry-After 86400 s is above the cap of 300 s',
      urlsLeft: 12,
    },
    {
      type: 'progress',
      at: T0 + 62_000,
      done: 42,
      planned: 100,
      queued: 58,
      inFlight: 3,
      ratePerSecond: 1.333,
      etaSeconds: 45,
    },
    { type: 'done', at: T0 + 34_200, summary: summary() },
  ];
}

/** The lines a formatter (no colour, started at T0, unless `options` say otherwise) prints for `events`. */
export function run(events: CrawlEvent[], options: Partial<CrawlFormatterOptions> = {}): string[] {
  const f = createCrawlFormatter({ color: false, startedAt: T0, ...options });
  return events.flatMap((e) => f.format(e));
}

/** The one line an event prints (asserting it is one). */
export function one(event: CrawlEvent, options: Partial<CrawlFormatterOptions> = {}): string {
  const lines = run([event], options);
  assert.equal(lines.length, 1, `expected one line, got ${JSON.stringify(lines)}`);
  return lines[0]!;
}
