/** Durations as people type them, parsed to seconds: "90", "90s", "45m", "36h", "2d", "1w", "1d12h", "1.5 h" (format/duration.ts writes them). */
import { formatNumber } from '../format/duration';
import { numberProblem, numberProblemText } from '../limits';
import { PLAN_LIMITS } from './types';

const UNIT_SECONDS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
  w: 604_800,
  week: 604_800,
  weeks: 604_800,
};

/**
 * Seconds for a duration text: a plain number is seconds; otherwise one or more number+unit parts
 * (s, m, h, d, w and their long forms), added up. Returns undefined when the text is not a duration.
 * A bare number may only stand alone ("1d12" is refused).
 */
export function parseDurationText(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  const part = /(\d+(?:\.\d*)?|\.\d+)\s*([a-z]+)?\s*/y;
  let total = 0;
  let parts = 0;
  let bare = false;
  while (part.lastIndex < t.length) {
    const m = part.exec(t);
    if (!m) return undefined;
    const [, num, unit] = m;
    if (unit === undefined) {
      bare = true;
      total += Number(num);
    } else {
      if (!Object.hasOwn(UNIT_SECONDS, unit)) return undefined;
      total += Number(num) * UNIT_SECONDS[unit]!;
    }
    parts++;
  }
  if (bare && parts > 1) return undefined;
  return Number.isFinite(total) ? total : undefined;
}

/** A plain decimal number of seconds ("90", "1.5", "1e3"), as the CLI's numbers are written. */
const PLAIN_SECONDS = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A deadline as people type it (`--deadline`, the sidebar's Deadline field): seconds, or a duration such as
 * "90m", "36h", "2d", "1d12h", within PLAN_LIMITS.deadlineSeconds. Its seconds, or why not, in words after the
 * text as typed (`"soon" is not a duration (…)`, `0 must be greater than 0`), for the caller to prefix.
 */
export function parseDeadlineText(text: string): { seconds: number } | { problem: string } {
  const limit = PLAN_LIMITS.deadlineSeconds;
  const t = text.trim();
  if (PLAIN_SECONDS.test(t)) {
    const value = Number(t);
    const problem = numberProblem(value, limit);
    return problem === undefined
      ? { seconds: value }
      : { problem: numberProblemText(problem, problem === 'not-finite' ? `"${text}"` : text, limit) };
  }
  const seconds = parseDurationText(t);
  if (seconds === undefined) return { problem: `"${text}" is not a duration (seconds, or e.g. 90m, 36h, 2d, 1d12h)` };
  if (seconds <= 0) return { problem: `${text} must be greater than 0` };
  if (seconds > limit.max) return { problem: `${text} is too large (at most ${formatNumber(limit.max)} s)` };
  return { seconds };
}
