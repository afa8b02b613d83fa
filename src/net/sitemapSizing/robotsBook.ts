/**
 * The robots.txt files a sizing run has read, as the crawl's robots gate decided with them: the engine asks
 * the gate (createRobotsGate on the shared RobotsCache) about every URL, so robots.txt is the first request
 * on its host's timeline, and this book notes each origin's file as the gate answers, for the counting
 * (each URL's verdict), the hosts that accept a sitemap (their Sitemap lines) and the report.
 */
import type { RobotsDecision, RobotsGate } from '../../core/crawl/types';
import type { RobotsFile } from '../../core/robots';
import type { OriginRobots } from '../../core/sitemaps';
import type { RobotsCache } from '../robotsCache';
import type { RobotsFetchResult } from '../robotsFetch';
import { createRobotsGate } from '../robotsGate';
import { loadFetched } from '../robotsInspect';

/** One origin's robots.txt as the sizing read it. */
export interface ReadRobots {
  result: RobotsFetchResult;
  file: RobotsFile | undefined;
  rules: OriginRobots;
}

export class RobotsBook {
  private readonly byOrigin = new Map<string, ReadRobots>();
  /** host → the sitemap URLs its origins' robots.txt list (which files the host accepts URLs from). */
  readonly listed = new Map<string, Set<string>>();
  /** The redirect hops of the robots.txt files fetched in this run (the engine counts each fetch as one request). */
  redirectHops = 0;
  private readonly counted = new Set<RobotsFetchResult>();
  /** The gate every run of the sizing asks. */
  readonly gate: RobotsGate;

  constructor(
    private readonly cache: RobotsCache,
    private readonly settings: { productToken: string; maxCrawlDelaySeconds: number },
  ) {
    const inner = createRobotsGate(cache, settings);
    const gate = async (url: string, signal: AbortSignal): Promise<RobotsDecision> => {
      const decision = await inner(url, signal);
      this.note(url, decision);
      return decision;
    };
    const peek = (url: string): RobotsDecision | undefined => {
      const decision = inner.peek?.(url);
      if (decision) this.note(url, decision);
      return decision;
    };
    this.gate = Object.assign(gate, { peek });
  }

  /** The robots.txt of `origin` read in this run, or undefined. */
  get(origin: string): ReadRobots | undefined {
    return this.byOrigin.get(origin);
  }

  /** What the counting needs of it (SitemapTally's `robots`). */
  rules(origin: string): OriginRobots | undefined {
    return this.byOrigin.get(origin)?.rules;
  }

  /** The gate answered for `url`: its origin's file (the cache entry the answer was read from) is noted once. */
  private note(url: string, decision: RobotsDecision): void {
    const fetch = decision.fetch;
    if (fetch === undefined) return;
    const entry = this.cache.peek(url);
    // The entry the answer came from (a fetch cancelled by its own signal is not kept in the cache).
    if (entry === undefined || entry.result.robotsUrl !== fetch.url || entry.result.fetchedAt !== fetch.endedAt) return;
    const result = entry.result;
    if (fetch.fetchedNow && !this.counted.has(result)) {
      this.counted.add(result);
      this.redirectHops += result.redirects.length;
    }
    if (this.byOrigin.get(result.origin)?.result === result) return;
    const loaded = loadFetched(result, this.settings.maxCrawlDelaySeconds);
    const file = loaded.file;
    this.byOrigin.set(result.origin, {
      result,
      file,
      rules: { outcome: result.outcome, ...(file ? { file } : {}), robotsUrl: result.robotsUrl },
    });
    if (file && file.sitemaps.length > 0) {
      const host = new URL(result.origin).host;
      const set = this.listed.get(host) ?? new Set<string>();
      for (const s of file.sitemaps) set.add(s.url);
      this.listed.set(host, set);
    }
  }
}
