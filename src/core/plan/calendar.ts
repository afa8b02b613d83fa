/**
 * The plan on the calendar (docs/planning.md#crawl-windows): with crawl windows, the plan's total is crawl time
 * inside them, and this gives where that puts the finish as a date and time in the plan's time zone, how many
 * windows it spans, and what a deadline leaves of crawl time. The plan starts at `startAt`, which the front end
 * sets (now, or --start): the core reads no clock.
 *
 * A host with its own windows (windowsByHost) is planned as running its own duration inside its own windows;
 * the crawl finishes when the last host does: the common windows' finish of the whole plan's total, or a
 * host's own, whichever is later. (A host kept to its own windows frees the global slots while it waits; the
 * plan does not give that time to the others, so the finish errs late, never early.)
 */
import { formatDuration } from '../format/duration';
import {
  calendarFinish,
  checkTimeZone,
  formatInZone,
  isoInZone,
  openIntervals,
  openSecondsInWeek,
  parseWindow,
  type CrawlWindow,
  type WindowSchedule,
} from '../windows';
import type { HostPlan, PlanProblem } from './types';

/** What the plan is told about windows. */
export interface CalendarInput {
  /** An IANA time zone (`Intl`); default UTC. */
  timeZone?: string;
  /** When the plan starts: ISO 8601 with an offset or Z. */
  startAt: string;
  /** The windows every host may be crawled in, as typed ("Mon-Fri 22:00-06:00"); none: always. */
  windows?: readonly string[];
  /** A host's own windows, replacing the common ones (URL.host → windows). */
  windowsByHost?: Readonly<Record<string, readonly string[]>>;
}

export const DEFAULT_TIME_ZONE = 'UTC';

/** One finish on the calendar. */
export interface CalendarFinishPlan {
  /** ISO 8601 with the zone's offset (2026-12-05T00:00:01+00:00); null when beyond the ten-year horizon. */
  calendarFinish: string | null;
  /** For people: "Sat 5 Dec 2026 00:00 CET". */
  calendarFinishText: string | null;
  /** Seconds from the start to the finish on the calendar. */
  calendarSeconds: number | null;
  /** The windows the crawl runs in. */
  windows: number | null;
}

export interface PlanCalendar extends CalendarFinishPlan {
  timeZone: string;
  /** The start, ISO 8601 in the zone. */
  startAt: string;
  windowsText: string[];
  /** Hours open in the first week (a DST change moves it by its hour); null: no common windows (always open). */
  openHoursPerWeek: number | null;
  /** When the first window opens (the start when inside one). */
  firstOpenAt: string | null;
  /** Hosts with their own windows. */
  hosts: Array<{ host: string; windowsText: string[] } & CalendarFinishPlan>;
  /** With a deadline: the deadline's moment, and the crawl time the windows leave before it. */
  deadlineAt: string | null;
  deadlineOpenSeconds: number | null;
}

function readWindows(field: string, texts: readonly string[], problems: PlanProblem[]): CrawlWindow[] {
  const windows: CrawlWindow[] = [];
  texts.forEach((text, i) => {
    const w =
      typeof text === 'string' ? parseWindow(text) : { problem: 'must be a text such as "Mon-Fri 22:00-06:00"' };
    if ('problem' in w) problems.push({ field: `${field}[${i}]`, message: `${field}[${i}]: "${text}": ${w.problem}` });
    else windows.push(w);
  });
  return windows;
}

interface ReadCalendar {
  zone: string;
  startMs: number;
  common: WindowSchedule | undefined;
  byHost: Map<string, WindowSchedule>;
}

function read(input: CalendarInput, problems: PlanProblem[]): ReadCalendar | undefined {
  const zone = checkTimeZone(input.timeZone ?? DEFAULT_TIME_ZONE);
  if (zone === undefined)
    problems.push({
      field: 'calendar.timeZone',
      message: `calendar.timeZone: "${input.timeZone}" is not a time zone this Node knows (an IANA name such as Europe/Berlin)`,
    });
  const startMs =
    typeof input.startAt === 'string' && /[zZ]|[+-]\d\d:?\d\d$/.test(input.startAt) ? Date.parse(input.startAt) : NaN;
  if (!Number.isFinite(startMs))
    problems.push({
      field: 'calendar.startAt',
      message: `calendar.startAt: "${input.startAt}" is not an ISO 8601 date-time with an offset (2026-12-04T22:00:00+01:00)`,
    });
  const common = readWindows('calendar.windows', input.windows ?? [], problems);
  const byHost = new Map<string, CrawlWindow[]>();
  for (const [host, texts] of Object.entries(input.windowsByHost ?? {})) {
    const own = readWindows(`calendar.windowsByHost[${host}]`, Array.isArray(texts) ? texts : [], problems);
    if (own.length === 0 && problems.length === 0)
      problems.push({
        field: `calendar.windowsByHost[${host}]`,
        message: `calendar.windowsByHost[${host}]: give a window`,
      });
    byHost.set(host, own);
  }
  if (zone === undefined || !Number.isFinite(startMs) || problems.length > 0) return undefined;
  return {
    zone,
    startMs,
    common: common.length > 0 ? { zone, windows: common } : undefined,
    byHost: new Map([...byHost].map(([h, w]) => [h, { zone, windows: w }])),
  };
}

/** What is wrong with the calendar input (none when absent). */
export function calendarProblems(input: CalendarInput | undefined): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (input !== undefined) read(input, problems);
  return problems;
}

function finishOf(
  zone: string,
  schedule: WindowSchedule | undefined,
  startMs: number,
  seconds: number,
): CalendarFinishPlan {
  if (schedule === undefined) {
    const finishMs = startMs + seconds * 1000;
    return {
      calendarFinish: isoInZone(zone, finishMs),
      calendarFinishText: formatInZone(zone, finishMs, { date: true }),
      calendarSeconds: seconds,
      windows: null,
    };
  }
  const f = calendarFinish(schedule, startMs, seconds);
  if ('beyondHorizon' in f)
    return { calendarFinish: null, calendarFinishText: null, calendarSeconds: null, windows: null };
  return {
    calendarFinish: isoInZone(zone, f.finishMs),
    calendarFinishText: formatInZone(zone, f.finishMs, { date: true }),
    calendarSeconds: (f.finishMs - startMs) / 1000,
    windows: f.windows,
  };
}

/** Seconds open between two moments. */
function openSecondsBetween(schedule: WindowSchedule, fromMs: number, toMs: number): number {
  let total = 0;
  for (const [open, close] of openIntervals(schedule, fromMs)) {
    if (open >= toMs) break;
    total += Math.min(close, toMs) - open;
  }
  return total / 1000;
}

/**
 * The crawl time a calendar deadline leaves: the seconds the common windows are open between the start and
 * the deadline (the deadline itself without windows). The deadline solver plans against this.
 */
export function deadlineOpenSeconds(input: CalendarInput | undefined, deadlineSeconds: number): number {
  if (input === undefined) return deadlineSeconds;
  const c = read(input, []);
  if (c === undefined || c.common === undefined) return deadlineSeconds;
  return openSecondsBetween(c.common, c.startMs, c.startMs + deadlineSeconds * 1000);
}

/** The plan on the calendar, or null without calendar input. `totalSeconds`: the plan's crawl time. */
export function planCalendar(
  input: CalendarInput | undefined,
  totalSeconds: number,
  hosts: readonly Pick<HostPlan, 'host' | 'seconds'>[],
  deadlineSeconds: number | null,
): PlanCalendar | null {
  if (input === undefined) return null;
  const c = read(input, []);
  if (c === undefined) return null;
  const own = hosts.filter((h) => c.byHost.has(h.host));
  const hostFinishes = own.map((h) => ({
    host: h.host,
    windowsText: c.byHost.get(h.host)!.windows.map((w) => w.text),
    ...finishOf(c.zone, c.byHost.get(h.host), c.startMs, h.seconds),
  }));
  const common = finishOf(c.zone, c.common, c.startMs, totalSeconds);
  // The last to finish, beyond the horizon counting as latest.
  let overall = own.length < hosts.length || hosts.length === 0 ? common : hostFinishes[0]!;
  for (const f of hostFinishes)
    if (f.calendarSeconds === null || (overall.calendarSeconds !== null && f.calendarSeconds > overall.calendarSeconds))
      overall = f;
  const firstOpen = c.common === undefined ? c.startMs : openIntervals(c.common, c.startMs).next().value?.[0];
  return {
    timeZone: c.zone,
    startAt: isoInZone(c.zone, c.startMs),
    windowsText: c.common?.windows.map((w) => w.text) ?? [],
    openHoursPerWeek: c.common === undefined ? null : openSecondsInWeek(c.common, c.startMs) / 3600,
    firstOpenAt: firstOpen === undefined ? null : isoInZone(c.zone, firstOpen),
    calendarFinish: overall.calendarFinish,
    calendarFinishText: overall.calendarFinishText,
    calendarSeconds: overall.calendarSeconds,
    windows: common.windows,
    hosts: hostFinishes,
    deadlineAt: deadlineSeconds === null ? null : isoInZone(c.zone, c.startMs + deadlineSeconds * 1000),
    deadlineOpenSeconds: deadlineSeconds === null ? null : deadlineOpenSeconds(input, deadlineSeconds),
  };
}

/** "crawl time 20 h inside Mon-Fri 22:00-06:00 (Europe/Berlin): finishes Wed 9 Dec 2026 03:00 CET, 3 windows". */
export function calendarSummary(c: PlanCalendar, totalSeconds: number): string {
  const inside = c.windowsText.length > 0 ? ` inside ${c.windowsText.join(', ')}` : '';
  const finish =
    c.calendarFinishText === null
      ? 'does not finish within ten years'
      : `finishes ${c.calendarFinishText}` +
        (c.windows !== null ? `, ${c.windows} window${c.windows === 1 ? '' : 's'}` : '') +
        (c.calendarSeconds !== null ? ` (${formatDuration(c.calendarSeconds)} on the calendar)` : '');
  return `crawl time ${formatDuration(totalSeconds)}${inside} (${c.timeZone}): ${finish}`;
}
