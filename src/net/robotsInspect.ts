/**
 * robots.txt for a set of URLs: fetch each origin's file (RFC 9309, concurrently under a limit, through
 * the per-origin cache), then report per origin and per URL (core/robots/originInspection.ts). Shared by
 * `crawl-planner robots`, `estimate --robots` and the sidebar; the crawl's robots gate (robotsGate.ts)
 * reads the same cache and parses with loadFetched.
 */
import {
  loadRobotsFile,
  inspectOrigin,
  robotsUrlFor,
  urlResult,
  type RobotsFile,
  type RobotsOriginInspection,
  type RobotsSettings,
  type RobotsSource,
  type RobotsUrlResult,
} from '../core/robots';
import { parseHttpUrl, type HttpClient } from './http';
import { RobotsCache } from './robotsCache';
import { fetchRobots, fetchRobotsForAll, type FetchRobotsOptions, type RobotsFetchResult } from './robotsFetch';

export type { RobotsOriginInspection, RobotsUrlResult, RobotsSettings };

/** The per-origin report, with the decoded robots.txt text when it was fetched (for display). */
export type InspectedOrigin = RobotsOriginInspection & { text?: string };

export interface RobotsInspection {
  productToken: string;
  origins: InspectedOrigin[];
  results: RobotsUrlResult[];
  /** Inputs that are not http(s) URLs, with the reason; the other URLs still ran. */
  invalid: Array<{ input: string; reason: string }>;
}

/** One origin's fetch result, parsed once. */
export interface LoadedRobots {
  source: RobotsSource;
  file: RobotsFile | undefined;
  /** The decoded text (for display), when the outcome is ok. */
  text: string | undefined;
}

export function sourceFromFetch(result: RobotsFetchResult): RobotsSource {
  return {
    origin: result.origin,
    robotsUrl: result.robotsUrl,
    outcome: result.outcome,
    from: 'network',
    ...(result.status !== undefined ? { status: result.status } : {}),
    redirects: result.redirects,
    bytes: result.bytes,
    truncated: result.truncated,
    fetchedAt: result.fetchedAt,
    reason: result.reason,
    ...(result.error ? { errorKind: result.error.kind } : {}),
  };
}

export function loadFetched(result: RobotsFetchResult, maxCrawlDelaySeconds: number): LoadedRobots {
  const source = sourceFromFetch(result);
  if (result.outcome !== 'ok') return { source, file: undefined, text: undefined };
  const contentType = result.headers?.['content-type'];
  const file = loadRobotsFile(result.body ?? new Uint8Array(), {
    robotsUrl: result.robotsUrl,
    maxCrawlDelaySeconds,
    ...(contentType !== undefined ? { contentType } : {}),
  });
  return { source, file, text: file.lines.map((l) => l.raw).join('\n') };
}

/** Splits inputs into valid http(s) URLs (with their origin) and invalid ones with a reason. */
export function sortUrls(inputs: readonly string[]): {
  urls: Array<{ url: string; origin: string }>;
  invalid: RobotsInspection['invalid'];
} {
  const urls: Array<{ url: string; origin: string }> = [];
  const invalid: RobotsInspection['invalid'] = [];
  for (const input of inputs) {
    try {
      const u = parseHttpUrl(input);
      urls.push({ url: u.href, origin: u.origin });
    } catch (err) {
      invalid.push({ input, reason: (err as Error).message });
    }
  }
  return { urls, invalid };
}

/** `brief`: bulk checks (the CLI's `--urls-file`) take the verdict-only path, with a short reason per kind of verdict. */
export type ResultsMode = { brief?: boolean };

function assemble(
  loaded: ReadonlyMap<string, LoadedRobots>,
  urls: ReadonlyArray<{ url: string; origin: string }>,
  invalid: RobotsInspection['invalid'],
  settings: RobotsSettings & ResultsMode,
  missingReason?: string,
): RobotsInspection {
  return {
    productToken: settings.productToken,
    origins: [...loaded.values()].map((l) => ({
      ...inspectOrigin(l.source, l.file, settings),
      ...(l.text !== undefined ? { text: l.text } : {}),
    })),
    results: urls.map(({ url, origin }) => {
      const l = loaded.get(origin);
      return urlResult(url, l?.source, l?.file, settings.productToken, missingReason, settings.brief);
    }),
    invalid,
  };
}

export interface InspectOptions extends RobotsSettings, ResultsMode {
  /** The full User-Agent header for the fetches (see userAgentHeader). */
  userAgentHeader: string;
  /** Shared cache (the extension keeps one); a fresh one is made when absent. */
  cache?: RobotsCache;
  /** Origins fetched at once. Default 4. */
  concurrency?: number;
  timeouts?: FetchRobotsOptions['timeouts'];
  http?: FetchRobotsOptions['http'];
  signal?: AbortSignal;
  /** Read only what `cache` holds (fresh or not) and fetch nothing; origins it lacks are left out. */
  cacheOnly?: boolean;
}

/**
 * A cache whose fetches use these options. With `client`, the fetches share its connections (a crawl's
 * robots.txt request and its first pages then go over one connection per origin); without one, each fetch
 * makes its own client and closes it after.
 */
export function createRobotsCache(
  options: Pick<InspectOptions, 'userAgentHeader' | 'timeouts' | 'http'> & { now?: () => number; client?: HttpClient },
): RobotsCache {
  return new RobotsCache({
    ...(options.now ? { now: options.now } : {}),
    fetch: (origin) =>
      fetchRobots(origin, {
        userAgent: options.userAgentHeader,
        ...(options.timeouts ? { timeouts: options.timeouts } : {}),
        ...(options.http ? { http: options.http } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(options.client ? { client: options.client } : {}),
      }),
  });
}

/** Fetches robots.txt for every origin of `inputs` (once each) and explains every URL. */
export async function inspectRobots(inputs: readonly string[], options: InspectOptions): Promise<RobotsInspection> {
  const { urls, invalid } = sortUrls(inputs);
  const cache = options.cache ?? createRobotsCache(options);
  const origins = [...new Set(urls.map((u) => u.origin))];
  if (options.cacheOnly) {
    const loaded = new Map<string, LoadedRobots>();
    for (const o of origins) {
      const entry = cache.peek(o);
      if (entry) loaded.set(o, loadFetched(entry.result, options.maxCrawlDelaySeconds));
    }
    return assemble(loaded, urls, invalid, options);
  }
  // One fetch per origin, at most `concurrency` at once, through the cache; results in the inputs' order.
  const fetched = await fetchRobotsForAll(origins, {
    userAgent: options.userAgentHeader,
    cache,
    concurrency: options.concurrency ?? 4,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const loaded = new Map(origins.map((o, i) => [o, loadFetched(fetched[i]!, options.maxCrawlDelaySeconds)] as const));
  return assemble(loaded, urls, invalid, options);
}

/**
 * `--file` mode and the editor: URLs tested against a local robots.txt, no network. The file stands for
 * the origin of `origin` when given, else of the first valid URL; URLs of other origins are not-applicable.
 */
export function inspectRobotsText(
  body: Uint8Array | string,
  inputs: readonly string[],
  settings: RobotsSettings & ResultsMode & { origin?: string },
): RobotsInspection {
  const { urls, invalid } = sortUrls(inputs);
  const base = settings.origin ?? urls[0]?.url ?? 'http://example.com/';
  const robotsUrl = robotsUrlFor(base);
  if (robotsUrl === undefined) throw new TypeError(`not an http(s) URL: ${base}`);
  const file = loadRobotsFile(body, { robotsUrl, maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds });
  const source: RobotsSource = {
    origin: file.origin,
    robotsUrl: file.robotsUrl,
    outcome: 'ok',
    from: 'file',
    ...(file.body ? { bytes: file.body.bytes, truncated: file.body.truncated } : {}),
  };
  const otherOrigin = `Another origin: the file stands for ${file.origin}, so it says nothing about this URL.`;
  return assemble(new Map([[file.origin, { source, file, text: undefined }]]), urls, invalid, settings, otherOrigin);
}
