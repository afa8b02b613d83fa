/**
 * eventToJsonLine (src/core/format/safeJson.ts), the crawl's event log: every event type round-trips through
 * one JSON line, keys in a fixed order, control, C1 and bidi characters escaped, a whole log parsed back.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CrawlEvent } from '../../src/core/crawl/events';
import { eventToJsonLine } from '../../src/core/format/safeJson';
import { crawl, error, response, T0 } from '../helpers/crawlReport';

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
