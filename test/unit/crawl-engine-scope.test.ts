/**
 * What the crawl engine follows, on virtual time: links normalised and deduplicated, other hosts and schemes
 * out of scope, maxDepth and maxPages, and redirects (a chain through politeness, loops, maxRedirects, another
 * host). Deterministic: the fake site's latency is virtual time and jitter is a seeded source
 * (test/helpers/crawlEngine.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrawl } from '../../src/core/crawl/engine';
import { fakeSite, type FakeScript } from '../helpers/crawlFakes';
import { VirtualClock } from '../helpers/virtualClock';
import { assertGapsAtLeast, byUrl, setup, T0 } from '../helpers/crawlEngine';

describe('crawl engine: scope, limits and redirects', () => {
  it('links: normalised (fragment dropped), deduplicated, other hosts and non-http out of scope', async () => {
    const { crawl, rec } = setup({
      'http://s.test/': {
        links: [
          '/a#top',
          '/a#bottom',
          'a',
          'http://S.TEST:80/b',
          'mailto:x@y',
          'http://elsewhere.test/',
          'http://[::1',
        ],
      },
      'http://s.test/a': {},
      'http://s.test/b': {},
    });
    const result = await crawl({ seeds: ['http://s.test/'] });
    const m = byUrl(result);
    assert.equal(m.get('http://s.test/a')!.outcome, 'fetched');
    assert.equal(m.get('http://s.test/b')!.outcome, 'fetched');
    assert.equal(m.get('http://elsewhere.test/')!.outcome, 'out-of-scope');
    assert.equal(m.get('http://elsewhere.test/')!.detail, 'other-host');
    assert.equal(m.get('mailto:x@y')!.detail, 'scheme');
    assert.equal(m.get('http://[::1')!.detail, 'invalid-url');
    assert.equal(result.summary.pages, 3);
    assert.equal(rec.of('response')[0]!.linksQueued, 2);
    assert.deepEqual(
      rec.events.slice(0, 3).map((e) => e.type),
      ['queued', 'request-start', 'response'],
    );
    assert.equal(rec.of('queued')[1]!.from, 'http://s.test/');
    assert.equal(rec.of('queued')[1]!.depth, 1);
  });

  it('allowOtherHosts follows links off the seed hosts', async () => {
    const { crawl } = setup({ 'http://s.test/': { links: ['http://elsewhere.test/'] }, 'http://elsewhere.test/': {} });
    const result = await crawl({ seeds: ['http://s.test/'], allowOtherHosts: true });
    assert.equal(byUrl(result).get('http://elsewhere.test/')!.outcome, 'fetched');
  });

  it('maxDepth: nothing deeper is fetched; links on the last depth are met only to be counted as not followed', async () => {
    const { crawl, site } = setup({
      'http://d.test/0': { links: ['/1'] },
      'http://d.test/1': { links: ['/2'] },
      'http://d.test/2': { links: ['/3'] },
      'http://d.test/3': {},
    });
    const result = await crawl({ seeds: ['http://d.test/0'], maxDepth: 2 });
    assert.deepEqual(
      site.log.map((l) => l.url),
      ['http://d.test/0', 'http://d.test/1', 'http://d.test/2'],
    );
    assert.deepEqual(
      result.urls.map((u) => [u.depth, u.outcome, u.detail ?? '']),
      [
        [0, 'fetched', ''],
        [1, 'fetched', ''],
        [2, 'fetched', ''],
        [3, 'out-of-scope', 'depth'],
      ],
    );
    assert.deepEqual(
      result.summary.notFollowed.map((n) => [n.reason, n.urls]),
      [['depth', 1]],
    );
  });

  it('maxPages: exactly that many pages, the rest not-started, endReason max-pages', async () => {
    const links = Array.from({ length: 20 }, (_, i) => `/l${i}`);
    const pages: Record<string, FakeScript> = { 'http://m.test/': { links } };
    for (const l of links) pages[`http://m.test${l}`] = {};
    const { crawl, site } = setup(pages);
    const result = await crawl({ seeds: ['http://m.test/'], maxPages: 5, perHostConcurrency: 3, delaySeconds: 0 });
    assert.equal(result.summary.pages, 5);
    assert.equal(site.log.length, 5, 'no request is started beyond the budget');
    assert.equal(result.summary.endReason, 'max-pages');
    assert.equal(result.urls.filter((u) => u.outcome === 'not-started' && u.detail === 'max-pages').length, 16);
  });

  it('maxPages counts final pages: a URL whose retries fail frees its place', async () => {
    const { crawl } = setup({ 'http://m2.test/a': { error: 'dns' }, 'http://m2.test/b': {}, 'http://m2.test/c': {} });
    const result = await crawl({ seeds: ['http://m2.test/a', 'http://m2.test/b', 'http://m2.test/c'], maxPages: 2 });
    assert.equal(result.summary.pages, 2);
    assert.deepEqual(
      result.urls.map((u) => u.outcome),
      ['failed', 'fetched', 'fetched'],
    );
  });

  it('a redirect chain: one request per hop, through politeness, target at the front of the queue', async () => {
    const { crawl, rec } = setup({
      'http://rd.test/a': { status: 301, location: '/b' },
      'http://rd.test/b': { status: 302, headers: { location: 'http://rd.test/c' } },
      'http://rd.test/c': {},
      'http://rd.test/x': {},
    });
    const result = await crawl({ seeds: ['http://rd.test/a', 'http://rd.test/x'] });
    assert.deepEqual(
      rec.of('request-start').map((s) => s.url.slice(-1)),
      ['a', 'b', 'c', 'x'],
    );
    assertGapsAtLeast(rec.events, 1000);
    const m = byUrl(result);
    assert.deepEqual(
      ['a', 'b', 'c', 'x'].map((k) => m.get(`http://rd.test/${k}`)!.outcome),
      ['redirected', 'redirected', 'fetched', 'fetched'],
    );
    assert.equal(m.get('http://rd.test/c')!.from, 'http://rd.test/b');
    assert.equal(rec.of('response')[0]!.location, 'http://rd.test/b');
    assert.equal(result.summary.pages, 2, 'a chain is one page');
    assert.equal(result.summary.requests, 4);
  });

  it('a redirect loop ends (the target was already met)', async () => {
    const { crawl, site } = setup({
      'http://lp.test/a': { status: 302, location: '/b' },
      'http://lp.test/b': { status: 302, location: '/a' },
    });
    const result = await crawl({ seeds: ['http://lp.test/a'] });
    assert.equal(site.log.length, 2);
    assert.equal(byUrl(result).get('http://lp.test/b')!.detail, 'not followed: already-met');
  });

  it('an endless chain of new URLs stops at maxRedirects', async () => {
    const endless = (n: number) => ({ status: 307, location: `/r${n + 1}` });
    const pages = new Proxy({} as Record<string, FakeScript>, {
      get: (_t, key: string) => {
        const n = Number(/\/r(\d+)$/.exec(key)?.[1]);
        return Number.isFinite(n) ? endless(n) : undefined;
      },
    });
    const clock = new VirtualClock(T0);
    const s2 = fakeSite(clock, pages);
    const result = await clock.run(
      runCrawl({
        clock,
        random: () => 0.5,
        fetch: s2.fetch,
        seeds: ['http://inf.test/r0'],
        maxRedirects: 5,
        delaySeconds: 0,
      }),
    );
    assert.equal(s2.log.length, 6);
    const last = result.urls.at(-1)!;
    assert.equal(last.url, 'http://inf.test/r6');
    assert.equal(last.outcome, 'out-of-scope');
    assert.equal(last.detail, 'redirect-limit');
  });

  it('a redirect to another host is out of scope unless allowed', async () => {
    const pages = { 'http://from.test/': { status: 301, location: 'https://to.test/' }, 'https://to.test/': {} };
    const a = setup(pages);
    const r1 = await a.crawl({ seeds: ['http://from.test/'] });
    assert.equal(byUrl(r1).get('https://to.test/')!.outcome, 'out-of-scope');
    const b = setup(pages);
    const r2 = await b.crawl({ seeds: ['http://from.test/'], allowOtherHosts: true });
    assert.equal(byUrl(r2).get('https://to.test/')!.outcome, 'fetched');
  });
});
