/**
 * The limits of sitemap sizing, declared once: the per-file limits sitemaps.org sets, and the caps on one
 * sizing run as a whole (files, URLs, bytes) that keep its time and memory bounded.
 */

/** sitemaps.org: a sitemap file (or index) lists at most 50,000 entries ... */
export const SITEMAP_MAX_URLS_PER_FILE = 50_000;
/** ... and is at most 50 MiB (52,428,800 bytes) uncompressed. */
export const SITEMAP_MAX_BYTES_PER_FILE = 50 * 1024 * 1024;
/** sitemaps.org: a URL is less than 2,048 characters; a longer `<loc>` is not a URL we count. */
export const SITEMAP_MAX_URL_LENGTH = 2_047;

/**
 * How many levels below the sitemap that robots.txt (or `/sitemap.xml`) names its children are followed.
 * sitemaps.org allows one (an index lists sitemaps, not indexes); one more is tolerated, as some sites nest
 * indexes. An index at the last level is read, its children are not.
 */
export const SITEMAP_MAX_INDEX_DEPTH = 2;

/** Redirects followed per sitemap file, as for robots.txt (RFC 9309 §2.3.1.2 asks for five). */
export const SITEMAP_MAX_REDIRECTS = 5;

/** Caps on one sizing run as a whole; past one, the counts are lower bounds (`complete: false`). */
export interface SitemapTotals {
  /** Sitemap files fetched (indexes included), over all hosts. */
  files: number;
  /** Distinct URLs held for counting, over all hosts. */
  urls: number;
  /** Uncompressed sitemap bytes read, over all files. */
  bytes: number;
}

export const SITEMAP_TOTALS_DEFAULT: Readonly<SitemapTotals> = {
  files: 1_000,
  urls: 1_000_000,
  bytes: 1024 * 1024 * 1024,
};

/** The ranges the CLI accepts for `--max-files` and `--max-urls`. */
export const SITEMAP_TOTALS_LIMITS = {
  files: { min: 1, max: 100_000, integer: true },
  urls: { min: 1, max: 10_000_000, integer: true },
} as const;

/** Seconds one sitemap file may take in all, every redirect hop included (a 50 MiB file on a slow link). */
export const SITEMAP_FETCH_TIMEOUT_SECONDS = 60;
