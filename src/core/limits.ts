/**
 * Numeric limits, in one place: the limit type, the one checker, and the usual words for what is wrong.
 *
 * Every adapter checks its numbers here (the engine's options, the test-crawl options, the plan's input,
 * the CLI's flags, the extension's settings and command arguments, the sidebar form) and words the
 * problem its own way: a flag (`--delay: -1 must be at least 0`), a setting key with the fallback it
 * uses, a field of the form. The tables of limits stay with their concept (PLAN_LIMITS, SAMPLE_CRAWL_LIMITS,
 * PACING_LIMITS, CRAWL_LIMITS, SETTING_LIMITS); ARCHITECTURE.md ("One source for numbers") lists them.
 */
import { formatNumber } from './format/duration';

/** The range a number must be in. */
export interface NumberLimit {
  /** The smallest value allowed, itself included unless `minExclusive`. */
  min: number;
  minExclusive?: boolean;
  /** The largest value allowed (Infinity: no upper bound). */
  max: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** `Infinity` itself is allowed, meaning "no limit" (the engine's maxPages). */
  infinity?: boolean;
}

/** What is wrong with a value, checked in this order. */
export type NumberProblem = 'not-finite' | 'not-whole' | 'below-min' | 'above-max';

/** What is wrong with `value` for `limit`, or undefined when it is a number within it. */
export function numberProblem(value: unknown, limit: NumberLimit): NumberProblem | undefined {
  if (value === Infinity && limit.infinity) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'not-finite';
  if (limit.integer && !Number.isInteger(value)) return 'not-whole';
  if (limit.minExclusive ? value <= limit.min : value < limit.min) return 'below-min';
  if (value > limit.max) return 'above-max';
  return undefined;
}

/**
 * The usual words for a problem, after the value as the adapter shows it: `0 must be at least 1`,
 * `"1.5" must be a whole number`, `1e+308 is too large (at most 1,000,000,000,000)`.
 */
export function numberProblemText(problem: NumberProblem, shown: string, limit: NumberLimit): string {
  switch (problem) {
    case 'not-finite':
      return `${shown} is not a finite number`;
    case 'not-whole':
      return `${shown} must be a whole number`;
    case 'below-min':
      return `${shown} must be ${limit.minExclusive ? 'greater than' : 'at least'} ${limit.min}`;
    case 'above-max':
      return `${shown} is too large (at most ${formatNumber(limit.max)})`;
  }
}

/** The range in words, for messages that state it whole: `a whole number from 1 to 10,000`, `a number above 0`. */
export function rangeText(limit: NumberLimit): string {
  const what = limit.integer ? 'a whole number' : 'a number';
  const low = limit.minExclusive ? `above ${formatNumber(limit.min)}` : `from ${formatNumber(limit.min)}`;
  if (limit.max === Infinity) return `${what} ${limit.minExclusive ? low : `of at least ${formatNumber(limit.min)}`}`;
  return limit.minExclusive
    ? `${what} ${low} and at most ${formatNumber(limit.max)}`
    : `${what} ${low} to ${formatNumber(limit.max)}`;
}
