/**
 * The crawl engine wired to the fakes of crawlFakes.ts on a virtual clock, for the crawl-engine-*.test.ts
 * files: `setup` gives a fake site, an event recorder and a `crawl` that runs runCrawl to its end in
 * virtual time with seeded jitter; and the politeness assertions those files share (gaps at least an
 * interval, the live interval kept at every start).
 */
import assert from 'node:assert/strict';
import { runCrawl } from '../../src/core/crawl/engine';
import type { CrawlOptions, CrawlResult, UrlReport } from '../../src/core/crawl/types';
import {
  fakeExtractLinks,
  fakeSite,
  recorder,
  seededRandom,
  startGaps,
  startsByHost,
  type FakeScript,
} from './crawlFakes';
import { VirtualClock } from './virtualClock';

export const T0 = Date.UTC(2024, 0, 1); // Mon, 01 Jan 2024 00:00:00 GMT

export function setup(pages: Record<string, FakeScript>, opts: { latencyMs?: number } = {}) {
  const clock = new VirtualClock(T0);
  const site = fakeSite(clock, pages, opts);
  const rec = recorder();
  const crawl = (o: Partial<CrawlOptions> & { seeds: string[] }): Promise<CrawlResult> =>
    clock.run(
      runCrawl({
        clock,
        random: seededRandom(1),
        fetch: site.fetch,
        emit: rec.emit,
        extractLinks: fakeExtractLinks,
        ...o,
      }),
    );
  return { clock, site, rec, crawl };
}

export function urlsOf(host: string, n: number, prefix = 'p'): string[] {
  return Array.from({ length: n }, (_, i) => `http://${host}/${prefix}${i}`);
}

export function byUrl(result: CrawlResult): Map<string, UrlReport> {
  return new Map(result.urls.map((u) => [u.url, u]));
}

export function assertGapsAtLeast(events: Parameters<typeof startGaps>[0], ms: number): void {
  for (const [host, gaps] of startGaps(events)) {
    for (const gap of gaps)
      assert.ok(gap >= ms, `${host}: a gap of ${gap} ms is below ${ms} ms (gaps ${gaps.join(', ')})`);
  }
}

/** Every start's gap to the previous start of its host is at least the interval in force at that start. */
export function assertLiveIntervalKept(events: Parameters<typeof startsByHost>[0]): void {
  for (const [host, starts] of startsByHost(events)) {
    for (const s of starts.slice(1)) {
      assert.ok(s.sinceLastStartSeconds !== undefined);
      assert.ok(
        s.sinceLastStartSeconds + 1e-9 >= s.intervalSeconds,
        `${host}: ${s.sinceLastStartSeconds} s since the last start, interval ${s.intervalSeconds} s (${s.intervalSource})`,
      );
    }
  }
}
