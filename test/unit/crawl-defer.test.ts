/**
 * CrawlOptions.defer on virtual time: a page is read (links, their checks, its events) after its host's
 * next request has started, the events keep their order, and the crawl's outcome is the same as when
 * pages are read at once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCrawl } from '../../src/core/crawl/engine';
import type { CrawlEvent } from '../../src/core/crawl/events';
import type { CrawlOptions, CrawlResult } from '../../src/core/crawl/types';
import { fakeExtractLinks, fakeSite, recorder, seededRandom, type FakeScript } from '../helpers/crawlFakes';
import { VirtualClock } from '../helpers/virtualClock';

const T0 = Date.UTC(2024, 0, 1);

/** A tree: page i links to 2i+1 and 2i+2, plus a few seeds so the queue is never empty. */
function site(n: number): Record<string, FakeScript> {
  const pages: Record<string, FakeScript> = {};
  for (let i = 0; i < n; i++)
    pages[`http://t.test/p${i}`] = {
      latencyMs: 30,
      links: [`/p${2 * i + 1}`, `/p${2 * i + 2}`, 'http://other.test/x'],
    };
  return pages;
}

async function crawl(
  defer: boolean,
  log: string[] = [],
): Promise<{ result: CrawlResult; events: CrawlEvent[]; fetched: string[] }> {
  const clock = new VirtualClock(T0);
  const s = fakeSite(clock, site(15));
  const rec = recorder();
  const options: CrawlOptions = {
    seeds: ['http://t.test/p0', 'http://t.test/p1', 'http://t.test/p2'],
    clock,
    random: seededRandom(1),
    fetch: (req) => {
      log.push(`fetch ${new URL(req.url).pathname}`);
      return s.fetch(req);
    },
    extractLinks: (html, base) => {
      log.push(`read ${new URL(base).pathname}`);
      return fakeExtractLinks(html);
    },
    emit: rec.emit,
    delaySeconds: 0,
    maxPages: 12,
    maxDepth: 10,
    ...(defer ? { defer: (task: () => void) => void clock.sleep(0).then(task) } : {}),
  };
  const result = await clock.run(runCrawl(options));
  return { result, events: rec.events, fetched: s.log.map((l) => l.url) };
}

describe("reading a page after its host's next request has started (defer)", () => {
  it('starts the next request first, then reads the page', async () => {
    const log: string[] = [];
    await crawl(true, log);
    // p0 came first; with p1 and p2 queued, p1 is asked for before p0 is read.
    assert.deepEqual(log.slice(0, 3), ['fetch /p0', 'fetch /p1', 'read /p0']);
    const without: string[] = [];
    await crawl(false, without);
    assert.deepEqual(without.slice(0, 3), ['fetch /p0', 'read /p0', 'fetch /p1']);
  });

  it("keeps the events in order: a page's response, then the next start, then the links it queued", async () => {
    const { events } = await crawl(true);
    // p1 links to p3 and p4 (p0's links were seeds already).
    const i = events.findIndex((e) => e.type === 'response' && e.url === 'http://t.test/p1');
    assert.ok(i >= 0);
    assert.equal(events[i + 1]!.type, 'request-start');
    assert.equal((events[i + 1] as Extract<CrawlEvent, { type: 'request-start' }>).url, 'http://t.test/p2');
    assert.deepEqual(
      events.slice(i + 2, i + 4).map((e) => (e.type === 'queued' ? e.url : e.type)),
      ['http://t.test/p3', 'http://t.test/p4'],
    );
    // Every response comes after its own start.
    const started = new Set<string>();
    for (const e of events) {
      if (e.type === 'request-start') started.add(`${e.url} ${e.attempt}`);
      if (e.type === 'response') assert.ok(started.has(`${e.url} ${e.attempt}`), `${e.url}: response before its start`);
    }
    assert.equal(events.at(-1)!.type, 'done');
  });

  it('ends the same: the same pages, outcomes and not-followed counts', async () => {
    const a = await crawl(true);
    const b = await crawl(false);
    assert.deepEqual([...a.fetched].sort(), [...b.fetched].sort());
    assert.deepEqual(
      a.result.urls.map((u) => [u.url, u.outcome, u.detail ?? '']).sort(),
      b.result.urls.map((u) => [u.url, u.outcome, u.detail ?? '']).sort(),
    );
    assert.equal(a.result.summary.pages, 12);
    assert.deepEqual(a.result.summary.notFollowed, b.result.summary.notFollowed);
  });
});
