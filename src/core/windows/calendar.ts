/**
 * Crawl windows on the calendar (docs/planning.md#crawl-windows): the instants a schedule is open, merged in
 * order; when a crawl of so many seconds inside the windows finishes; and whether a moment is inside one (the
 * engine's pause). Wall-clock windows become instants through zone.ts (Intl), so a DST change makes that
 * night's window an hour shorter or longer, as the site's clock sees it.
 */
import type { CrawlWindow } from './spec';
import { addDays, instantOf, localDateAt, weekdayOf, type LocalDate } from './zone';

/** Windows in one time zone; an empty list is never open (a schedule is given only when windows are). */
export interface WindowSchedule {
  /** An IANA name `Intl` knows (checkTimeZone). */
  zone: string;
  windows: readonly CrawlWindow[];
}

/** How far ahead a calendar is read: ten years. A crawl that does not fit is "beyond the horizon". */
export const CALENDAR_HORIZON_DAYS = 3653;

const DAY_MS = 86_400_000;

function intervalsOfDay(s: WindowSchedule, date: LocalDate): Array<[number, number]> {
  const weekday = weekdayOf(date);
  const out: Array<[number, number]> = [];
  for (const w of s.windows) {
    if (!w.days.includes(weekday)) continue;
    const start = instantOf(s.zone, date, w.startMinute);
    const end = instantOf(s.zone, date, w.endMinute > w.startMinute ? w.endMinute : w.endMinute + 1440);
    if (end > start) out.push([start, end]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/**
 * The schedule's open intervals [open, close) in ms, merged (touching or overlapping windows are one) and
 * clipped to start at `fromMs`, in order, up to `horizonDays` after it.
 */
export function* openIntervals(
  s: WindowSchedule,
  fromMs: number,
  horizonDays = CALENDAR_HORIZON_DAYS,
): Generator<[number, number]> {
  if (s.windows.length === 0) return;
  const limit = fromMs + horizonDays * DAY_MS;
  // From the day before: a window that opened yesterday evening may still be open.
  let date = addDays(localDateAt(s.zone, fromMs), -1);
  let pending: [number, number] | undefined;
  for (;;) {
    const day = intervalsOfDay(s, date);
    for (const next of day) {
      if (pending !== undefined && next[0] <= pending[1]) pending[1] = Math.max(pending[1], next[1]);
      else {
        if (pending !== undefined && pending[1] > fromMs) yield [Math.max(pending[0], fromMs), pending[1]];
        pending = [next[0], next[1]];
      }
    }
    // A window opens at most a day and a half after its day's midnight (crossing midnight): once the next
    // day's midnight is past the limit, nothing later can start before it.
    if (Date.UTC(date.year, date.month - 1, date.day) - 2 * DAY_MS > limit) break;
    date = addDays(date, 1);
    if (pending !== undefined && pending[0] > limit) return;
  }
  if (pending !== undefined && pending[1] > fromMs && pending[0] <= limit)
    yield [Math.max(pending[0], fromMs), pending[1]];
}

/** Where a crawl of `crawlSeconds` inside the windows, started at `startMs`, ends on the calendar. */
export type CalendarFinish =
  | {
      /** The first moment the crawl may start (startMs when it is inside a window). */
      firstOpenMs: number;
      finishMs: number;
      /** The windows the crawl runs in (the first and the last partly). */
      windows: number;
    }
  | { beyondHorizon: true; windowsInHorizon: number };

export function calendarFinish(s: WindowSchedule, startMs: number, crawlSeconds: number): CalendarFinish {
  let need = Math.max(0, crawlSeconds) * 1000;
  let windows = 0;
  let firstOpenMs: number | undefined;
  for (const [open, close] of openIntervals(s, startMs)) {
    windows += 1;
    firstOpenMs ??= open;
    if (close - open >= need) return { firstOpenMs, finishMs: open + need, windows };
    need -= close - open;
  }
  return { beyondHorizon: true, windowsInHorizon: windows };
}

/** Whether the schedule is open at `nowMs`, and when that changes (undefined: not within the horizon). */
export function windowState(s: WindowSchedule, nowMs: number): { open: boolean; changesAtMs: number | undefined } {
  const first = openIntervals(s, nowMs).next();
  if (first.done) return { open: false, changesAtMs: undefined };
  const [open, close] = first.value;
  return open <= nowMs ? { open: true, changesAtMs: close } : { open: false, changesAtMs: open };
}

/** Open seconds in the week from `fromMs` (a DST change moves it by its hour). */
export function openSecondsInWeek(s: WindowSchedule, fromMs: number): number {
  let total = 0;
  const end = fromMs + 7 * DAY_MS;
  for (const [open, close] of openIntervals(s, fromMs, 8)) {
    if (open >= end) break;
    total += Math.min(close, end) - open;
  }
  return total / 1000;
}
