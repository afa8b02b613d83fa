/**
 * The planner's saved state (savedState.ts): read when the planner is first needed, not at activation; this
 * version's format and an earlier one's; the fields as typed; a store read later holds the first messages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlannerController } from '../../src/extension/planner/controller';
import { parseSavedPlanner } from '../../src/extension/planner/savedState';
import { settings, SEEDS, form, inspection, deferred, harness, settle } from '../helpers/plannerHost';

test('the stored planner is the fallback (and a form an earlier version stored, seeds inside); a damaged one is replaced by defaults', () => {
  const h = harness({ stored: { v: 2, form, seedsText: SEEDS } });
  h.controller.receive({ type: 'ready' });
  assert.deepEqual(h.last('state')!.form, form);
  assert.deepEqual(h.last('state')!.seeds, { source: 'text', text: SEEDS });
  const legacy = harness({ stored: { ...form, seeds: SEEDS } });
  legacy.controller.receive({ type: 'ready' });
  assert.deepEqual(legacy.last('state')!.form, form);
  assert.deepEqual(legacy.last('state')!.seeds, { source: 'text', text: SEEDS });
  for (const damaged of [
    { ...form, seeds: SEEDS, pages: 'lots' },
    { v: 2, form: { ...form, pages: 'lots' }, seedsText: SEEDS },
    { v: 2, form, seedsText: 5 },
    'x',
  ]) {
    const bad = harness({ stored: damaged });
    bad.controller.receive({ type: 'ready' });
    assert.equal(bad.last('state')!.form.pages, 1000, JSON.stringify(damaged).slice(0, 80));
    assert.deepEqual(bad.last('state')!.seeds, { source: 'text', text: '' });
  }
});

test('the saved planner is read when the planner is first needed, not when it is made (activation does no file I/O)', () => {
  let loads = 0;
  const controller = new PlannerController(
    {
      getSettings: () => settings,
      isTrusted: () => true,
      inspectRobots: () => Promise.resolve(inspection([])),
      runTestCrawl: () => undefined,
      openRobots: () => undefined,
      log: () => undefined,
    },
    {
      store: { load: () => (loads++, { v: 2, form, seedsText: SEEDS }), save: async () => undefined },
      writeClipboard: async () => undefined,
    },
  );
  assert.equal(loads, 0);
  assert.deepEqual(controller.currentSeeds(), ['https://a.example/', 'https://b.example/private/x']);
  assert.equal(loads, 1);
  controller.receive({ type: 'ready' });
  assert.equal(loads, 1, 'read once');
});

test('fieldsEdited keeps the fields as typed (half-typed too) and posts them back; a reload plans what was typed', () => {
  const typed = {
    pagesMode: 'total',
    pages: '500000',
    pagesByHost: {},
    rate: '',
    workers: '',
    machines: '',
    deadline: '',
    delay: '',
    delayFrom: 'start',
    latency: '',
    userAgent: '',
    useRobots: false,
    checkServers: false,
    politenessBy: 'host',
    changedSince: '',
  } as const;
  const h = harness({ seeds: SEEDS });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'fieldsEdited', fields: typed });
  assert.equal(h.posted.length, 1, 'nothing is planned for an edit: formChanged does that');
  assert.deepEqual(h.saved.at(-1)!.fields, typed);
  h.controller.receive({ type: 'ready' });
  assert.deepEqual(h.last('state')!.fields, typed);
  // The window went before formChanged: the reloaded planner plans the fields it kept.
  const reloaded = harness({ stored: h.saved.at(-1) });
  reloaded.controller.receive({ type: 'ready' });
  assert.equal(reloaded.last('state')!.form.pages, 500_000);
  assert.match(reloaded.last('state')!.result.summary!.totalText, /for 500,000 pages/);
  // Half-typed: kept as typed, the last valid form still planned.
  h.controller.receive({ type: 'fieldsEdited', fields: { ...typed, pages: '1,0' } });
  const half = harness({ stored: h.saved.at(-1) });
  half.controller.receive({ type: 'ready' });
  assert.equal(half.last('state')!.fields!.pages, '1,0');
  assert.equal(half.last('state')!.form.pages, 1000);
});

test('a saved planner read later (a file under storage) is restored before the first message is answered', async () => {
  const later = deferred<unknown>();
  const h = harness({ stored: later.promise });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'formChanged', form: { ...form, pages: 7 } });
  assert.deepEqual(h.posted, [], 'nothing before the saved planner is read');
  later.resolve({ v: 2, form, seedsText: SEEDS });
  await settle();
  assert.deepEqual(h.types(), ['state', 'planResult']);
  assert.deepEqual(h.last('state')!.seeds, { source: 'text', text: SEEDS });
  assert.equal(h.controller.currentForm().pages, 7, 'the message that waited was applied after');
});

test("parseSavedPlanner: this version, an earlier version's form, and nothing else", () => {
  assert.deepEqual(
    parseSavedPlanner({ v: 2, form, seedsText: 'x', seedsFile: { uri: 'file:///s.txt', label: 's.txt' } }),
    { form, seedsText: 'x', seedsFile: { uri: 'file:///s.txt', label: 's.txt' } },
  );
  assert.deepEqual(parseSavedPlanner({ v: 2, form, seedsText: 'x', seedsFile: { uri: 5 } }), { form, seedsText: 'x' });
  assert.deepEqual(parseSavedPlanner({ ...form, seeds: 'x' }), { form, seedsText: 'x' });
  for (const bad of [
    undefined,
    null,
    [],
    { v: 3, form, seedsText: '' },
    { v: 2, form: { ...form, extra: 1 }, seedsText: '' },
    { ...form },
  ]) {
    assert.equal(parseSavedPlanner(bad), undefined, JSON.stringify(bad));
  }
});
