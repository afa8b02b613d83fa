/**
 * `<lastmod>` values: W3C Datetime (https://www.w3.org/TR/NOTE-datetime), as sitemaps.org asks, read by
 * hand so that no lenient date parser decides a date. Accepted:
 *
 *   YYYY · YYYY-MM · YYYY-MM-DD · YYYY-MM-DDThh:mmTZD · YYYY-MM-DDThh:mm:ssTZD · YYYY-MM-DDThh:mm:ss.sTZD
 *
 * with TZD `Z` or `±hh:mm` (also `±hhmm`). A time without a zone, which many generators write, is read as
 * UTC. A partial date stands for its first instant (2024-05 is 2024-05-01T00:00Z). Anything else,
 * including impossible dates (2024-02-30), is invalid.
 */

import { parseDurationText } from '../plan/parseDuration';
import { PLAN_LIMITS } from '../plan/types';

const W3C = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/;

/** Epoch milliseconds for a W3C Datetime value (trimmed), or undefined when it is not one. */
export function parseLastmod(value: string): number | undefined {
  const m = W3C.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = mo === undefined ? 1 : Number(mo);
  const day = d === undefined ? 1 : Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC maps years 0–99 to 1900–1999; set the year again to keep what was written.
  if (year < 100) {
    const date = new Date(ms);
    date.setUTCFullYear(year);
    ms = date.getTime();
  }
  if (frac !== undefined) ms += Math.floor(Number(`0.${frac}`) * 1000);
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = Number(digits.slice(2));
    if (zh > 23 || zm > 59) return undefined;
    ms -= sign * (zh * 60 + zm) * 60_000;
  }
  return ms;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * "Changed since" as people type it (`--changed-since`, the sidebar's field): a W3C date or date-time
 * (2024-05-01, 2024-05-01T12:00Z), or a duration (30d, 12h, 1w, 1d12h) counted back from `now` (epoch ms).
 * The instant in epoch ms, or why not, in words after the text as typed, for the caller to prefix.
 */
export function parseChangedSince(raw: string, now: number): { ms: number } | { problem: string } {
  const text = raw.trim();
  const date = parseLastmod(text);
  if (date !== undefined) return date > now ? { problem: `${raw} is in the future` } : { ms: date };
  const seconds = /^\d{4}(-|$)/.test(text) ? undefined : parseDurationText(text);
  if (seconds === undefined || /^[\d.]+$/.test(text))
    return { problem: `"${raw}" is neither a date (2024-05-01) nor a duration (30d, 12h, 1w)` };
  if (seconds <= 0) return { problem: `${raw} must be longer than 0` };
  if (seconds > PLAN_LIMITS.deadlineSeconds.max) return { problem: `${raw} is too long` };
  return { ms: now - seconds * 1000 };
}
