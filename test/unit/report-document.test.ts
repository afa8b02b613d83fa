/**
 * The rest of the crawl report (src/core/crawl/crawlReport.ts): schema version, plan, options, the engine's
 * summary and the plan-against-actual comparison (per host with page budgets, the simulated band), robots
 * skips, pauses and drops, the measured intervals, and a summary derived from the events when no done event
 * came.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CrawlEvent } from '../../src/core/crawl/events';
import { REPORT_SCHEMA_VERSION, createReportBuilder } from '../../src/core/crawl/crawlReport';
import { reportToJson } from '../../src/core/format/safeJson';
import { build, crawl, summary, T0 } from '../helpers/crawlReport';

describe('report: the rest of the document', () => {
  it('carries the schema version, plan, options, the engine summary and the comparison', () => {
    const r = build(crawl());
    assert.equal(r.schemaVersion, REPORT_SCHEMA_VERSION);
    assert.equal(r.schemaVersion, 1);
    assert.deepEqual(r.plan, { totalSeconds: 31 });
    assert.deepEqual(r.options, { maxPages: 2 });
    assert.equal(r.summarySource, 'engine');
    assert.deepEqual(r.summary, summary());
    assert.equal(r.startedAt, T0);
    assert.equal(r.endedAt, T0 + 34_200);
    assert.deepEqual(r.comparison, {
      elapsedSeconds: 34.2,
      plannedSeconds: 31,
      elapsedVsPlannedPercent: 10.3,
      band: null,
      inBand: null,
      hosts: null,
    });
  });

  it('with page budgets, each host planned against actual: pages, requests, time from its first request to its last answer', () => {
    const r = build(crawl(), {
      plannedHosts: [
        { host: 'a.example', pages: 2, requests: 3, seconds: 6.5 },
        { host: 'u.example', pages: null, requests: 1, seconds: 0 },
      ],
    });
    assert.deepEqual(r.comparison.hosts, [
      {
        host: 'a.example',
        plannedPages: 2,
        actualPages: 2,
        plannedRequests: 3,
        actualRequests: 3,
        plannedSeconds: 6.5,
        actualSeconds: 7.19,
        secondsVsPlannedPercent: 10.6,
      },
      {
        host: 'u.example',
        plannedPages: null,
        actualPages: 0,
        plannedRequests: null,
        actualRequests: 0,
        plannedSeconds: null,
        actualSeconds: 0,
        secondsVsPlannedPercent: null,
      },
    ]);
  });

  it("with the plan's simulated band, says where the elapsed time falls in it", () => {
    const at = (p10Seconds: number, p90Seconds: number) => {
      const band = { p10Seconds, p50Seconds: (p10Seconds + p90Seconds) / 2, p90Seconds, runs: 200 };
      const events = crawl().map((e) => (e.type === 'done' ? { ...e, summary: summary({ plannedBand: band }) } : e));
      return build(events).comparison;
    };
    assert.deepEqual(at(30, 35), {
      elapsedSeconds: 34.2,
      plannedSeconds: 31,
      elapsedVsPlannedPercent: 10.3,
      band: { p10Seconds: 30, p50Seconds: 32.5, p90Seconds: 35, runs: 200 },
      inBand: 'inside',
      hosts: null,
    });
    assert.equal(at(30, 34.2).inBand, 'inside');
    assert.equal(at(30, 34).inBand, 'above');
    assert.equal(at(34.3, 40).inBand, 'below');
  });

  it('lists robots skips, pauses, dropped hosts and dropped URLs', () => {
    const events: CrawlEvent[] = [
      ...crawl().slice(0, -1),
      {
        type: 'host-dropped',
        at: T0 + 9_000,
        host: 'a.example',
        reason: 'retry-after-above-cap',
        detail: 'Retry-After 86400 s',
        urlsLeft: 2,
      },
    ];
    const r = build(events, {
      urls: [
        { url: 'http://a.example/', host: 'a.example', outcome: 'fetched', status: 200, attempts: 1, depth: 0 },
        {
          url: 'http://a.example/c',
          host: 'a.example',
          outcome: 'host-dropped',
          attempts: 0,
          depth: 1,
          detail: 'host dropped',
        },
        { url: 'http://a.example/d', host: 'a.example', outcome: 'host-dropped', attempts: 0, depth: 1 },
      ],
    });
    assert.deepEqual(r.robotsSkips, [
      {
        url: 'http://a.example/private/x',
        host: 'a.example',
        at: T0 + 1,
        reason: 'disallowed',
        line: 3,
        rule: 'Disallow: /private',
      },
    ]);
    assert.deepEqual(r.pauses, [
      { host: 'a.example', at: T0 + 2_080, until: T0 + 7_080, retryAfter: '5', status: 503 },
    ]);
    assert.deepEqual(r.droppedHosts, [
      {
        host: 'a.example',
        at: T0 + 9_000,
        reason: 'retry-after-above-cap',
        detail: 'Retry-After 86400 s',
        urlsLeft: 2,
      },
    ]);
    assert.deepEqual(r.droppedUrls, ['http://a.example/c', 'http://a.example/d']);
    assert.equal(r.urls!.length, 3);
  });

  it('has urls null and droppedUrls empty without an outcome list', () => {
    const r = build(crawl());
    assert.equal(r.urls, null);
    assert.deepEqual(r.droppedUrls, []);
  });

  it('puts the measured intervals next to the engine’s per-host figures', () => {
    const r = build(crawl());
    assert.equal(r.hosts.length, 1);
    const h = r.hosts[0]!;
    assert.equal(h.host, 'a.example');
    assert.equal(h.minIntervalSeconds, 2);
    assert.deepEqual(h.measured, {
      host: 'a.example',
      requests: 3,
      minIntervalSeconds: 2,
      meanIntervalSeconds: 3.55,
      startsBelowInterval: 0,
    });
  });

  it('derives a summary from the events when no done event came', () => {
    const r = build(
      crawl().filter((e) => e.type !== 'done'),
      { endedAt: T0 + 10_000 },
    );
    assert.equal(r.summarySource, 'derived');
    const s = r.summary;
    assert.equal(s.elapsedSeconds, 10);
    assert.equal(s.pages, 2);
    assert.equal(s.requests, 3);
    assert.deepEqual(s.statusCounts, { '200': 2, '503': 1 });
    assert.equal(s.retries, 1);
    assert.equal(s.robotsSkips, 1);
    assert.equal(s.errors, 0);
    assert.deepEqual(s.retryAfterSeen, ['5']);
    assert.equal(s.endReason, 'stopped');
    assert.equal(s.plannedSeconds, undefined);
    assert.equal(r.comparison.elapsedVsPlannedPercent, null);
    const h = s.hosts[0]!;
    assert.equal(h.plannedIntervalSeconds, 2);
    assert.equal(h.intervalSource, 'crawl-delay');
    assert.equal(h.minIntervalSeconds, 2);
    assert.equal(h.meanIntervalSeconds, 3.55);
    assert.deepEqual(h.retryAfterSeen, ['5']);
    assert.deepEqual(s.notFollowed, []);
  });

  it('a derived summary counts what was not followed from the URL outcomes it is given', () => {
    const urls = [
      { url: 'http://a.example/', host: 'a.example', outcome: 'fetched' as const, attempts: 1, depth: 0 },
      {
        url: 'http://b.example/x',
        host: 'b.example',
        outcome: 'out-of-scope' as const,
        attempts: 0,
        depth: 1,
        detail: 'other-host',
      },
      {
        url: 'http://b.example/y',
        host: 'b.example',
        outcome: 'out-of-scope' as const,
        attempts: 0,
        depth: 1,
        detail: 'other-host',
      },
      { url: 'mailto:x@y', host: '', outcome: 'out-of-scope' as const, attempts: 0, depth: 1, detail: 'scheme' },
      { url: 'http://a.example/p', host: 'a.example', outcome: 'robots-disallowed' as const, attempts: 0, depth: 1 },
    ];
    const r = build(
      crawl().filter((e) => e.type !== 'done'),
      { endedAt: T0 + 10_000, urls },
    );
    assert.deepEqual(r.summary.notFollowed, [
      { reason: 'other-host', urls: 2, hosts: [{ host: 'b.example', urls: 2 }], moreHosts: 0 },
      { reason: 'robots-disallowed', urls: 1, hosts: [{ host: 'a.example', urls: 1 }], moreHosts: 0 },
    ]);
  });

  it('build() can be called again and the result is plain JSON', () => {
    const builder = createReportBuilder({ startedAt: T0 });
    for (const e of crawl()) builder.add(e);
    const once = builder.build();
    const twice = builder.build();
    assert.deepEqual(once, twice);
    assert.deepEqual(JSON.parse(reportToJson(once)), once);
    assert.equal(once.plan, null);
    assert.equal(once.options, null);
  });
});
