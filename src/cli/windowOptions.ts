/**
 * --window, --window-for, --timezone and --start (docs/cli.md#crawl-windows): when the crawl may run and from
 * when the plan counts. Read into the plan's CalendarInput; any of them gives the plan a calendar finish.
 */
import { sanitizeText } from '../core/format/table';
import { calendarProblems, DEFAULT_TIME_ZONE, type CalendarInput } from '../core/plan/calendar';
import { checkTimeZone, instantOf, isoInZone, parseWindow } from '../core/windows';
import { UsageError } from './args';
import { parseHost } from './hostOption';

export const WINDOW_OPTIONS = {
  window: { type: 'string', multiple: true },
  'window-for': { type: 'string', multiple: true },
  timezone: { type: 'string' },
  start: { type: 'string' },
} as const;

export interface WindowValues {
  window?: string[];
  'window-for'?: string[];
  timezone?: string;
  start?: string;
}

/** The help lines; `column`: where the command's help texts start. */
export function windowHelp(column: number): string {
  const pad = (flag: string) => `  ${flag}`.padEnd(column);
  return (
    `${pad('--window W')}crawl only inside this window (repeatable): "Mon-Fri 22:00-06:00", or\n` +
    `${pad('')}"22:00-06:00" for every day; an end before the start crosses midnight\n` +
    `${pad('--window-for HOST=W')}a host's own windows instead of --window's (repeatable)\n` +
    `${pad('--timezone ZONE')}the windows' time zone, an IANA name (default ${DEFAULT_TIME_ZONE})\n` +
    `${pad('--start WHEN')}when the crawl starts (default now): 2026-12-04T22:00 in --timezone, or with\n` +
    `${pad('')}an offset (2026-12-04T22:00:00+01:00)\n`
  );
}

/** --start: with an offset as written; without one, a wall-clock time in `zone`. Returns ISO 8601 with an offset. */
function startOption(raw: string, zone: string): string {
  const text = raw.trim();
  if (/([zZ]|[+-]\d\d:?\d\d)$/.test(text) && /^\d{4}-\d\d-\d\dT/.test(text)) {
    const ms = Date.parse(text);
    if (Number.isFinite(ms)) return isoInZone(zone, ms);
  }
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?)?$/.exec(text);
  if (m !== null) {
    const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0));
    const check = new Date(Date.UTC(year!, month! - 1, day!));
    const valid =
      check.getUTCFullYear() === year &&
      check.getUTCMonth() === month! - 1 &&
      check.getUTCDate() === day &&
      hour! < 24 &&
      minute! < 60 &&
      second! < 60;
    if (valid) {
      const ms = instantOf(zone, { year: year!, month: month!, day: day! }, hour! * 60 + minute!) + second! * 1000;
      return isoInZone(zone, ms);
    }
  }
  throw new UsageError(
    `--start: "${sanitizeText(raw)}" is not a date and time such as 2026-12-04T22:00 (in --timezone) or 2026-12-04T22:00:00+01:00`,
  );
}

/** The calendar input, or undefined when none of the options is given. `nowMs`: the default start. */
export function calendarOption(values: WindowValues, nowMs: number): CalendarInput | undefined {
  const windows = values.window;
  const windowsFor = values['window-for'];
  if (windows === undefined && windowsFor === undefined && values.timezone === undefined && values.start === undefined)
    return undefined;
  const zone = checkTimeZone(values.timezone ?? DEFAULT_TIME_ZONE);
  if (zone === undefined)
    throw new UsageError(
      `--timezone: "${sanitizeText(values.timezone ?? '')}" is not a time zone (an IANA name such as Europe/Berlin or UTC)`,
    );
  for (const text of windows ?? []) {
    const w = parseWindow(text);
    if ('problem' in w) throw new UsageError(`--window: "${sanitizeText(text)}": ${w.problem}`);
  }
  const windowsByHost: Record<string, string[]> = {};
  for (const raw of windowsFor ?? []) {
    const eq = raw.indexOf('=');
    const hostText = eq < 0 ? '' : raw.slice(0, eq).trim();
    const text = eq < 0 ? '' : raw.slice(eq + 1).trim();
    if (hostText === '' || text === '')
      throw new UsageError(`--window-for: "${sanitizeText(raw)}" must be HOST="WINDOW"`);
    const host = parseHost('window-for', hostText);
    const w = parseWindow(text);
    if ('problem' in w)
      throw new UsageError(`--window-for ${sanitizeText(host)}: "${sanitizeText(text)}": ${w.problem}`);
    (windowsByHost[host] ??= []).push(text);
  }
  const input: CalendarInput = {
    timeZone: zone,
    startAt: values.start === undefined ? isoInZone(zone, nowMs) : startOption(values.start, zone),
    ...(windows !== undefined ? { windows } : {}),
    ...(windowsFor !== undefined ? { windowsByHost } : {}),
  };
  const problems = calendarProblems(input);
  if (problems.length > 0) throw new UsageError(sanitizeText(problems[0]!.message));
  return input;
}
