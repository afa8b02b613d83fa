/**
 * What happened to one sitemap file, in the report's words: the decisions the sizing takes about a file
 * (follow a redirect or not, which children of an index to read) and the SitemapError each outcome is. Pure:
 * the network half (src/net/sitemapSizing/) hands in what it saw, and says what it reads here. The codes and
 * the messages are the sitemaps document's (docs/formats.md); each message is one line for people.
 */
import type { SitemapReadResult } from './parse';
import {
  SITEMAP_MAX_BYTES_PER_FILE,
  SITEMAP_MAX_INDEX_DEPTH,
  SITEMAP_MAX_REDIRECTS,
  SITEMAP_MAX_URLS_PER_FILE,
} from './limits';
import type { SitemapError, SitemapErrorCode, SitemapFileReport } from './sizing';

/** An error about the file in hand: its code and message (the URL is the file's unless given). */
export interface FileError {
  code: SitemapErrorCode;
  message: string;
  /** The URL it is about when not the file's listed one (a redirect hop, say). */
  url?: string;
}

const n = (count: number): string => count.toLocaleString('en-US');

/** An absolute http(s) URL without its fragment (WHATWG href), or undefined. */
export function httpHref(text: string): string | undefined {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '') return undefined;
  u.hash = '';
  return u.href;
}

/** The error for a file as the host's error list holds it. */
export function sitemapError(report: Pick<SitemapFileReport, 'url'>, e: FileError): SitemapError {
  return { code: e.code, url: e.url ?? report.url, message: e.message };
}

// ---------------------------------------------------------------------------------------------------------
// Redirects

export type RedirectStep = { follow: string } | { error: FileError };

/**
 * A 3xx of the file's request to `from`: follow it (the target, to be requested next on its own host's
 * queue) or stop with a `redirect` error: no usable Location, not http(s), back to a URL of this file's
 * chain (`hops`), or more than five redirects. `followed` says whether the crawl follows this status at all
 * (301, 302, 303, 307, 308); `location` is the Location resolved against `from`, `raw` the header as sent.
 */
export function redirectStep(a: {
  status: number;
  from: string;
  location: string | undefined;
  raw: string | undefined;
  followed: boolean;
  hops: ReadonlySet<string>;
  redirects: number;
}): RedirectStep {
  const { status } = a;
  if (a.location === undefined) {
    const what = a.raw === undefined ? 'no Location header' : `an unusable Location ${JSON.stringify(a.raw)}`;
    return { error: { code: 'redirect', message: `${status} with ${what}` } };
  }
  const target = httpHref(a.location);
  if (target === undefined)
    return { error: { code: 'redirect', message: `${status} to ${a.location}, which is not http(s)` } };
  if (!a.followed)
    return {
      error: { code: 'redirect', message: `${status} to ${target}: a status that is not followed as a redirect` },
    };
  if (a.hops.has(target))
    return { error: { code: 'redirect', message: `redirect loop: ${status} from ${a.from} back to ${target}` } };
  if (a.redirects >= SITEMAP_MAX_REDIRECTS)
    return {
      error: {
        code: 'redirect',
        message: `more than ${SITEMAP_MAX_REDIRECTS} redirects (the next was ${status} to ${target})`,
      },
    };
  return { follow: target };
}

// ---------------------------------------------------------------------------------------------------------
// Answers that are not a sitemap body

const after = (redirects: number): string =>
  redirects > 0 ? ` (after ${redirects} redirect${redirects > 1 ? 's' : ''})` : '';
const tries = (attempts: number): string => (attempts > 1 ? `; ${n(attempts)} attempts` : '');

/**
 * A final status other than 2xx (after redirects; a 429 or 5xx after its retries): `no-sitemap` for the
 * `/sitemap.xml` tried when robots.txt names none and answered 4xx, else `http-status`.
 */
export function statusError(
  report: Pick<SitemapFileReport, 'url' | 'via' | 'redirects'>,
  status: number,
  attempts: number,
): FileError {
  if (report.via === 'fallback' && status >= 400 && status < 500 && status !== 429)
    return { code: 'no-sitemap', message: `robots.txt names no sitemap, and ${report.url} answered ${status}` };
  return {
    code: 'http-status',
    message: `${status}: the sitemap was not served${after(report.redirects.length)}${tries(attempts)}`,
  };
}

/** No complete response (its last attempt): DNS, connection, TLS, a timeout, a body cut by the server. */
export function fetchFailedError(kind: string, message: string, entriesRead: number): FileError {
  const counted = entriesRead > 0 ? `; the ${n(entriesRead)} entries read before it were counted` : '';
  return { code: 'fetch-failed', message: `${kind}: ${message}${counted}` };
}

// ---------------------------------------------------------------------------------------------------------
// A body that was read

/**
 * What a file's body was, in errors: bad gzip, not a sitemap, a feed, over a per-file limit, the end of a
 * cap on the run in this file, malformed. `capped` is true when a cap on the whole run (bytes or URLs) was
 * reached in it: the counts are then lower bounds.
 */
export function readErrors(
  read: SitemapReadResult,
  context: { gzipError: string | undefined; tallyFull: boolean; totals: { bytes: number; urls: number } },
): { errors: FileError[]; capped: boolean } {
  const errors: FileError[] = [];
  let capped = false;
  if (context.gzipError !== undefined) {
    errors.push({
      code: 'bad-gzip',
      message: `the gzip data does not decompress (${context.gzipError}); the ${n(read.entries)} entries before it were counted`,
    });
  }
  switch (read.format) {
    case 'other':
      errors.push({
        code: 'not-a-sitemap',
        message: `not a sitemap: the root element is <${read.root}>, not <urlset> or <sitemapindex>`,
      });
      return { errors, capped };
    case 'empty':
      errors.push({ code: 'not-a-sitemap', message: 'not a sitemap: the body is empty' });
      return { errors, capped };
    case 'feed':
      errors.push({
        code: 'feed',
        message: `an RSS or Atom feed (<${read.root}>): not read, as a feed lists recent URLs only`,
      });
      return { errors, capped };
    default:
      break;
  }
  if (read.stopped === 'max-entries') {
    errors.push({
      code: 'too-many-urls',
      message: `more than ${n(SITEMAP_MAX_URLS_PER_FILE)} entries (the sitemaps.org limit): only the first ${n(SITEMAP_MAX_URLS_PER_FILE)} were read`,
    });
  } else if (read.stopped === 'max-bytes') {
    if (read.bytes >= SITEMAP_MAX_BYTES_PER_FILE) {
      errors.push({
        code: 'too-large',
        message: `larger than ${n(SITEMAP_MAX_BYTES_PER_FILE)} bytes uncompressed (the sitemaps.org limit): only the first ${n(read.bytes)} bytes were read`,
      });
    } else {
      capped = true;
      errors.push({
        code: 'limit',
        message: `the cap of ${n(context.totals.bytes)} bytes per run was reached in this file: the rest of it was not read`,
      });
    }
  } else if (context.tallyFull) {
    capped = true;
    errors.push({
      code: 'limit',
      message: `the cap of ${n(context.totals.urls)} URLs per run was reached in this file: the rest of it was not counted`,
    });
  }
  if (read.malformed) {
    const more = read.malformed.count > 1 ? ` (and ${n(read.malformed.count - 1)} more)` : '';
    errors.push({
      code: 'malformed',
      message: `malformed XML, repaired: ${read.malformed.first}${more}; what could be read was counted`,
    });
  }
  return { errors, capped };
}

/**
 * An index's children: those to read (absolute http(s) URLs, fragment dropped, in order, repeats once), and
 * errors for those that lead back up its chain (`loop`), sit deeper than the sizing follows (`too-deep`) or
 * are not URLs (`malformed`). `chain` holds the index's listed URL first, then the indexes above it; `depth`
 * is the index's own (0 for one that robots.txt or `/sitemap.xml` names).
 */
export function indexChildren(
  children: readonly string[],
  index: { chain: readonly string[]; depth: number },
): { follow: string[]; errors: FileError[] } {
  const follow: string[] = [];
  const errors: FileError[] = [];
  const seen = new Set<string>();
  let deep = 0;
  let invalid = 0;
  for (const loc of children) {
    const url = httpHref(loc);
    if (url === undefined) {
      invalid++;
      continue;
    }
    if (index.chain.includes(url)) {
      errors.push({ code: 'loop', message: `lists ${url}, which leads back to itself: not followed again` });
      continue;
    }
    if (index.depth + 1 > SITEMAP_MAX_INDEX_DEPTH) {
      deep++;
      continue;
    }
    if (seen.has(url)) continue;
    seen.add(url);
    follow.push(url);
  }
  if (deep > 0) {
    errors.push({
      code: 'too-deep',
      message: `${n(deep)} child sitemap${deep > 1 ? 's' : ''} not followed: sitemaps are followed at most ${SITEMAP_MAX_INDEX_DEPTH} levels below the one robots.txt (or /sitemap.xml) names`,
    });
  }
  if (invalid > 0) {
    errors.push({
      code: 'malformed',
      message: `${n(invalid)} child sitemap${invalid > 1 ? 's are' : ' is'} not an absolute http(s) URL`,
    });
  }
  return { follow, errors };
}

// ---------------------------------------------------------------------------------------------------------
// Files that were not fetched

/** robots.txt of the URL's origin disallows it (the deciding line and rule). */
export function disallowedError(url: string, line: number | undefined, rule: string | undefined): FileError {
  const where = line === undefined ? '' : ` (line ${line}: ${rule ?? ''})`;
  return { code: 'disallowed', url, message: `not fetched: robots.txt disallows it${where}` };
}

/** robots.txt of the URL's origin is unreachable: every URL there is disallowed (RFC 9309 §2.3.1.4). */
export function unreachableError(url: string, origin: string): FileError {
  return {
    code: 'disallowed',
    url,
    message: `not fetched: robots.txt of ${origin} is unreachable, so every URL there is disallowed`,
  };
}

/** The host asked to wait longer than the cap (Retry-After): nothing more was fetched from it. */
export function retryAfterError(
  url: string,
  host: string,
  wait: { raw: string; requestedSeconds: number; capSeconds: number },
): FileError {
  return {
    code: 'retry-after',
    url,
    message: `${host} asked to wait ${wait.requestedSeconds} s (Retry-After: ${wait.raw.trim()}), above the cap of ${wait.capSeconds} s: nothing more fetched from it`,
  };
}

/** The host's Crawl-delay is above the cap under the `skip` policy: nothing was fetched from it. */
export function crawlDelaySkipError(
  url: string,
  host: string,
  delay: { declaredSeconds: number | undefined; capSeconds: number },
): FileError {
  return {
    code: 'crawl-delay-skip',
    url,
    message: `Crawl-delay ${delay.declaredSeconds} s is above the cap of ${delay.capSeconds} s (policy skip): nothing fetched from ${host}`,
  };
}

/** The host was left after too many failed requests in a row (the crawl's rule): this file was not fetched. */
export function hostLeftError(url: string, host: string, why: string): FileError {
  return { code: 'fetch-failed', url, message: `not fetched: ${host} was left after ${why}` };
}
