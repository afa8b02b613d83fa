/**
 * A test crawl wired to the real world: the pure engine (src/core/crawl) on the system clock, pages
 * fetched with undici (one hop per request), robots.txt through the per-origin cache, links from the HTML
 * tokenizer, and the report built from the event stream. Shared by `crawl-planner crawl`, `demo` and the
 * VS Code task, so all three behave the same.
 */
import type { CrawlEvent, CrawlSummary } from '../core/crawl/events';
import { runCrawl } from '../core/crawl/engine';
import type { TestCrawlOptions } from '../core/crawl/options';
import type { PageFetcher, UrlReport } from '../core/crawl/types';
import { createReportBuilder, type CrawlReport } from '../core/format/report';
import { extractLinks } from '../core/html/links';
import { estimateDocument, plan as makePlan, type Plan } from '../core/plan';
import { validateSeeds } from '../core/seeds';
import { systemClock } from './clock';
import { createHttpClient, type HttpClient, type HttpClientOptions } from './http';
import type { RobotsCache } from './robotsFetch';
import { createRobotsCache, createRobotsGate, inspectRobots, type RobotsInspection } from './robotsInspect';
import { userAgentHeader } from './userAgent';

/** Largest page body read; links past it are not seen, and the record says `truncated`. */
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;

export interface CrawlSessionResult {
  summary: CrawlSummary;
  urls: UrlReport[];
  report: CrawlReport;
  /** 0 when the crawl ran to its end (all work done or the page limit reached); 1 when it stopped early
   * or some hosts were dropped. */
  exitCode: 0 | 1;
}

export interface CrawlSessionHandle {
  done: Promise<CrawlSessionResult>;
  /** Stop new requests; in-flight ones end within the timeout. Idempotent. */
  stop(): void;
}

export interface CrawlSessionDeps {
  onEvent?: (event: CrawlEvent) => void;
  /** The plan made for this crawl (see planTestCrawl); its duration goes into the summary and report. */
  plan?: Plan;
  /** A robots.txt cache to share (e.g. warmed by planTestCrawl); a fresh one is made otherwise. */
  robotsCache?: RobotsCache;
  /** Extra HTTP options (tests: `lookup`, `ca`). */
  http?: Partial<Omit<HttpClientOptions, 'userAgent'>>;
}

function timeouts(o: TestCrawlOptions) {
  const totalMs = Math.round(o.timeoutSeconds * 1000);
  return {
    connectTimeoutMs: Math.min(totalMs, Math.round(o.connectTimeoutSeconds * 1000)),
    headersTimeoutMs: totalMs,
    bodyTimeoutMs: totalMs,
    totalTimeoutMs: totalMs,
  };
}

/** One page request on undici: no redirects (the engine follows them), body read for 2xx only. */
export function createPageFetcher(client: HttpClient): PageFetcher {
  return async ({ url, signal }) => {
    const r = await client.get(url, {
      signal,
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
      readBody: (status) => status >= 200 && status < 300,
    });
    const sent = r.sentAt !== undefined ? { sentAt: r.sentAt } : {};
    if (!r.ok) return { error: { kind: r.kind, message: r.message }, startedAt: r.startedAt, ...sent, endedAt: r.endedAt };
    const contentType = r.headers['content-type'];
    const html = contentType !== undefined && /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType);
    return {
      status: r.status,
      headers: r.headers,
      ...(html && r.body.length > 0 ? { body: new TextDecoder('utf-8').decode(r.body) } : {}),
      ...(contentType !== undefined ? { contentType } : {}),
      bytes: r.bytes,
      truncated: r.truncated,
      ...(r.location !== undefined ? { location: r.location } : {}),
      startedAt: r.startedAt,
      ...sent,
      endedAt: r.endedAt,
    };
  };
}

/**
 * The plan for a test crawl: the seed hosts, `maxPages` spread over them, the configured delay, and each
 * host's Crawl-delay from robots.txt (fetched into `cache`, which the crawl then reuses).
 */
export async function planTestCrawl(
  options: TestCrawlOptions,
  deps: { robotsCache?: RobotsCache; signal?: AbortSignal; latencySeconds?: number } = {},
): Promise<{ plan: Plan; robots: RobotsInspection | undefined; robotsCache: RobotsCache }> {
  const header = userAgentHeader(options.userAgent, options.contactUrl);
  const cache = deps.robotsCache ?? createRobotsCache({ userAgentHeader: header, timeouts: robotsTimeouts(options) });
  let robots: RobotsInspection | undefined;
  const crawlDelayByHost: Record<string, number> = {};
  if (options.respectRobots) {
    robots = await inspectRobots(options.seeds, {
      productToken: options.userAgent,
      userAgentHeader: header,
      configuredDelaySeconds: options.delaySeconds,
      crawlDelayPolicy: options.crawlDelayPolicy,
      maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
      cache,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    for (const o of robots.origins) if (o.crawlDelaySeconds !== null) crawlDelayByHost[new URL(o.origin).host] = o.crawlDelaySeconds;
  }
  const { seeds } = validateSeeds(options.seeds.map((text, i) => ({ text, line: i + 1 })));
  const result = makePlan({
    seeds,
    pages: { total: options.maxPages },
    workers: options.concurrency,
    delaySeconds: options.delaySeconds,
    delayFrom: options.delayFrom,
    ...(deps.latencySeconds !== undefined ? { latencySeconds: deps.latencySeconds } : {}),
    crawlDelayByHost,
    crawlDelayPolicy: options.crawlDelayPolicy,
    maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
    adaptive: options.adaptive,
    perHostConcurrency: options.perHostConcurrency,
  });
  return { plan: result, robots, robotsCache: cache };
}

function robotsTimeouts(o: TestCrawlOptions) {
  const t = timeouts(o);
  return { connectMs: t.connectTimeoutMs, headersMs: t.headersTimeoutMs, bodyMs: t.bodyTimeoutMs, totalMs: t.totalTimeoutMs };
}

export function startCrawlSession(options: TestCrawlOptions, deps: CrawlSessionDeps = {}): CrawlSessionHandle {
  const header = userAgentHeader(options.userAgent, options.contactUrl);
  const stopper = new AbortController();
  const client = createHttpClient({ ...deps.http, userAgent: header, maxBytes: PAGE_MAX_BYTES, ...timeouts(options) });
  const cache = deps.robotsCache ?? createRobotsCache({ userAgentHeader: header, timeouts: robotsTimeouts(options), ...(deps.http ? { http: deps.http } : {}) });
  const startedAt = systemClock.now();
  const builder = createReportBuilder({
    startedAt,
    ...(deps.plan ? { plan: estimateDocument(deps.plan) } : {}),
    options: { ...options, userAgentHeader: header },
  });

  const done = (async (): Promise<CrawlSessionResult> => {
    try {
      const result = await runCrawl({
        seeds: options.seeds,
        clock: systemClock,
        random: Math.random,
        fetch: createPageFetcher(client),
        ...(options.respectRobots ? { robots: createRobotsGate(cache, { productToken: options.userAgent, maxCrawlDelaySeconds: options.maxCrawlDelaySeconds }) } : {}),
        extractLinks: (html, base) => extractLinks(html, base),
        emit: (event) => {
          builder.add(event);
          deps.onEvent?.(event);
        },
        stop: stopper.signal,
        concurrency: options.concurrency,
        perHostConcurrency: options.perHostConcurrency,
        delaySeconds: options.delaySeconds,
        delayFrom: options.delayFrom,
        crawlDelayPolicy: options.crawlDelayPolicy,
        maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
        adaptive: options.adaptive,
        maxPages: options.maxPages,
        maxDepth: options.maxDepth,
        allowOtherHosts: options.allowOtherHosts,
        maxRetries: options.maxRetries,
        ...(options.tokenBucket ? { tokenBucket: options.tokenBucket } : {}),
        graceMs: Math.round(options.timeoutSeconds * 1000),
        ...(deps.plan ? { plannedSeconds: deps.plan.totalSeconds } : {}),
      });
      const report = builder.build({ urls: result.urls, endedAt: result.summary.endedAt });
      const early = result.summary.endReason === 'stopped' || result.summary.endReason === 'hosts-dropped';
      const dropped = result.summary.hosts.some((h) => h.dropped !== undefined);
      return { summary: result.summary, urls: result.urls, report, exitCode: early || dropped ? 1 : 0 };
    } finally {
      await client.close();
    }
  })();
  return { done, stop: () => stopper.abort() };
}
