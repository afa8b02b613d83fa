/**
 * The planner webview's one state (src/webview/state.ts) and the decisions its sections take from it
 * (src/webview/model/): pure, so they run here in node. The sections only turn them into elements.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlannerForm, RawForm } from '../../src/shared/planner/form';
import { PLANNER_SEED_LIMITS } from '../../src/shared/planner/limits';
import type { SeedsView, SummaryRow } from '../../src/shared/planner/viewModel';
import {
  createPlannerState,
  formToPlan,
  savedState,
  SEEDS_SEND_NOW_CHARS,
  seedsToSend,
  sendsSeedsNow,
  takesSeeds,
  takesSimulationSettings,
  type OnScreen,
  type SeedsBox,
} from '../../src/webview/state';
import { calibrationChoice } from '../../src/webview/model/calibration';
import {
  fieldPlaceholders,
  hostListKey,
  otherHostsText,
  pagesModeOf,
  pagesPlaceholder,
} from '../../src/webview/model/fields';
import {
  matchingOrigins,
  moveActiveOption,
  originCountText,
  originListNotes,
  searchesHere,
} from '../../src/webview/model/origins';
import { hostRowView, moreRowsText, moreWarningsText, planningText } from '../../src/webview/model/plan';
import { sitemapsSummaryText } from '../../src/webview/model/robots';
import { moreInvalidLinesText, moreNotesText, SEEDS_HELP, seedsBoxView } from '../../src/webview/model/seeds';
import { sizeSitemapsDisabled } from '../../src/webview/model/sitemaps';

const raw: RawForm = {
  pagesMode: 'total',
  pages: '1000',
  pagesByHost: {},
  rate: '',
  workers: '',
  machines: '',
  deadline: '',
  delay: '1',
  delayFrom: 'start',
  latency: '0.5',
  userAgent: '',
  useRobots: false,
  checkServers: false,
  politenessBy: 'host',
  changedSince: '',
};

const form: PlannerForm = {
  pagesMode: 'total',
  pages: 1000,
  pagesByHost: {},
  rate: null,
  workers: null,
  machines: null,
  deadlineSeconds: null,
  delaySeconds: 1,
  delayFrom: 'start',
  latencySeconds: 0.5,
  userAgent: '',
  useRobots: false,
  checkServers: false,
  politenessBy: 'host',
};

const onScreen: OnScreen = {
  fields: raw,
  simulationFields: { enabled: false, runs: '', seed: '' },
  seedsText: '',
  originQuery: '',
};

const box = (over: Partial<SeedsBox>): SeedsBox => ({
  loaded: true,
  view: { source: 'text', text: 'https://a.example/' },
  text: 'https://a.example/',
  kept: 'https://a.example/',
  refusal: undefined,
  ...over,
});

// ---------------------------------------------------------------------------------------------
// state.ts

test('a page just loaded knows what its inputs show and the origin it saved, nothing from the extension', () => {
  const state = createPlannerState(
    { ...onScreen, originQuery: 'https://a' },
    { v: 2, raw, origin: 'https://a.example' },
  );
  assert.equal(state.stateSeen, false);
  assert.equal(state.result, undefined);
  assert.equal(state.trusted, true);
  assert.deepEqual(state.robots, { state: 'off' });
  assert.deepEqual(state.simulation, { state: 'off' });
  assert.equal(state.fields, raw);
  assert.equal(state.seeds.loaded, false);
  assert.deepEqual(state.origins, {
    chosen: 'https://a.example',
    query: 'https://a',
    open: false,
    options: [],
    active: -1,
  });
  assert.deepEqual(state.sort, { key: 'plan', descending: false });
  assert.deepEqual(state.timers, {});
  assert.equal(createPlannerState(onScreen, undefined).origins.chosen, undefined);
});

test('savedState: the fields as typed, and the origin once one is chosen', () => {
  const state = createPlannerState(onScreen, undefined);
  assert.deepEqual(savedState(state), { v: 2, raw });
  state.origins.chosen = 'https://b.example';
  assert.deepEqual(savedState(state), { v: 2, raw, origin: 'https://b.example' });
});

test("takesSeeds: a view not loaded yet, another source and a file take the extension's seeds; an edited box keeps its text", () => {
  const text: SeedsView = { source: 'text', text: 'https://other.example/' };
  const file: SeedsView = {
    source: 'file',
    file: { label: 'seeds.txt', bytes: 10, seedLines: 1, firstLines: ['https://a.example/'] },
  };
  assert.equal(takesSeeds(box({ loaded: false }), text), true);
  assert.equal(takesSeeds(box({}), text), false);
  assert.equal(takesSeeds(box({}), file), true);
  assert.equal(takesSeeds(box({ view: file }), file), true);
  assert.equal(takesSeeds(box({ view: file }), text), true);
});

test('seedsToSend: only a loaded box that is the source and differs from what the extension has', () => {
  assert.equal(seedsToSend(box({})), undefined);
  assert.equal(seedsToSend(box({ text: 'https://b.example/' })), 'https://b.example/');
  assert.equal(seedsToSend(box({ text: '' })), '');
  assert.equal(seedsToSend(box({ text: 'https://b.example/', loaded: false })), undefined);
  assert.equal(
    seedsToSend(
      box({
        text: 'https://b.example/',
        view: { source: 'file', file: { label: 's', bytes: 0, seedLines: 0, firstLines: [] } },
      }),
    ),
    undefined,
  );
});

test('sendsSeedsNow: a text up to 64 K characters at once, a longer one after a pause', () => {
  assert.equal(sendsSeedsNow('x'.repeat(SEEDS_SEND_NOW_CHARS)), true);
  assert.equal(sendsSeedsNow('x'.repeat(SEEDS_SEND_NOW_CHARS + 1)), false);
});

test("takesSimulationSettings: the extension's settings replace the fields unless an edit waits to be sent", () => {
  const settings = { enabled: true, runs: 100, seed: 1 };
  assert.equal(takesSimulationSettings({ simulationSettings: undefined, timers: {} }), true);
  assert.equal(takesSimulationSettings({ simulationSettings: settings, timers: {} }), true);
  const waiting = setTimeout(() => undefined, 0);
  clearTimeout(waiting);
  assert.equal(takesSimulationSettings({ simulationSettings: undefined, timers: { simulation: waiting } }), true);
  assert.equal(takesSimulationSettings({ simulationSettings: settings, timers: { simulation: waiting } }), false);
});

test('formToPlan: the fields typed and kept are planned after a reload when they are not what was planned', () => {
  assert.equal(formToPlan(undefined, form), undefined);
  assert.equal(formToPlan(form, { ...form }), undefined);
  const typed = { ...form, pages: 2000 };
  assert.equal(formToPlan(typed, form), typed);
});

// ---------------------------------------------------------------------------------------------
// model/: the decisions the sections draw

test('the fields: the pages mode a value names, the placeholders, the list of hosts with pages of their own', () => {
  assert.equal(pagesModeOf('perHost'), 'perHost');
  assert.equal(pagesModeOf('byHost'), 'byHost');
  assert.equal(pagesModeOf('total'), 'total');
  assert.equal(pagesModeOf(''), 'total');
  assert.deepEqual(fieldPlaceholders(undefined), { workers: '8', latency: '0.5', rate: 'no limit' });
  assert.deepEqual(fieldPlaceholders({ defaultDelaySeconds: 2, userAgent: 'ExampleBot' } as never), {
    delay: '2 (setting)',
    userAgent: 'ExampleBot',
    workers: '8',
    latency: '0.5',
    rate: 'no limit',
  });
  assert.equal(pagesPlaceholder(true), '0 (the hosts without their own)');
  assert.equal(pagesPlaceholder(false), 'required');
  assert.equal(hostListKey([{ host: 'a.example' }, { host: 'b.example' }]), 'a.example\nb.example');
  assert.equal(otherHostsText([]), '');
  assert.equal(
    otherHostsText(['x.example', 'y.example']),
    'Also kept, not planned (not seed hosts): x.example, y.example',
  );
});

test('seedsBoxView: a refusal or a text over the limits says so (no count); else the count; invalid lines mark the box', () => {
  assert.deepEqual(seedsBoxView('https://a.example/\n', undefined, 0), {
    error: '',
    count: '1 seed line.',
    invalid: false,
  });
  assert.deepEqual(seedsBoxView('', undefined, 0), { error: '', count: '', invalid: false });
  assert.deepEqual(seedsBoxView('not a url\n', undefined, 1), { error: '', count: '1 seed line.', invalid: true });
  assert.deepEqual(seedsBoxView('https://a.example/', 'Not pasted: …', 0), {
    error: 'Not pasted: …',
    count: '',
    invalid: true,
  });
  const long = 'https://a.example/\n'.repeat(PLANNER_SEED_LIMITS.textLines + 1);
  const over = seedsBoxView(long, undefined, 0);
  assert.match(over.error, /^5,001 seed lines .*: the box plans at most 5,000 seed lines/);
  assert.equal(over.count, '');
  assert.equal(over.invalid, true);
  assert.match(SEEDS_HELP, /Up to 5,000 seed lines here, 100,000 from a file\.$/);
  assert.equal(moreInvalidLinesText(0), '');
  assert.equal(moreInvalidLinesText(1234), 'and 1,234 more invalid lines');
  assert.equal(moreNotesText(0), '');
  assert.equal(moreNotesText(3), 'and 3 more (in Copy plan as JSON: seedNotes)');
});

test('hostRowView: a group says its count on screen and to a screen reader; titles say the detail and what sets the pace', () => {
  const row: SummaryRow = {
    label: '1,000 hosts like a.example',
    host: 'a.example',
    count: 1000,
    detail: '1,000 pages each, limits the crawl',
    pages: '1,000',
    interval: '10 s',
    intervalSource: 'crawl-delay',
    source: 'Crawl-delay',
    period: 'one request every 10.5 s',
    pagesPerHour: '343',
    duration: '2 h 55 m',
    binding: true,
    skipped: false,
    sort: { pages: 1000, intervalSeconds: 10, pagesPerHour: 343, seconds: 10_500 },
  };
  assert.deepEqual(hostRowView(row), {
    count: { shown: '1,000 ×', spoken: '1,000 hosts like ' },
    title: '1,000 hosts like a.example: 1,000 pages each, limits the crawl, one request every 10.5 s',
    className: 'binding',
    attrs: { 'data-host': 'a.example', 'data-source': 'crawl-delay', 'data-count': '1000' },
    intervalTitle: '10 s, set by Crawl-delay; one request every 10.5 s',
    time: '2 h 55 m',
  });
  const one = hostRowView({
    ...row,
    label: 'b.example',
    host: 'b.example',
    count: 1,
    detail: '5 pages, skipped (Crawl-delay above the cap)',
    source: undefined,
    period: undefined,
    binding: false,
    skipped: true,
  });
  assert.equal(one.count, undefined);
  assert.equal(one.title, 'b.example: 5 pages, skipped (Crawl-delay above the cap)');
  assert.equal(one.className, 'skipped');
  assert.equal(one.intervalTitle, '10 s, set by the delay');
  assert.equal(one.time, 'skipped');
  assert.equal(moreRowsText({ groupCount: 3, groups: [row, row, row] }), '');
  assert.equal(moreRowsText({ groupCount: 4, groups: [row, row, row] }), '1 more row in the plan report.');
  assert.equal(moreRowsText({ groupCount: 1052, groups: [row, row] }), '1,050 more rows in the plan report.');
  assert.equal(moreWarningsText({ warningCount: 0, warnings: [] }), '');
  assert.equal(
    moreWarningsText({ warningCount: 1200, warnings: [{ code: 'host-dominates', text: 'one host' }] }),
    'and 1,199 more warnings in the plan report.',
  );
  assert.equal(planningText(50_000), 'Planning 50,000 seeds…');
});

test('the origin picker: searched here when every origin is at hand, any case; arrows go round; what the list leaves out', () => {
  const origins = ['https://a.example', 'https://B.example', 'https://ab.example:8443'];
  assert.equal(searchesHere(origins, 3), true);
  assert.equal(searchesHere(origins, 4), false);
  assert.deepEqual(matchingOrigins(origins, ' B '), {
    options: ['https://B.example', 'https://ab.example:8443'],
    total: 2,
  });
  assert.deepEqual(matchingOrigins(origins, '', 2), { options: ['https://a.example', 'https://B.example'], total: 3 });
  assert.deepEqual(matchingOrigins(origins, 'zzz'), { options: [], total: 0 });
  assert.equal(moveActiveOption(0, 3, true), 1);
  assert.equal(moveActiveOption(2, 3, true), 0);
  assert.equal(moveActiveOption(0, 3, false), 2);
  assert.equal(moveActiveOption(-1, 3, true), 0);
  assert.equal(originCountText(1), '');
  assert.equal(originCountText(1200), '1,200 origins: type to search.');
  assert.deepEqual(originListNotes(2, 2), []);
  assert.deepEqual(originListNotes(50, 1050), ['and 1,000 more: type more of the name']);
  assert.deepEqual(originListNotes(0, 0), ['No seed origin contains that.']);
});

test('sitemapsSummaryText, sizeSitemapsDisabled and calibrationChoice', () => {
  assert.equal(sitemapsSummaryText({ sitemaps: ['a', 'b', 'c'] }), 'Sitemaps (3)');
  assert.equal(sitemapsSummaryText({ sitemaps: ['a'], sitemapsMore: 'and 19 more sitemaps' }), 'Sitemaps (1+)');
  assert.equal(sizeSitemapsDisabled(true, undefined, 3), false);
  assert.equal(sizeSitemapsDisabled(false, undefined, 3), true);
  assert.equal(sizeSitemapsDisabled(true, 'not a date', 3), true);
  assert.equal(sizeSitemapsDisabled(true, undefined, 0), true);
  const crawl = { name: 'test crawl', pages: 12, requests: 15 };
  assert.deepEqual(calibrationChoice({ crawl: null, using: null }), {
    checked: false,
    disabled: true,
    fileInUse: false,
  });
  assert.deepEqual(calibrationChoice({ crawl, using: null }), { checked: false, disabled: false, fileInUse: false });
  assert.deepEqual(calibrationChoice({ crawl, using: 'crawl' }), { checked: true, disabled: false, fileInUse: false });
  assert.deepEqual(calibrationChoice({ crawl: null, using: 'file' }), {
    checked: false,
    disabled: true,
    fileInUse: true,
  });
});
