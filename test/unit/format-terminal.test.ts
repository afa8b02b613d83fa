/**
 * What the crawl's lines send to the terminal (src/core/format/crawlLines.ts): colour only when asked (SGR per
 * status class), no escape sequence or line break injected by hostile text from servers and URLs, and line
 * endings (\r\n for a terminal, none inside a line, no trailing spaces in the summary).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CrawlEvent } from '../../src/core/crawl/events';
import { joinLines, toTerminal } from '../../src/core/format/crawlLines';
import { stripAnsi } from '../../src/core/format/table';
import { allEvents, ESC, error, hostSummary, one, response, run, summary, T0 } from '../helpers/crawlLines';

describe('colour', () => {
  for (const verbose of [false, true]) {
    it(`emits no escape sequence at all when color is off (verbose ${verbose})`, () => {
      const lines = run(allEvents(), { color: false, width: 100, verbose });
      assert.ok(lines.length > 10);
      for (const line of lines) assert.ok(!line.includes(ESC), JSON.stringify(line));
    });
  }

  it('uses SGR sequences when color is on', () => {
    const lines = run(allEvents(), { color: true, width: 100 });
    assert.ok(lines.some((l) => l.includes(`${ESC}[`)));
  });

  const classes: Array<[number, string]> = [
    [200, '32'],
    [204, '32'],
    [301, '36'],
    [304, '36'],
    [404, '33'],
    [429, '33'],
    [500, '31'],
    [503, '31'],
  ];
  for (const [status, code] of classes) {
    it(`colours status ${status} with SGR ${code}`, () => {
      const line = one(response({ status }), { color: true });
      assert.ok(line.includes(`${ESC}[${code}m${status}`), JSON.stringify(line));
    });
  }

  it('colours an error red with its kind', () => {
    const line = one(error(), { color: true });
    assert.ok(line.includes(`${ESC}[31mERR`));
    assert.ok(line.includes(`${ESC}[31mheaders-timeout`));
  });
});

describe('hostile text', () => {
  const evil = 'x\x1b[38;5;1m\x1b]0;pwned\x07\x1b[2J\u009b31m\r\nFAKE LINE\u202etxt.exe\x08\x7f';
  const hostile: CrawlEvent[] = [
    response({ url: `http://a.example/${evil}`, host: `a.example${evil}`, location: `http://a.example/${evil}` }),
    error({ message: evil, url: `not a url ${evil}` }),
    { type: 'host-paused', at: T0, host: 'b.example', until: T0 + 1_000, retryAfter: evil },
    {
      type: 'retry-scheduled',
      at: T0,
      url: `http://b.example/${evil}`,
      host: 'b.example',
      attempt: 2,
      notBefore: T0 + 1,
      reason: evil,
    },
    { type: 'host-dropped', at: T0, host: 'b.example', reason: 'retry-after-above-cap', detail: evil, urlsLeft: 2 },
    {
      type: 'robots-skip',
      at: T0,
      url: `http://a.example/${evil}`,
      host: 'a.example',
      line: 1,
      rule: evil,
      reason: 'disallowed',
    },
    { type: 'queued', at: T0, url: `http://a.example/${evil}`, host: 'a.example', depth: 1, from: evil },
    {
      type: 'done',
      at: T0,
      summary: summary({
        statusCounts: { [evil]: 1 },
        retryAfterSeen: [evil],
        hosts: [hostSummary({ host: evil, retryAfterSeen: [evil], dropped: evil })],
        notFollowed: [{ reason: 'other-host', urls: 1, hosts: [{ host: evil, urls: 1 }], moreHosts: 0 }],
      }),
    },
  ];
  /** The SGR sequences our own formatter emits. */
  const ours = /\x1b\[(?:0|1|2|31|32|33|35|36|1;31)m/g;

  for (const color of [false, true]) {
    it(`cannot inject escape sequences or line breaks (color ${color})`, () => {
      const lines = run(hostile, { color, width: 120, verbose: true });
      assert.ok(lines.length >= hostile.length);
      for (const line of lines) {
        const rest = line.replace(ours, '');
        assert.ok(!rest.includes(ESC), JSON.stringify(line));
        assert.doesNotMatch(rest, /[\u0000-\u001f\u007f-\u009f\u202e]/, JSON.stringify(line));
      }
      assert.ok(!lines.some((l) => l.startsWith('FAKE LINE')));
    });
  }

  it('keeps the visible text of a stripped sequence', () => {
    const line = one(error({ message: 'bad \x1b[2J thing' }));
    assert.match(line, /bad \[2J thing$/);
  });
});

describe('line endings', () => {
  it('toTerminal ends every line with \\r\\n; joinLines with \\n', () => {
    assert.equal(toTerminal(['a', 'b']), 'a\r\nb\r\n');
    assert.equal(toTerminal([]), '');
    assert.equal(joinLines(['a', '']), 'a\n\n');
  });

  it('formatted lines never contain a line terminator themselves', () => {
    for (const line of run(allEvents(), { verbose: true, color: true })) assert.doesNotMatch(line, /[\r\n]/);
  });

  it('the summary starts with a blank separator line and has no trailing spaces', () => {
    const lines = run([{ type: 'done', at: T0, summary: summary() }]);
    assert.equal(lines[0], '');
    for (const line of lines) assert.equal(stripAnsi(line), stripAnsi(line).trimEnd());
  });
});
