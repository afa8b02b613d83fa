/**
 * The planner's host side (PlannerController) and its webview: nothing is posted before `ready`, `ready` gets
 * the whole state (and counts once delivered), `visible` re-posts it, a detached webview gets nothing, invalid
 * messages are ignored before any work, a settings change re-posts, dispose stops everything, and a test
 * crawl's end is shown. The fakes are in test/helpers/plannerHost.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCrawlResultView } from '../../src/shared/planner/viewModel';
import type { HostToWebview } from '../../src/shared/planner/messages';
import type { CrawlSummary } from '../../src/core/crawl/events';
import { settings, SEEDS, form, harness, settle } from '../helpers/plannerHost';

const endedCrawl: CrawlSummary = {
  startedAt: 0,
  endedAt: 2100,
  elapsedSeconds: 2.1,
  pages: 1,
  requests: 10,
  statusCounts: { '200': 2, '301': 8 },
  retries: 0,
  robotsSkips: 0,
  errors: 0,
  retryAfterSeen: [],
  hosts: [],
  notFollowed: [{ reason: 'other-host', urls: 8, hosts: [{ host: 'b.example', urls: 8 }], moreHosts: 0 }],
  endReason: 'complete',
};

test('a test crawl that ends is shown: posted at once, and again with every state', () => {
  const h = harness();
  const view = toCrawlResultView('test crawl', 0, endedCrawl);
  h.endCrawl(view);
  assert.deepEqual(h.posted, [], 'nothing before ready');
  h.controller.receive({ type: 'ready' });
  assert.deepEqual(h.types(), ['state', 'crawlResult']);
  assert.deepEqual(h.last('crawlResult')!.crawl, view);
  assert.deepEqual(
    [view.name, view.endReason, view.exitCode, view.pages, view.requests, view.elapsedSeconds],
    ['test crawl', 'complete', 0, 1, 10, 2.1],
  );
  assert.deepEqual(view.notFollowed, endedCrawl.notFollowed);
  assert.notEqual(view.notFollowed[0], endedCrawl.notFollowed[0], "a copy, not the summary's own objects");
  h.endCrawl({ ...view, pages: 5 });
  assert.equal(h.last('crawlResult')!.crawl.pages, 5);
  h.controller.visible();
  assert.deepEqual(h.types().slice(-2), ['state', 'crawlResult']);
  h.controller.dispose();
  h.endCrawl(view);
  assert.equal(h.posted.length, 5, 'nothing after dispose');
});

test('nothing is posted before ready; ready gets the whole state', () => {
  const h = harness();
  h.controller.visible();
  assert.deepEqual(h.posted, []);
  h.controller.receive({ type: 'ready' });
  const state = h.last('state');
  assert.ok(state);
  assert.equal(state.trusted, true);
  assert.deepEqual(state.settings, settings);
  assert.equal(state.form.pages, 1000, 'the default form');
  assert.deepEqual(state.robots, { state: 'off' });
  assert.deepEqual(state.seeds, { source: 'text', text: '' });
  assert.deepEqual(
    state.result.problems.map((p) => p.field),
    ['seeds'],
  );
});

test('ready gets the kept form and seeds, planned; visible re-posts state', () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  const state = h.last('state')!;
  assert.deepEqual(state.form, form);
  assert.deepEqual(state.seeds, { source: 'text', text: SEEDS });
  assert.equal(state.result.summary?.hostCount, 2);
  assert.equal(state.result.validSeeds, 2);
  assert.equal(state.result.invalidSeedCount, 1);
  assert.deepEqual(state.result.invalidSeeds[0], {
    line: 5,
    text: 'not a url',
    reason: 'not-a-url',
    message: 'not a URL',
  });
  assert.deepEqual(state.result.origins, ['https://a.example', 'https://b.example']);
  assert.equal(state.fields, null, 'nothing typed yet');
  assert.deepEqual(h.saved, [], 'nothing to save on ready');
  h.controller.visible();
  assert.deepEqual(h.types(), ['state', 'state']);
});

test('a ready counts as answered once its state was delivered; a webview that took nothing does not count', async () => {
  const h = harness();
  assert.equal(h.controller.isReady, false);
  const first = h.controller.readyAnswered(0);
  h.controller.receive({ type: 'ready' });
  assert.equal(h.controller.isReady, true);
  await first;
  assert.equal(h.controller.answeredReadies, 1);
  await h.controller.readyAnswered(0); // at once: one was answered already

  // A new webview whose postMessage resolves false (not live yet): its ready is not an answered one.
  const refused: HostToWebview[] = [];
  h.controller.attach((m) => {
    refused.push(m);
    return Promise.resolve(false);
  });
  let answered = false;
  void h.controller.readyAnswered(1).then(() => (answered = true));
  h.controller.receive({ type: 'ready' });
  await settle();
  assert.deepEqual(
    refused.map((m) => m.type),
    ['state'],
  );
  assert.equal(answered, false);
  assert.equal(h.controller.answeredReadies, 1);
});

test('invalid messages are logged and ignored before any work', () => {
  const h = harness();
  h.controller.receive({ type: 'ready' });
  const before = h.posted.length;
  for (const raw of [
    null,
    { type: 'nope' },
    { type: 'formChanged', form: { ...form, workers: NaN } },
    { type: 'openRobots', origin: 'javascript:alert(1)' },
    { type: 'copyPlan', x: 1 },
  ]) {
    h.controller.receive(raw);
  }
  assert.equal(h.posted.length, before);
  assert.equal(h.logs.length, 5);
  assert.ok(h.logs.every((l) => l.startsWith('Planner view: ignored an invalid message')));
  assert.deepEqual(h.saved, []);
  assert.deepEqual(h.opened, []);
});

test('a settings change re-posts settings and the plan; dispose stops everything', () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.fireSettings();
  assert.deepEqual(h.types().slice(-2), ['settings', 'planResult']);
  h.controller.dispose();
  const n = h.posted.length;
  h.controller.receive({ type: 'copyPlan' });
  h.fireSettings();
  assert.equal(h.posted.length, n);
});

test('a detached webview gets nothing until a new one is ready', () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.controller.detach();
  h.controller.receive({ type: 'formChanged', form: { ...form, pages: 5 } });
  h.controller.receive({ type: 'seedsChanged', text: 'https://c.example/' });
  assert.deepEqual(h.types(), ['state']);
  assert.equal(h.saved.at(-1)!.form.pages, 5, 'the form is still kept');
  assert.equal(h.saved.at(-1)!.seedsText, 'https://c.example/', 'and the seeds');
});
