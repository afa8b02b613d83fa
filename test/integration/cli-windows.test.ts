/**
 * Crawl windows from the built CLI (docs/cli.md#crawl-windows): --window, --timezone and --start put the
 * plan's crawl time on the calendar, a deadline becomes calendar time, and bad values are refused by name.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EstimateDocument } from '../../src/core/plan';
import { buildCli, runCli } from '../helpers/cli';

before(() => buildCli());

// Two hosts, 240 pages each 5 min apart after their robots.txt: 20 h of crawl time (and a second).
const base = ['estimate', 'https://a.example/', 'https://b.example/', '--pages-per-host', '240', '--delay', '300'];
const windows = ['--window', 'Mon-Fri 22:00-06:00', '--timezone', 'Europe/Berlin', '--start', '2026-12-04T23:00'];

test('a plan over three windows gives its calendar finish in the zone, in text and JSON', async () => {
  const run = await runCli([...base, ...windows, '--json']);
  assert.equal(run.status, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as EstimateDocument;
  const c = doc.calendar!;
  assert.equal(c.timeZone, 'Europe/Berlin');
  assert.equal(c.startAt, '2026-12-04T23:00:00+01:00');
  // Friday night to Saturday 06:00 (7 h), Monday night (8 h), then 5 h from Tuesday 22:00.
  assert.equal(c.windows, 3);
  assert.match(c.calendarFinish!, /^2026-12-09T03:0\d:\d\d\+01:00$/);
  assert.equal(c.openHoursPerWeek, 40);
  const text = await runCli([...base, ...windows]);
  assert.match(
    text.stdout,
    /Calendar: crawl time 20 h( \d+ s)? inside Mon-Fri 22:00-06:00 \(Europe\/Berlin\): finishes Wed 9 Dec 2026 03:0\d CET, 3 windows/,
  );
});

test('without windows, --start alone gives the finish on the calendar; the default start is now', async () => {
  const run = await runCli([...base, '--start', '2026-12-04T22:00:00Z', '--json']);
  const c = (JSON.parse(run.stdout) as EstimateDocument).calendar!;
  assert.equal(c.timeZone, 'UTC');
  assert.match(c.calendarFinish!, /^2026-12-05T18:0\d:\d\d\+00:00$/);
  assert.equal(c.windows, null);
  const plain = JSON.parse((await runCli([...base, '--json'])).stdout) as EstimateDocument;
  assert.equal(plain.calendar, null);
  const now = JSON.parse((await runCli([...base, '--timezone', 'UTC', '--json'])).stdout) as EstimateDocument;
  assert.ok(Math.abs(Date.parse(now.calendar!.startAt) - Date.now()) < 60_000);
});

test('a deadline with windows is calendar time: the plan must fit the crawl time the windows leave', async () => {
  // 7 days from Friday 23:00 hold 7 + 8 × 4 + 7 = 46 h of Mon-Fri nights (the last Friday's until 23:00).
  const run = await runCli([...base, ...windows, '--deadline', '7d', '--json']);
  const doc = JSON.parse(run.stdout) as EstimateDocument;
  assert.equal(doc.calendar!.deadlineOpenSeconds, 40 * 3600);
  assert.equal(doc.deadline!.seconds, 40 * 3600);
  assert.equal(doc.deadline!.met, true);
  // Two days from Friday night leave only Friday night's 7 h: missed.
  const short = JSON.parse(
    (await runCli([...base, ...windows, '--deadline', '2d', '--json'])).stdout,
  ) as EstimateDocument;
  assert.equal(short.deadline!.seconds, 7 * 3600);
  assert.equal(short.deadline!.met, false);
});

test('--window-for keeps one host to its own windows; the crawl finishes when the last host does', async () => {
  const run = await runCli([...base, ...windows, '--window-for', 'b.example=Sat,Sun 00:00-24:00', '--json']);
  assert.equal(run.status, 0, run.stderr);
  const c = (JSON.parse(run.stdout) as EstimateDocument).calendar!;
  assert.equal(c.hosts.length, 1);
  assert.equal(c.hosts[0]!.host, 'b.example');
  // b: Saturday and Sunday from 00:00: its 20 h are done on Saturday 5 December at 20:00.
  assert.match(c.hosts[0]!.calendarFinish!, /^2026-12-05T20:0\d:\d\d\+01:00$/);
  assert.match(c.calendarFinish!, /^2026-12-09T03:0\d/);
});

test('bad windows, zones and starts are refused with what is wrong', async () => {
  const refused = async (args: string[], message: RegExp) => {
    const run = await runCli([...base, ...args]);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stdout}`);
    assert.match(run.stderr, message);
  };
  await refused(['--window', 'Mon-Fri 22:00-30:00'], /--window: "Mon-Fri 22:00-30:00": "30:00" is not an end time/);
  await refused(['--window', 'Someday 10:00-11:00'], /"Someday" is not a day/);
  await refused(['--timezone', 'Europe/Atlantis'], /--timezone: "Europe\/Atlantis" is not a time zone/);
  await refused(['--start', '2026-02-30T10:00'], /--start: "2026-02-30T10:00" is not a date and time/);
  await refused(['--window-for', 'b.example'], /--window-for: "b.example" must be HOST="WINDOW"/);
  await refused(['--window-for', 'b.example=10:00'], /--window-for b.example: "10:00": /);
});
