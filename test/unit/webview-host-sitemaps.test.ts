/**
 * The planner's sitemaps step (sitemapsStep.ts, sitemapsResults.ts): Size from sitemaps gives each sized host
 * its count, "changed since" plans a recrawl, bad input is refused before any fetch, progress and Cancel.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SitemapHostReport, SitemapSizing } from '../../src/core/sitemaps/sizing';
import {
  MAX_SITEMAP_ERRORS_SHOWN,
  MAX_SITEMAP_ORIGINS,
  sitemapTargets,
  toSitemapsView,
} from '../../src/extension/planner/sitemapsResults';
import { SEEDS, form, deferred, harness, settle } from '../helpers/plannerHost';

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
  sitemaps: [
    {
      url: 'https://a.example/index.xml',
      via: 'robots.txt',
      depth: 0,
      status: 200,
      redirects: [],
      format: 'sitemapindex',
      gzip: false,
      entries: 1,
      bytes: 200,
      error: null,
    },
    {
      url: 'https://a.example/pages.xml',
      via: 'index',
      depth: 1,
      status: 200,
      redirects: [],
      format: 'urlset',
      gzip: false,
      entries: 45,
      bytes: 4000,
      error: null,
    },
  ],
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
  // b.example got no count: it keeps the number "per host" gave it (the view says which, and why no count).
  assert.deepEqual(
    [b!.pages, b!.unknown?.code, b!.errorCount, b!.errors[0]!.code],
    [100, 'no-sitemap', 1, 'no-sitemap'],
  );
  assert.equal(a!.unknown, null);
  assert.equal(result.summary!.warnings.filter((w) => w.code === 'pages-unknown').length, 0, 'a number for it: known');
  assert.equal(b!.errors[0]!.message, B_FAILED.errors[0]!.message, 'sent as data; the webview shows it as text');
  assert.deepEqual(h.saved.at(-1)!.form.pagesByHost, { 'a.example': 40 });
});

test('Size from sitemaps from "in total": a host without a count has unknown pages, left out of the total and said so (not 0 pages)', async () => {
  const h = harness({
    seeds: SEEDS,
    form: { ...form, pagesMode: 'total', pages: 1000 },
    size: async () => sizing([A_SIZED, B_FAILED]),
  });
  h.controller.receive({ type: 'ready' });
  const state = await h.controller.sizeFromSitemaps('');
  assert.equal(state.state, 'done');
  assert.deepEqual([h.last('formSet')!.form.pages, h.last('formSet')!.fields.pages], [null, '']);
  const summary = h.last('planResult')!.result.summary!;
  assert.match(summary.totalText, /^at least .* for 40 pages over 1 host; leaves out 1 host whose pages are unknown$/);
  const warning = summary.warnings.find((w) => w.code === 'pages-unknown');
  assert.ok(warning, JSON.stringify(summary.warnings));
  assert.match(warning.text, /b\.example \(\/sitemap\.xml answered 404/);
  assert.ok(!summary.warnings.some((w) => w.code === 'hosts-without-pages'), 'unknown is not "no pages"');
  const row = summary.groups.find((g) => g.host === 'b.example')!;
  assert.deepEqual([row.pages, row.duration], ['unknown', '—']);
  assert.match(row.detail, /^pages unknown \(/);
  // The card says so, with why and what to do.
  const done = h.last('sitemapsState')!.sitemaps;
  assert.ok(done.state === 'done');
  const b = done.sitemaps.hosts[1]!;
  assert.deepEqual([b.pages, b.unknown?.code], [null, 'no-sitemap']);
  // The JSON copy: pages null, why, and a plan that is not complete.
  const doc = JSON.parse(h.controller.currentPlanJson()!) as {
    complete: boolean;
    unknownHosts: string[];
    hosts: Array<{ host: string; pages: number | null; pagesUnknown?: { code: string } }>;
  };
  assert.deepEqual(
    [doc.complete, doc.unknownHosts, doc.hosts[1]!.pages, doc.hosts[1]!.pagesUnknown?.code],
    [false, ['b.example'], null, 'no-sitemap'],
  );
  // Saved: a reloaded planner still knows b.example's pages are unknown.
  assert.deepEqual(Object.keys(h.saved.at(-1)!.pagesUnknown ?? {}), ['b.example']);
  const again = harness({ stored: h.saved.at(-1) });
  again.controller.receive({ type: 'ready' });
  assert.match(again.last('state')!.result.summary!.totalText, /leaves out 1 host whose pages are unknown/);

  // A number typed for it makes it known: planned, in the total.
  h.controller.receive({
    type: 'formChanged',
    form: { ...h.last('formSet')!.form, pagesByHost: { 'a.example': 40, 'b.example': 5 } },
  });
  assert.match(h.last('planResult')!.result.summary!.totalText, /^\S.* for 45 pages over 2 hosts$/);
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
