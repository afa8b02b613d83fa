/**
 * Two things a fetcher other than the page fetcher needs from the engine (the sitemap sizing's, say), on
 * virtual time: the URLs a fetcher found itself (`PageSuccess.links`: a sitemap index's children) are
 * admitted like a page's links, whatever the content type; and a URL that is its origin's own robots.txt is
 * answered by that origin's robots.txt request, never fetched a second time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrawl } from '../../src/core/crawl/engine';
import type { CrawlOptions, CrawlResult, PageFetcher, PageResult, UrlReport } from '../../src/core/crawl/types';
import {
  fakeExtractLinks,
  fakeRobots,
  fakeSite,
  fetchingRobots,
  recorder,
  seededRandom,
  startsByHost,
  type FakeRobotsFile,
  type FakeScript,
} from '../helpers/crawlFakes';
import { VirtualClock } from '../helpers/virtualClock';

const T0 = Date.UTC(2024, 0, 1);

interface XmlAnswer {
  status?: number;
  headers?: Record<string, string>;
  links?: string[];
  body?: string;
  contentType?: string;
  location?: string;
}

/** A fetcher of XML files: each answer (per attempt, the last repeats) after 100 ms of virtual time, its links given as `links`. */
function xmlSite(clock: VirtualClock, answers: Record<string, XmlAnswer | XmlAnswer[]>) {
  const log: Array<{ url: string; attempt: number; at: number }> = [];
  const fetch: PageFetcher = async (req): Promise<PageResult> => {
    const startedAt = clock.now();
    log.push({ url: req.url, attempt: req.attempt, at: startedAt - T0 });
    await clock.sleep(100, req.signal);
    const script = answers[req.url] ?? { status: 404 };
    const a = Array.isArray(script) ? script[Math.min(req.attempt, script.length) - 1]! : script;
    const contentType = a.contentType ?? 'application/xml';
    return {
      status: a.status ?? 200,
      headers: { 'content-type': contentType, ...a.headers },
      contentType,
      ...(a.body !== undefined ? { body: a.body } : {}),
      ...(a.links !== undefined ? { links: a.links } : {}),
      ...(a.location !== undefined ? { location: a.location } : {}),
      bytes: 0,
      truncated: false,
      startedAt,
      endedAt: clock.now(),
    };
  };
  return { fetch, log };
}

function run(clock: VirtualClock, o: Partial<CrawlOptions> & { seeds: string[] }) {
  const rec = recorder();
  const result = clock.run(runCrawl({ clock, random: seededRandom(1), emit: rec.emit, delaySeconds: 1, ...o }));
  return { rec, result };
}

const byUrl = (r: CrawlResult): Map<string, UrlReport> => new Map(r.urls.map((u) => [u.url, u]));

describe('PageSuccess.links: URLs the fetcher found itself', () => {
  it('are admitted as links are, whatever the content type: depth + 1, scope, dedupe, the depth limit', async () => {
    const clock = new VirtualClock(T0);
    const site = xmlSite(clock, {
      'http://a.test/index.xml': { links: ['/a.xml', 'http://a.test/b.xml', '/a.xml', 'http://other.test/c.xml'] },
      'http://a.test/a.xml': { links: ['/deep.xml'] },
      'http://a.test/b.xml': { links: [] },
    });
    const { rec, result } = run(clock, { seeds: ['http://a.test/index.xml'], fetch: site.fetch, maxDepth: 1 });
    const r = await result;
    assert.deepEqual(
      site.log.map((l) => l.url),
      ['http://a.test/index.xml', 'http://a.test/a.xml', 'http://a.test/b.xml'],
    );
    const urls = byUrl(r);
    assert.deepEqual(
      [urls.get('http://a.test/a.xml')!.depth, urls.get('http://a.test/a.xml')!.from],
      [1, 'http://a.test/index.xml'],
    );
    assert.deepEqual(
      [urls.get('http://other.test/c.xml')!.outcome, urls.get('http://other.test/c.xml')!.detail],
      ['out-of-scope', 'other-host'],
    );
    assert.deepEqual(
      [urls.get('http://a.test/deep.xml')!.outcome, urls.get('http://a.test/deep.xml')!.detail],
      ['out-of-scope', 'depth'],
    );
    const index = rec.of('response').find((e) => e.url === 'http://a.test/index.xml')!;
    assert.equal(index.linksQueued, 2, 'a.xml and b.xml; the repeat and the other host are not queued');
    // Paced like pages: one interval apart on the host.
    for (const s of startsByHost(rec.events).get('a.test')!.slice(1)) assert.ok(s.sinceLastStartSeconds! >= 1);
  });

  it('come before the links of an HTML body, and other hosts are followed with allowOtherHosts', async () => {
    const clock = new VirtualClock(T0);
    const site = xmlSite(clock, {
      'http://a.test/': { contentType: 'text/html', body: '/from-body', links: ['http://b.test/given'] },
      'http://a.test/from-body': {},
      'http://b.test/given': {},
    });
    const { result } = run(clock, {
      seeds: ['http://a.test/'],
      fetch: site.fetch,
      extractLinks: fakeExtractLinks,
      allowOtherHosts: true,
    });
    const r = await result;
    assert.deepEqual(
      r.urls.map((u) => [u.url, u.outcome]),
      [
        ['http://a.test/', 'fetched'],
        ['http://b.test/given', 'fetched'],
        ['http://a.test/from-body', 'fetched'],
      ],
    );
  });

  it('a 429 with Retry-After is waited out and retried like a page, and the retry’s links are admitted (not the 429’s)', async () => {
    const clock = new VirtualClock(T0);
    const site = xmlSite(clock, {
      'http://a.test/index.xml': [
        { status: 429, headers: { 'retry-after': '3' }, links: ['/never.xml'] },
        { links: ['/child.xml'] },
      ],
      'http://a.test/child.xml': {},
    });
    const { rec, result } = run(clock, { seeds: ['http://a.test/index.xml'], fetch: site.fetch });
    const r = await result;
    assert.deepEqual(
      site.log.map((l) => [l.url, l.attempt, l.at]),
      [
        ['http://a.test/index.xml', 1, 0],
        // Paused until the 429's end + 3 s.
        ['http://a.test/index.xml', 2, 3100],
        // Then the raised interval, not the 1 s delay: 2 s after a Retry-After, × 0.9 after the retry's success.
        ['http://a.test/child.xml', 1, 4900],
      ],
    );
    assert.equal(byUrl(r).get('http://a.test/never.xml'), undefined);
    assert.equal(rec.of('host-paused').length, 1);
    assert.deepEqual(
      [byUrl(r).get('http://a.test/index.xml')!.outcome, byUrl(r).get('http://a.test/index.xml')!.attempts],
      ['fetched', 2],
    );
  });

  it('a redirect that is followed admits its target, not its links', async () => {
    const clock = new VirtualClock(T0);
    const site = xmlSite(clock, {
      'http://a.test/old.xml': { status: 301, location: '/new.xml', links: ['/never.xml'] },
      'http://a.test/new.xml': { links: ['/child.xml'] },
      'http://a.test/child.xml': {},
    });
    const { result } = run(clock, { seeds: ['http://a.test/old.xml'], fetch: site.fetch });
    const r = await result;
    assert.deepEqual(
      site.log.map((l) => l.url),
      ['http://a.test/old.xml', 'http://a.test/new.xml', 'http://a.test/child.xml'],
    );
    assert.equal(byUrl(r).get('http://a.test/never.xml'), undefined);
  });
});

describe("a URL that is its origin's robots.txt is answered by the robots.txt request", () => {
  function setup(robotsFiles: Record<string, FakeRobotsFile>, pages: Record<string, FakeScript> = {}) {
    const clock = new VirtualClock(T0);
    const site = fakeSite(clock, pages, { latencyMs: 100 });
    const robots = fetchingRobots(clock, robotsFiles);
    return { clock, site, robots };
  }

  it('seeds that are robots.txt URLs: exactly one request each (the robots.txt request), no page', async () => {
    const { clock, site, robots } = setup({
      'http://a.test': { latencyMs: 50 },
      'http://b.test': { latencyMs: 50, status: 404 },
    });
    const { rec, result } = run(clock, {
      seeds: ['http://a.test/robots.txt', 'http://b.test/robots.txt'],
      fetch: site.fetch,
      robots: robots.gate,
    });
    const r = await result;
    assert.equal(site.log.length, 0, 'no page request');
    assert.deepEqual(
      robots.fetches.map((f) => f.origin),
      ['http://a.test', 'http://b.test'],
    );
    assert.deepEqual(
      r.urls.map((u) => [u.url, u.outcome, u.status, u.attempts, u.detail]),
      [
        ['http://a.test/robots.txt', 'fetched', 200, 0, 'answered by its robots.txt request'],
        ['http://b.test/robots.txt', 'fetched', 404, 0, 'answered by its robots.txt request'],
      ],
    );
    assert.deepEqual([r.summary.requests, r.summary.pages], [2, 0], 'the robots.txt requests; no page');
    assert.deepEqual(
      rec.of('request-start').map((e) => [e.url, e.robotsTxt]),
      [
        ['http://a.test/robots.txt', true],
        ['http://b.test/robots.txt', true],
      ],
    );
  });

  it('a link to /robots.txt is not fetched again; one fetched before the run answers it with no request', async () => {
    const { clock, site, robots } = setup(
      { 'http://a.test': {}, 'http://b.test': { fetchedAt: T0 - 3_600_000 } },
      {
        'http://a.test/': { links: ['/robots.txt', '/robots.txt?x=1', 'http://b.test/robots.txt'] },
        'http://a.test/robots.txt?x=1': {},
      },
    );
    const { result } = run(clock, {
      seeds: ['http://a.test/'],
      fetch: site.fetch,
      robots: robots.gate,
      extractLinks: fakeExtractLinks,
      allowOtherHosts: true,
    });
    const r = await result;
    assert.deepEqual(
      site.log.map((l) => l.url),
      ['http://a.test/', 'http://a.test/robots.txt?x=1'],
      'robots.txt with a query is a page like any other',
    );
    assert.deepEqual(
      robots.fetches.map((f) => f.origin),
      ['http://a.test'],
    );
    const urls = byUrl(r);
    assert.deepEqual(
      [urls.get('http://a.test/robots.txt')!.outcome, urls.get('http://a.test/robots.txt')!.status],
      ['fetched', 200],
    );
    assert.equal(urls.get('http://b.test/robots.txt')!.outcome, 'fetched');
    assert.equal(r.summary.pages, 2, 'the two pages; the robots.txt URLs are not pages');
  });

  it('an unreachable robots.txt drops the host, its robots.txt URL with it', async () => {
    const { clock, site, robots } = setup({ 'http://down.test': { status: 503 } });
    const { result } = run(clock, {
      seeds: ['http://down.test/robots.txt', 'http://down.test/page'],
      fetch: site.fetch,
      robots: robots.gate,
    });
    const r = await result;
    assert.equal(site.log.length, 0);
    assert.deepEqual(
      r.urls.map((u) => u.outcome),
      ['robots-unreachable', 'robots-unreachable'],
    );
  });

  it('without a robots.txt request behind the answer (rules in memory), robots.txt is fetched as a page', async () => {
    const clock = new VirtualClock(T0);
    const site = fakeSite(clock, { 'http://a.test/robots.txt': {} });
    const robots = fakeRobots(clock, () => ({ verdict: 'allowed' }));
    const { result } = run(clock, { seeds: ['http://a.test/robots.txt'], fetch: site.fetch, robots: robots.gate });
    const r = await result;
    assert.deepEqual(
      site.log.map((l) => l.url),
      ['http://a.test/robots.txt'],
    );
    assert.deepEqual([r.urls[0]!.outcome, r.summary.pages], ['fetched', 1]);
  });
});
