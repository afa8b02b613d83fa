/**
 * Sitemap sizing over the network: for each host, its robots.txt, then the sitemaps it names (else
 * `/sitemap.xml`), every index followed, gzip included, each file streamed into the core's reader and
 * counter (src/core/sitemaps). One call for the CLI (`crawl-planner sitemaps`, `estimate --sitemaps`) and
 * the extension:
 *
 *   const sizing = await sizeFromSitemaps(['https://a.example/'], { productToken, userAgentHeader }, signal);
 *   for (const h of sizing.hosts) h.urls; // pages per host
 *
 * Sitemap fetches are requests of the crawl engine (src/core/crawl/engine.ts), so they keep the crawl's
 * politeness, from the one place it is written (docs/sitemaps.md): robots.txt first on
 * every host (and every input origin's before any sitemap), one request in flight per host and starts an
 * interval apart (the delay, with Crawl-delay merged by max under the cap policy), the global slots,
 * Retry-After (above the cap the host is left), the host rate raised after 429, 5xx and timeouts, and
 * retries with backoff through the host's queue: a sitemap answered 429 is waited out and asked again.
 * Bounded: each fetch has the HTTP client's timeouts; each file is read up to 50,000 entries and 50 MiB
 * uncompressed (a gzip bomb stops there); the run stops taking files at the caps on files, URLs and bytes
 * (SITEMAP_TOTALS_DEFAULT), and then says the counts are lower bounds.
 *
 * The parts, in sitemapSizing/: sizing.ts (the runs of the engine and the report), fetcher.ts (one sitemap
 * request), files.ts (each file to its report), robotsBook.ts (robots.txt as read), bodyPipe.ts (the body,
 * gzip inflated, into the reader).
 */
import type { Clock } from '../core/clock';
import type { CrawlDelayPolicy } from '../core/politeness/interval';
import type { SitemapFileReport, SitemapSizing, SitemapTotals } from '../core/sitemaps';
import { parseHttpUrl, type HttpClientOptions } from './http';
import type { RobotsCache } from './robotsCache';
import { Sizing } from './sitemapSizing/sizing';

export interface SitemapSizingOptions {
  /** The product token robots.txt groups are matched against. */
  productToken: string;
  /** The full User-Agent header every request sends (see userAgentHeader). */
  userAgentHeader: string;
  /** Seconds between two requests to one host; a Crawl-delay can raise it. Default 1 (PLAN_DEFAULTS). */
  delaySeconds?: number;
  crawlDelayPolicy?: CrawlDelayPolicy;
  maxCrawlDelaySeconds?: number;
  /** Also count the URLs whose lastmod is at or after this instant (epoch ms). */
  changedSince?: number;
  /** Caps on the whole run; the rest of SITEMAP_TOTALS_DEFAULT. */
  totals?: Partial<SitemapTotals>;
  /** Total seconds per robots.txt fetch (default 10) and per sitemap request (default 60);
   * the connect timeout is at most 10 s and never more than either. */
  timeouts?: { robotsSeconds?: number; sitemapSeconds?: number };
  /** Requests in flight at once over all hosts (one per host at most). Default 4. */
  concurrency?: number;
  /** A Retry-After above this many seconds stops the host for the run. Default 300 (the crawl's). */
  retryAfterCapSeconds?: number;
  /** Time; default the system clock. The lastmod windows end at its reading. */
  clock?: Clock;
  /** A robots.txt cache to share (its entries must be for the same User-Agent); a fresh one otherwise. */
  cache?: RobotsCache;
  /** Extra HTTP options (tests: `lookup`, `ca`). */
  http?: Partial<Omit<HttpClientOptions, 'userAgent' | 'now'>>;
  /** Called after each sitemap file, with the host it was read for: progress for a long run. */
  onFile?: (file: SitemapFileReport, host: string) => void;
}

/**
 * Sizes the hosts of `inputs` (http(s) URLs; each one's origin is read) from their sitemaps. Throws
 * UnsupportedUrlError for an input that is not an http(s) URL, before any request; rejects with the
 * signal's reason when `signal` aborts.
 */
export async function sizeFromSitemaps(
  inputs: readonly string[],
  options: SitemapSizingOptions,
  signal?: AbortSignal,
): Promise<SitemapSizing> {
  const origins: string[] = [];
  for (const input of inputs) {
    const origin = parseHttpUrl(input).origin;
    if (!origins.includes(origin)) origins.push(origin);
  }
  return new Sizing(origins, options, signal).run();
}
