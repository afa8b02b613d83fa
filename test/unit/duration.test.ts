import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatDuration, formatNumber, formatSeconds } from '../../src/core/format/duration';

const durations: Array<[number, string, number?]> = [
  [0, '0 s'],
  [0.05, '50 ms'],
  [0.5, '500 ms'],
  [0.9994, '999 ms'],
  // Rounding that reaches the next unit shows the next unit.
  [0.9996, '1 s'],
  [1, '1 s'],
  [2.5, '2.5 s'],
  [59.94, '59.9 s'],
  [59.96, '1 m'],
  [60, '1 m'],
  [61.4, '1 m 1 s'],
  [3599.4, '59 m 59 s'],
  [3599.9, '1 h'],
  [3601, '1 h 1 s'],
  [3660, '1 h 1 m'],
  [86_399.9, '1 d'],
  [90_061, '1 d 1 h 1 m'],
  [172_790, '2 d'],
  // The seed's million-second crawl.
  [999_999.5, '11 d 13 h 47 m'],
  [1_000_000, '11 d 13 h 47 m'],
  [999_960, '11 d 13 h 46 m'],
  // maxParts.
  [999_999.5, '12 d', 1],
  [999_999.5, '11 d 14 h', 2],
  [3599.4, '1 h', 1],
  [-5, '-5 s'],
  [Number.POSITIVE_INFINITY, '∞'],
  [Number.NaN, '—'],
];

for (const [seconds, expected, maxParts] of durations) {
  test(`formatDuration(${seconds}${maxParts === undefined ? '' : `, ${maxParts}`}) = ${expected}`, () => {
    assert.equal(formatDuration(seconds, maxParts), expected);
  });
}

const numbers: Array<[number, number | undefined, string]> = [
  [1_234_567.8, undefined, '1,234,568'],
  [1_234_567.8, 1, '1,234,567.8'],
  [8640, undefined, '8,640'],
  [277.7776, 1, '277.8'],
  [0.5, 3, '0.5'],
  [-1.5, 1, '-1.5'],
  [-0, undefined, '0'],
  [-0.4, undefined, '0'],
  // Half away from zero, on the shortest decimal that reads back as the number (1.005 is not 1.00499…).
  [1.005, 2, '1.01'],
  [0.125, 2, '0.13'],
  [-2.5, undefined, '-3'],
  [999.96, 1, '1,000'],
  [1e21, undefined, '1,000,000,000,000,000,000,000'],
  [1e-7, 3, '0'],
  [Number.POSITIVE_INFINITY, undefined, '∞'],
  [Number.NaN, undefined, '—'],
];

for (const [n, digits, expected] of numbers) {
  test(`formatNumber(${n}, ${digits}) = ${expected}`, () => {
    assert.equal(formatNumber(n, digits), expected);
  });
}

/** What formatNumber replaces (it must not call Intl: its first use costs about 10 ms of start-up). */
function intlText(n: number, digits: number): string {
  const text = n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

test('formatNumber gives the same text as toLocaleString("en-US") for any finite number and 0–3 decimals', () => {
  const decimals = fc
    .tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 6 }))
    .map(([m, e]) => m / 10 ** e);
  const halves = fc
    .tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 4 }))
    .map(([m, e]) => (m + 0.5) / 10 ** e);
  fc.assert(
    fc.property(
      fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), decimals, halves),
      fc.integer({ min: 0, max: 3 }),
      (n, digits) => {
        assert.equal(formatNumber(n, digits), intlText(n, digits));
      },
    ),
    { numRuns: 20_000 },
  );
});

const seconds: Array<[number, string]> = [
  [1, '1 s'],
  [0.5, '0.5 s'],
  [2.25, '2.25 s'],
  [3.0000000000000004, '3 s'],
  [Number.POSITIVE_INFINITY, '∞'],
];

for (const [n, expected] of seconds) {
  test(`formatSeconds(${n}) = ${expected}`, () => {
    assert.equal(formatSeconds(n), expected);
  });
}
