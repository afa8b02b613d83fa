/**
 * Per-host page budgets (docs/crawl-engine.md#per-host-page-budgets): the rule (pageBudgetOf, pageBudgetsOf,
 * capBudgets), the plan's pages under it, and the engine on virtual time stopping each host at its budget,
 * with `maxPages` on top.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { budgetTotal, capBudgets, pageBudgetOf, pageBudgetsOf } from '../../src/core/crawl/pageBudgets';
import type { CrawlResult } from '../../src/core/crawl/types';
import { plan } from '../../src/core/plan';
import { setup } from '../helpers/crawlEngine';
import type { FakeScript } from '../helpers/crawlFakes';

/** A host whose front page links to `n` pages. */
function linkedHost(host: string, n: number): Record<string, FakeScript> {
  const links = Array.from({ length: n }, (_, i) => `/p${i}`);
  const pages: Record<string, FakeScript> = { [`http://${host}/`]: { links } };
  for (const l of links) pages[`http://${host}${l}`] = {};
  return pages;
}

function requestsBy(site: { log: { host: string }[] }): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of site.log) out[e.host] = (out[e.host] ?? 0) + 1;
  return out;
}

function pagesBy(result: CrawlResult): Record<string, number> {
  return Object.fromEntries(result.summary.hosts.map((h) => [h.host, h.pages]));
}

describe('page budgets: the rule', () => {
  it('a host named has its number, every other host the rest', () => {
    const b = pageBudgetsOf({ byHost: { 'a.test': 7 }, otherwise: 3 })!;
    assert.equal(pageBudgetOf(b, 'a.test'), 7);
    assert.equal(pageBudgetOf(b, 'b.test'), 3);
    assert.equal(pageBudgetOf(pageBudgetsOf({ perHost: 12 })!, 'x.test'), 12);
    assert.equal(pageBudgetOf(pageBudgetsOf({ byHost: { 'a.test': 7 } })!, 'b.test'), 0, 'no otherwise: 0');
    assert.equal(pageBudgetsOf({ total: 50 }), undefined, 'a total sets no per-host budget');
    assert.equal(pageBudgetOf(pageBudgetsOf({ byHost: {}, otherwise: 2 })!, '__proto__'), 2);
  });

  it("the plan gives each host its budget's pages", () => {
    const p = plan({
      seeds: [{ host: 'a.test' }, { host: 'b.test' }, { host: 'c.test' }],
      pages: { byHost: { 'b.test': 9 }, otherwise: 4 },
    });
    const b = pageBudgetsOf(p.input.pages)!;
    assert.deepEqual(
      p.hosts.map((h) => [h.host, h.pages]),
      p.hosts.map((h) => [h.host, pageBudgetOf(b, h.host)]),
    );
    assert.deepEqual(
      p.hosts.map((h) => h.pages),
      [4, 9, 4],
    );
  });

  it('capBudgets spreads a cap as evenly as it goes, never above a budget', () => {
    const b = { byHost: { a: 2, b: 30, c: 30, d: 30 }, otherwise: 0 };
    const capped = capBudgets(b, ['a', 'b', 'c', 'd'], 20);
    assert.deepEqual(capped.byHost, { a: 2, b: 6, c: 6, d: 6 });
    assert.deepEqual(capBudgets(b, ['a', 'b', 'c', 'd'], 21).byHost, { a: 2, b: 7, c: 6, d: 6 });
    assert.equal(budgetTotal(capBudgets(b, ['a', 'b', 'c', 'd'], 23), ['a', 'b', 'c', 'd']), 23);
    assert.equal(capBudgets(b, ['a', 'b', 'c', 'd'], 500), b, 'budgets that fit are kept');
    assert.deepEqual(capBudgets({ byHost: {}, otherwise: 10 }, ['x', 'y', 'z'], 4).byHost, { x: 2, y: 1, z: 1 });
  });
});

describe('page budgets: the engine', () => {
  it('each host stops at its budget: no request beyond it, the rest not started (host-pages)', async () => {
    const { crawl, site } = setup({
      ...linkedHost('a.test', 20),
      ...linkedHost('b.test', 10),
      ...linkedHost('c.test', 2),
    });
    const result = await crawl({
      seeds: ['http://a.test/', 'http://b.test/', 'http://c.test/'],
      pageBudgets: { byHost: { 'a.test': 5 }, otherwise: 4 },
      delaySeconds: 0.1,
    });
    assert.deepEqual(pagesBy(result), { 'a.test': 5, 'b.test': 4, 'c.test': 3 });
    assert.deepEqual(requestsBy(site), { 'a.test': 5, 'b.test': 4, 'c.test': 3 });
    const cut = result.urls.filter((u) => u.outcome === 'not-started' && u.detail === 'host-pages');
    assert.equal(cut.length, 16 + 7);
    assert.equal(result.summary.endReason, 'max-pages');
    assert.deepEqual(
      result.summary.notFollowed.map((n) => [n.reason, n.urls]),
      [['host-pages', 23]],
    );
  });

  it('requests in flight never start more than the budget (per-host concurrency 3, budget 2)', async () => {
    const { crawl, site } = setup(linkedHost('k.test', 10));
    const result = await crawl({
      seeds: ['http://k.test/'],
      pageBudgets: { byHost: {}, otherwise: 2 },
      perHostConcurrency: 3,
      delaySeconds: 0,
    });
    assert.equal(result.summary.pages, 2);
    assert.equal(site.log.length, 2);
  });

  it('a 404 is a page; a redirect chain is one page; a URL whose retries fail frees its place', async () => {
    const { crawl, site } = setup({
      'http://r.test/a': { status: 301, location: '/a2' },
      'http://r.test/a2': {},
      'http://r.test/gone': { status: 404 },
      'http://r.test/down': { error: 'reset' },
      'http://r.test/d': {},
      'http://r.test/e': {},
    });
    const result = await crawl({
      seeds: ['http://r.test/a', 'http://r.test/down', 'http://r.test/gone', 'http://r.test/d', 'http://r.test/e'],
      pageBudgets: { byHost: { 'r.test': 3 }, otherwise: 0 },
      maxRetries: 1,
    });
    const outcome = Object.fromEntries(result.urls.map((u) => [u.url.slice('http://r.test/'.length), u.outcome]));
    assert.deepEqual(outcome, {
      a: 'redirected',
      a2: 'fetched',
      down: 'failed',
      gone: 'fetched',
      d: 'fetched',
      e: 'not-started',
    });
    assert.equal(result.summary.pages, 3);
    // a, a2 (a hop), down twice (a retry), gone, d: requests beyond pages, never a page beyond the budget.
    assert.equal(site.log.length, 6);
  });

  it('maxPages works together with the budgets: whichever comes first', async () => {
    const { crawl } = setup({ ...linkedHost('a.test', 10), ...linkedHost('b.test', 10) });
    const result = await crawl({
      seeds: ['http://a.test/', 'http://b.test/'],
      pageBudgets: { byHost: {}, otherwise: 5 },
      maxPages: 7,
      delaySeconds: 0.1,
    });
    assert.equal(result.summary.pages, 7);
    for (const h of result.summary.hosts) assert.ok(h.pages <= 5, `${h.host}: ${h.pages} pages`);
  });

  it('a host with a budget of 0 gets no request, not even robots.txt', async () => {
    const { crawl, site } = setup({ ...linkedHost('a.test', 3), ...linkedHost('z.test', 3) });
    const result = await crawl({
      seeds: ['http://a.test/', 'http://z.test/'],
      pageBudgets: { byHost: { 'z.test': 0 }, otherwise: 10 },
    });
    assert.equal(requestsBy(site)['z.test'], undefined);
    assert.equal(result.summary.pages, 4);
    assert.deepEqual(
      result.urls.filter((u) => u.host === 'z.test').map((u) => [u.outcome, u.detail]),
      [['not-started', 'host-pages']],
    );
  });

  it('a budget outside the limits is refused', async () => {
    const { crawl } = setup({});
    await assert.rejects(
      crawl({ seeds: ['http://a.test/'], pageBudgets: { byHost: { 'a.test': -1 }, otherwise: 1 } }),
      /pageBudgets a\.test must be/,
    );
  });
});

describe('page budgets: chains across hosts', () => {
  it('a chain that ends on another host counts against the host it started on', async () => {
    const { crawl, site } = setup({
      'http://s.test/a': { status: 302, location: 'http://t.test/x' },
      'http://s.test/b': {},
      'http://s.test/c': {},
      'http://t.test/x': {},
      'http://t.test/y': {},
      'http://t.test/z': {},
    });
    const result = await crawl({
      seeds: ['http://s.test/a', 'http://s.test/b', 'http://s.test/c', 'http://t.test/y', 'http://t.test/z'],
      pageBudgets: { byHost: {}, otherwise: 2 },
      followOtherHostRedirects: true,
    });
    const outcome = Object.fromEntries(result.urls.map((u) => [u.url, u.outcome]));
    assert.equal(outcome['http://s.test/b'], 'fetched');
    assert.equal(outcome['http://s.test/c'], 'not-started', "s.test's budget: the chain to t.test and b");
    assert.equal(outcome['http://t.test/y'], 'fetched');
    assert.equal(outcome['http://t.test/z'], 'fetched', "t.test's own budget: y and z");
    assert.equal(site.log.length, 5);
  });
});

describe("a plan's Crawl-delays (CrawlOptions.crawlDelayByHost)", () => {
  it('keep the host at least that far apart from its first request, merged by max with robots.txt', async () => {
    const { crawl, rec } = setup(linkedHost('cd.test', 4));
    const result = await crawl({ seeds: ['http://cd.test/'], delaySeconds: 0.1, crawlDelayByHost: { 'cd.test': 2 } });
    const starts = rec.of('request-start').map((e) => e.at);
    assert.equal(starts.length, 5);
    for (let i = 1; i < starts.length; i++)
      assert.ok(starts[i]! - starts[i - 1]! >= 2000, `${starts[i]! - starts[i - 1]!} ms`);
    assert.deepEqual(
      [result.summary.hosts[0]!.plannedIntervalSeconds, result.summary.hosts[0]!.intervalSource],
      [2, 'crawl-delay'],
    );
  });
});
