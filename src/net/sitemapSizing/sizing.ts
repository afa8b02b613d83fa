/**
 * One sizing run: runs of the crawl engine (runCrawl) on the injected clock, sharing one robots.txt cache,
 * one robots gate and one HTTP client, so that every sitemap request keeps the crawl's politeness (robots.txt
 * first on its host, the interval with Crawl-delay, one request in flight per host and the global slots,
 * Retry-After, the host-rate raise, retries through the host's queue). docs/sitemaps.md.
 *
 * 1. robots.txt of every input origin (its URLs are the seeds; the engine answers each from the robots.txt
 *    request itself): all of them are read before any sitemap, as a host's acceptance of another host's
 *    sitemap depends on them.
 * 2. The sitemaps they name, else /sitemap.xml, as seeds on any host: robots.txt already read is decided at
 *    once (every given origin's first, so that each one's Crawl-delay raises its host's interval) and the
 *    host's first sitemap request keeps the interval after it; an index's children come back
 *    from the fetcher as links, and a sitemap on another host gets that host's robots.txt first.
 * 3. The robots.txt of origins that counted URLs wait for (the other scheme of a sized host, say), once every
 *    file is read: were one unreachable, the engine would leave its whole host out, files and all. This run
 *    starts once each of its hosts' last request is an interval (or a Retry-After pause) behind, and asks no
 *    host that an earlier run left out.
 */
import type { Clock } from '../../core/clock';
import type { CrawlEvent } from '../../core/crawl/events';
import { CRAWL_DEFAULTS } from '../../core/crawl/engineOptions';
import { runCrawl } from '../../core/crawl/engine';
import type { CrawlOptions, CrawlResult, PageFetcher } from '../../core/crawl/types';
import { PLAN_DEFAULTS } from '../../core/plan';
import type { CrawlDelayPolicy } from '../../core/politeness/interval';
import { ROBOTS_FETCH_TIMEOUT_SECONDS } from '../../core/robots';
import {
  hostRoots,
  robotsReport,
  SitemapTally,
  sizingDocument,
  SITEMAP_FETCH_TIMEOUT_SECONDS,
  SITEMAP_MAX_INDEX_DEPTH,
  SITEMAP_MAX_REDIRECTS,
  SITEMAP_TOTALS_DEFAULT,
  type HostSizing,
  type SitemapError,
  type SitemapRobotsReport,
  type SitemapSizing,
  type SitemapTotals,
} from '../../core/sitemaps';
import { systemClock } from '../clock';
import { createHttpClient, type HttpClient } from '../http';
import type { RobotsCache } from '../robotsCache';
import { createRobotsCache } from '../robotsInspect';
import type { SitemapSizingOptions } from '../sitemaps';
import { SitemapFetcher } from './fetcher';
import { FileBook } from './files';
import { RobotsBook } from './robotsBook';

const CONNECT_TIMEOUT_MS = 10_000;
/** Requests in flight at once over all hosts, by default. */
const CONCURRENCY = 4;

/** A sized host: its origins (those given), its robots.txt as read, and where its sitemaps came from. */
interface SizedHost {
  host: string;
  origins: string[];
  robots: SitemapRobotsReport[];
  errors: SitemapError[];
  source: HostSizing['source'];
}

export class Sizing {
  private readonly clock: Clock;
  private readonly client: HttpClient;
  private readonly cache: RobotsCache;
  private readonly book: RobotsBook;
  private readonly files: FileBook;
  private readonly fetcher: SitemapFetcher;
  private readonly tally: SitemapTally;
  private readonly totals: SitemapTotals;
  private readonly hosts = new Map<string, SizedHost>();
  private readonly timeline = new HostTimeline();
  /** Per host, the interval the engine planned for it (the delay, raised by its Crawl-delay), over the runs. */
  private readonly planned = new Map<string, number>();
  private readonly sitemapMs: number;
  private readonly delaySeconds: number;
  private readonly crawlDelayPolicy: CrawlDelayPolicy;
  private readonly maxCrawlDelaySeconds: number;
  private readonly retryAfterCapSeconds: number;
  private requests = 0;
  /** Stops the run in hand when a cap is reached (SitemapFetcher) or the caller aborts. */
  private stopRun: AbortController | undefined;

  constructor(
    private readonly origins: readonly string[],
    private readonly options: SitemapSizingOptions,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.clock = options.clock ?? systemClock;
    this.totals = { ...SITEMAP_TOTALS_DEFAULT, ...options.totals };
    const robotsMs = Math.max(1, Math.round((options.timeouts?.robotsSeconds ?? ROBOTS_FETCH_TIMEOUT_SECONDS) * 1000));
    this.sitemapMs = Math.max(
      1,
      Math.round((options.timeouts?.sitemapSeconds ?? SITEMAP_FETCH_TIMEOUT_SECONDS) * 1000),
    );
    this.delaySeconds = options.delaySeconds ?? PLAN_DEFAULTS.delaySeconds;
    this.crawlDelayPolicy = options.crawlDelayPolicy ?? PLAN_DEFAULTS.crawlDelayPolicy;
    this.maxCrawlDelaySeconds = options.maxCrawlDelaySeconds ?? PLAN_DEFAULTS.maxCrawlDelaySeconds;
    this.retryAfterCapSeconds = options.retryAfterCapSeconds ?? CRAWL_DEFAULTS.retryAfterCapSeconds;
    const connectMs = Math.min(CONNECT_TIMEOUT_MS, robotsMs, this.sitemapMs);
    this.client = createHttpClient({
      ...options.http,
      userAgent: options.userAgentHeader,
      connectTimeoutMs: connectMs,
      now: () => this.clock.now(),
    });
    this.cache =
      options.cache ??
      createRobotsCache({
        userAgentHeader: options.userAgentHeader,
        timeouts: { connectMs, headersMs: robotsMs, bodyMs: robotsMs, totalMs: robotsMs },
        now: () => this.clock.now(),
        client: this.client,
      });
    const settings = { productToken: options.productToken, maxCrawlDelaySeconds: this.maxCrawlDelaySeconds };
    this.book = new RobotsBook(this.cache, settings);
    for (const origin of origins) {
      const host = new URL(origin).host;
      const state = this.hosts.get(host) ?? { host, origins: [], robots: [], errors: [], source: 'none' };
      state.origins.push(origin);
      this.hosts.set(host, state);
    }
    this.tally = new SitemapTally(this.hosts.keys(), {
      productToken: options.productToken,
      now: this.clock.now(),
      ...(options.changedSince !== undefined ? { changedSince: options.changedSince } : {}),
      maxUrls: this.totals.urls,
      robots: (origin) => this.book.rules(origin),
    });
    this.files = new FileBook(this.book, {
      ...settings,
      retryAfterCapSeconds: this.retryAfterCapSeconds,
      ...(options.onFile ? { onFile: options.onFile } : {}),
      stop: () => this.stopRun?.abort(),
    });
    this.fetcher = new SitemapFetcher({
      clock: this.clock,
      client: this.client,
      files: this.files,
      robots: this.book,
      tally: this.tally,
      totals: this.totals,
      sitemapMs: this.sitemapMs,
      signal,
      stop: () => this.stopRun?.abort(),
    });
  }

  async run(): Promise<SitemapSizing> {
    try {
      this.checkAborted();
      // 1. robots.txt of every input origin, each the first request on its host.
      const robotsUrls = this.origins.map((o) => `${o}/robots.txt`);
      const first = await this.crawl(robotsUrls, { maxDepth: 0 }, notASitemap);
      this.robotsRead(first);
      // 2. The sitemaps they name, else /sitemap.xml, and every index below them. The robots.txt URLs go first
      // again: answered from the cache at once, each merges its Crawl-delay into its host before any sitemap.
      const seeds: string[] = [];
      for (const state of this.hosts.values()) {
        const roots = hostRoots(state.robots);
        state.source = roots.source;
        for (const f of roots.files) if (this.files.add(state.host, f.url, f.via, 0, [])) seeds.push(f.url);
      }
      if (seeds.length > 0) {
        const second = await this.crawl(
          [...robotsUrls, ...seeds],
          // The fetcher also keeps indexes to their depth (too-deep) and redirects to their count.
          { maxDepth: SITEMAP_MAX_INDEX_DEPTH, allowOtherHosts: true, maxRedirects: SITEMAP_MAX_REDIRECTS },
          this.fetcher.fetch,
        );
        this.files.settle(second.urls);
      }
      // 3. The robots.txt files counted URLs wait for, on hosts no run left out.
      const waiting = this.tally
        .pendingOrigins()
        .filter((o) => this.book.rules(o) === undefined && !this.timeline.dropped(new URL(o).host))
        .map((o) => `${o}/robots.txt`);
      if (waiting.length > 0) {
        await this.clock.sleep(this.timeline.waitBefore(waiting, this.clock.now()), this.signal);
        await this.crawl(waiting, { maxDepth: 0 }, notASitemap);
      }
      return this.report();
    } finally {
      await this.client.close();
    }
  }

  private checkAborted(): void {
    if (this.signal?.aborted) throw this.signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
  }

  /** One run of the engine with the sizing's politeness; rejects when the caller aborted. */
  private async crawl(
    seeds: readonly string[],
    scope: Pick<CrawlOptions, 'maxDepth' | 'allowOtherHosts' | 'maxRedirects'>,
    fetch: PageFetcher,
  ): Promise<CrawlResult> {
    const stop = new AbortController();
    this.stopRun = stop;
    const onAbort = (): void => stop.abort();
    this.signal?.addEventListener('abort', onAbort, { once: true });
    let result: CrawlResult;
    try {
      result = await runCrawl({
        seeds,
        clock: this.clock,
        random: Math.random,
        fetch,
        robots: this.book.gate,
        emit: (e) => this.onEvent(e),
        stop: stop.signal,
        concurrency: this.options.concurrency ?? CONCURRENCY,
        perHostConcurrency: 1,
        delaySeconds: this.delaySeconds,
        delayFrom: 'start',
        crawlDelayPolicy: this.crawlDelayPolicy,
        maxCrawlDelaySeconds: this.maxCrawlDelaySeconds,
        retryAfterCapSeconds: this.retryAfterCapSeconds,
        maxPages: Infinity,
        // A stop for a cap lets the files in flight end (each has its own timeout).
        graceMs: this.sitemapMs,
        ...scope,
      });
    } finally {
      this.signal?.removeEventListener('abort', onAbort);
      this.stopRun = undefined;
    }
    this.checkAborted();
    if (this.files.failure) throw this.files.failure.error;
    this.requests += result.summary.requests;
    // Each run merges the Crawl-delay of the robots.txt it decided with: the host's is the largest.
    for (const h of result.summary.hosts)
      this.planned.set(h.host, Math.max(this.planned.get(h.host) ?? 0, h.plannedIntervalSeconds));
    return result;
  }

  private onEvent(e: CrawlEvent): void {
    this.timeline.note(e);
    this.files.onEvent(e);
  }

  /** After (1): each input origin's robots.txt in its host's report, and the origins it left out. */
  private robotsRead(result: CrawlResult): void {
    const outcomes = new Map(result.urls.map((u) => [u.url, u]));
    for (const state of this.hosts.values()) {
      for (const origin of state.origins) {
        const read = this.book.get(origin);
        if (read === undefined) {
          // Not read: its host was left out on another origin's robots.txt (unreachable, say).
          const r = outcomes.get(`${origin}/robots.txt`);
          if (r?.outcome === 'robots-unreachable')
            state.errors.push({
              code: 'robots-unreachable',
              url: `${origin}/robots.txt`,
              message: `${(r.detail ?? 'robots.txt unreachable').replace(/^robots-unreachable: /, '')}: no sitemap of ${origin} is fetched`,
            });
          continue;
        }
        const { result: fetched, file } = read;
        state.robots.push(
          robotsReport(origin, { outcome: fetched.outcome, status: fetched.status, file }, this.options.productToken),
        );
        if (fetched.outcome === 'unreachable')
          state.errors.push({
            code: 'robots-unreachable',
            url: fetched.robotsUrl,
            message: `${fetched.reason}: no sitemap of ${origin} is fetched`,
          });
      }
    }
  }

  private report(): SitemapSizing {
    const counts = this.tally.counts();
    const hosts = new Map<string, HostSizing>();
    for (const state of this.hosts.values()) {
      hosts.set(state.host, {
        source: state.source,
        intervalSeconds: this.planned.get(state.host) ?? this.delaySeconds,
        robots: state.robots,
        hostErrors: state.errors,
        files: this.files.filesOf(state.host).map((f) => ({ report: f.report, errors: f.errors })),
        capped: this.files.capped.get(state.host) ?? 0,
      });
    }
    const capped = [...this.files.capped.values()].some((n) => n > 0);
    return sizingDocument({
      counts,
      hosts,
      now: this.clock.now(),
      productToken: this.options.productToken,
      userAgent: this.options.userAgentHeader,
      changedSince: this.options.changedSince,
      totals: this.totals,
      cap: this.fetcher.cap(),
      complete: !capped && !this.fetcher.capHit && !this.tally.full,
      requests: this.requests + this.book.redirectHops - this.fetcher.notSent,
    });
  }
}

/** The fetcher of a run that has only robots.txt URLs (the engine answers them from the robots.txt requests). */
const notASitemap: PageFetcher = () =>
  Promise.resolve({ error: { kind: 'other', message: 'not a sitemap request' }, startedAt: 0, endedAt: 0 });

/**
 * When each host may next be asked, from the engine's events of the runs so far: its last start (or the
 * moment that request reached its connection) plus the largest interval it was kept to, and any Retry-After
 * pause. A later run begins no host before that.
 */
class HostTimeline {
  private readonly hosts = new Map<string, { lastStart: number; intervalMs: number; pausedUntil: number }>();
  private readonly left = new Set<string>();

  /** Whether a run left the host out (robots.txt unreachable, a Retry-After or Crawl-delay above the cap, failures). */
  dropped(host: string): boolean {
    return this.left.has(host);
  }

  note(e: CrawlEvent): void {
    if (e.type === 'host-dropped') this.left.add(e.host);
    if (e.type !== 'request-start' && e.type !== 'response' && e.type !== 'error' && e.type !== 'host-paused') return;
    const h = this.hosts.get(e.host) ?? { lastStart: -Infinity, intervalMs: 0, pausedUntil: -Infinity };
    this.hosts.set(e.host, h);
    if (e.type === 'host-paused') h.pausedUntil = Math.max(h.pausedUntil, e.until);
    else if (e.type === 'request-start') {
      h.lastStart = Math.max(h.lastStart, e.at);
      h.intervalMs = Math.max(h.intervalMs, e.intervalSeconds * 1000);
    } else {
      if (e.sentAt !== undefined) h.lastStart = Math.max(h.lastStart, e.sentAt);
      if (e.type === 'response') h.intervalMs = Math.max(h.intervalMs, e.intervalSeconds * 1000);
    }
  }

  /** Ms to wait from `now` before the first request to any host of `urls`. */
  waitBefore(urls: readonly string[], now: number): number {
    let ready = now;
    for (const url of urls) {
      const h = this.hosts.get(new URL(url).host);
      if (h) ready = Math.max(ready, h.lastStart + h.intervalMs, h.pausedUntil);
    }
    return Math.ceil(ready - now);
  }
}
