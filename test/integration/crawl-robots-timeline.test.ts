/**
 * robots.txt as the first request on each host's timeline, judged from the demo servers' own arrival logs:
 * the first page keeps the interval after robots.txt (and the Crawl-delay from that very file), for the
 * start and the end readings; a host whose robots.txt is slow holds back no other host; a robots.txt
 * fetched a moment before the crawl (the plan's) still counts. Real loopback servers, the real clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateSampleCrawlOptions, type SampleCrawlOptions } from '../../src/core/crawl/sampleCrawlOptions';
import { startDemoHosts, type DemoHostConfig, type DemoHosts } from '../../src/demo';
import {
  planTestCrawl,
  startCrawlSession,
  startPlannedCrawl,
  type CrawlSessionResult,
} from '../../src/net/crawlSession';
import { LOOPBACK_SLACK_MS, measureServerLag } from '../helpers/serverLag';

const DELAY_SECONDS = 0.2;
const CRAWL_DELAY_SECONDS = 0.5;

function host(name: string, extra: Partial<DemoHostConfig> = {}): DemoHostConfig {
  return {
    name,
    description: '',
    pages: 4,
    graph: { kind: 'tree', fanOut: 3 },
    latency: { kind: 'fixed', ms: 20 },
    robotsTxt: { kind: 'rules', disallow: [] },
    ...extra,
  };
}

const HOSTS: DemoHostConfig[] = [
  host('plain'),
  host('cd', { robotsTxt: { kind: 'rules', crawlDelay: CRAWL_DELAY_SECONDS, disallow: [] } }),
];
const INTERVAL_MS: Record<string, number> = { plain: DELAY_SECONDS * 1000, cd: CRAWL_DELAY_SECONDS * 1000 };

function optionsFor(demo: DemoHosts, extra: Record<string, unknown> = {}): SampleCrawlOptions {
  return validateSampleCrawlOptions({
    seeds: demo.hosts.flatMap((h) => h.seeds),
    maxPages: 8,
    maxDepth: 3,
    delaySeconds: DELAY_SECONDS,
    timeoutSeconds: 5,
    ...extra,
  });
}

async function crawlWith(
  hosts: DemoHostConfig[],
  run: (demo: DemoHosts) => Promise<CrawlSessionResult>,
): Promise<{ demo: DemoHosts; result: CrawlSessionResult; allowanceMs: number }> {
  const demo = await startDemoHosts({ hosts });
  try {
    const lag = measureServerLag();
    const result = await run(demo);
    return { demo, result, allowanceMs: LOOPBACK_SLACK_MS + lag.stop() };
  } finally {
    await demo.close();
  }
}

/** The first page's arrival after robots.txt's arrival (start reading) or after its response ended (end reading). */
function firstGap(demo: DemoHosts, name: string, from: 'start' | 'end'): number {
  const arrivals = demo.arrivals(name);
  const robots = arrivals[0]!;
  assert.equal(robots.path, '/robots.txt', `${name}: robots.txt first`);
  const page = arrivals[1]!;
  return page.at - (from === 'start' ? robots.at : robots.endedAt!);
}

describe("robots.txt opens its host's timeline (server-side)", { timeout: 60_000 }, () => {
  for (const from of ['start', 'end'] as const) {
    it(`--delay-from ${from}: the first page keeps the interval after robots.txt, Crawl-delay from that file included`, async () => {
      const { demo, result, allowanceMs } = await crawlWith(
        HOSTS,
        (d) => startPlannedCrawl(optionsFor(d, { delayFrom: from })).done,
      );
      for (const name of ['plain', 'cd']) {
        const gap = firstGap(demo, name, from);
        assert.ok(
          gap + allowanceMs >= INTERVAL_MS[name]!,
          `${name}: first page ${gap.toFixed(1)} ms after robots.txt ${from === 'start' ? 'arrived' : 'ended'}, interval ${INTERVAL_MS[name]} ms`,
        );
        // Every later gap too, robots.txt counted like any request.
        const at = demo.arrivals(name).map((a) => a.at);
        for (let i = 1; i < at.length; i++)
          assert.ok(
            at[i]! - at[i - 1]! + allowanceMs >= INTERVAL_MS[name]!,
            `${name}: arrivals ${at[i]! - at[i - 1]!} ms apart`,
          );
      }
      const robotsRequests = result.report.requests.filter((r) => r.robotsTxt);
      assert.equal(robotsRequests.length, 2);
      assert.ok(robotsRequests.every((r) => r.status === 200));
      assert.equal(result.summary.requests, result.summary.pages + 2);
    });
  }

  it("a host whose robots.txt is slow holds back no other host's first page", async () => {
    const hosts = [host('slow', { pages: 1, latency: { kind: 'fixed', ms: 1500 } }), host('quick')];
    const { demo } = await crawlWith(hosts, (d) => startPlannedCrawl(optionsFor(d)).done);
    const slowRobots = demo.arrivals('slow')[0]!;
    const quick = demo.arrivals('quick');
    assert.equal(quick[0]!.path, '/robots.txt');
    assert.ok(
      quick[1]!.at < slowRobots.endedAt!,
      `quick's first page at +${(quick[1]!.at - slowRobots.at).toFixed(0)} ms, slow's robots.txt ended at +${(slowRobots.endedAt! - slowRobots.at).toFixed(0)} ms`,
    );
  });

  it('a robots.txt fetched a moment before the crawl (the plan first, then the crawl) still holds the first page back', async () => {
    const { demo, result, allowanceMs } = await crawlWith(HOSTS, async (d) => {
      const options = optionsFor(d);
      const prepared = await planTestCrawl(options);
      return startCrawlSession(options, { plan: prepared.plan, robotsCache: prepared.robotsCache }).done;
    });
    for (const name of ['plain', 'cd']) {
      assert.equal(
        demo.arrivals(name).filter((a) => a.path === '/robots.txt').length,
        1,
        `${name}: robots.txt fetched once`,
      );
      const gap = firstGap(demo, name, 'start');
      assert.ok(
        gap + allowanceMs >= INTERVAL_MS[name]!,
        `${name}: first page ${gap.toFixed(1)} ms after the plan's robots.txt`,
      );
    }
    assert.equal(
      result.report.requests.filter((r) => r.robotsTxt).length,
      0,
      "the plan's fetch is not one of the crawl's requests",
    );
  });
});
