/**
 * The crawl engine's fetcher for sitemap files: one request of a file (its first, a redirect hop or a
 * retry), the body streamed into the core's reader and counter (BodyPipe → SitemapReader → SitemapTally),
 * and what the engine is told: a redirect to follow (or none), and the index's children as the response's
 * `links`. The engine does the rest: robots.txt first, the host's interval and queue, retries and
 * Retry-After. A new file past a cap on the run is not requested: the run is stopped instead, and what had
 * not started is counted as left by the cap.
 */
import type { Clock } from '../../core/clock';
import type { PageFetcher, PageRequest, PageResult } from '../../core/crawl/types';
import { isRedirectStatus, isThrottleStatus, readsRetryAfter } from '../../core/politeness/retryPolicy';
import {
  acceptingHosts,
  capReached,
  indexChildren,
  readErrors,
  redirectStep,
  SitemapReader,
  SITEMAP_MAX_BYTES_PER_FILE,
  SITEMAP_MAX_URLS_PER_FILE,
  statusError,
  type SitemapReadResult,
  type SitemapTally,
  type SitemapTotals,
} from '../../core/sitemaps';
import type { HttpClient } from '../http';
import { BodyPipe } from './bodyPipe';
import type { FileBook, FileItem } from './files';
import type { RobotsBook } from './robotsBook';

const ACCEPT = 'application/xml, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5';

export interface FetcherContext {
  clock: Clock;
  client: HttpClient;
  files: FileBook;
  robots: RobotsBook;
  tally: SitemapTally;
  totals: SitemapTotals;
  /** Total ms per sitemap request. */
  sitemapMs: number;
  /** The caller's signal: aborts the requests in flight at once. */
  signal: AbortSignal | undefined;
  /** Stops the run (a cap on it was reached). */
  stop: () => void;
}

export class SitemapFetcher {
  filesStarted = 0;
  bytesRead = 0;
  /** A cap on the run was reached inside a file (its counts are lower bounds). */
  capHit = false;
  /** Requests the engine counted that were never sent (a file past a cap). */
  notSent = 0;
  readonly fetch: PageFetcher = (request) => this.get(request);

  constructor(private readonly c: FetcherContext) {}

  /** The cap on the run that is reached (in words), or undefined. */
  cap(): string | undefined {
    return capReached(
      { filesStarted: this.filesStarted, bytesRead: this.bytesRead, tallyFull: this.c.tally.full },
      this.c.totals,
    );
  }

  private async get(req: PageRequest): Promise<PageResult> {
    const { clock, files } = this.c;
    const item = files.fileOf(req.url);
    const now = clock.now();
    if (item === undefined || item.done)
      return { error: { kind: 'other', message: 'not a sitemap of this run' }, startedAt: now, endedAt: now };
    if (item.requests === 0) {
      if (this.cap() !== undefined) {
        // Not requested: the run stops here (the engine starts nothing more), and the file counts as capped.
        files.cap(item);
        this.notSent++;
        this.c.stop();
        return { error: { kind: 'aborted', message: 'a cap on the run was reached' }, startedAt: now, endedAt: now };
      }
      this.filesStarted++;
    }
    item.requests++;
    return this.request(item, req);
  }

  private async request(item: FileItem, req: PageRequest): Promise<PageResult> {
    const { client, files, tally } = this.c;
    const accepting = acceptingHosts(item.chain, this.c.robots.listed);
    const children: string[] = [];
    // A retry reads the file again from its start: the entries its earlier attempts counted are skipped.
    let skip = item.counted;
    const reader = new SitemapReader(
      {
        url: (loc, lastmod) => {
          if (skip > 0) {
            skip--;
            return;
          }
          item.counted++;
          tally.add(item.root, accepting, loc, lastmod);
        },
        sitemap: (loc) => children.push(loc),
      },
      {
        maxEntries: SITEMAP_MAX_URLS_PER_FILE,
        maxBytes: Math.max(0, Math.min(SITEMAP_MAX_BYTES_PER_FILE, this.c.totals.bytes - this.bytesRead)),
      },
    );
    const pipe = new BodyPipe(reader, () => tally.full);
    const signal = this.c.signal ? AbortSignal.any([req.signal, this.c.signal]) : req.signal;
    const res = await client.get(req.url, {
      accept: ACCEPT,
      headersTimeoutMs: this.c.sitemapMs,
      bodyTimeoutMs: this.c.sitemapMs,
      totalTimeoutMs: this.c.sitemapMs,
      maxBytes: SITEMAP_MAX_BYTES_PER_FILE + 1,
      readBody: (status) => status >= 200 && status < 300,
      onChunk: (chunk) => pipe.write(chunk),
      signal,
    });
    item.report.status = res.status ?? null;
    const times = { startedAt: res.startedAt, ...(res.sentAt !== undefined ? { sentAt: res.sentAt } : {}) };
    if (!res.ok) {
      const read = await pipe.end();
      this.bytesRead += read.bytes;
      // What was read before the failure counts (and says what the file was); a request that got no body, not.
      if (read.bytes > 0) this.keep(item, read, pipe);
      item.failure = { kind: res.kind, message: res.message, entries: read.entries };
      return { error: { kind: res.kind, message: res.message }, ...times, endedAt: res.endedAt };
    }
    const status = res.status;
    const answer = {
      status,
      headers: res.headers,
      ...(res.headers['content-type'] !== undefined ? { contentType: res.headers['content-type'] } : {}),
      bytes: res.bytes,
      truncated: res.truncated,
      ...times,
      endedAt: res.endedAt,
    };
    if (readsRetryAfter(status) && res.headers['retry-after'] !== undefined)
      files.retryAfterSeen(new URL(req.url).host, res.headers['retry-after'], res.headers['date'], res.endedAt);

    if (status >= 300 && status < 400) {
      const target = this.redirect(item, req.url, status, res.location, res.headers.location);
      // Without a target the engine takes the 3xx as the final answer (no Location to follow).
      if (target === undefined) {
        const headers = { ...res.headers };
        delete headers.location;
        return { ...answer, headers };
      }
      return { ...answer, location: target };
    }
    if (status < 200 || status >= 300) {
      // A 429 or 5xx is retried or final as the engine decides (FileBook.onEvent); any other status is final.
      if (!isThrottleStatus(status)) files.finish(item, [statusError(item.report, status, req.attempt)]);
      return answer;
    }

    const read = await pipe.end();
    this.bytesRead += read.bytes;
    this.keep(item, read, pipe);
    const judged = readErrors(read, { gzipError: pipe.gzipError, tallyFull: tally.full, totals: this.c.totals });
    if (judged.capped) this.capHit = true;
    const errors = judged.errors;
    const links: string[] = [];
    if (read.format === 'sitemapindex') {
      const kids = indexChildren(children, { chain: item.chain, depth: item.report.depth });
      errors.push(...kids.errors);
      for (const url of kids.follow)
        if (files.add(item.root, url, 'index', item.report.depth + 1, item.chain)) links.push(url);
    }
    files.finish(item, errors);
    return { ...answer, links };
  }

  /** The next hop of the file, or undefined when the redirect ends it (an error, or a file read elsewhere). */
  private redirect(
    item: FileItem,
    from: string,
    status: number,
    location: string | undefined,
    raw: string | undefined,
  ): string | undefined {
    const files = this.c.files;
    const step = redirectStep({
      status,
      from,
      location,
      raw,
      followed: isRedirectStatus(status),
      hops: item.hops,
      redirects: item.report.redirects.length,
    });
    if ('error' in step) {
      files.finish(item, [step.error]);
      return undefined;
    }
    if (files.known(step.follow)) {
      // It leads to a file of this run (listed on its own, or another's hop): read there, once.
      item.report.redirects.push({ status, to: step.follow });
      files.finish(item, []);
      return undefined;
    }
    files.hop(item, status, step.follow);
    return step.follow;
  }

  /** What the body was, in the file's report. */
  private keep(item: FileItem, read: SitemapReadResult, pipe: BodyPipe): void {
    item.report.format = read.format;
    item.report.gzip = pipe.gzip;
    item.report.entries = read.entries;
    item.report.bytes = read.bytes;
  }
}
