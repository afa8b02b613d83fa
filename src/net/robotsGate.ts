/**
 * The crawl's robots.txt gate (the engine's RobotsGate) on the per-origin cache: one fetch per origin, the
 * verdict per URL, the group's Crawl-delay, `unreachable` passed through so the engine leaves the host out,
 * and the fetch behind each answer, so that the engine counts robots.txt as its host's first request.
 */
import type { RobotsDecision, RobotsFetch, RobotsGate } from '../core/crawl/types';
import { crawlDelayFor, verdictWithOutcome, type RobotsSettings } from '../core/robots';
import type { RobotsCache, RobotsCacheEntry } from './robotsCache';
import type { RobotsFetchResult } from './robotsFetch';
import { loadFetched, type LoadedRobots } from './robotsInspect';

/** The fetch behind a cached result, as the crawl engine reads it. */
export function robotsFetchOf(result: RobotsFetchResult, fetchedNow: boolean): RobotsFetch {
  return {
    url: result.robotsUrl,
    startedAt: result.startedAt,
    ...(result.sentAt !== undefined ? { sentAt: result.sentAt } : {}),
    endedAt: result.fetchedAt,
    ...(result.error ? { error: result.error } : result.status !== undefined ? { status: result.status } : {}),
    bytes: result.bytes,
    ...(result.wireBytes !== undefined ? { wireBytes: result.wireBytes } : {}),
    truncated: result.truncated,
    fetchedNow,
  };
}

/**
 * The crawl's robots gate on the same cache: one fetch per origin, the verdict per URL, the group's
 * Crawl-delay, `unreachable` passed through so the engine leaves the host out, and the fetch behind the
 * answer. `peek` answers from a fresh cache entry without a request, so the engine decides those at once
 * and schedules the others as requests on their host (the cache's clock must be the engine's).
 */
export function createRobotsGate(
  cache: RobotsCache,
  settings: Pick<RobotsSettings, 'productToken' | 'maxCrawlDelaySeconds'>,
): RobotsGate {
  const parsed = new Map<RobotsFetchResult, { loaded: LoadedRobots; crawlDelay: number | undefined }>();
  const decide = (url: string, result: RobotsFetchResult, fetchedNow: boolean): RobotsDecision => {
    let p = parsed.get(result);
    if (!p) {
      const loaded = loadFetched(result, settings.maxCrawlDelaySeconds);
      p = { loaded, crawlDelay: loaded.file ? crawlDelayFor(loaded.file, settings.productToken).seconds : undefined };
      parsed.set(result, p);
    }
    const l = p.loaded;
    const r = verdictWithOutcome(l.source.outcome, l.file, url, settings.productToken, l.source.robotsUrl);
    return {
      verdict: r.verdict,
      outcome: l.source.outcome,
      ...(r.line !== undefined ? { line: r.line } : {}),
      ...(r.rule !== undefined ? { rule: r.rule } : {}),
      ...(p.crawlDelay !== undefined ? { crawlDelaySeconds: p.crawlDelay } : {}),
      ...(l.source.outcome === 'unreachable' ? { detail: l.source.reason ?? 'robots.txt unreachable' } : {}),
      fetch: robotsFetchOf(result, fetchedNow),
    };
  };
  const fresh = (url: string): RobotsCacheEntry | undefined => {
    const entry = cache.peek(url);
    return entry !== undefined && cache.isFresh(entry) ? entry : undefined;
  };
  const gate = async (url: string, signal: AbortSignal): Promise<RobotsDecision> => {
    const fetchedNow = fresh(url) === undefined;
    const entry = await cache.get(url, { signal });
    return decide(url, entry.result, fetchedNow);
  };
  const peek = (url: string): RobotsDecision | undefined => {
    const entry = fresh(url);
    return entry ? decide(url, entry.result, false) : undefined;
  };
  return Object.assign(gate, { peek });
}
