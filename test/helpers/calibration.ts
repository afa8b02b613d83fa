/**
 * Calibrations for unit tests: written by hand (the shape `calibrationFromReport` gives, src/core/calibrate/types.ts):
 * one host's answer-time samples and fault rates, and a calibration of such hosts with no measured overhead (so
 * the plan uses REQUEST_OVERHEAD).
 */
import type { Calibration, HostCalibration, HostFaultModel, LimiterModel } from '../../src/core/calibrate/types';
import { runCrawl } from '../../src/core/crawl/engine';
import { createReportBuilder, type CrawlReport } from '../../src/core/crawl/crawlReport';
import { estimateDocument, plan } from '../../src/core/plan';
import { fakeExtractLinks, fakeSite, fetchingRobots, type FakeResponse } from './crawlFakes';
import { VirtualClock } from './virtualClock';
import { mean, percentileSorted } from '../../src/core/statistics';

function fault(
  rate: number,
  requests: number,
  latency: number[] = [0.02],
  retryAfter: number[] = [],
  every: number | null = null,
) {
  return { count: Math.round(rate * requests), rate, latencySeconds: latency, retryAfterSeconds: retryAfter, every };
}

const noGaps = {
  count: 0,
  meanSeconds: 0,
  p50Seconds: 0,
  p90Seconds: 0,
  minSeconds: 0,
  maxSeconds: 0,
  samplesSeconds: [],
};

/** A host of 100 measured requests: `samples` answer times, 429s and 503s at their rates with Retry-After `ra` (1 s), every 1/rate-th with `every`. */
export function hostCalibration(
  host: string,
  o: { samples: number[]; rate429?: number; rate503?: number; ra?: number; every?: boolean },
): HostCalibration {
  const sorted = [...o.samples].sort((a, b) => a - b);
  return {
    host,
    requests: 100,
    latency: {
      count: sorted.length,
      meanSeconds: mean(sorted),
      p50Seconds: percentileSorted(sorted, 50),
      p90Seconds: percentileSorted(sorted, 90),
      minSeconds: sorted[0]!,
      maxSeconds: sorted.at(-1)!,
      samplesSeconds: sorted,
    },
    robotsLatencySeconds: 0.01,
    faults: {
      tooManyRequests: fault(
        o.rate429 ?? 0,
        100,
        [0.02],
        o.rate429 ? Array(Math.round(o.rate429 * 100)).fill(o.ra ?? 1) : [],
        o.every && o.rate429 ? 1 / o.rate429 : null,
      ),
      serverErrors: {
        ...fault(o.rate503 ?? 0, 100, [0.03], o.rate503 ? Array(Math.round(o.rate503 * 100)).fill(o.ra ?? 1) : []),
        statuses: o.rate503 ? { '503': Math.round(o.rate503 * 100) } : {},
      },
      timeouts: fault(0, 100),
      otherErrors: { ...fault(0, 100), kinds: {} },
    },
    interval: {
      keptSeconds: 0.2,
      source: 'configured',
      crawlDelaySeconds: null,
      achievedMeanSeconds: null,
      achievedMinSeconds: null,
    },
  };
}

/**
 * `c` with a fitted fault model: `limiter` (when given) explaining `explained` of its refusals, and `requests`
 * page requests measured (the posterior's sample size).
 */
export function withModel(
  c: HostCalibration,
  o: { limiter?: LimiterModel; explained?: number; requests?: number } = {},
): HostCalibration {
  const requests = o.requests ?? c.requests;
  const explained = o.explained ?? 0;
  const model: HostFaultModel = {
    kinds: o.limiter ? [o.limiter.kind] : [],
    limiter: o.limiter ?? null,
    unexplainedRefusals: 0,
    undetermined: false,
    evidence: {
      requests: requests + 1,
      refusals: explained,
      explained,
      mispredicted: 0,
      refusedGapsSeconds: [],
      acceptedGapsSeconds: [],
    },
    note: null,
  };
  return { ...c, requests, model };
}

/** A calibration of `list`, with no measured overhead. */
export function calibration(list: HostCalibration[]): Calibration {
  return {
    source: { file: null, startedAt: 0, endedAt: 1, elapsedSeconds: 1, pages: 100, requests: 100 },
    hosts: list,
    overhead: { afterInterval: noGaps, afterResponse: noGaps },
  };
}

const T0 = Date.UTC(2025, 0, 1);
const A = 'http://a.example';
const B = 'http://b.example';

/**
 * A test crawl on virtual time, and its report as the crawl builds it (in memory; the file is its JSON): a.example has 12 pages answering in 100, 110, … ms, and a 429
 * (Retry-After: 2) on every 4th request; b.example declares Crawl-delay 2 in robots.txt, answers in 50 ms,
 * its page 2 answers 503 (Retry-After: 1) once and its page 3 times out once (after 300 ms).
 */
export async function testCrawlReport(): Promise<CrawlReport> {
  const clock = new VirtualClock(T0);
  let aRequests = 0;
  const aPage = (i: number) => (): FakeResponse => {
    aRequests++;
    if (aRequests % 4 === 0) return { status: 429, latencyMs: 20, headers: { 'retry-after': '2' } };
    return { latencyMs: 100 + 10 * i, links: i < 11 ? [`${A}/${i + 1}`] : [] };
  };
  const pages: Record<string, (attempt: number) => FakeResponse> = {};
  for (let i = 0; i < 12; i++) pages[i === 0 ? `${A}/` : `${A}/${i}`] = aPage(i);
  pages[`${B}/`] = () => ({ latencyMs: 50, links: [`${B}/1`, `${B}/2`, `${B}/3`] });
  pages[`${B}/1`] = () => ({ latencyMs: 50 });
  pages[`${B}/2`] = (attempt) =>
    attempt === 1 ? { status: 503, latencyMs: 30, headers: { 'retry-after': '1' } } : { latencyMs: 50 };
  pages[`${B}/3`] = (attempt) => (attempt === 1 ? { error: 'headers-timeout', latencyMs: 300 } : { latencyMs: 50 });
  const site = fakeSite(clock, pages);
  const robots = fetchingRobots(clock, {
    [A]: { latencyMs: 5 },
    [B]: { latencyMs: 8, decide: () => ({ verdict: 'allowed', outcome: 'ok', crawlDelaySeconds: 2 }) },
  });
  const report = createReportBuilder({ startedAt: T0 });
  const seeds = [`${A}/`, `${B}/`];
  const result = await clock.run(
    runCrawl({
      seeds,
      clock,
      random: () => 0.5,
      fetch: site.fetch,
      robots: robots.gate,
      extractLinks: fakeExtractLinks,
      emit: (e) => report.add(e),
      delaySeconds: 0.5,
      maxPages: 100,
      maxDepth: 20,
    }),
  );
  // As the crawl's own plan would have it: robots.txt's Crawl-delay per host, as declared.
  const crawlPlan = estimateDocument(
    plan({
      seeds: [{ host: 'a.example' }, { host: 'b.example' }],
      pages: { total: 16 },
      crawlDelayByHost: { 'b.example': 2 },
    }),
  );
  return report.build({ urls: result.urls, plan: crawlPlan });
}
