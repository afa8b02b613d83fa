import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  calendarFinish,
  checkTimeZone,
  formatInZone,
  isoInZone,
  openSecondsInWeek,
  parseWindow,
  windowState,
  type CrawlWindow,
  type WindowSchedule,
} from '../../src/core/windows';
import { plan, PlanInputError } from '../../src/core/plan';

function window(text: string): CrawlWindow {
  const w = parseWindow(text);
  if ('problem' in w) throw new Error(`${text}: ${w.problem}`);
  return w;
}
const schedule = (zone: string, ...texts: string[]): WindowSchedule => ({ zone, windows: texts.map(window) });
const at = (iso: string) => Date.parse(iso);
const H = 3600;

test('windows are read as typed: days, ranges that wrap, every day, crossing midnight', () => {
  assert.deepEqual(window('Mon-Fri 22:00-06:00'), {
    days: [0, 1, 2, 3, 4],
    startMinute: 22 * 60,
    endMinute: 6 * 60,
    text: 'Mon-Fri 22:00-06:00',
  });
  assert.deepEqual(window('22:00-06:00').days, [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(window('Fri-Mon 9:00-17:30').days, [0, 4, 5, 6]);
  assert.deepEqual(window(' sat, SUNDAY   00:00-24:00 ').days, [5, 6]);
  assert.equal(window('Sat,Sun 00:00-24:00').endMinute, 1440);
});

test('a bad window says what is wrong with it', () => {
  const problem = (text: string) => {
    const w = parseWindow(text);
    assert.ok('problem' in w, text);
    return w.problem;
  };
  assert.match(problem(''), /empty/);
  assert.match(problem('Mon-Fri'), /not a time range/);
  assert.match(problem('Mon-Xyz 10:00-11:00'), /"Mon-Xyz" is not a day/);
  assert.match(problem('Mon,,Tue 10:00-11:00'), /empty day/);
  assert.match(problem('25:00-26:00'), /"25:00" is not a start time/);
  assert.match(problem('10:00-10:61'), /"10:61" is not an end time/);
  assert.match(problem('24:00-02:00'), /"24:00" is not a start time/);
  assert.match(problem('10:00-10:00'), /same time; a whole day is 00:00-24:00/);
});

test('time zones are Intl names; an unknown one is refused', () => {
  assert.equal(checkTimeZone('Europe/Berlin'), 'Europe/Berlin');
  assert.equal(checkTimeZone('UTC'), 'UTC');
  assert.equal(checkTimeZone('Mars/Olympus_Mons'), undefined);
});

test('a window that crosses midnight: a 10 h crawl from Friday noon ends at Sunday 00:00 in two windows', () => {
  const f = calendarFinish(schedule('UTC', '22:00-06:00'), at('2026-12-04T12:00:00Z'), 10 * H);
  assert.ok(!('beyondHorizon' in f));
  assert.equal(isoInZone('UTC', f.firstOpenMs), '2026-12-04T22:00:00+00:00');
  assert.equal(isoInZone('UTC', f.finishMs), '2026-12-06T00:00:00+00:00');
  assert.equal(f.windows, 2);
});

test('a plan that spans 3 windows gives the calendar finish in the zone, with its offset', () => {
  // Started inside Friday night's window (it opened 22:00 CET): 7 h to Saturday 06:00, no window on the weekend,
  // 8 h on Monday night, 5 h on Tuesday night.
  const s = schedule('Europe/Berlin', 'Mon-Fri 22:00-06:00');
  const f = calendarFinish(s, at('2026-12-04T22:00:00Z'), 20 * H);
  assert.ok(!('beyondHorizon' in f));
  assert.equal(f.firstOpenMs, at('2026-12-04T22:00:00Z'));
  assert.equal(isoInZone('Europe/Berlin', f.finishMs), '2026-12-09T03:00:00+01:00');
  assert.equal(formatInZone('Europe/Berlin', f.finishMs, { date: true }), 'Wed 9 Dec 2026 03:00 CET');
  assert.equal(f.windows, 3);
  // 20 h of crawling take 4 days and 4 hours on the calendar.
  assert.equal((f.finishMs - at('2026-12-04T22:00:00Z')) / 1000 / H, 4 * 24 + 4);
});

test("DST: Berlin's spring night is an hour shorter, its autumn night an hour longer", () => {
  const s = schedule('Europe/Berlin', 'Sat 22:00-06:00');
  // 28/29 March 2026: 22:00 CET is 21:00Z, 06:00 CEST is 04:00Z: 7 h. 24/25 October: 20:00Z to 05:00Z: 9 h.
  assert.equal(openSecondsInWeek(s, at('2026-03-23T00:00:00Z')), 7 * H);
  assert.equal(openSecondsInWeek(s, at('2026-10-19T00:00:00Z')), 9 * H);
  assert.equal(openSecondsInWeek(s, at('2026-12-07T00:00:00Z')), 8 * H);
  // An 8 h crawl fits October's long night but not March's short one (it spills into the next Saturday).
  const spring = calendarFinish(s, at('2026-03-23T00:00:00Z'), 8 * H);
  const autumn = calendarFinish(s, at('2026-10-19T00:00:00Z'), 8 * H);
  assert.ok(!('beyondHorizon' in spring) && !('beyondHorizon' in autumn));
  assert.equal(isoInZone('Europe/Berlin', spring.finishMs), '2026-04-04T23:00:00+02:00');
  assert.equal(spring.windows, 2);
  assert.equal(isoInZone('Europe/Berlin', autumn.finishMs), '2026-10-25T05:00:00+01:00');
  assert.equal(autumn.windows, 1);
});

test('DST: a window opening at a time the change skips opens at the same time after it', () => {
  const s = schedule('Europe/Berlin', 'Sun 02:30-04:00');
  // 29 March 2026, 02:30 does not exist in Berlin: 03:30 CEST (01:30Z) to 04:00 CEST (02:00Z).
  assert.equal(openSecondsInWeek(s, at('2026-03-23T00:00:00Z')), 0.5 * H);
  // 25 October, 02:30 happens twice: the first (02:30 CEST, 00:30Z) to 04:00 CET (03:00Z).
  assert.equal(openSecondsInWeek(s, at('2026-10-19T00:00:00Z')), 2.5 * H);
});

test('windows that touch are one: Friday night runs into the weekend', () => {
  const s = schedule('UTC', 'Mon-Fri 22:00-06:00', 'Sat,Sun 00:00-24:00');
  const f = calendarFinish(s, at('2026-12-04T22:00:00Z'), 60 * H);
  assert.ok(!('beyondHorizon' in f));
  // Fri 22:00 to Mon 00:00 is 50 h in one stretch (Sunday night is not a Mon-Fri night); 8 h on Monday
  // night, 2 on Tuesday night.
  assert.equal(isoInZone('UTC', f.finishMs), '2026-12-09T00:00:00+00:00');
  assert.equal(f.windows, 3);
});

test('inside or outside a window, and when that changes (the engine pauses on this)', () => {
  const s = schedule('Europe/Berlin', 'Mon-Fri 22:00-06:00');
  assert.deepEqual(windowState(s, at('2026-12-04T23:00:00Z')), { open: true, changesAtMs: at('2026-12-05T05:00:00Z') });
  const closed = windowState(s, at('2026-12-05T12:00:00Z'));
  assert.equal(closed.open, false);
  assert.equal(formatInZone('Europe/Berlin', closed.changesAtMs!), 'Mon 22:00 CET');
  assert.equal(formatInZone('America/New_York', at('2026-12-05T12:00:00Z')), 'Sat 07:00 EST');
});

test('a crawl longer than the horizon is said to be, not looped on', () => {
  const f = calendarFinish(schedule('UTC', 'Sun 00:00-00:01'), at('2026-12-04T00:00:00Z'), 1e6 * H);
  assert.ok('beyondHorizon' in f);
  assert.ok(f.windowsInHorizon > 500 && f.windowsInHorizon < 530);
});

test('the plan refuses a calendar it cannot read, naming the field', () => {
  const input = (calendar: object) => ({ seeds: [{ host: 'a.example' }], pages: { total: 10 }, calendar }) as never;
  const fields = (calendar: object) => {
    try {
      plan(input(calendar));
      return [];
    } catch (e) {
      assert.ok(e instanceof PlanInputError);
      return e.problems.map((p) => p.field);
    }
  };
  assert.deepEqual(fields({ startAt: '2026-12-04T22:00' }), ['calendar.startAt']);
  assert.deepEqual(fields({ startAt: '2026-12-04T22:00Z', timeZone: 'Nowhere/Land' }), ['calendar.timeZone']);
  assert.deepEqual(fields({ startAt: '2026-12-04T22:00Z', windows: ['Mon 10:00-10:00'] }), ['calendar.windows[0]']);
  assert.deepEqual(fields({ startAt: '2026-12-04T22:00Z', windows: ['Mon 10:00-11:00'] }), []);
});
