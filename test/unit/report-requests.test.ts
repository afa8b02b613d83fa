/**
 * The crawl report's request records (src/core/crawl/crawlReport.ts): a request-start paired with its response
 * or error by (url, attempt), sentAt kept, a retry as a record of its own, start order whatever order the
 * answers came in, and a start with no outcome listed as unfinished.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, crawl, error, response, start, T0 } from '../helpers/crawlReport';

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
      wireBytes: null,
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

  it('keeps the bytes on the wire when the fetcher gave them (null: unknown), and totals them in a derived summary', () => {
    const events = crawl()
      .map((e) => (e.type === 'response' && e.url === 'http://a.example/' ? { ...e, wireBytes: 400 } : e))
      .filter((e) => e.type !== 'done');
    const r = build(events);
    assert.equal(r.requests[0]!.wireBytes, 400);
    assert.equal(r.requests[2]!.wireBytes, null);
    const t = r.summary.transferred!;
    assert.equal(t.wireBytes, 400);
    assert.equal(
      t.bytes,
      r.requests.reduce((s, q) => s + (q.bytes ?? 0), 0),
    );
    assert.equal(t.wireBytesUnknown, r.requests.filter((q) => q.outcome === 'response').length - 1);
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
