/**
 * The polite crawl against the built-in demo hosts, checked from the SERVERS' side: their own arrival
 * logs. Real loopback servers, the real clock, undici; bounded by max-pages and short timeouts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { validateSampleCrawlOptions } from '../../src/core/crawl/sampleCrawlOptions';
import { defaultDemoConfig, startDemoHosts, type DemoHosts } from '../../src/demo';
import { startPlannedCrawl, type CrawlSessionResult } from '../../src/net/crawlSession';
import { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../helpers/serverLag';

/** Loopback timing slack for server-side gaps (issue: 2 ms). */
const SLACK_MS = LOOPBACK_SLACK_MS;

describe('polite crawl of the demo hosts (server-side checks)', { timeout: 90_000 }, () => {
  let demo: DemoHosts;
  let result: CrawlSessionResult;
  let serverLagMs = 0;
  const delaySeconds = 0.5;

  before(async () => {
    demo = await startDemoHosts(defaultDemoConfig());
    const options = validateSampleCrawlOptions({
      seeds: demo.hosts.flatMap((h) => h.seeds),
      maxPages: 45,
      delaySeconds,
      timeoutSeconds: 2,
      maxRetries: 1,
    });
    const lag = measureServerLag();
    result = await startPlannedCrawl(options).done;
    serverLagMs = lag.stop();
  });

  it('on the wire: no two requests to one host reached their connection closer than its interval', () => {
    for (const s of result.summary.hosts) {
      const sent = result.report.requests.filter((r) => r.host === s.host && r.sentAt !== null).map((r) => r.sentAt!);
      for (const gap of gaps(sent))
        assert.ok(gap >= s.plannedIntervalSeconds * 1000, `${s.host}: requests sent ${gap} ms apart`);
    }
  });
  after(async () => {
    await demo?.close();
  });

  it('at the servers: no two requests to one host, robots.txt included, arrive closer than its interval', (t) => {
    const allowance = SLACK_MS + serverLagMs;
    t.diagnostic(`slack ${SLACK_MS} ms + the servers' own event-loop delay ${serverLagMs.toFixed(1)} ms`);
    for (const h of demo.hosts) {
      const host = new URL(h.origin).host;
      const planned = result.summary.hosts.find((s) => s.host === host)?.plannedIntervalSeconds ?? delaySeconds;
      assert.ok(planned >= delaySeconds);
      const arrivals = demo.arrivals(h.name);
      assert.equal(arrivals[0]?.path, '/robots.txt', `${h.name}: robots.txt is the first request`);
      const starts = arrivals.map((a) => a.at).sort((a, b) => a - b);
      for (let i = 1; i < starts.length; i++) {
        const gap = starts[i]! - starts[i - 1]!;
        assert.ok(
          gap + allowance >= planned * 1000,
          `${h.name}: arrivals ${gap} ms apart, interval ${planned * 1000} ms, allowance ${allowance} ms`,
        );
      }
    }
  });

  it('never more than one request in flight per host', () => {
    for (const h of demo.hosts)
      assert.ok(demo.inFlightMax(h.name) <= 1, `${h.name}: ${demo.inFlightMax(h.name)} in flight`);
  });

  it('Crawl-delay raises the interval: polite (Crawl-delay 2) is kept 2 s apart', () => {
    const polite = demo.hosts.find((h) => h.name === 'polite')!;
    const s = result.summary.hosts.find((x) => x.host === new URL(polite.origin).host)!;
    assert.equal(s.plannedIntervalSeconds, 2);
    assert.equal(s.intervalSource, 'crawl-delay');
  });

  it('Retry-After is respected: after a 429 or 503 the host is not asked again before it says', () => {
    let checked = 0;
    for (const name of ['limited', 'flaky']) {
      const arrivals = demo
        .arrivals(name)
        .filter((a) => a.path !== '/robots.txt')
        .sort((a, b) => a.at - b.at);
      for (let i = 0; i + 1 < arrivals.length; i++) {
        const a = arrivals[i]!;
        if (a.status !== 429 && a.status !== 503) continue;
        const next = arrivals[i + 1]!;
        // limited says Retry-After: 2 (seconds or an HTTP-date rounded up); flaky says the outage's remaining whole seconds (≥ 1).
        const minWait = name === 'limited' ? 2000 : 1000;
        assert.ok(
          next.at - a.at + SLACK_MS + serverLagMs >= minWait,
          `${name}: ${next.at - a.at} ms after a ${a.status}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 0, 'the demo produced at least one 429/503 to check');
    assert.ok(result.summary.retryAfterSeen.length > 0);
  });

  it('robots.txt is obeyed: nothing under /private on polite is requested, and the skips are counted', () => {
    const paths = demo.arrivals('polite').map((a) => a.path);
    assert.ok(!paths.some((p) => p.startsWith('/private')), paths.join(' '));
    assert.ok(result.summary.robotsSkips > 0);
  });

  it('finishes despite the hanging path, and every URL it met has an outcome in the report', () => {
    assert.ok(['complete', 'max-pages'].includes(result.summary.endReason), result.summary.endReason);
    const urls = result.report.urls ?? [];
    assert.ok(urls.length >= result.summary.pages);
    for (const u of urls) assert.ok(typeof u.outcome === 'string' && u.outcome.length > 0, JSON.stringify(u));
    const hang = urls.find((u) => u.url.endsWith('/hang'));
    if (hang) assert.notEqual(hang.outcome, 'fetched');
  });

  it('the report has one record per request with the fields the issue names, robots.txt included', () => {
    const records = result.report.requests;
    assert.equal(records.length, result.summary.requests);
    const robotsRecords = records.filter((r) => r.robotsTxt);
    assert.deepEqual(robotsRecords.map((r) => new URL(r.url).origin).sort(), demo.hosts.map((h) => h.origin).sort());
    for (const r of robotsRecords) assert.equal(new URL(r.url).pathname, '/robots.txt');
    assert.ok(result.plan, "the plan was made from the crawl's own robots.txt answers");
    assert.equal(result.summary.plannedSeconds, result.plan.totalSeconds);
    for (const r of records) {
      for (const key of ['url', 'host', 'startedAt', 'endedAt', 'status', 'attempt', 'bytes', 'error'] as const)
        assert.ok(key in r, key);
      assert.equal(typeof r.startedAt, 'number');
    }
  });
});
