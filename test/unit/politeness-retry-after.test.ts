/**
 * Retry-After parsing: every edge case of `Retry-After = HTTP-date / delay-seconds` (RFC 9110 §10.2.3;
 * docs/crawl-engine.md#retry-after), plus the HTTP-date grammar. Runs with TZ=America/New_York set below, so a local-time reading of asctime would show.
 */
process.env.TZ = 'America/New_York';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_TIMER_MS } from '../../src/core/clock';
import {
  RETRY_AFTER_MAX_SECONDS,
  parseHttpDate,
  parseRetryAfter,
  type RetryAfterKind,
  type RetryAfterNote,
} from '../../src/core/politeness/retryAfter';

const NOW = Date.UTC(2024, 0, 1, 0, 0, 0); // Mon, 01 Jan 2024 00:00:00 GMT
const CAP = 300;

interface Row {
  value: string | undefined;
  kind: RetryAfterKind;
  delayMs: number;
  capped?: boolean;
  notes?: RetryAfterNote[];
  dateHeader?: string;
  capSeconds?: number;
  why: string;
}

const table: Row[] = [
  { value: '120', kind: 'seconds', delayMs: 120_000, why: 'plain delay-seconds' },
  { value: '0', kind: 'seconds', delayMs: 0, why: 'Date.parse("0") would be the year 2000' },
  { value: '00120', kind: 'seconds', delayMs: 120_000, why: 'leading zeros are still 1*DIGIT' },
  { value: ' 120 ', kind: 'seconds', delayMs: 120_000, why: 'whitespace is stripped' },
  { value: '\t120\t', kind: 'seconds', delayMs: 120_000, why: 'tabs are whitespace too' },
  { value: '-1', kind: 'invalid', delayMs: 0, why: 'no sign allowed; never a negative wait' },
  { value: '+120', kind: 'invalid', delayMs: 0, why: 'no sign allowed' },
  { value: '1.5', kind: 'invalid', delayMs: 0, why: 'no fraction' },
  { value: '1e3', kind: 'invalid', delayMs: 0, why: 'no exponent (Number would give 1000)' },
  { value: '0x10', kind: 'invalid', delayMs: 0, why: 'no hex (Number would give 16)' },
  { value: '120abc', kind: 'invalid', delayMs: 0, why: 'parseInt would give 120' },
  { value: 'soon', kind: 'invalid', delayMs: 0, why: 'not a number or a date' },
  { value: '', kind: 'invalid', delayMs: 0, why: 'empty (Number would give 0)' },
  { value: '   ', kind: 'invalid', delayMs: 0, why: 'only whitespace' },
  { value: undefined, kind: 'invalid', delayMs: 0, why: 'no header' },
  { value: '120 60', kind: 'invalid', delayMs: 0, why: 'two numbers without a comma' },
  {
    value: '99999999999999999999',
    kind: 'seconds',
    delayMs: CAP * 1000,
    capped: true,
    why: 'beyond MAX_SAFE_INTEGER: clamped, capped',
  },
  {
    value: '2147484',
    kind: 'seconds',
    delayMs: CAP * 1000,
    capped: true,
    why: '> 2^31-1 ms: capped, never an overflowing timer',
  },
  {
    value: '2147484',
    kind: 'seconds',
    delayMs: MAX_TIMER_MS,
    capped: true,
    capSeconds: 10_000_000,
    why: 'even with a huge cap, never above the largest timer',
  },
  { value: '300', kind: 'seconds', delayMs: 300_000, capped: false, why: 'exactly the cap is not above it' },
  { value: '301', kind: 'seconds', delayMs: 300_000, capped: true, why: 'one second above the cap' },
  {
    value: 'Fri, 31 Dec 1999 23:59:59 GMT',
    kind: 'date',
    delayMs: 0,
    why: 'a past date: retry now, never a negative timer',
  },
  { value: 'Fri, 31 Dec 9999 23:59:59 GMT', kind: 'date', delayMs: CAP * 1000, capped: true, why: 'year 9999: capped' },
  { value: 'Mon, 01 Jan 2024 00:02:00 GMT', kind: 'date', delayMs: 120_000, why: 'IMF-fixdate' },
  { value: 'Monday, 01-Jan-24 00:02:00 GMT', kind: 'date', delayMs: 120_000, why: 'RFC 850, two-digit year' },
  { value: 'Mon Jan  1 00:02:00 2024', kind: 'date', delayMs: 120_000, why: 'asctime, read as UTC (not local time)' },
  { value: 'Mon Jan 1 00:02:00 2024', kind: 'date', delayMs: 120_000, why: 'asctime with one space (lenient)' },
  { value: 'Sunday, 06-Nov-94 08:49:37 GMT', kind: 'date', delayMs: 0, why: 'the RFC example, 1994: in the past' },
  { value: 'Sun Nov  6 08:49:37 1994', kind: 'date', delayMs: 0, why: 'the RFC asctime example: in the past' },
  {
    value: 'fri, 31 dec 1999 23:59:59 gmt',
    kind: 'date',
    delayMs: 0,
    notes: ['case-insensitive'],
    why: 'lower case: accepted leniently, never a crash',
  },
  {
    value: 'mon, 01 jan 2024 00:02:00 gmt',
    kind: 'date',
    delayMs: 120_000,
    notes: ['case-insensitive'],
    why: 'lower case future date honoured',
  },
  {
    value: 'Mon, 01 Jan 2024 01:02:00 +0100',
    kind: 'date',
    delayMs: 120_000,
    notes: ['zone'],
    why: '+0100: accepted leniently with the offset applied',
  },
  {
    value: 'Sun, 31 Dec 2023 19:02:00 -0500',
    kind: 'date',
    delayMs: 120_000,
    notes: ['zone'],
    why: '-0500 offset applied',
  },
  { value: 'Mon, 01 Jan 2024 00:02:00 UTC', kind: 'date', delayMs: 120_000, notes: ['zone'], why: 'UTC for GMT' },
  {
    value: 'Mon, 01 Jan 2024 00:02:00 EST',
    kind: 'invalid',
    delayMs: 0,
    why: 'named zones other than GMT/UTC are invalid',
  },
  { value: 'Mon, 31 Feb 2024 00:02:00 GMT', kind: 'invalid', delayMs: 0, why: 'no such day' },
  { value: 'Mon, 01 Jan 2024 24:00:00 GMT', kind: 'invalid', delayMs: 0, why: 'no such hour' },
  { value: 'Mon, 01 Foo 2024 00:02:00 GMT', kind: 'invalid', delayMs: 0, why: 'no such month' },
  { value: 'Xyz, 01 Jan 2024 00:02:00 GMT', kind: 'invalid', delayMs: 0, why: 'no such day name' },
  { value: '2024-01-01T00:02:00Z', kind: 'invalid', delayMs: 0, why: 'ISO 8601 is not an HTTP-date' },
  {
    value: '120, 60',
    kind: 'seconds',
    delayMs: 120_000,
    notes: ['list'],
    why: 'combined field: the longest valid member',
  },
  { value: '60, 120', kind: 'seconds', delayMs: 120_000, notes: ['list'], why: 'order does not matter' },
  { value: '60, soon', kind: 'seconds', delayMs: 60_000, notes: ['list'], why: 'invalid members are ignored' },
  { value: 'soon, later', kind: 'invalid', delayMs: 0, why: 'no valid member' },
  {
    value: 'Mon, 01 Jan 2024 00:01:00 GMT, Mon, 01 Jan 2024 00:02:00 GMT',
    kind: 'date',
    delayMs: 120_000,
    notes: ['list'],
    why: 'two dates: the comma after the day name is kept',
  },
  {
    value: '30, Mon, 01 Jan 2024 00:02:00 GMT',
    kind: 'date',
    delayMs: 120_000,
    notes: ['list'],
    why: 'seconds and a date',
  },
  {
    value: 'Mon, 01 Jan 2024 01:01:00 GMT',
    dateHeader: 'Mon, 01 Jan 2024 01:00:00 GMT',
    kind: 'date',
    delayMs: 60_000,
    notes: ['date-header'],
    why: 'server clock 1 h ahead: the wait is 60 s by the Date header, not 1 h',
  },
  {
    value: 'Mon, 01 Jan 2024 00:02:00 GMT',
    dateHeader: 'garbage',
    kind: 'date',
    delayMs: 120_000,
    why: 'an unparseable Date header is ignored',
  },
  {
    value: '120',
    dateHeader: 'Mon, 01 Jan 2024 01:00:00 GMT',
    kind: 'seconds',
    delayMs: 120_000,
    why: 'the Date header does not affect delay-seconds',
  },
];

describe('parseRetryAfter: the §F table', () => {
  for (const row of table) {
    it(`${JSON.stringify(row.value)}: ${row.why}`, () => {
      const r = parseRetryAfter(row.value, NOW, {
        capSeconds: row.capSeconds ?? CAP,
        ...(row.dateHeader ? { dateHeader: row.dateHeader } : {}),
      });
      assert.equal(r.kind, row.kind);
      assert.equal(r.delayMs, row.delayMs);
      assert.equal(r.capped, row.capped ?? false);
      assert.equal(r.raw, row.value ?? '');
      assert.ok(r.delayMs >= 0 && Number.isInteger(r.delayMs));
      assert.ok(r.delayMs <= MAX_TIMER_MS);
      if (row.notes) assert.deepEqual([...r.notes].sort(), [...row.notes].sort());
    });
  }

  it('the requested time is kept (clamped to 2^31 s) while the delay is capped', () => {
    const r = parseRetryAfter('99999999999999999999', NOW, { capSeconds: CAP });
    assert.equal(r.requestedMs, RETRY_AFTER_MAX_SECONDS * 1000);
    const s = parseRetryAfter('3600', NOW, { capSeconds: CAP });
    assert.equal(s.requestedMs, 3_600_000);
    assert.equal(s.delayMs, 300_000);
  });

  it('without the Date header, a server clock 1 h ahead would read as 1 h', () => {
    const r = parseRetryAfter('Mon, 01 Jan 2024 01:01:00 GMT', NOW, { capSeconds: 86_400 });
    assert.equal(r.delayMs, 3_660_000);
  });

  it('asctime is read as UTC even though this process runs in America/New_York', () => {
    // The trap: V8 reads asctime as local time.
    assert.notEqual(Date.parse('Mon Jan  1 00:02:00 2024'), Date.UTC(2024, 0, 1, 0, 2, 0));
    assert.equal(parseHttpDate('Mon Jan  1 00:02:00 2024', NOW)?.ms, Date.UTC(2024, 0, 1, 0, 2, 0));
  });

  it('never throws, never negative, never above the cap, for any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.stringMatching(/^[ \d,:A-Za-z+-]{0,40}$/)),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (value, now) => {
          const r = parseRetryAfter(value, now, { capSeconds: CAP });
          assert.ok(r.delayMs >= 0 && r.delayMs <= CAP * 1000 && Number.isInteger(r.delayMs));
          if (r.kind === 'invalid') assert.equal(r.delayMs, 0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('any run of digits is delay-seconds, whatever its size', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,30}$/), (digits) => {
        const r = parseRetryAfter(digits, NOW, { capSeconds: CAP });
        assert.equal(r.kind, 'seconds');
        assert.equal(r.capped, Number(digits) > CAP);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseHttpDate', () => {
  const cases: Array<[string, number, string | undefined]> = [
    // [text, now, expected ISO or undefined]
    ['Sun, 06 Nov 1994 08:49:37 GMT', NOW, '1994-11-06T08:49:37.000Z'],
    ['Sunday, 06-Nov-94 08:49:37 GMT', NOW, '1994-11-06T08:49:37.000Z'],
    ['Sun Nov  6 08:49:37 1994', NOW, '1994-11-06T08:49:37.000Z'],
    // RFC 850 two-digit years against 2024: up to 2074 is the future, 2075 is more than 50 years ahead.
    ['Monday, 01-Jan-74 00:00:00 GMT', NOW, '2074-01-01T00:00:00.000Z'],
    ['Monday, 01-Jan-75 00:00:00 GMT', NOW, '1975-01-01T00:00:00.000Z'],
    ['Monday, 01-Jan-00 00:00:00 GMT', NOW, '2000-01-01T00:00:00.000Z'],
    // Near the end of a century the window wraps forward.
    ['Monday, 01-Jan-05 00:00:00 GMT', Date.UTC(2095, 0, 1), '2105-01-01T00:00:00.000Z'],
    ['Fri, 31 Dec 9999 23:59:59 GMT', NOW, '9999-12-31T23:59:59.000Z'],
    ['Sat, 01 Jan 0050 00:00:00 GMT', NOW, '0050-01-01T00:00:00.000Z'],
    ['Thu, 29 Feb 2024 12:00:00 GMT', NOW, '2024-02-29T12:00:00.000Z'],
    ['Thu, 29 Feb 2023 12:00:00 GMT', NOW, undefined],
    ['Sun, 06 Nov 1994 08:49:37', NOW, undefined],
    ['06 Nov 1994 08:49:37 GMT', NOW, undefined],
    ['', NOW, undefined],
  ];
  for (const [text, now, iso] of cases) {
    it(`${JSON.stringify(text)} → ${iso ?? 'invalid'}`, () => {
      const d = parseHttpDate(text, now);
      if (iso === undefined) assert.equal(d, undefined);
      else assert.equal(new Date(d!.ms).toISOString(), iso);
    });
  }
});
