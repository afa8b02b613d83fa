/**
 * Retry-After (RFC 9110 §10.2.3): `HTTP-date / delay-seconds`, parsed by hand so that none of
 * JavaScript's lenient number and date parsers decides a wait (docs/crawl-engine.md#retry-after):
 *
 * - `delay-seconds` is checked with `/^\d+$/` BEFORE any date parse (`Date.parse('0')` is the year 2000,
 *   `parseInt('120abc')` is 120, `Number('1e3')` is 1000: all of those are invalid here);
 * - the three HTTP-date forms (IMF-fixdate, RFC 850, asctime) are read by our own grammar, always as UTC
 *   (V8's `Date.parse` reads asctime as local time);
 * - the delay is never negative and never above the cap, and never above the largest timer Node can
 *   arm (`setTimeout` with more than 2^31-1 ms fires after 1 ms).
 *
 * Points RFC 9110 leaves open, decided (docs/crawl-engine.md#retry-after):
 * - lower-case names (`fri, 31 dec 1999 … gmt`): accepted leniently, note `case-insensitive`;
 * - a zone other than GMT (`UTC`, `UT`, `Z`, or a numeric `+0100`): accepted leniently with the offset
 *   applied, note `zone`; any other zone name is invalid;
 * - a combined field (`120, 60`, or two dates): each member is read on its own and the LONGEST valid
 *   wait wins (the most restrictive reading), note `list`; members that are invalid are ignored;
 * - the `Date` response header, when given and parseable, is the reference for an HTTP-date (clock
 *   skew between the server and us does not change the wait), note `date-header`.
 */
import { MAX_TIMER_MS } from '../clock';

export type RetryAfterKind = 'seconds' | 'date' | 'invalid';

/** How a value was read when it was not in the strict grammar, or relative to what. Stable codes. */
export type RetryAfterNote = 'case-insensitive' | 'zone' | 'list' | 'date-header';

export interface RetryAfterOptions {
  /** Above this the wait is capped and `capped` is set (the engine then drops the host for the run). */
  capSeconds: number;
  /** The response's `Date` header, for HTTP-date values: the wait is computed against the server's clock. */
  dateHeader?: string;
}

export interface RetryAfter {
  kind: RetryAfterKind;
  /** The wait to honour in ms: an integer ≥ 0, at most the cap and at most {@link MAX_TIMER_MS}. 0 when invalid. */
  delayMs: number;
  /** True when the server asked for longer than `capSeconds`. */
  capped: boolean;
  /** The header value as given (untrimmed). */
  raw: string;
  /** What the server asked for, in ms (≥ 0, at most {@link RETRY_AFTER_MAX_SECONDS} s); 0 when invalid. */
  requestedMs: number;
  notes: RetryAfterNote[];
}

/** RFC 9111 §1.2.2: a delta-seconds too large to represent is read as 2^31 seconds. */
export const RETRY_AFTER_MAX_SECONDS = 2_147_483_648;

const DAYS_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const DAYS_LONG = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const IMF_FIXDATE =
  /^([A-Za-z]{3}), (\d{1,2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) ([A-Za-z]{1,3}|[+-]\d{4})$/;
const RFC850_DATE =
  /^([A-Za-z]{6,9}), (\d{1,2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([A-Za-z]{1,3}|[+-]\d{4})$/;
const ASCTIME_DATE = /^([A-Za-z]{3}) ([A-Za-z]{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

export interface HttpDate {
  /** Epoch milliseconds, UTC. */
  ms: number;
  format: 'imf-fixdate' | 'rfc850' | 'asctime';
  notes: Array<Extract<RetryAfterNote, 'case-insensitive' | 'zone'>>;
}

/**
 * Parses an HTTP-date (RFC 9110 §5.6.7) in any of its three forms, as UTC. `nowMs` decides the century
 * of an RFC 850 two-digit year: a year more than 50 years in the future is the most recent past year
 * with those digits. Returns undefined for anything else.
 */
export function parseHttpDate(text: string, nowMs: number): HttpDate | undefined {
  const value = text.trim().replace(/\s+/g, ' ');
  const notes: HttpDate['notes'] = [];
  let m = IMF_FIXDATE.exec(value);
  if (m) {
    const [, day, dd, mon, yyyy, hh, mi, ss, zone] = m as unknown as string[];
    if (!nameIn(day!, DAYS_SHORT, notes)) return undefined;
    const month = monthIndex(mon!, notes);
    const offset = zoneOffsetMs(zone!, notes);
    if (month === undefined || offset === undefined) return undefined;
    const ms = utcMs(Number(yyyy), month, Number(dd), Number(hh), Number(mi), Number(ss));
    return ms === undefined ? undefined : { ms: ms - offset, format: 'imf-fixdate', notes };
  }
  m = RFC850_DATE.exec(value);
  if (m) {
    const [, day, dd, mon, yy, hh, mi, ss, zone] = m as unknown as string[];
    if (!nameIn(day!, DAYS_LONG, notes)) return undefined;
    const month = monthIndex(mon!, notes);
    const offset = zoneOffsetMs(zone!, notes);
    if (month === undefined || offset === undefined) return undefined;
    const ms = utcMs(twoDigitYear(Number(yy), nowMs), month, Number(dd), Number(hh), Number(mi), Number(ss));
    return ms === undefined ? undefined : { ms: ms - offset, format: 'rfc850', notes };
  }
  m = ASCTIME_DATE.exec(value);
  if (m) {
    const [, day, mon, dd, hh, mi, ss, yyyy] = m as unknown as string[];
    if (!nameIn(day!, DAYS_SHORT, notes)) return undefined;
    const month = monthIndex(mon!, notes);
    if (month === undefined) return undefined;
    const ms = utcMs(Number(yyyy), month, Number(dd), Number(hh), Number(mi), Number(ss));
    return ms === undefined ? undefined : { ms, format: 'asctime', notes };
  }
  return undefined;
}

/**
 * Reads a Retry-After value received at `nowMs`. Never throws; anything outside the grammar (and the
 * lenient readings listed above) is `invalid` with `delayMs` 0, and the caller falls back to its own
 * backoff.
 */
export function parseRetryAfter(
  value: string | undefined | null,
  nowMs: number,
  options: RetryAfterOptions,
): RetryAfter {
  const raw = value ?? '';
  const capMs = Math.min(Math.max(0, options.capSeconds) * 1000, MAX_TIMER_MS);
  const serverNow = options.dateHeader === undefined ? undefined : parseHttpDate(options.dateHeader, nowMs)?.ms;

  const members = splitMembers(raw.trim());
  let best: { kind: 'seconds' | 'date'; requestedMs: number; notes: RetryAfterNote[] } | undefined;
  for (const member of members) {
    const read = readMember(member, nowMs, serverNow);
    if (read && (best === undefined || read.requestedMs > best.requestedMs)) best = read;
  }
  if (!best) return { kind: 'invalid', delayMs: 0, capped: false, raw, requestedMs: 0, notes: [] };
  const notes = members.length > 1 ? [...best.notes, 'list' as const] : best.notes;
  const capped = best.requestedMs > capMs;
  return {
    kind: best.kind,
    delayMs: Math.floor(Math.min(best.requestedMs, capMs)),
    capped,
    raw,
    requestedMs: best.requestedMs,
    notes,
  };
}

function readMember(
  member: string,
  nowMs: number,
  serverNow: number | undefined,
): { kind: 'seconds' | 'date'; requestedMs: number; notes: RetryAfterNote[] } | undefined {
  if (/^\d+$/.test(member)) {
    // Digits only: delay-seconds. Number() of a 20-digit string is a float; clamp per RFC 9111.
    const seconds = Math.min(Number(member), RETRY_AFTER_MAX_SECONDS);
    return { kind: 'seconds', requestedMs: seconds * 1000, notes: [] };
  }
  const date = parseHttpDate(member, nowMs);
  if (!date) return undefined;
  const reference = serverNow ?? nowMs;
  const notes: RetryAfterNote[] = [...date.notes];
  if (serverNow !== undefined) notes.push('date-header');
  const requestedMs = Math.min(Math.max(0, date.ms - reference), RETRY_AFTER_MAX_SECONDS * 1000);
  return { kind: 'date', requestedMs, notes };
}

/**
 * Splits a combined field value on commas, gluing back the comma that belongs to a date's day name
 * ("Fri, 31 Dec 1999 …", "Sunday, 06-Nov-94 …"). A value with no comma is one member.
 */
function splitMembers(value: string): string[] {
  const pieces = value.split(',').map((p) => p.trim());
  const members: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const next = pieces[i + 1];
    if (/^[A-Za-z]+$/.test(piece) && next !== undefined && isDayName(piece)) {
      members.push(`${piece}, ${next}`);
      i++;
    } else {
      members.push(piece);
    }
  }
  return members;
}

function isDayName(name: string): boolean {
  const lower = name.toLowerCase();
  return [...DAYS_SHORT, ...DAYS_LONG].some((d) => d.toLowerCase() === lower);
}

function nameIn(name: string, names: readonly string[], notes: HttpDate['notes']): boolean {
  if (names.includes(name)) return true;
  const lower = name.toLowerCase();
  if (names.some((n) => n.toLowerCase() === lower)) {
    addNote(notes, 'case-insensitive');
    return true;
  }
  return false;
}

function monthIndex(name: string, notes: HttpDate['notes']): number | undefined {
  const exact = MONTHS.indexOf(name);
  if (exact >= 0) return exact;
  const lower = name.toLowerCase();
  const i = MONTHS.findIndex((m) => m.toLowerCase() === lower);
  if (i < 0) return undefined;
  addNote(notes, 'case-insensitive');
  return i;
}

/** Milliseconds to subtract from the local reading to get UTC; undefined for an unknown zone. */
function zoneOffsetMs(zone: string, notes: HttpDate['notes']): number | undefined {
  if (zone === 'GMT') return 0;
  const upper = zone.toUpperCase();
  if (upper === 'GMT') {
    addNote(notes, 'case-insensitive');
    return 0;
  }
  if (upper === 'UTC' || upper === 'UT' || upper === 'Z') {
    addNote(notes, 'zone');
    return 0;
  }
  const m = /^([+-])(\d{2})(\d{2})$/.exec(zone);
  if (!m) return undefined;
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 23 || minutes > 59) return undefined;
  addNote(notes, 'zone');
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

function addNote(notes: HttpDate['notes'], note: HttpDate['notes'][number]): void {
  if (!notes.includes(note)) notes.push(note);
}

/** RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is the most recent past one. */
function twoDigitYear(yy: number, nowMs: number): number {
  const nowYear = new Date(nowMs).getUTCFullYear();
  let year = Math.floor(nowYear / 100) * 100 + yy;
  if (year > nowYear + 50) year -= 100;
  else if (year <= nowYear - 50) year += 100;
  return year;
}

/** A UTC instant from calendar fields, or undefined when a field is out of range (31 Feb, 25:00). */
function utcMs(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | undefined {
  if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(year, month, day); // setUTCFullYear, not Date.UTC: years 0-99 stay themselves
  if (d.getUTCMonth() !== month || d.getUTCDate() !== day) return undefined;
  d.setUTCHours(hour, minute, Math.min(second, 59), 0);
  return d.getTime();
}
