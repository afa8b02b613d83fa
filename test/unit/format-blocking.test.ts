/**
 * Blocking suspected in what a crawl shows and writes (docs/crawl-engine.md#blocking-suspected): the live line
 * for each reaction (server text sanitised), the summary's mark and line, the event log's line, and the report's
 * `blockingSuspected` and `summary.hosts[].blocking` (also in a summary derived from the events alone).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BlockingSuspectedEvent } from '../../src/core/crawl/events';
import { formatSummary } from '../../src/core/format/crawlLines';
import { eventToJsonLine } from '../../src/core/format/safeJson';
import { hostSummary, one, summary, T0 } from '../helpers/crawlLines';
import { build, response, start } from '../helpers/crawlReport';

function blocking(over: Partial<BlockingSuspectedEvent> = {}): BlockingSuspectedEvent {
  return {
    type: 'blocking-suspected',
    at: T0 + 12_300,
    host: 'a.example',
    kind: 'refusals',
    text: '403 share rose from 0% to 40% over the last 20 requests',
    numbers: { share: 0.4, before: 0, requests: 20, status: 403 },
    signal: 1,
    action: 'slowed',
    intervalSeconds: 2,
    ...over,
  };
}

describe('blocking suspected: the live line', () => {
  it('names the host, the signal, its numbers in words and what was done', () => {
    assert.match(
      one(blocking()),
      /^\s*\+12\.3s {2}a\.example {2}block {2}blocking suspected \(refusals\): 403 share rose from 0% to 40% over the last 20 requests · slowed: interval doubled to 2 s$/,
    );
    assert.match(one(blocking({ action: 'dropped', signal: 2 })), /· host dropped$/);
    assert.match(one(blocking({ action: 'warned' })), /· warned only \(--on-block warn\)$/);
    assert.match(one(blocking({ unit: '127.0.0.5' })), /· unit 127\.0\.0\.5$/);
  });

  it('sanitises text that came from a server (a marker of the user, a host name)', () => {
    const line = one(blocking({ kind: 'marker', text: '2 of the last 20 answers were a block page (x\x1b[2J\u202e)' }));
    assert.doesNotMatch(line, /[\x1b\u202e]/);
  });
});

describe('blocking suspected: the summary', () => {
  it('marks the host in the table and explains it in a line under it', () => {
    const lines = formatSummary(
      summary({
        hosts: [
          hostSummary({
            host: 'a.example',
            dropped: 'blocking-suspected: refusals: 403 share rose from 13% to 100% over the last 5 requests',
            blocking: {
              signals: 2,
              kind: 'refusals',
              text: '403 share rose from 13% to 100% over the last 5 requests',
              action: 'dropped',
            },
          }),
          hostSummary({ host: 'b.example' }),
        ],
      }),
      { color: false },
    );
    assert.ok(lines.some((l) => /^a\.example ! /.test(l)));
    assert.ok(lines.some((l) => /^b\.example {3}/.test(l)));
    assert.equal(
      lines.at(-1),
      '! blocking suspected on a.example: 403 share rose from 13% to 100% over the last 5 requests (refusals; 2 signals; dropped)',
    );
  });
});

describe('blocking suspected: the event log and the report', () => {
  it('round-trips through one JSON line', () => {
    const e = blocking();
    assert.deepEqual(JSON.parse(eventToJsonLine(e)), e);
  });

  it("is kept in the report's blockingSuspected, and a derived summary marks the host", () => {
    const report = build([
      start('http://a.example/', 0),
      response('http://a.example/', 0, 10, { status: 403 }),
      blocking({ at: T0 + 10 }),
      blocking({ at: T0 + 20, signal: 2, action: 'dropped' }),
    ]);
    const { type: _type, ...first } = blocking({ at: T0 + 10 });
    assert.deepEqual(report.blockingSuspected[0], first);
    assert.equal(report.blockingSuspected.length, 2);
    assert.equal(report.summarySource, 'derived');
    assert.deepEqual(report.summary.hosts[0]!.blocking, {
      signals: 2,
      kind: 'refusals',
      text: '403 share rose from 0% to 40% over the last 20 requests',
      action: 'dropped',
    });
  });
});
