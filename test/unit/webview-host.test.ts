/**
 * The planner's host side (PlannerController) with fakes for the webview, the store, the clipboard and
 * the injected deps: the handshake, validation before work, planning, robots.txt feeding the plan,
 * stale robots results dropped, and the buttons.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlannerController } from '../../src/extension/planner/controller';
import { PLAN_LATER_SEEDS } from '../../src/extension/planner/currentPlan';
import type {
  InspectRobotsOptions,
  PlannerViewDeps,
  SeedFileRead,
  SeedFileRef,
  SeedFiles,
  SizeSitemapsOptions,
  TestCrawlRequest,
} from '../../src/extension/planner/deps';
import { defaultForm, parseSavedPlanner, type SavedPlanner } from '../../src/extension/planner/savedState';
import type { SitemapHostReport, SitemapSizing } from '../../src/core/sitemaps/sizing';
import {
  MAX_SITEMAP_ERRORS_SHOWN,
  MAX_SITEMAP_ORIGINS,
  sitemapTargets,
  toSitemapsView,
} from '../../src/extension/planner/sitemapsResults';
import {
  checkSeedText,
  computePlan,
  findOrigins,
  planResultView,
  unplannableSeeds,
} from '../../src/extension/planner/planning';
import { seedLinesFromText } from '../../src/core/seeds';
import {
  crawlDelaysFrom,
  robotsTargets,
  toRobotsView,
  MAX_ROBOTS_ORIGINS,
} from '../../src/extension/planner/robotsResults';
import type { InspectedOrigin, RobotsInspection, RobotsUrlResult } from '../../src/net/robotsInspect';
import { toCrawlResultView, type CrawlResultView, type PlannerViewSettings } from '../../src/shared/planner/viewModel';
import type { HostToWebview } from '../../src/shared/planner/messages';
import type { PlannerForm } from '../../src/shared/planner/form';
import type { CrawlSummary } from '../../src/core/crawl/events';

const settings: PlannerViewSettings = {
  userAgent: 'CrawlPlanner/0.1 (+https://example.com/bot)',
  defaultDelaySeconds: 1,
  delayFrom: 'start',
  maxCrawlDelaySeconds: 30,
  crawlDelayPolicy: 'cap',
  maxPages: 50,
};

/** The seeds box's text: two valid seeds, a comment, a blank line and an invalid line (line 5). */
const SEEDS = 'https://a.example/\nhttps://b.example/private/x\n# a comment\n\nnot a url';

const form: PlannerForm = {
  pagesMode: 'perHost',
  pages: 100,
  pagesByHost: {},
  rate: null,
  workers: null,
  machines: null,
  deadlineSeconds: null,
  delaySeconds: null,
  delayFrom: 'start',
  latencySeconds: null,
  userAgent: '',
  useRobots: false,
};

/**
 * A real-shaped RobotsInspection (as src/net/robotsInspect.ts returns it): every field present, null where
 * absent; each origin and result states only what differs from an ok file with no group or Crawl-delay.
 */
function robotsInspection(
  origins: Array<Partial<InspectedOrigin> & Pick<InspectedOrigin, 'origin'>>,
  results: Array<Partial<RobotsUrlResult> & Pick<RobotsUrlResult, 'url'>> = [],
): RobotsInspection {
  return {
    productToken: 'ExampleBot',
    origins: origins.map((o) => ({
      robotsUrl: `${o.origin}/robots.txt`,
      outcome: 'ok',
      from: 'network',
      status: null,
      redirects: [],
      bytes: null,
      truncated: false,
      fetchedAt: null,
      group: null,
      crawlDelaySeconds: null,
      crawlDelayLine: null,
      effectiveIntervalSeconds: 1,
      intervalSource: 'configured',
      skipped: false,
      crawlDelayAboveCap: null,
      sitemaps: [],
      findings: [],
      reason: '',
      ...o,
    })),
    results: results.map((r) => ({
      origin: new URL(r.url).origin,
      verdict: 'allowed',
      line: null,
      rule: null,
      reason: '',
      ...r,
    })),
    invalid: [],
  };
}

function inspection(urls: string[]): RobotsInspection {
  const origins = [...new Set(urls.map((u) => new URL(u).origin))];
  return robotsInspection(
    origins.map((origin) => ({
      origin,
      status: 200,
      bytes: 50,
      fetchedAt: 0,
      group: { line: 1, lines: [1, 2, 3], userAgents: ['*'], matchedBy: 'star' },
      ...(origin === 'https://b.example' ? { crawlDelaySeconds: 10, crawlDelayLine: 2 } : {}),
      effectiveIntervalSeconds: origin === 'https://b.example' ? 10 : 1,
      intervalSource: origin === 'https://b.example' ? 'crawl-delay' : 'configured',
      sitemaps: [`${origin}/sitemap.xml`],
      reason: 'robots.txt read (HTTP 200).',
      text: 'User-agent: *\nCrawl-delay: 10\nDisallow: /private',
    })),
    urls.map((url) =>
      url.includes('/private')
        ? { url, verdict: 'disallowed', line: 3, rule: 'Disallow: /private', reason: 'Disallowed by line 3.' }
        : { url, verdict: 'allowed', reason: 'No rule matches.' },
    ),
  );
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A seeds file on a fake disk: its text (undefined: gone) and modification time. */
interface FakeFile {
  text?: string;
  mtime: number;
}

/** SeedFiles over a map of fake files; `picked` is what the Open dialog returns. */
function fakeFiles(disk: Map<string, FakeFile>, picked?: SeedFileRef) {
  const reads: string[] = [];
  const opened: Array<[string, number | undefined]> = [];
  const watchers = new Map<string, () => void>();
  const files: SeedFiles = {
    pick: async () => picked,
    findWorkspaceSeeds: async () =>
      [...disk.keys()]
        .filter((k) => k.endsWith('seeds.txt'))
        .map((uri) => ({ uri, label: uri.replace(/^file:\/\/\/ws\//, '') })),
    choose: async (list) => list[list.length - 1],
    read: async (ref, maxBytes): Promise<SeedFileRead> => {
      reads.push(ref.uri);
      const f = disk.get(ref.uri);
      if (f?.text === undefined) return { problem: `Cannot read ${ref.label}: the file is gone (moved or deleted?).` };
      const bytes = Buffer.byteLength(f.text);
      if (bytes > maxBytes) return { problem: `${ref.label} is too big` };
      return { text: f.text, bytes, mtime: f.mtime };
    },
    stat: async (ref) => {
      const f = disk.get(ref.uri);
      return f?.text === undefined ? undefined : { bytes: Buffer.byteLength(f.text), mtime: f.mtime };
    },
    open: async (ref, line) => void opened.push([ref.uri, line]),
    watch: (ref, changed) => {
      watchers.set(ref.uri, changed);
      return { dispose: () => watchers.delete(ref.uri) };
    },
  };
  return { files, reads, opened, watchers };
}

function harness(
  options: {
    trusted?: boolean;
    stored?: unknown;
    /** Seeds saved by an earlier session (the box's text). */
    seeds?: string;
    /** The form saved by an earlier session. */
    form?: PlannerForm;
    inspect?: (urls: string[], o: InspectRobotsOptions) => PromiseLike<RobotsInspection>;
    /** Sitemap sizing (absent: the planner cannot size). */
    size?: (urls: string[], o: SizeSitemapsOptions) => PromiseLike<SitemapSizing>;
    files?: SeedFiles;
    defer?: (work: () => void) => void;
    expectedLocalHosts?: ReadonlySet<string>;
  } = {},
) {
  const posted: HostToWebview[] = [];
  const logs: string[] = [];
  const saved: SavedPlanner[] = [];
  const clipboard: string[] = [];
  const crawls: Array<[string[], TestCrawlRequest]> = [];
  const opened: Array<[string, number | undefined]> = [];
  const inspections: Array<[string[], InspectRobotsOptions]> = [];
  const sizings: Array<[string[], SizeSitemapsOptions]> = [];
  let reports = 0;
  let exports = 0;
  let settingsListener: (() => void) | undefined;
  let crawlListener: ((crawl: CrawlResultView) => void) | undefined;
  let trusted = options.trusted ?? true;
  const deps: PlannerViewDeps = {
    getSettings: () => settings,
    isTrusted: () => trusted,
    inspectRobots: (urls, o) => {
      inspections.push([urls, o]);
      return options.inspect ? options.inspect(urls, o) : Promise.resolve(inspection(urls));
    },
    runTestCrawl: (seeds, o) => {
      crawls.push([seeds, o]);
      return Promise.resolve();
    },
    openRobots: (origin, line) => {
      opened.push([origin, line]);
    },
    openReport: () => void reports++,
    exportPlan: () => void exports++,
    ...(options.size
      ? {
          sizeFromSitemaps: (urls: string[], o: SizeSitemapsOptions) => {
            sizings.push([urls, o]);
            return options.size!(urls, o);
          },
        }
      : {}),
    ...(options.files ? { files: options.files } : {}),
    ...(options.defer ? { defer: options.defer } : {}),
    ...(options.expectedLocalHosts ? { expectedLocalHosts: () => options.expectedLocalHosts! } : {}),
    log: (m) => logs.push(m),
    onDidChangeSettings: (listener) => {
      settingsListener = listener;
      return { dispose: () => (settingsListener = undefined) };
    },
    onDidEndCrawl: (listener) => {
      crawlListener = listener;
      return { dispose: () => (crawlListener = undefined) };
    },
  };
  const stored =
    options.stored ??
    (options.seeds !== undefined || options.form !== undefined
      ? { v: 2, form: options.form ?? defaultForm(settings), seedsText: options.seeds ?? '' }
      : undefined);
  const controller = new PlannerController(deps, {
    store: { load: () => stored, save: async (state) => void saved.push(structuredClone(state)) },
    writeClipboard: async (text) => void clipboard.push(text),
  });
  controller.attach((m) => {
    posted.push(structuredClone(m));
    return Promise.resolve(true);
  });
  return {
    controller,
    posted,
    logs,
    saved,
    clipboard,
    crawls,
    opened,
    inspections,
    sizings,
    reports: () => reports,
    exports: () => exports,
    setTrusted: (t: boolean) => (trusted = t),
    fireSettings: () => settingsListener?.(),
    endCrawl: (crawl: CrawlResultView) => crawlListener?.(crawl),
    types: () => posted.map((m) => m.type),
    last: <T extends HostToWebview['type']>(type: T) =>
      posted.filter((m) => m.type === type).at(-1) as Extract<HostToWebview, { type: T }> | undefined,
  };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

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

test('turning robots.txt on inspects the seeds; its Crawl-delay feeds the plan as crawl-delay', async () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'formChanged', form: { ...form, useRobots: true, userAgent: 'ExampleBot/2' } });
  assert.deepEqual(h.types().slice(-2), ['planResult', 'robotsPending']);
  assert.equal(h.inspections.length, 1);
  const [urls, options] = h.inspections[0]!;
  assert.deepEqual(urls, ['https://a.example/', 'https://b.example/private/x']);
  assert.equal(options.userAgent, 'ExampleBot/2');
  assert.equal(options.configuredDelaySeconds, 1);
  assert.equal(options.crawlDelayPolicy, 'cap');
  assert.ok(options.signal instanceof AbortSignal);
  await settle();
  const robots = h.last('robotsResult')!.robots;
  assert.equal(robots.userAgent, 'ExampleBot/2');
  assert.equal(robots.origins.length, 2);
  assert.ok(!('text' in robots.origins[0]!), 'the robots.txt text is not posted');
  assert.deepEqual(robots.results[1], {
    url: 'https://b.example/private/x',
    origin: 'https://b.example',
    verdict: 'disallowed',
    line: 3,
    rule: 'Disallow: /private',
    reason: 'Disallowed by line 3.',
  });
  const planned = h.last('planResult')!.result;
  const b = h.controller.currentPlan().plan!.hosts.find((x) => x.host === 'b.example')!;
  assert.equal(b.intervalSource, 'crawl-delay');
  assert.equal(b.intervalSeconds, 10);
  assert.deepEqual(planned.crawlDelayHosts, ['b.example']);
  const first = planned.summary!.groups[0]!;
  assert.deepEqual(
    [first.host, first.binding, first.interval, first.source],
    ['b.example', true, '10 s', 'Crawl-delay'],
  );
  // The cards learn the plan's interval and what is covered.
  assert.deepEqual(planned.robots, {
    unchecked: 0,
    stale: [],
    intervals: [
      { origin: 'https://a.example', intervalSeconds: 1, source: 'configured' },
      { origin: 'https://b.example', intervalSeconds: 10, source: 'crawl-delay' },
    ],
  });
  // The JSON copy carries the same Crawl-delay.
  assert.equal(JSON.parse(h.controller.currentPlanJson()!).settings.crawlDelayByHost['b.example'], 10);
  // Turning it off drops the Crawl-delays and fetches nothing more.
  h.controller.receive({ type: 'formChanged', form: { ...form, useRobots: false } });
  assert.equal(
    h.controller.currentPlan().plan!.hosts.find((x) => x.host === 'b.example')!.intervalSource,
    'configured',
  );
  assert.equal(h.last('planResult')!.result.robots, null);
  assert.equal(h.inspections.length, 1);
});

test('a newer robots.txt request aborts the older one, whose result is dropped', async () => {
  const pending: Array<Deferred<RobotsInspection>> = [];
  const h = harness({
    seeds: SEEDS,
    form: { ...form, useRobots: true },
    inspect: () => {
      const d = deferred<RobotsInspection>();
      pending.push(d);
      return d.promise;
    },
  });
  h.controller.receive({ type: 'ready' });
  assert.equal(h.inspections.length, 1, 'ready with robots on starts a check');
  h.controller.receive({ type: 'requestRobots' });
  assert.equal(h.inspections.length, 2);
  assert.equal(h.inspections[0]![1].signal.aborted, true);
  assert.equal(h.inspections[1]![1].signal.aborted, false);
  pending[0]!.resolve(inspection(['https://stale.example/']));
  await settle();
  assert.equal(h.last('robotsResult'), undefined);
  pending[1]!.resolve(inspection(h.inspections[1]![0]));
  await settle();
  assert.deepEqual(
    h.last('robotsResult')!.robots.origins.map((o) => o.origin),
    ['https://a.example', 'https://b.example'],
  );
});

test('robots.txt failures and untrusted workspaces are reported, not thrown', async () => {
  const failing = harness({
    seeds: SEEDS,
    form: { ...form, useRobots: true },
    inspect: () => Promise.reject(new Error('network down')),
  });
  failing.controller.receive({ type: 'ready' });
  await settle();
  assert.equal(failing.last('robotsError')!.message, 'robots.txt check failed: network down');
  assert.ok(failing.logs.some((l) => l.includes('network down')));

  const untrusted = harness({ seeds: SEEDS, form: { ...form, useRobots: true }, trusted: false });
  untrusted.controller.receive({ type: 'ready' });
  assert.equal(untrusted.inspections.length, 0);
  assert.match(untrusted.last('robotsError')!.message, /trusted workspace/);
  assert.equal(untrusted.last('state')!.trusted, false);

  const noSeeds = harness({ seeds: 'nope', form: { ...form, useRobots: true } });
  noSeeds.controller.receive({ type: 'ready' });
  assert.match(noSeeds.last('robotsError')!.message, /No valid seed/);

  const off = harness({ seeds: SEEDS, form });
  off.controller.receive({ type: 'ready' });
  off.controller.receive({ type: 'requestRobots' });
  assert.equal(off.inspections.length, 0, 'requestRobots with the toggle off fetches nothing');
});

test('runTestCrawl passes the valid seeds, the delay and a page cap; refused when untrusted', async () => {
  const h = harness({ seeds: SEEDS, form: { ...form, delaySeconds: 2, delayFrom: 'end' } });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'runTestCrawl' });
  assert.deepEqual(h.crawls, [
    [
      ['https://a.example/', 'https://b.example/private/x'],
      { userAgent: settings.userAgent, delaySeconds: 2, delayFrom: 'end', maxPages: 50 },
    ],
  ]);
  h.controller.receive({ type: 'formChanged', form: { ...form, pagesMode: 'total', pages: 3 } });
  h.controller.receive({ type: 'runTestCrawl' });
  assert.equal(h.crawls[1]![1].maxPages, 3);
  // A crawl of one page gets one seed: the first.
  h.controller.receive({ type: 'formChanged', form: { ...form, pagesMode: 'total', pages: 1 } });
  h.controller.receive({ type: 'runTestCrawl' });
  assert.deepEqual(h.crawls[2], [
    ['https://a.example/'],
    { userAgent: settings.userAgent, delaySeconds: 1, delayFrom: 'start', maxPages: 1 },
  ]);

  h.setTrusted(false);
  h.controller.receive({ type: 'runTestCrawl' });
  assert.equal(h.crawls.length, 3);
  assert.equal(h.last('notice')!.level, 'error');
});

test('copyPlan writes the estimate --json document; without a plan it says why', async () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'copyPlan' });
  await settle();
  const doc = JSON.parse(h.clipboard[0]!);
  assert.equal(doc.schemaVersion, 1);
  assert.equal(doc.hosts.length, 2);
  assert.equal(doc.invalidSeeds.length, 1);
  assert.deepEqual(doc.seedNotes, []);
  assert.equal(doc.duplicateSeeds, 0);
  assert.equal(h.clipboard[0], h.controller.currentPlanJson());
  assert.deepEqual(h.last('notice'), { type: 'notice', level: 'info', message: 'Plan copied as JSON (2 hosts).' });

  h.controller.receive({ type: 'seedsChanged', text: '' });
  h.controller.receive({ type: 'copyPlan' });
  await settle();
  assert.equal(h.clipboard.length, 1);
  assert.match(h.last('notice')!.message, /^Nothing to copy: Enter at least one seed URL/);
  assert.equal(h.controller.currentPlanJson(), undefined);
});

test('openRobots only for the seeds’ origins', () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'openRobots', origin: 'https://b.example', line: 3 });
  h.controller.receive({ type: 'openRobots', origin: 'https://a.example' });
  h.controller.receive({ type: 'openRobots', origin: 'https://evil.example' });
  assert.deepEqual(h.opened, [
    ['https://b.example', 3],
    ['https://a.example', undefined],
  ]);
  assert.ok(h.logs.some((l) => l.includes('evil.example')));
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

test('currentSeeds: valid URLs in order without repeats', () => {
  const h = harness({ seeds: 'https://a.example/\nhttps://a.example/\nftp://x/\nhttps://b.example/', form });
  h.controller.receive({ type: 'ready' });
  assert.deepEqual(h.controller.currentSeeds(), ['https://a.example/', 'https://b.example/']);
});

// ---------------------------------------------------------------------------------------------
// Seeds: kept by the extension whatever their length, or read from a file

/** `n` seed lines on `n` hosts, one per line, with a final newline (as a file copy has it). */
const seedList = (n: number, prefix = 'host') =>
  Array.from({ length: n }, (_, i) => `https://${prefix}-${String(i).padStart(6, '0')}.example.com/`).join('\n') + '\n';

test('seedsChanged is planned at once whatever the other fields hold, and saved', () => {
  const h = harness();
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'seedsChanged', text: SEEDS });
  assert.deepEqual(h.types(), ['state', 'planResult']);
  assert.equal(h.last('planResult')!.result.validSeeds, 2);
  assert.equal(h.saved.at(-1)!.seedsText, SEEDS);
  h.controller.receive({ type: 'seedsChanged', text: SEEDS });
  assert.equal(h.posted.length, 2, 'the same text again: nothing to do');
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

test('1,000 seeds with a final newline are 1,000 seeds, not refused as 1,001 lines', () => {
  const h = harness();
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'seedsChanged', text: seedList(1000) });
  const result = h.last('planResult')!.result;
  assert.deepEqual(result.problems, []);
  assert.equal(result.validSeeds, 1000);
  assert.equal(result.summary!.hostCount, 1000);
});

test("past the box's limits the text is kept exactly (1.2 MB, 50,000 lines), saved, restored, and not planned", () => {
  const big = seedList(50_000);
  assert.ok(Buffer.byteLength(big) > 1024 * 1024, `${Buffer.byteLength(big)} bytes`);
  const h = harness();
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'seedsChanged', text: big });
  const result = h.last('planResult')!.result;
  assert.equal(result.summary, null);
  assert.match(
    result.problems[0]!.message,
    /^50,000 seed lines \(1\.\d MB\): the box plans at most 5,000 seed lines \(512 KB\)\. Save the list as a file/,
  );
  assert.equal(h.saved.at(-1)!.seedsText, big);
  // Hidden and shown again: a new webview is sent exactly what was there.
  h.controller.detach();
  h.controller.attach((m) => void h.posted.push(structuredClone(m)));
  h.controller.receive({ type: 'ready' });
  const state = h.last('state')!;
  assert.equal(state.seeds.source === 'text' && state.seeds.text, big);
  // A window reload: a new controller from what was saved.
  const reloaded = harness({ stored: h.saved.at(-1) });
  reloaded.controller.receive({ type: 'ready' });
  const restored = reloaded.last('state')!;
  assert.equal(restored.seeds.source === 'text' && restored.seeds.text, big);
  assert.deepEqual(restored.form, h.controller.currentForm());
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

test('a list below PLAN_LATER_SEEDS is planned at once, without a planning message', () => {
  const later: Array<() => void> = [];
  const h = harness({ defer: (work) => later.push(work) });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'seedsChanged', text: seedList(Math.min(PLAN_LATER_SEEDS - 1, 5000)) });
  assert.deepEqual(h.types(), ['state', 'planResult']);
  assert.equal(later.length, 0);
});

test('a seeds file: "Use seeds.txt" reads it, shows its count and first lines, plans 50,000 hosts after a planning message', async () => {
  const disk = new Map<string, FakeFile>([
    ['file:///ws/seeds.txt', { text: `# crawl list\n${seedList(50_000)}`, mtime: 1 }],
  ]);
  const fs = fakeFiles(disk);
  const later: Array<() => void> = [];
  const h = harness({
    files: fs.files,
    defer: (work) => later.push(work),
    form: { ...form, pagesMode: 'total', pages: 1_000_000 },
  });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'useWorkspaceSeeds' });
  await settle();
  const views = h.posted
    .filter((m) => m.type === 'seeds')
    .map((m) => (m as Extract<HostToWebview, { type: 'seeds' }>).seeds);
  assert.deepEqual(views[0], {
    source: 'file',
    file: { label: 'seeds.txt', bytes: 0, seedLines: 0, firstLines: [], loading: true },
  });
  const last = views.at(-1)!;
  assert.ok(last.source === 'file');
  assert.equal(last.file.label, 'seeds.txt');
  assert.equal(last.file.seedLines, 50_000, 'the comment line is not a seed line');
  assert.equal(last.file.bytes, Buffer.byteLength(disk.get('file:///ws/seeds.txt')!.text!));
  assert.deepEqual(last.file.firstLines, [
    'https://host-000000.example.com/',
    'https://host-000001.example.com/',
    'https://host-000002.example.com/',
    'https://host-000003.example.com/',
    'https://host-000004.example.com/',
  ]);
  assert.equal(last.file.problem, undefined);
  assert.deepEqual(h.last('planning'), { type: 'planning', seeds: 50_000 });
  assert.equal(later.length, 1);
  later.shift()!();
  const result = h.last('planResult')!.result;
  assert.equal(result.summary!.hostCount, 50_000);
  assert.equal(result.originCount, 50_000);
  assert.equal(result.origins.length, 50);
  assert.ok(JSON.stringify(result).length < 64 * 1024, 'a summary, not 50,000 hosts');
  // The file is saved as the source; the box's text is kept as it was.
  assert.deepEqual(h.saved.at(-1)!.seedsFile, { uri: 'file:///ws/seeds.txt', label: 'seeds.txt' });
  assert.equal(h.saved.at(-1)!.seedsText, '');
  // The report and the JSON copy have every host.
  assert.equal(h.controller.currentPlan().plan!.hosts.length, 50_000);
  // Invalid lines point into the file.
  disk.set('file:///ws/seeds.txt', { text: 'https://a.example/\nnot a url\n', mtime: 2 });
  fs.watchers.get('file:///ws/seeds.txt')!();
  await settle();
  const edited = h.last('planResult')!.result;
  assert.deepEqual(edited.invalidSeeds, [
    { line: 2, text: 'not a url', reason: 'not-a-url', message: 'not a URL', source: 'seeds.txt' },
  ]);
  h.controller.receive({ type: 'openSeedsFile', line: 2 });
  await settle();
  assert.deepEqual(fs.opened, [['file:///ws/seeds.txt', 2]]);
});

test('a seeds file that is gone, too long or empty says why and stays the source; back on disk, it is read again when shown', async () => {
  const uri = 'file:///ws/seeds.txt';
  const disk = new Map<string, FakeFile>([[uri, { text: seedList(100_001), mtime: 1 }]]);
  const fs = fakeFiles(disk);
  const h = harness({ files: fs.files });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'useWorkspaceSeeds' });
  await settle();
  const view = () => {
    const v = h.last('seeds')!.seeds;
    assert.ok(v.source === 'file');
    return v.file;
  };
  assert.match(
    view().problem!,
    /^seeds\.txt has 100,001 seed lines \(\d\.\d MB\); the planner takes at most 100,000 seed lines\. Split the list, or plan it with crawl-planner estimate --seeds-file\.$/,
  );
  assert.equal(h.last('planResult')!.result.summary, null);
  assert.equal(h.last('planResult')!.result.problems[0]!.message, view().problem);
  disk.set(uri, { text: '# nothing yet\n\n', mtime: 2 });
  fs.watchers.get(uri)!();
  await settle();
  assert.match(view().problem!, /has no seed lines/);
  disk.set(uri, { mtime: 3 });
  fs.watchers.get(uri)!();
  await settle();
  assert.equal(view().problem, 'Cannot read seeds.txt: the file is gone (moved or deleted?).');
  // Back, while the view was hidden (no watcher event): the next ready reads it again.
  disk.set(uri, { text: SEEDS, mtime: 4 });
  h.controller.receive({ type: 'ready' });
  await settle();
  assert.equal(view().problem, undefined);
  assert.equal(view().seedLines, 3);
  assert.equal(h.last('planResult')!.result.validSeeds, 2);
  // Shown again without a change: not read again.
  const reads = fs.reads.length;
  h.controller.receive({ type: 'ready' });
  await settle();
  assert.equal(fs.reads.length, reads);
});

test('a saved seeds file is the source after a reload; "Use the box instead" goes back to the box\'s text', async () => {
  const uri = 'file:///ws/lists/seeds.txt';
  const disk = new Map<string, FakeFile>([[uri, { text: seedList(20), mtime: 1 }]]);
  const fs = fakeFiles(disk);
  const h = harness({
    files: fs.files,
    stored: { v: 2, form, seedsText: SEEDS, seedsFile: { uri, label: 'lists/seeds.txt' } },
  });
  h.controller.receive({ type: 'ready' });
  await settle();
  const state = h.last('state')!;
  assert.equal(state.seeds.source, 'file');
  assert.equal(h.last('planResult')!.result.validSeeds, 20);
  h.controller.receive({ type: 'useSeedsText' });
  assert.deepEqual(h.last('seeds')!.seeds, { source: 'text', text: SEEDS });
  assert.equal(h.last('planResult')!.result.validSeeds, 2);
  assert.equal(h.saved.at(-1)!.seedsFile, undefined);
  assert.equal(fs.watchers.size, 0, 'the file is no longer watched');
});

test('Load seeds from file: the picked file becomes the source; cancelled, nothing changes; no seeds.txt, a notice', async () => {
  const uri = 'file:///elsewhere/list.txt';
  const disk = new Map<string, FakeFile>([[uri, { text: SEEDS, mtime: 1 }]]);
  const picked = fakeFiles(disk, { uri, label: '/elsewhere/list.txt' });
  const h = harness({ files: picked.files });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'loadSeedsFile' });
  await settle();
  assert.equal(h.last('seeds')!.seeds.source, 'file');
  assert.equal(h.last('planResult')!.result.validSeeds, 2);
  const none = harness({ files: fakeFiles(new Map()).files });
  none.controller.receive({ type: 'ready' });
  none.controller.receive({ type: 'loadSeedsFile' });
  none.controller.receive({ type: 'useWorkspaceSeeds' });
  await settle();
  assert.deepEqual(none.types(), ['state', 'notice']);
  assert.match(none.last('notice')!.message, /^No seeds\.txt in this workspace/);
});

test('findOrigins searches every seed origin; openReport asks for the report', () => {
  const h = harness({ seeds: `${seedList(300)}https://special.example/\n` });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'findOrigins', query: 'SPECIAL' });
  assert.deepEqual(h.last('origins'), {
    type: 'origins',
    query: 'SPECIAL',
    origins: ['https://special.example'],
    total: 1,
  });
  h.controller.receive({ type: 'findOrigins', query: 'host-0002' });
  assert.equal(h.last('origins')!.total, 100);
  assert.equal(h.last('origins')!.origins.length, 50);
  assert.equal(h.last('state')!.result.originCount, 301);
  h.controller.receive({ type: 'openRobots', origin: 'https://special.example' });
  assert.deepEqual(
    h.opened,
    [['https://special.example', undefined]],
    'an origin past the first 50 is still a seed origin',
  );
  h.controller.receive({ type: 'openReport' });
  assert.equal(h.reports(), 1);
});

test('seed notes reach the view by kind; the running demo hosts get no local-address note', () => {
  const text =
    'http://user:pw@cred.example/\nhttp://0x7f.1/\nhttp://127.0.0.11:8470/\nhttps://d.example/\nhttps://d.example/';
  const h = harness({ seeds: text, expectedLocalHosts: new Set(['127.0.0.11:8470']) });
  h.controller.receive({ type: 'ready' });
  const result = h.last('state')!.result;
  assert.deepEqual(
    result.seedNotes.map((g) => [g.code, g.count, g.notes.map((n) => n.line)]),
    [
      ['credentials', 1, [1]],
      ['ip-literal', 1, [2]],
      ['local-address', 1, [2]],
    ],
  );
  assert.equal(result.duplicateSeeds, 1);
  assert.ok(!JSON.stringify(result).includes('user:pw'));
  assert.deepEqual(
    h.controller.currentSeeds().slice(0, 1),
    ['http://cred.example/'],
    'the crawl gets the seed without credentials',
  );
  const doc = JSON.parse(h.controller.currentPlanJson()!);
  assert.equal(doc.seedNotes.length, 3);
  assert.equal(doc.duplicateSeeds, 1);
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

test('seedLinesFromText reads seeds like the CLI reads --seeds-file', () => {
  assert.deepEqual(seedLinesFromText('\uFEFFhttps://a.example/ # home\n\n  # comment\r\nhttps://b.example/#frag\rx'), [
    { text: 'https://a.example/', line: 1 },
    { text: 'https://b.example/#frag', line: 4 },
    { text: 'x', line: 5 },
  ]);
});

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

test('robotsTargets keeps the first origins; crawlDelaysFrom takes ok files and the larger delay per host', () => {
  const seeds = Array.from({ length: MAX_ROBOTS_ORIGINS + 5 }, (_, i) => ({
    url: `https://h${i}.example/`,
    origin: `https://h${i}.example`,
  }));
  const { urls, omittedOrigins } = robotsTargets(seeds);
  assert.equal(urls.length, MAX_ROBOTS_ORIGINS);
  assert.equal(omittedOrigins, 5);

  const finding = (line: number) => ({
    code: 'unknown-directive' as const,
    severity: 'warning' as const,
    line,
    message: 'Unknown directive.',
  });
  const view = toRobotsView(
    robotsInspection([
      { origin: 'http://a.example', crawlDelaySeconds: 5, effectiveIntervalSeconds: 5, intervalSource: 'crawl-delay' },
      { origin: 'https://a.example', crawlDelaySeconds: 8, effectiveIntervalSeconds: 8, intervalSource: 'crawl-delay' },
      {
        origin: 'https://b.example:8443',
        crawlDelaySeconds: 2,
        effectiveIntervalSeconds: 2,
        intervalSource: 'crawl-delay',
        sitemaps: Array.from({ length: 30 }, (_, i) => `https://b.example:8443/s${i}.xml`),
        findings: [finding(1), finding(2)],
      },
      {
        origin: 'https://c.example',
        outcome: 'unreachable',
        crawlDelaySeconds: 100,
        effectiveIntervalSeconds: 1,
        intervalSource: 'configured',
      },
    ]),
    'Bot',
  );
  assert.deepEqual(crawlDelaysFrom(view), { 'a.example': 8, 'b.example:8443': 2 });
  assert.equal(view.origins[2]!.sitemaps.length, 20);
  assert.equal(view.origins[2]!.sitemapCount, 30);
  assert.equal(view.origins[2]!.findingCount, 2);
});

test('toRobotsView leaves out what the inspection reports as null, and the text', () => {
  const view = toRobotsView(
    robotsInspection(
      [
        {
          origin: 'https://a.example',
          status: 200,
          group: { line: 4, lines: [4], userAgents: ['examplebot'], matchedBy: 'product-token' },
          crawlDelaySeconds: 3,
          text: 'User-agent: examplebot',
        },
        {
          origin: 'https://b.example',
          outcome: 'unavailable',
          group: { line: null, lines: [], userAgents: [], matchedBy: 'none' },
        },
      ],
      [
        {
          url: 'https://a.example/x',
          verdict: 'disallowed',
          line: 5,
          rule: 'Disallow: /x',
          reason: 'Disallowed by line 5.',
        },
        { url: 'https://b.example/', reason: 'robots.txt unavailable.' },
        {
          url: 'https://other.example/',
          origin: null,
          verdict: 'not-applicable',
          reason: 'No robots.txt was fetched for this origin.',
        },
      ],
    ),
    'ExampleBot',
  );
  assert.deepEqual(view.origins, [
    {
      origin: 'https://a.example',
      robotsUrl: 'https://a.example/robots.txt',
      outcome: 'ok',
      status: 200,
      crawlDelaySeconds: 3,
      effectiveIntervalSeconds: 1,
      intervalSource: 'configured',
      sitemaps: [],
      sitemapCount: 0,
      group: { line: 4, userAgents: ['examplebot'] },
      findingCount: 0,
      reason: '',
    },
    {
      origin: 'https://b.example',
      robotsUrl: 'https://b.example/robots.txt',
      outcome: 'unavailable',
      effectiveIntervalSeconds: 1,
      intervalSource: 'configured',
      sitemaps: [],
      sitemapCount: 0,
      findingCount: 0,
      reason: '',
    },
  ]);
  assert.deepEqual(view.results, [
    {
      url: 'https://a.example/x',
      origin: 'https://a.example',
      verdict: 'disallowed',
      line: 5,
      rule: 'Disallow: /x',
      reason: 'Disallowed by line 5.',
    },
    { url: 'https://b.example/', origin: 'https://b.example', verdict: 'allowed', reason: 'robots.txt unavailable.' },
  ]);
});

test('toRobotsView names the Crawl-delay line and passes the not-text finding on', () => {
  const view = toRobotsView(
    robotsInspection([
      {
        origin: 'https://a.example',
        crawlDelaySeconds: 42,
        crawlDelayLine: 2,
        findings: [
          {
            code: 'not-text',
            severity: 'warning',
            line: 1,
            message: 'This file does not look like text: its first 1,024 bytes hold NUL bytes.',
          },
          {
            code: 'crawl-delay-scope',
            severity: 'warning',
            line: 2,
            message: 'This Crawl-delay applies to A (line 1).',
          },
        ],
      },
      { origin: 'https://b.example', crawlDelaySeconds: null, crawlDelayLine: null },
    ]),
    'ExampleBot',
  );
  assert.deepEqual([view.origins[0]!.crawlDelaySeconds, view.origins[0]!.crawlDelayLine], [42, 2]);
  assert.equal(view.origins[0]!.notText, 'This file does not look like text: its first 1,024 bytes hold NUL bytes.');
  assert.equal(view.origins[0]!.findingCount, 2);
  assert.equal('crawlDelayLine' in view.origins[1]!, false);
  assert.equal('notText' in view.origins[1]!, false);
});

test("Seeds from code: the text becomes the box's seeds, the form takes the numbers, the fields show them, a notice says so", async () => {
  // A slow saved planner: what seeds from code sets must not be overwritten when it is read.
  let release: (value: unknown) => void = () => {};
  const h = harness({ stored: new Promise((resolve) => (release = resolve)) });
  h.controller.receive({ type: 'ready' });
  const applied = h.controller.useSeedsText(
    '# from books.py\nhttps://a.example/\nhttps://user:pw@b.example/x\n',
    { delaySeconds: 3, delayFrom: 'start', workers: 8 },
    '2 URLs · 2 hosts from books.py.',
  );
  release({ v: 2, form: { ...defaultForm(settings), pages: 100 }, seedsText: 'https://old.example/\n' });
  await applied;
  await settle();
  assert.deepEqual(h.last('seeds')!.seeds, {
    source: 'text',
    text: '# from books.py\nhttps://a.example/\nhttps://user:pw@b.example/x\n',
  });
  const form = h.last('formSet')!;
  assert.equal(form.form.delaySeconds, 3);
  assert.equal(form.form.workers, 8);
  assert.equal(form.form.pages, 100, "the saved form's other fields stay");
  assert.equal(form.fields.delay, '3');
  assert.equal(form.fields.workers, '8');
  assert.deepEqual(h.last('notice'), { type: 'notice', level: 'info', message: '2 URLs · 2 hosts from books.py.' });
  const plan = h.last('planResult')!.result;
  assert.deepEqual(
    h.controller.currentSeeds(),
    ['https://a.example/', 'https://b.example/x'],
    'seed hygiene removed the credentials',
  );
  assert.equal(plan.validSeeds, 2);
  assert.ok(plan.summary !== null, 'planned: the saved form has pages');
  assert.ok(plan.seedNotes.some((n) => n.code === 'credentials'));
  assert.equal(h.saved.at(-1)!.form.delaySeconds, 3);
  // Without a text (the seeds went to a file): the box keeps its text, the form still changes.
  await h.controller.useSeedsText(undefined, { workers: 2 });
  assert.equal(h.saved.at(-1)!.seedsText, '# from books.py\nhttps://a.example/\nhttps://user:pw@b.example/x\n');
  assert.equal(h.last('formSet')!.fields.workers, '2');
});

// ---------------------------------------------------------------------------------------------
// Size from sitemaps, the deadline's options, dropped hosts, Export Plan

/** A real-shaped host of a SitemapSizing (src/net/sitemaps.ts): every field, only `patch` differs from a host with no sitemap. */
function sizedHost(host: string, patch: Partial<SitemapHostReport> = {}): SitemapHostReport {
  return {
    host,
    urls: 0,
    disallowed: 0,
    unchecked: 0,
    duplicates: 0,
    invalid: 0,
    otherHosts: { urls: 0, hosts: [] },
    lastmod: {
      dated: 0,
      newest: null,
      oldest: null,
      last7d: 0,
      last30d: 0,
      last365d: 0,
      undated: 0,
      invalid: 0,
      future: 0,
    },
    changedSince: null,
    files: 0,
    source: 'none',
    intervalSeconds: 1,
    robots: [],
    sitemaps: [],
    errors: [],
    ...patch,
  };
}

function sizing(hosts: SitemapHostReport[], changedSince: string | null = null): SitemapSizing {
  return {
    schemaVersion: 1,
    generatedAt: '2026-01-01T00:00:00.000Z',
    productToken: 'ExampleBot',
    userAgent: 'ExampleBot/1.0',
    changedSince,
    limits: { urlsPerFile: 50_000, bytesPerFile: 52_428_800, files: 1000, urls: 1_000_000, bytes: 1e9, indexDepth: 3 },
    complete: true,
    requests: 5,
    hosts,
  };
}

const A_SIZED = sizedHost('a.example', {
  urls: 40,
  disallowed: 3,
  otherHosts: { urls: 2, hosts: [{ host: 'c.example', urls: 2 }] },
  files: 2,
  source: 'robots.txt',
  lastmod: {
    dated: 30,
    newest: '2025-12-30T00:00:00.000Z',
    oldest: '2020-01-01T00:00:00.000Z',
    last7d: 4,
    last30d: 9,
    last365d: 30,
    undated: 5,
    invalid: 0,
    future: 0,
  },
});
const B_FAILED = sizedHost('b.example', {
  errors: [
    {
      code: 'no-sitemap',
      url: 'https://b.example/sitemap.xml',
      message: '/sitemap.xml answered 404 <script>alert(1)</script>',
    },
  ],
});

test("Size from sitemaps: one URL per origin, the form's agent and delay; each sized host gets its count, a failed one keeps its pages", async () => {
  const h = harness({ seeds: SEEDS, form, size: async () => sizing([A_SIZED, B_FAILED]) });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'formChanged', form: { ...form, userAgent: 'ExampleBot', delaySeconds: 2 } });
  h.controller.receive({ type: 'sizeFromSitemaps', changedSince: '' });
  assert.deepEqual(h.last('sitemapsState')!.sitemaps, { state: 'loading', origins: 2, files: 0, urls: 0 });
  assert.deepEqual(h.sizings[0]![0], ['https://a.example/', 'https://b.example/private/x']);
  assert.deepEqual(
    [h.sizings[0]![1].userAgent, h.sizings[0]![1].delaySeconds, h.sizings[0]![1].changedSince],
    ['ExampleBot', 2, undefined],
  );
  await settle();
  const set = h.last('formSet')!;
  assert.deepEqual(
    [set.form.pagesMode, set.form.pagesByHost, set.form.pages],
    ['byHost', { 'a.example': 40 }, 100],
    '"per host" stays the number of the hosts without a sitemap',
  );
  assert.deepEqual(set.fields.pagesByHost, { 'a.example': '40' });
  assert.equal(set.fields.pages, '100');
  const result = h.last('planResult')!.result;
  assert.match(result.summary!.totalText, /for 140 pages/);
  const done = h.last('sitemapsState')!.sitemaps;
  assert.equal(done.state, 'done');
  if (done.state !== 'done') return;
  const [a, b] = done.sitemaps.hosts;
  assert.deepEqual(
    [a!.host, a!.urls, a!.disallowed, a!.otherHostUrls, a!.files, a!.pages, a!.lastmod.last30d],
    ['a.example', 40, 3, 2, 2, 40, 9],
  );
  assert.deepEqual([b!.pages, b!.errorCount, b!.errors[0]!.code], [null, 1, 'no-sitemap']);
  assert.equal(b!.errors[0]!.message, B_FAILED.errors[0]!.message, 'sent as data; the webview shows it as text');
  assert.deepEqual(h.saved.at(-1)!.form.pagesByHost, { 'a.example': 40 });
});

test('Size from sitemaps from "in total": the hosts without a sitemap get none, as estimate --sitemaps', async () => {
  const h = harness({
    seeds: SEEDS,
    form: { ...form, pagesMode: 'total', pages: 1000 },
    size: async () => sizing([A_SIZED, B_FAILED]),
  });
  h.controller.receive({ type: 'ready' });
  const state = await h.controller.sizeFromSitemaps('');
  assert.equal(state.state, 'done');
  assert.deepEqual([h.last('formSet')!.form.pages, h.last('formSet')!.fields.pages], [null, '']);
  assert.match(h.last('planResult')!.result.summary!.totalText, /for 40 pages/);
});

test('Size from sitemaps with "changed since" plans a recrawl: the pages are the URLs changed since', async () => {
  const changed = { ...A_SIZED, changedSince: 7 };
  const h = harness({ seeds: SEEDS, form, size: async () => sizing([changed, B_FAILED], '2025-12-01T00:00:00.000Z') });
  h.controller.receive({ type: 'ready' });
  const before = Date.now();
  h.controller.receive({ type: 'sizeFromSitemaps', changedSince: '30d' });
  const since = h.sizings[0]![1].changedSince!;
  assert.ok(since <= before - 30 * 86_400_000 + 1000 && since >= before - 30 * 86_400_000 - 1000, String(since));
  await settle();
  assert.deepEqual(h.last('formSet')!.form.pagesByHost, { 'a.example': 7 });
  const done = h.last('sitemapsState')!.sitemaps;
  assert.ok(
    done.state === 'done' &&
      done.sitemaps.changedSince === '2025-12-01T00:00:00.000Z' &&
      done.sitemaps.hosts[0]!.changedSince === 7,
  );
});

test('Size from sitemaps refuses a bad "changed since", an untrusted workspace and no seeds, saying why; nothing is fetched', async () => {
  const h = harness({ seeds: SEEDS, size: async () => sizing([]) });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'sizeFromSitemaps', changedSince: 'yesterday' });
  assert.deepEqual(h.last('sitemapsState')!.sitemaps, {
    state: 'error',
    message: 'Changed since: "yesterday" is neither a date (2024-05-01) nor a duration (30d, 12h, 1w)',
  });
  h.controller.receive({ type: 'sizeFromSitemaps', changedSince: '2999-01-01' });
  assert.match((h.last('sitemapsState')!.sitemaps as { message: string }).message, /in the future/);
  h.setTrusted(false);
  h.controller.receive({ type: 'sizeFromSitemaps', changedSince: '' });
  assert.match((h.last('sitemapsState')!.sitemaps as { message: string }).message, /trusted workspace/);
  h.setTrusted(true);
  h.controller.receive({ type: 'seedsChanged', text: 'not a url' });
  h.controller.receive({ type: 'sizeFromSitemaps', changedSince: '' });
  assert.match((h.last('sitemapsState')!.sitemaps as { message: string }).message, /No valid seed URL/);
  assert.equal(h.sizings.length, 0);
  const none = harness({ seeds: SEEDS });
  none.controller.receive({ type: 'ready' });
  none.controller.receive({ type: 'sizeFromSitemaps', changedSince: '' });
  assert.deepEqual(none.last('sitemapsState')!.sitemaps, {
    state: 'error',
    message: 'Sitemap sizing is not available here.',
  });
});

test('Size from sitemaps: progress per file, Cancel aborts and keeps the form; a failure is shown and logged, never lost', async () => {
  const pending = deferred<SitemapSizing>();
  const h = harness({ seeds: SEEDS, form, size: () => pending.promise });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'sizeFromSitemaps', changedSince: '' });
  const o = h.sizings[0]![1];
  o.onFile(
    {
      url: 'https://a.example/s.xml',
      via: 'robots.txt',
      depth: 0,
      status: 200,
      redirects: [],
      format: 'urlset',
      gzip: false,
      entries: 25,
      bytes: 900,
      error: null,
    },
    'a.example',
  );
  assert.deepEqual(h.last('sitemapsState')!.sitemaps, { state: 'loading', origins: 2, files: 1, urls: 25 });
  h.controller.receive({ type: 'cancelSitemaps' });
  assert.equal(o.signal.aborted, true);
  assert.deepEqual(h.last('sitemapsState')!.sitemaps, { state: 'off' });
  assert.match(h.last('notice')!.message, /stopped/);
  pending.resolve(sizing([A_SIZED]));
  await settle();
  assert.equal(h.last('formSet'), undefined, 'a sizing that was stopped changes nothing');

  const failing = harness({
    seeds: SEEDS,
    size: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9')),
  });
  failing.controller.receive({ type: 'ready' });
  const state = await failing.controller.sizeFromSitemaps('');
  assert.deepEqual(state, { state: 'error', message: 'Sitemap sizing failed: connect ECONNREFUSED 127.0.0.1:9' });
  assert.deepEqual(failing.last('sitemapsState')!.sitemaps, state);
  assert.ok(failing.logs.some((l) => l.includes('ECONNREFUSED')));
  failing.controller.receive({ type: 'ready' });
  assert.deepEqual(failing.last('state')!.sitemaps, state, 'a reloaded view still shows it');
});

test('sitemapTargets takes one seed per origin of the first origins, not dropped hosts; toSitemapsView lists the first errors and counts them all', () => {
  const seeds = Array.from({ length: MAX_SITEMAP_ORIGINS + 3 }, (_, i) => ({
    url: `https://h${i}.example/p`,
    origin: `https://h${i}.example`,
    host: `h${i}.example`,
  }));
  const t = sitemapTargets(
    [seeds[0]!, { ...seeds[0]!, url: 'https://h0.example/q' }, ...seeds.slice(1)],
    ['h1.example'],
  );
  assert.equal(t.urls.length, MAX_SITEMAP_ORIGINS);
  assert.equal(t.urls[0], 'https://h0.example/p');
  assert.ok(!t.urls.includes('https://h1.example/p'));
  assert.equal(t.omittedOrigins, 2);
  const errors = Array.from({ length: 9 }, (_, i) => ({
    code: 'http-status' as const,
    url: `https://x.example/${i}.xml`,
    message: `HTTP 500 ${'x'.repeat(600)}`,
  }));
  const view = toSitemapsView(sizing([sizedHost('x.example', { errors })]), {}, 2);
  assert.equal(view.hosts[0]!.errors.length, MAX_SITEMAP_ERRORS_SHOWN);
  assert.equal(view.hosts[0]!.errorCount, 9);
  assert.ok(view.hosts[0]!.errors[0]!.message.length <= 501);
  assert.equal(view.omittedOrigins, 2);
});

const DEADLINE_SEEDS = 'https://a.example/\nhttps://b.example/x\nhttps://c.example/';

test('What meets the deadline: the facts and options are posted; applying "workers" sets the field and the plan meets it', () => {
  const h = harness({ seeds: DEADLINE_SEEDS, form: { ...form, pages: 30, workers: 1, deadlineSeconds: 40 } });
  h.controller.receive({ type: 'ready' });
  const d = h.last('state')!.result.deadline!;
  assert.equal(d.met, false);
  assert.match(d.verdict, /missed by/);
  assert.match(d.earliest, /^Earliest finish possible/);
  assert.deepEqual(
    d.options.map((o) => o.kind),
    ['workers', 'machines'],
  );
  h.controller.receive({ type: 'applyDeadlineOption', plan: d.plan, index: 0 });
  const set = h.last('formSet')!;
  assert.equal(set.form.workers, 2);
  assert.equal(set.fields.workers, '2');
  assert.equal(set.fields.deadline, '40', 'the other fields as they were');
  const after = h.last('planResult')!.result.deadline!;
  assert.equal(after.met, true);
  assert.deepEqual(after.options, []);
  assert.match(h.last('notice')!.message, /^Applied: Raise the workers from 1 to 2/);
  // The option of a plan that is no longer shown is refused.
  h.controller.receive({ type: 'applyDeadlineOption', plan: d.plan, index: 1 });
  assert.match(h.last('notice')!.message, /The plan changed since these options were shown/);
  assert.equal(h.last('formSet')!.form.machines, null);
});

test('A "cap" option gives each host its pages (by host); a "drop" option leaves the host out until it is planned again', () => {
  const capForm: PlannerForm = {
    ...form,
    pagesMode: 'byHost',
    pages: 0,
    pagesByHost: { 'a.example': 1000, 'b.example': 10 },
    deadlineSeconds: 300,
  };
  const h = harness({ seeds: 'https://a.example/\nhttps://b.example/x', form: capForm });
  h.controller.receive({ type: 'ready' });
  const d = h.last('state')!.result.deadline!;
  assert.deepEqual(d.blockingHosts, ['a.example']);
  assert.deepEqual(
    d.options.map((o) => [o.kind, o.hosts]),
    [
      ['cap', ['a.example']],
      ['drop', ['a.example']],
    ],
  );
  h.controller.receive({ type: 'applyDeadlineOption', plan: d.plan, index: 0 });
  // robots.txt opens the host's timeline; page n starts at n × (1 s + REQUEST_OVERHEAD 1.3 ms) and its answer
  // takes 0.5 s: 299 pages end at 299.889 s, 300 would end at 300.89 s.
  assert.deepEqual(h.last('formSet')!.form.pagesByHost, { 'a.example': 299, 'b.example': 10 });
  assert.equal(h.last('planResult')!.result.deadline!.met, true);

  const dropper = harness({ seeds: 'https://a.example/\nhttps://b.example/x', form: capForm });
  dropper.controller.receive({ type: 'ready' });
  const dd = dropper.last('state')!.result.deadline!;
  dropper.controller.receive({ type: 'applyDeadlineOption', plan: dd.plan, index: 1 });
  let result = dropper.last('planResult')!.result;
  assert.deepEqual([result.dropped, result.droppedCount, result.deadline!.met], [['a.example'], 1, true]);
  assert.deepEqual(
    dropper.controller.currentSeeds(),
    ['https://b.example/x'],
    "the test crawl and the export take the plan's seeds",
  );
  const exported = dropper.controller.exportInput();
  assert.ok(!('problem' in exported));
  assert.deepEqual(exported.seeds, [{ url: 'https://b.example/x', host: 'b.example' }]);
  assert.deepEqual(
    exported.plan.hosts.map((x) => x.host),
    ['b.example'],
  );
  assert.deepEqual(dropper.saved.at(-1)!.dropHosts, ['a.example']);
  // A reloaded planner keeps it dropped.
  const reloaded = harness({ stored: dropper.saved.at(-1) });
  reloaded.controller.receive({ type: 'ready' });
  assert.deepEqual(reloaded.last('state')!.result.dropped, ['a.example']);
  dropper.controller.receive({ type: 'restoreHosts', host: 'a.example' });
  result = dropper.last('planResult')!.result;
  assert.deepEqual([result.dropped, result.deadline!.met], [[], false]);
  assert.equal(dropper.saved.at(-1)!.dropHosts, undefined);
});

test('Export plan… in the sidebar runs the command; without a plan the command is told why', () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'exportPlan' });
  assert.equal(h.exports(), 1);
  const input = h.controller.exportInput();
  assert.ok(!('problem' in input));
  assert.equal(input.productToken, settings.userAgent, 'the setting, as the form names none');
  assert.equal(input.plan.totalPages, 200);
  h.controller.receive({ type: 'seedsChanged', text: '' });
  assert.deepEqual(h.controller.exportInput(), { problem: 'Enter at least one seed URL (http or https).' });
});
