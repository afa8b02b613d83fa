/**
 * The planner's current plan (currentPlan.ts, planning.ts): it follows the form and the settings, its pages are
 * announced, a long list is planned after a `planning` message, and the pure planning steps (computePlan,
 * findOrigins, unplannableSeeds).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLAN_LATER_SEEDS } from '../../src/extension/planner/currentPlan';
import {
  checkSeedText,
  computePlan,
  findOrigins,
  planResultView,
  unplannableSeeds,
} from '../../src/extension/planner/planning';
import { settings, SEEDS, form, harness, settle, seedList } from '../helpers/plannerHost';

test("the plan's pages (the robots.txt editor's N) follow the form, and their changes are announced", async () => {
  const h = harness({ seeds: SEEDS, form });
  let announced = 0;
  h.controller.onDidChangePlannedPages(() => announced++);
  h.controller.receive({ type: 'seedsChanged', text: '' });
  assert.equal(h.controller.currentPlanPages(), undefined, 'no seeds: no plan');
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'seedsChanged', text: SEEDS });
  assert.equal(h.controller.currentPlanPages(), 200, '100 per host × 2 hosts');
  await settle();
  assert.equal(announced, 1);
  h.controller.receive({ type: 'formChanged', form: { ...form, pagesMode: 'total', pages: 30 } });
  assert.equal(h.controller.currentPlanPages(), 30);
  await settle();
  assert.equal(announced, 2);
  h.controller.receive({ type: 'formChanged', form: { ...form, pagesMode: 'total', pages: 30, rate: 5 } });
  await settle();
  assert.equal(announced, 2, 'a change that keeps the pages is not announced');
  h.controller.receive({ type: 'seedsChanged', text: '' });
  assert.equal(h.controller.currentPlanPages(), undefined);
  await settle();
  assert.equal(announced, 3);
});

test('formChanged re-plans with settings for empty fields', () => {
  const h = harness({ seeds: SEEDS });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'formChanged', form: { ...form, workers: 4 } });
  assert.ok(h.last('planResult')!.result.summary);
  const input = h.controller.currentPlan().plan!.input;
  assert.equal(input.workers, 4);
  assert.equal(input.delaySeconds, settings.defaultDelaySeconds);
  assert.equal(input.crawlDelayPolicy, settings.crawlDelayPolicy);
  assert.equal(input.maxCrawlDelaySeconds, settings.maxCrawlDelaySeconds);
  h.controller.receive({ type: 'formChanged', form: { ...form, pages: null } });
  assert.equal(h.last('planResult')!.result.summary, null);
  assert.deepEqual(
    h.last('planResult')!.result.problems.map((p) => p.field),
    ['pages'],
  );
});

test('a list below PLAN_LATER_SEEDS is planned at once, without a planning message', () => {
  const later: Array<() => void> = [];
  const h = harness({ defer: (work) => later.push(work) });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'seedsChanged', text: seedList(Math.min(PLAN_LATER_SEEDS - 1, 5000)) });
  assert.deepEqual(h.types(), ['state', 'planResult']);
  assert.equal(later.length, 0);
});

test('findOrigins and unplannableSeeds', () => {
  assert.deepEqual(findOrigins(['https://a.example', 'https://b.example'], ''), {
    origins: ['https://a.example', 'https://b.example'],
    total: 2,
  });
  assert.deepEqual(findOrigins(['https://a.example', 'https://b.example'], ' B.EX '), {
    origins: ['https://b.example'],
    total: 1,
  });
  assert.deepEqual(unplannableSeeds('why').problem, 'why');
});

// ---------------------------------------------------------------------------------------------
// planning.ts and robots.ts

test('computePlan narrows robots Crawl-delays to the seed hosts (no override warning)', () => {
  const c = computePlan(form, checkSeedText(SEEDS), settings, { 'b.example': 10, 'gone.example': 99 });
  assert.deepEqual(planResultView(c, undefined, form, 1).crawlDelayHosts, ['b.example']);
  assert.ok(!c.plan!.warnings.some((w) => w.code === 'override-for-unknown-host'));
});

test('computePlan reports settings out of range as problems', () => {
  const c = computePlan(form, checkSeedText(SEEDS), { ...settings, defaultDelaySeconds: -1 });
  assert.equal(c.plan, null);
  assert.equal(planResultView(c, undefined, form, 1).problems[0]!.field, 'delaySeconds');
});

test('computePlan cuts long invalid lines and lists at most 100', () => {
  const text = Array.from({ length: 150 }, () => `bad ${'x'.repeat(500)}`).join('\n');
  const c = computePlan(form, checkSeedText(text), settings);
  const view = planResultView(c, undefined, form, 1);
  assert.equal(view.invalidSeedCount, 150);
  assert.equal(view.invalidSeeds.length, 100);
  assert.ok(view.invalidSeeds[0]!.text.length <= 201);
  assert.equal(c.seeds.validation.invalid.length, 150);
});
