/**
 * The shape of a sitemap sizing (`crawl-planner sitemaps --json`, `estimate --sitemaps`, and the sidebar
 * later): plain data with stable string codes. docs/formats.md §The sitemaps document describes it.
 */
import type { PagesUnknown } from '../plan/types';
import type { RobotsOutcome } from '../robots';
import type { SitemapFormat } from './parse';
import type { SitemapHostCounts } from './tally';

/** Bumped only on a breaking change (a field removed, renamed or retyped); new fields do not bump it. */
export const SITEMAPS_SCHEMA_VERSION = 1;

/** Why a sitemap (or a host's sitemaps) could not be read in full. Stable codes. */
export type SitemapErrorCode =
  /** robots.txt answered 5xx/429 or not at all: every URL of the origin is disallowed, no sitemap fetched. */
  | 'robots-unreachable'
  /** robots.txt disallows the sitemap's URL for our product token: not fetched. */
  | 'disallowed'
  /** robots.txt names no sitemap and `/sitemap.xml` answered 4xx. */
  | 'no-sitemap'
  /** The sitemap answered a status other than 2xx (after redirects). */
  | 'http-status'
  /** No complete response: DNS, connection, TLS, a timeout, a body cut by the server. */
  | 'fetch-failed'
  /** More than five redirects, a redirect loop, or a 3xx without a usable Location. */
  | 'redirect'
  /** Neither `<urlset>` nor `<sitemapindex>` nor a text list (an HTML page, say). */
  | 'not-a-sitemap'
  /** An RSS or Atom feed: not read, as it lists recent URLs only. */
  | 'feed'
  /** XML that had to be repaired, or was cut off; what could be read is counted. */
  | 'malformed'
  /** More than 50,000 entries in one file: the first 50,000 are counted (sitemaps.org). */
  | 'too-many-urls'
  /** More than 50 MiB uncompressed: the first 50 MiB are read (sitemaps.org). */
  | 'too-large'
  /** Gzip data that does not decompress. */
  | 'bad-gzip'
  /** An index lists a file that leads back to itself. */
  | 'loop'
  /** An index nested deeper than the sizing follows. */
  | 'too-deep'
  /** A cap on the whole run (files, URLs, bytes) was reached: files were left unread. */
  | 'limit'
  /** The host's Crawl-delay is above the cap under the `skip` policy: nothing fetched from it. */
  | 'crawl-delay-skip'
  /** The host asked to wait (Retry-After) longer than the cap: nothing more fetched from it. */
  | 'retry-after';

export interface SitemapError {
  code: SitemapErrorCode;
  /** The sitemap (or robots.txt) it is about; null when about the host as a whole. */
  url: string | null;
  /** One line for people. */
  message: string;
}

/** How a sitemap file was found. */
export type SitemapVia = 'robots.txt' | 'fallback' | 'index';

/** One sitemap file that was fetched (or tried). */
export interface SitemapFileReport {
  url: string;
  via: SitemapVia;
  /** Indexes above it (0 for one that robots.txt or `/sitemap.xml` names). */
  depth: number;
  /** The final status, or null without a response. */
  status: number | null;
  /** The redirects followed, in order. */
  redirects: Array<{ status: number; to: string }>;
  /** What the body was; null when no body was read. */
  format: SitemapFormat | null;
  /** Whether the body was gzip data (a `.gz` file), decompressed here. */
  gzip: boolean;
  /** Entries read: URLs for a urlset or text list, child sitemaps for an index. */
  entries: number;
  /** Uncompressed bytes read. */
  bytes: number;
  /** The error that stopped or spoiled it, when one did (see `errors` for the words). */
  error: SitemapErrorCode | null;
}

/** One origin's robots.txt as the sizing used it. */
export interface SitemapRobotsReport {
  origin: string;
  outcome: RobotsOutcome;
  status: number | null;
  /** The Sitemap lines it lists (absolute URLs). */
  sitemaps: string[];
  /** The Crawl-delay for our product token, or null. */
  crawlDelaySeconds: number | null;
}

export interface SitemapHostReport extends SitemapHostCounts {
  /** Sitemap files read for this host (indexes included; files that failed are listed, not counted). */
  files: number;
  /** Where its sitemaps came from: robots.txt `Sitemap:` lines, `/sitemap.xml`, or nowhere. */
  source: 'robots.txt' | 'fallback' | 'none';
  /** The interval kept between requests to this host, seconds (the delay, raised by Crawl-delay). */
  intervalSeconds: number;
  robots: SitemapRobotsReport[];
  sitemaps: SitemapFileReport[];
  errors: SitemapError[];
}

export interface SitemapSizing {
  schemaVersion: typeof SITEMAPS_SCHEMA_VERSION;
  /** The clock's reading the lastmod windows end at, ISO 8601. */
  generatedAt: string;
  productToken: string;
  /** The User-Agent header every request sent. */
  userAgent: string;
  /** The instant of `--changed-since`, ISO 8601, or null. */
  changedSince: string | null;
  /** The caps in force: per file (sitemaps.org) and on the whole run. */
  limits: { urlsPerFile: number; bytesPerFile: number; files: number; urls: number; bytes: number; indexDepth: number };
  /** False when a cap on the whole run was reached: the counts are then lower bounds. */
  complete: boolean;
  /** Requests sent: robots.txt, sitemap files and redirect hops. */
  requests: number;
  hosts: SitemapHostReport[];
}

/** Why a host's sizing gave no count, in the order a reason is chosen: the one that decided it first. */
const UNKNOWN_REASONS: readonly SitemapErrorCode[] = [
  'retry-after',
  'crawl-delay-skip',
  'robots-unreachable',
  'http-status',
  'fetch-failed',
  'no-sitemap',
  'disallowed',
  'redirect',
  'limit',
];

/**
 * A host's pages from its sizing, as `estimate --sitemaps` and the sidebar take them: its sitemap URLs that
 * robots.txt allows, or with a "changed since" (`recrawl`) those whose lastmod is on or after it. Known only when
 * at least one file that lists pages (a urlset or a text list; an index only names other files) was read;
 * otherwise the pages are unknown, with the error that decided it (a Retry-After above the cap, an unreachable
 * robots.txt, a sitemap that still failed after its retries, no sitemap at all, …): never 0 pages.
 */
export function sizedPages(
  h: Pick<SitemapHostReport, 'urls' | 'changedSince' | 'sitemaps' | 'errors'>,
  recrawl: boolean,
): { pages: number } | { unknown: PagesUnknown } {
  if (h.sitemaps.some((f) => f.format === 'urlset' || f.format === 'text'))
    return { pages: recrawl ? (h.changedSince ?? 0) : h.urls };
  const decided = UNKNOWN_REASONS.map((code) => h.errors.find((e) => e.code === code)).find((e) => e !== undefined);
  const error = decided ?? h.errors[0];
  if (error !== undefined) return { unknown: { code: error.code, reason: error.message } };
  return {
    unknown: {
      code: 'not-read',
      reason: h.sitemaps.length > 0 ? 'its sitemaps list no page' : 'no sitemap was read',
    },
  };
}

/**
 * Each sized host's pages (`counts`) or why they are unknown (`unknown`), from one sizing (a recrawl when it has
 * `changedSince`): the input `estimate --sitemaps` and the sidebar's Size from sitemaps plan from.
 */
export function sizingPages(sizing: Pick<SitemapSizing, 'hosts' | 'changedSince'>): {
  counts: Record<string, number>;
  unknown: Record<string, PagesUnknown>;
} {
  const counts: Record<string, number> = {};
  const unknown: Record<string, PagesUnknown> = {};
  for (const h of sizing.hosts) {
    const sized = sizedPages(h, sizing.changedSince !== null);
    if ('pages' in sized) counts[h.host] = sized.pages;
    else unknown[h.host] = sized.unknown;
  }
  return { counts, unknown };
}
