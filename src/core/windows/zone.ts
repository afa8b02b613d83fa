/**
 * Time zones through `Intl` only (docs/planning.md#crawl-windows): the zone's offsets come from the
 * time-zone database that Node and VS Code ship, never from offsets written here. A wall-clock time that a
 * DST change skips (02:30 on the last Sunday of March in Europe/Berlin) is read as the same time after the
 * change (03:30); one that it repeats (02:30 on the last Sunday of October) is read as the first of the two.
 */

import { WEEKDAYS } from './spec';

const DAY_MS = 86_400_000;

export interface LocalDate {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's canonical name, or undefined when `Intl` does not know it. */
export function checkTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function partsFormat(zone: string): Intl.DateTimeFormat {
  let f = partsFormats.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormats.set(zone, f);
  }
  return f;
}

/** The wall clock in `zone` at an instant, as if it were UTC (ms), to the second. */
function wallClockMs(zone: string, instantMs: number): number {
  const p: Record<string, number> = {};
  for (const part of partsFormat(zone).formatToParts(instantMs))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
}

/** The zone's offset from UTC at an instant, in ms (Europe/Berlin in winter: 3,600,000). */
export function offsetMs(zone: string, instantMs: number): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  return wallClockMs(zone, whole) - whole;
}

/** The local date at an instant in `zone`. */
export function localDateAt(zone: string, instantMs: number): LocalDate {
  const wall = new Date(instantMs + offsetMs(zone, instantMs));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

/** The date `days` after `date` (the civil calendar: no zone involved). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The weekday of a date, 0 = Monday … 6 = Sunday. */
export function weekdayOf(date: LocalDate): number {
  return (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;
}

/**
 * The instant at which the wall clock in `zone` reads `minute` minutes after midnight of `date` (minute may
 * be 1,440 or more: the days after). Skipped times move forward by the change; repeated ones take the first.
 */
export function instantOf(zone: string, date: LocalDate, minute: number): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day) + minute * 60_000;
  const before = offsetMs(zone, wall - DAY_MS);
  const after = offsetMs(zone, wall + DAY_MS);
  const candidates = [...new Set([before, after])]
    .map((o) => wall - o)
    .filter((t) => wallClockMs(zone, t) === wall)
    .sort((a, b) => a - b);
  // None fits: a time the change skips, read with the offset before it (so it lands that long after the change).
  return candidates[0] ?? wall - before;
}

const nameFormats = new Map<string, Intl.DateTimeFormat[]>();

/** The zone's short name at an instant: a letter abbreviation where a locale has one (CET, EST), else GMT+5:30. */
export function zoneAbbreviation(zone: string, instantMs: number): string {
  let formats = nameFormats.get(zone);
  if (formats === undefined) {
    formats = ['en-GB', 'en-US'].map((l) => new Intl.DateTimeFormat(l, { timeZone: zone, timeZoneName: 'short' }));
    nameFormats.set(zone, formats);
  }
  const names = formats.map((f) => f.formatToParts(instantMs).find((p) => p.type === 'timeZoneName')?.value ?? zone);
  return names.find((n) => !/^(GMT|UTC)[+-]/.test(n)) ?? names[0]!;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** ISO 8601 with the zone's offset at that instant, to the second: `2026-12-05T00:00:01+01:00`. */
export function isoInZone(zone: string, instantMs: number): string {
  const offset = offsetMs(zone, instantMs);
  const wall = new Date(Math.floor(instantMs / 1000) * 1000 + offset);
  const minutes = Math.round(offset / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  return (
    `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
    `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}` +
    `${sign}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`
  );
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** For people: `Tue 22:00 CET`, or with `date`: `Sat 5 Dec 2026 00:00 CET`. */
export function formatInZone(zone: string, instantMs: number, options: { date?: boolean } = {}): string {
  const wall = new Date(instantMs + offsetMs(zone, instantMs));
  const day = WEEKDAYS[(wall.getUTCDay() + 6) % 7]!;
  const time = `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
  const date = options.date ? ` ${wall.getUTCDate()} ${MONTH_NAMES[wall.getUTCMonth()]!} ${wall.getUTCFullYear()}` : '';
  return `${day}${date} ${time} ${zoneAbbreviation(zone, instantMs)}`;
}
