/**
 * The sizing's report, pure: what each host's robots.txt says for the sizing, which sitemap files a host
 * starts from, what a cap on the run is in words, and the sitemaps document put together from the counts
 * (SitemapTally), the files and the errors. src/net/sitemapSizing/ gathers the pieces; docs/formats.md §The
 * sitemaps document describes the result.
 */
import { crawlDelayFor, sitemaps as robotsSitemaps, type RobotsFile, type RobotsOutcome } from '../robots';
import {
  SITEMAP_MAX_BYTES_PER_FILE,
  SITEMAP_MAX_INDEX_DEPTH,
  SITEMAP_MAX_URLS_PER_FILE,
  type SitemapTotals,
} from './limits';
import {
  SITEMAPS_SCHEMA_VERSION,
  type SitemapError,
  type SitemapFileReport,
  type SitemapHostReport,
  type SitemapRobotsReport,
  type SitemapSizing,
  type SitemapVia,
} from './sizing';
import type { SitemapHostCounts } from './tally';

const n = (count: number): string => count.toLocaleString('en-US');

/** One origin's robots.txt as the report lists it: its outcome, status, Sitemap lines and Crawl-delay. */
export function robotsReport(
  origin: string,
  fetched: { outcome: RobotsOutcome; status?: number | undefined; file?: RobotsFile | undefined },
  productToken: string,
): SitemapRobotsReport {
  const file = fetched.file;
  return {
    origin,
    outcome: fetched.outcome,
    status: fetched.status ?? null,
    sitemaps: file ? robotsSitemaps(file).map((s) => s.url) : [],
    crawlDelaySeconds: (file ? crawlDelayFor(file, productToken).seconds : undefined) ?? null,
  };
}

/**
 * The files a sized host starts from: the Sitemap lines of its origins' robots.txt (those that are not
 * unreachable), else `/sitemap.xml` of each such origin, else none (every robots.txt unreachable, or none
 * read).
 */
export function hostRoots(robots: readonly SitemapRobotsReport[]): {
  source: SitemapHostReport['source'];
  files: Array<{ url: string; via: SitemapVia }>;
} {
  const reachable = robots.filter((r) => r.outcome !== 'unreachable');
  const named = reachable.flatMap((r) => r.sitemaps);
  if (named.length > 0) return { source: 'robots.txt', files: named.map((url) => ({ url, via: 'robots.txt' })) };
  if (reachable.length === 0) return { source: 'none', files: [] };
  return { source: 'fallback', files: reachable.map((r) => ({ url: `${r.origin}/sitemap.xml`, via: 'fallback' })) };
}

/** A file report before any request: listed, nothing read yet. */
export function newFileReport(url: string, via: SitemapVia, depth: number): SitemapFileReport {
  return { url, via, depth, status: null, redirects: [], format: null, gzip: false, entries: 0, bytes: 0, error: null };
}

/** The run so far, as the caps read it. */
export interface RunUsage {
  filesStarted: number;
  bytesRead: number;
  tallyFull: boolean;
}

/** The cap on the run that is reached (in words), or undefined while none is: no new file starts past one. */
export function capReached(usage: RunUsage, totals: SitemapTotals): string | undefined {
  if (usage.tallyFull) return `the cap of ${n(totals.urls)} URLs per run`;
  if (usage.bytesRead >= totals.bytes) return `the cap of ${n(totals.bytes)} bytes per run`;
  if (usage.filesStarted >= totals.files) return `the cap of ${n(totals.files)} files per run`;
  return undefined;
}

/** The host's `limit` error for the files a cap on the run left unread. */
export function cappedError(capped: number, cap: string | undefined): SitemapError {
  return {
    code: 'limit',
    url: null,
    message: `${n(capped)} sitemap file${capped > 1 ? 's' : ''} not read: ${cap ?? 'a cap on the run'} was reached; the counts are lower bounds`,
  };
}

/** What the sizing holds about one sized host at the end. */
export interface HostSizing {
  source: SitemapHostReport['source'];
  intervalSeconds: number;
  robots: SitemapRobotsReport[];
  /** Errors about the host as a whole that come first (an unreachable robots.txt). */
  hostErrors: SitemapError[];
  /** Its files in the order they were met, each with its errors. */
  files: Array<{ report: SitemapFileReport; errors: SitemapError[] }>;
  /** Files a cap on the run left unread. */
  capped: number;
}

/** The sitemaps document: the counts per host with each host's files and errors, the caps, the requests. */
export function sizingDocument(a: {
  counts: readonly SitemapHostCounts[];
  hosts: ReadonlyMap<string, HostSizing>;
  now: number;
  productToken: string;
  userAgent: string;
  changedSince: number | undefined;
  totals: SitemapTotals;
  cap: string | undefined;
  complete: boolean;
  requests: number;
}): SitemapSizing {
  const hosts: SitemapHostReport[] = a.counts.map((c) => {
    const h = a.hosts.get(c.host)!;
    const errors = [...h.hostErrors, ...h.files.flatMap((f) => f.errors)];
    if (h.capped > 0) errors.push(cappedError(h.capped, a.cap));
    const sitemaps = h.files.map((f) => f.report);
    return {
      ...c,
      files: sitemaps.filter((f) => f.format !== null).length,
      source: h.source,
      intervalSeconds: h.intervalSeconds,
      robots: h.robots,
      sitemaps,
      errors,
    };
  });
  return {
    schemaVersion: SITEMAPS_SCHEMA_VERSION,
    generatedAt: new Date(a.now).toISOString(),
    productToken: a.productToken,
    userAgent: a.userAgent,
    changedSince: a.changedSince === undefined ? null : new Date(a.changedSince).toISOString(),
    limits: {
      urlsPerFile: SITEMAP_MAX_URLS_PER_FILE,
      bytesPerFile: SITEMAP_MAX_BYTES_PER_FILE,
      files: a.totals.files,
      urls: a.totals.urls,
      bytes: a.totals.bytes,
      indexDepth: SITEMAP_MAX_INDEX_DEPTH,
    },
    complete: a.complete,
    requests: a.requests,
    hosts,
  };
}
