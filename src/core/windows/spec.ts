/**
 * A crawl window as typed (docs/planning.md#crawl-windows): `Mon-Fri 22:00-06:00`, `Sat,Sun 00:00-24:00`,
 * or `22:00-06:00` (every day). Days are English three-letter names (full names too), case-insensitive, as a
 * comma list of days and ranges; a range may wrap (`Fri-Mon`). Times are 24-hour `H:MM` or `HH:MM` from
 * 00:00 to 24:00 (24:00 as an end only). An end at or before the start crosses midnight: the window opens on
 * each day named and closes on the next day. The times are wall-clock times in the plan's time zone.
 */

/** Monday first (ISO 8601): index 0 is Monday, 6 is Sunday. */
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const FULL_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

export const MINUTES_PER_DAY = 24 * 60;

export interface CrawlWindow {
  /** The days the window opens on (0 = Monday … 6 = Sunday), ascending. */
  days: number[];
  /** Minutes after local midnight: opens at `startMinute`, closes at `endMinute` (≤ start: the next day). */
  startMinute: number;
  endMinute: number;
  /** As typed, trimmed (for messages and the plan's JSON). */
  text: string;
}

/** A window, or what is wrong with the text (a sentence without the text itself). */
export type WindowParse = CrawlWindow | { problem: string };

function dayIndex(name: string): number | undefined {
  const lower = name.toLowerCase();
  const short = WEEKDAYS.findIndex((d) => d.toLowerCase() === lower);
  if (short >= 0) return short;
  const full = FULL_NAMES.indexOf(lower);
  return full >= 0 ? full : undefined;
}

function parseDays(text: string): number[] | { problem: string } {
  const days = new Set<number>();
  for (const part of text.split(',')) {
    const token = part.trim();
    if (token === '') return { problem: 'an empty day in the list (two commas, or a comma at an end)' };
    const range = token.split('-');
    if (range.length > 2) return { problem: `"${token}" is not a day or a range of days such as Mon-Fri` };
    const from = dayIndex(range[0]!.trim());
    const to = range.length === 2 ? dayIndex(range[1]!.trim()) : from;
    if (from === undefined || to === undefined)
      return { problem: `"${token}" is not a day (${WEEKDAYS.join(', ')}) or a range of them such as Mon-Fri` };
    for (let d = from; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === to) break;
    }
  }
  return [...days].sort((a, b) => a - b);
}

function parseTime(text: string, end: boolean): number | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (m === null) return undefined;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  if (minutes > 59) return undefined;
  if (hours === 24 && minutes === 0 && end) return MINUTES_PER_DAY;
  if (hours > 23) return undefined;
  return hours * 60 + minutes;
}

/** Reads one window. */
export function parseWindow(raw: string): WindowParse {
  const text = raw.trim().replace(/\s+/g, ' ');
  if (text === '') return { problem: 'it is empty; write a window such as "Mon-Fri 22:00-06:00" or "22:00-06:00"' };
  const space = text.lastIndexOf(' ');
  const daysText = space < 0 ? undefined : text.slice(0, space);
  const timesText = space < 0 ? text : text.slice(space + 1);
  const days = daysText === undefined ? [0, 1, 2, 3, 4, 5, 6] : parseDays(daysText);
  if ('problem' in days) return days;
  const times = timesText.split('-');
  if (times.length !== 2 || !timesText.includes(':'))
    return { problem: `"${timesText}" is not a time range such as 22:00-06:00 (24-hour HH:MM-HH:MM)` };
  const startMinute = parseTime(times[0]!, false);
  const endMinute = parseTime(times[1]!, true);
  if (startMinute === undefined)
    return { problem: `"${times[0]}" is not a start time from 00:00 to 23:59 (24-hour HH:MM)` };
  if (endMinute === undefined)
    return { problem: `"${times[1]}" is not an end time from 00:00 to 24:00 (24-hour HH:MM)` };
  if (endMinute === startMinute) return { problem: 'it opens and closes at the same time; a whole day is 00:00-24:00' };
  return { days, startMinute, endMinute, text };
}

/** The window's length in wall-clock minutes (a window that crosses midnight counts into the next day). */
export function windowMinutes(w: CrawlWindow): number {
  return w.endMinute > w.startMinute ? w.endMinute - w.startMinute : MINUTES_PER_DAY - w.startMinute + w.endMinute;
}
