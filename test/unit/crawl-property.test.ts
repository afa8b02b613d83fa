/**
 * Property test: for random mixes of hosts, Crawl-delays, latencies and failures (errors, 429/503 with and
 * without Retry-After, 404, redirects), with either delay reading, with a robots gate in memory or one that
 * fetches (robots.txt then a request on its host's timeline), and with pages read at once or after the
 * host's next request is started, the engine never breaks politeness and always ends with an outcome for
 * every URL.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { runCrawl } from '../../src/core/crawl/engine';
import type { FakeResponse, FakeScript } from '../helpers/crawlFakes';
import {
  fakeExtractLinks,
  fakeRobots,
  fakeSite,
  fetchingRobots,
  recorder,
  seededRandom,
  startsByHost,
  type FakeRobotsFile,
} from '../helpers/crawlFakes';
import { VirtualClock } from '../helpers/virtualClock';

const T0 = Date.UTC(2024, 0, 1);

const responseArb = (host: string, pageCount: number): fc.Arbitrary<FakeResponse> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ latencyMs: fc.integer({ min: 0, max: 3000 }) }) },
    { weight: 1, arbitrary: fc.constant({ status: 404 }) },
    {
      weight: 1,
      arbitrary: fc.record({
        status: fc.constantFrom(500, 502, 503, 504),
        latencyMs: fc.integer({ min: 0, max: 500 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        status: fc.constantFrom(429, 503),
        headers: fc.record({ 'retry-after': fc.constantFrom('0', '1', '3', '7', 'soon', '1.5', '99999') }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        error: fc.constantFrom('connect' as const, 'timeout' as const, 'reset' as const, 'dns' as const),
        latencyMs: fc.integer({ min: 0, max: 2000 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        status: fc.constantFrom(301, 302, 307),
        location: fc.integer({ min: 0, max: pageCount + 2 }).map((i) => `http://${host}/p${i}`),
      }),
    },
  );

const hostArb = (index: number) => {
  const host = `h${index}.test`;
  return fc.record({
    host: fc.constant(host),
    crawlDelay: fc.option(fc.constantFrom(0, 0.5, 1.5, 3), { nil: undefined }),
    pages: fc
      .integer({ min: 1, max: 6 })
      .chain((n) =>
        fc.array(fc.array(responseArb(host, n), { minLength: 1, maxLength: 3 }), { minLength: n, maxLength: n }),
      ),
  });
};

const scenarioArb = fc.record({
  hosts: fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => hostArb(i)))),
  delaySeconds: fc.constantFrom(0, 0.25, 1, 2),
  delayFrom: fc.constantFrom('start' as const, 'end' as const),
  perHostConcurrency: fc.integer({ min: 1, max: 2 }),
  concurrency: fc.integer({ min: 1, max: 4 }),
  maxRetries: fc.integer({ min: 0, max: 3 }),
  maxPages: fc.integer({ min: 1, max: 30 }),
  maxConsecutiveFailures: fc.integer({ min: 2, max: 6 }),
  seed: fc.integer(),
  stopAtMs: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }),
  linkEvery: fc.integer({ min: 1, max: 3 }),
  adaptive: fc.boolean(),
  tokenBucket: fc.option(
    fc.record({ ratePerSecond: fc.constantFrom(0.5, 2, 10), burst: fc.integer({ min: 1, max: 4 }) }),
    { nil: undefined },
  ),
  /** robots.txt fetched (and how long it takes, and whether it answers 503), or rules in memory. */
  robotsFetch: fc.option(fc.record({ latencyMs: fc.integer({ min: 0, max: 1500 }), unreachable: fc.boolean() }), {
    nil: undefined,
  }),
  deferReads: fc.boolean(),
});

describe('crawl engine properties', () => {
  it('politeness holds and every URL ends with an outcome, for random host/latency/failure mixes', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (sc) => {
        const clock = new VirtualClock(T0);
        const pages: Record<string, FakeScript> = {};
        const seeds: string[] = [];
        const crawlDelays = new Map<string, number | undefined>();
        for (const h of sc.hosts) {
          crawlDelays.set(h.host, h.crawlDelay);
          h.pages.forEach((script, i) => {
            const url = `http://${h.host}/p${i}`;
            // Some pages link to the next one, so discovery happens during the crawl too.
            const withLinks = script.map((r) =>
              i % sc.linkEvery === 0 && r.status === undefined && r.error === undefined
                ? { ...r, links: [`/p${i + 1}`, `/p${i + 2}`] }
                : r,
            );
            pages[url] = withLinks;
            if (i === 0 || i % 2 === 1) seeds.push(url);
          });
        }
        const site = fakeSite(clock, pages, { latencyMs: 50 });
        const rec = recorder();
        const decide = (u: string) => {
          const cd = crawlDelays.get(new URL(u).host);
          return {
            verdict: 'allowed' as const,
            outcome: 'ok' as const,
            ...(cd === undefined ? {} : { crawlDelaySeconds: cd }),
          };
        };
        const fetching = sc.robotsFetch
          ? fetchingRobots(
              clock,
              Object.fromEntries(
                sc.hosts.map((h, i): [string, FakeRobotsFile] => [
                  `http://${h.host}`,
                  {
                    decide,
                    latencyMs: sc.robotsFetch!.latencyMs,
                    ...(sc.robotsFetch!.unreachable && i === 0 ? { status: 503 } : {}),
                  },
                ]),
              ),
            )
          : undefined;
        const robots = fetching ?? fakeRobots(clock, decide);
        const stop = new AbortController();
        if (sc.stopAtMs !== undefined) void clock.sleep(sc.stopAtMs).then(() => stop.abort());
        const result = await clock.run(
          runCrawl({
            clock,
            random: seededRandom(sc.seed),
            fetch: site.fetch,
            robots: robots.gate,
            extractLinks: fakeExtractLinks,
            emit: rec.emit,
            stop: stop.signal,
            seeds,
            delaySeconds: sc.delaySeconds,
            delayFrom: sc.delayFrom,
            perHostConcurrency: sc.perHostConcurrency,
            concurrency: sc.concurrency,
            maxRetries: sc.maxRetries,
            maxPages: sc.maxPages,
            maxConsecutiveFailures: sc.maxConsecutiveFailures,
            maxDepth: 10,
            backoffBaseMs: 200,
            backoffCapMs: 5000,
            retryAfterCapSeconds: 300,
            graceMs: 1000,
            adaptive: sc.adaptive,
            ...(sc.tokenBucket ? { tokenBucket: sc.tokenBucket } : {}),
            ...(sc.deferReads ? { defer: (task: () => void) => void clock.sleep(0).then(task) } : {}),
          }),
          { maxMs: 7 * 24 * 3600 * 1000 },
        );

        // 1. Start gaps per host are never below the planned interval (configured ⊔ Crawl-delay), and
        //    never below the live interval in force at that start.
        for (const [host, starts] of startsByHost(rec.events)) {
          const floorMs = Math.max(sc.delaySeconds, crawlDelays.get(host) ?? 0, sc.adaptive ? 1 : 0) * 1000;
          for (let i = 1; i < starts.length; i++) {
            const gap = starts[i]!.at - starts[i - 1]!.at;
            assert.ok(gap + 1e-6 >= floorMs, `${host}: gap ${gap} ms < planned ${floorMs} ms`);
            assert.ok(
              starts[i]!.sinceLastStartSeconds! * 1000 + 1e-6 >= starts[i]!.intervalSeconds * 1000,
              `${host}: live interval broken`,
            );
          }
        }
        // 2. The end reading, one per host: each start is at least an interval after the previous end.
        if (sc.delayFrom === 'end' && sc.perHostConcurrency === 1) {
          const byHost = new Map<string, Array<{ startedAt: number; endedAt?: number }>>();
          for (const l of site.log) byHost.set(l.host, [...(byHost.get(l.host) ?? []), l]);
          for (const f of fetching?.fetches ?? [])
            byHost.set(new URL(f.origin).host, [...(byHost.get(new URL(f.origin).host) ?? []), f]);
          // In time order: a request that started and ended at one instant (a robots.txt answered at once) came
          // before one that started at that instant and ended later.
          for (const log of byHost.values()) log.sort((a, b) => a.startedAt - b.startedAt || a.endedAt! - b.endedAt!);
          for (const [host, log] of byHost) {
            const floorMs = Math.max(sc.delaySeconds, crawlDelays.get(host) ?? 0, sc.adaptive ? 1 : 0) * 1000;
            for (let i = 1; i < log.length; i++)
              assert.ok(log[i]!.startedAt >= log[i - 1]!.endedAt! + floorMs - 1e-6, `${host}: end-to-start broken`);
          }
        }
        // 2b. Token bucket: over any window, starts to a host ≤ burst + rate × window.
        if (sc.tokenBucket) {
          const { ratePerSecond, burst } = sc.tokenBucket;
          for (const [host, starts] of startsByHost(rec.events)) {
            for (let i = 0; i < starts.length; i++) {
              for (let j = i; j < starts.length; j++) {
                const windowS = (starts[j]!.at - starts[i]!.at) / 1000;
                assert.ok(j - i + 1 <= burst + ratePerSecond * windowS + 1e-6, `${host}: token bucket exceeded`);
              }
            }
          }
        }
        // 3. Concurrency: per host and global.
        assert.ok(site.maxInFlight <= sc.concurrency);
        for (const n of site.maxInFlightPerHost.values()) assert.ok(n <= sc.perHostConcurrency);
        // 4. No start to a host while it is paused by Retry-After.
        for (const p of rec.of('host-paused')) {
          for (const s of rec.of('request-start')) {
            if (s.host === p.host)
              assert.ok(
                !(s.at >= p.at && s.at < p.until),
                `${p.host}: start at ${s.at} inside a pause until ${p.until}`,
              );
          }
        }
        // 5. No start after a stop.
        if (sc.stopAtMs !== undefined)
          for (const s of rec.of('request-start'))
            assert.ok(s.at <= T0 + sc.stopAtMs, `start at ${s.at - T0} after the stop at ${sc.stopAtMs}`);
        // 6. Outcomes: one per distinct URL; every queued URL listed; counts agree.
        const urls = result.urls.map((u) => u.url);
        assert.equal(new Set(urls).size, urls.length);
        for (const q of rec.of('queued')) assert.ok(urls.includes(q.url), `queued ${q.url} has no outcome`);
        for (const u of result.urls) {
          assert.ok(u.outcome);
          assert.ok(u.attempts <= sc.maxRetries + 1, `${u.url}: ${u.attempts} attempts`);
        }
        assert.equal(result.summary.pages, result.urls.filter((u) => u.outcome === 'fetched').length);
        assert.ok(result.summary.pages <= sc.maxPages);
        const robotsRequests = fetching?.fetches.length ?? 0;
        assert.equal(rec.of('request-start').filter((e) => e.robotsTxt).length, robotsRequests);
        assert.equal(result.summary.requests, site.log.length + robotsRequests);
        assert.equal(result.summary.requests, result.urls.reduce((a, u) => a + u.attempts, 0) + robotsRequests);
        assert.equal(rec.events.at(-1)!.type, 'done');
        // 7. Every request ended (no dangling work).
        assert.ok(site.log.every((l) => l.endedAt !== undefined));
        // 8. robots.txt before any page of its host, once per host.
        for (const f of fetching?.fetches ?? []) {
          const host = new URL(f.origin).host;
          assert.ok(
            site.log.filter((l) => l.host === host).every((l) => l.startedAt >= f.startedAt),
            `${host}: a page before its robots.txt`,
          );
        }
      }),
      { numRuns: Number(process.env.CRAWL_PROPERTY_RUNS ?? 150) },
    );
  });
});
