/**
 * The sitemap files of a sizing run: each file from the moment it is listed (a root of a host, or a child of
 * an index) to its report, through the crawl engine's requests (its redirect hops and retries). The fetcher
 * (fetcher.ts) finishes a file whose answer is final for the engine too (a body read, a 3xx not followed, a
 * 4xx); the engine's events say when a 429, 5xx or transport error was its last attempt; and once the run is
 * over, each file left is read from its last URL's outcome (not fetched: robots.txt, a dropped host, a cap).
 * The words are the core's (src/core/sitemaps/fileErrors.ts).
 */
import type { CrawlEvent } from '../../core/crawl/events';
import type { UrlReport } from '../../core/crawl/types';
import { parseRetryAfter } from '../../core/politeness/retryAfter';
import { isThrottleStatus } from '../../core/politeness/retryPolicy';
import { crawlDelayFor } from '../../core/robots';
import {
  crawlDelaySkipError,
  disallowedError,
  fetchFailedError,
  hostLeftError,
  newFileReport,
  retryAfterError,
  sitemapError,
  statusError,
  unreachableError,
  type FileError,
  type SitemapError,
  type SitemapFileReport,
  type SitemapVia,
} from '../../core/sitemaps';
import type { RobotsBook } from './robotsBook';

/** One sitemap file on its way through the run. */
export interface FileItem {
  /** The order it was met in: the report lists a host's files so. */
  seq: number;
  report: SitemapFileReport;
  /** The host the file is read for. */
  root: string;
  /** The file's listed URL first, then the indexes above it. */
  chain: string[];
  /** URLs requested (or to be) in this file's redirect chain; the last is `current`. */
  hops: Set<string>;
  current: string;
  /** Requests made for it, every hop and retry. */
  requests: number;
  /** URL entries of `current` handed to the counting by its earlier attempts (a retry skips as many). */
  counted: number;
  /** Entries read in its last attempt that failed, and the failure. */
  failure: { kind: string; message: string; entries: number } | undefined;
  /** A 429 or 5xx came: final unless the engine schedules a retry (see onEvent). */
  awaiting: number | undefined;
  /** Not started: a cap on the run was reached first. */
  capped: boolean;
  done: boolean;
  errors: SitemapError[];
}

export interface FileBookOptions {
  productToken: string;
  maxCrawlDelaySeconds: number;
  retryAfterCapSeconds: number;
  onFile?: (file: SitemapFileReport, host: string) => void;
  /** Stops the run in hand (`onFile` threw: the run fails with it). */
  stop: () => void;
}

export class FileBook {
  private readonly items: FileItem[] = [];
  /** Every URL of every file (listed and redirect hops) → its file. */
  private readonly byUrl = new Map<string, FileItem>();
  /** robots.txt's deciding line and rule for each URL it disallowed (the engine's robots-skip events). */
  private readonly skips = new Map<string, { line?: number; rule?: string }>();
  /** The last Retry-After each host sent on a 429 or 503, read when the engine leaves the host for it. */
  private readonly retryAfters = new Map<string, { raw: string; date: string | undefined; at: number }>();
  /** Hosts the engine left out after failures in a row, and why ("5 consecutive failures (last: …)"). */
  private readonly leftAfterFailures = new Map<string, string>();
  /** Hosts the engine left out for a Retry-After above the cap. */
  private readonly leftForRetryAfter = new Set<string>();
  /** Files of each root host that a cap on the run left unread. */
  readonly capped = new Map<string, number>();
  /** The first error a progress callback threw: the run fails with it. */
  failure: { error: unknown } | undefined;

  constructor(
    private readonly book: RobotsBook,
    private readonly options: FileBookOptions,
  ) {}

  /** The file that `url` is a URL of (listed or a redirect hop), if any. */
  fileOf(url: string): FileItem | undefined {
    return this.byUrl.get(url);
  }

  /** Whether `url` is a URL of a file of this run (listed, or a redirect hop). */
  known(url: string): boolean {
    return this.byUrl.has(url);
  }

  /** A file listed for `root`; false when its URL is already one of the run (each file is read once). */
  add(root: string, url: string, via: SitemapVia, depth: number, above: readonly string[]): boolean {
    if (this.known(url)) return false;
    const item: FileItem = {
      seq: this.items.length,
      report: newFileReport(url, via, depth),
      root,
      chain: [url, ...above],
      hops: new Set([url]),
      current: url,
      requests: 0,
      counted: 0,
      failure: undefined,
      awaiting: undefined,
      capped: false,
      done: false,
      errors: [],
    };
    this.items.push(item);
    this.byUrl.set(url, item);
    return true;
  }

  /** The file's next hop: a request of its own, on its host's queue. */
  hop(item: FileItem, status: number, target: string): void {
    item.report.redirects.push({ status, to: target });
    item.hops.add(target);
    item.current = target;
    item.counted = 0;
    this.byUrl.set(target, item);
  }

  /** A 429 or 503 with a Retry-After: noted, for the words when the host is left for it. */
  retryAfterSeen(host: string, raw: string, date: string | undefined, at: number): void {
    this.retryAfters.set(host, { raw, date, at });
  }

  /** The file is over (read, failed or not fetched): its errors kept, the caller told. */
  finish(item: FileItem, errors: readonly FileError[]): void {
    if (item.done) return;
    item.done = true;
    item.awaiting = undefined;
    item.errors = errors.map((e) => sitemapError(item.report, e));
    item.report.error ??= errors[0]?.code ?? null;
    try {
      this.options.onFile?.(item.report, item.root);
    } catch (error) {
      this.failure ??= { error };
      this.options.stop();
    }
  }

  /** Left unread by a cap on the run: counted on its host, not listed. */
  cap(item: FileItem): void {
    if (item.done) return;
    item.done = true;
    item.capped = true;
    this.capped.set(item.root, (this.capped.get(item.root) ?? 0) + 1);
  }

  /** The engine's events: when a 429, 5xx or transport error was a file's last attempt, and robots.txt's rules. */
  onEvent(e: CrawlEvent): void {
    switch (e.type) {
      case 'robots-skip':
        if (e.reason === 'disallowed')
          this.skips.set(e.url, {
            ...(e.line === undefined ? {} : { line: e.line }),
            ...(e.rule === undefined ? {} : { rule: e.rule }),
          });
        return;
      case 'host-dropped':
        if (e.reason === 'consecutive-failures') this.leftAfterFailures.set(e.host, e.detail);
        if (e.reason === 'retry-after-above-cap') this.leftForRetryAfter.add(e.host);
        return;
      case 'response': {
        const item = e.robotsTxt ? undefined : this.byUrl.get(e.url);
        if (item === undefined || item.done || !isThrottleStatus(e.status)) return;
        // The engine says what comes of it at once (a retry scheduled, or nothing more): final unless retried.
        item.awaiting = e.attempt;
        queueMicrotask(() => {
          if (item.awaiting === undefined || item.done) return;
          this.finish(item, [this.failedStatus(item, e.status, item.awaiting)]);
        });
        return;
      }
      case 'retry-scheduled': {
        const item = this.byUrl.get(e.url);
        if (item !== undefined) item.awaiting = undefined;
        return;
      }
      case 'error': {
        const item = e.robotsTxt ? undefined : this.byUrl.get(e.url);
        if (item === undefined || item.done || e.willRetry) return;
        this.finish(item, [fetchFailedError(e.kind, e.message, item.failure?.entries ?? 0)]);
        return;
      }
      default:
        return;
    }
  }

  /**
   * The run is over: every file not finished yet is read from its last URL's outcome (the engine's). What had
   * not started when a cap on the run stopped it is left unread, and counted on its host.
   */
  settle(urls: readonly UrlReport[]): void {
    const reports = new Map(urls.map((u) => [u.url, u]));
    for (const item of this.items) {
      if (item.done) continue;
      const r = reports.get(item.current);
      if (r === undefined || r.outcome === 'not-started') {
        this.cap(item);
        continue;
      }
      this.finish(item, [this.notFetched(item, r)]);
    }
  }

  /** Why the file's last URL got no answer the file could be read from. */
  private notFetched(item: FileItem, r: UrlReport): FileError {
    const url = item.current;
    const { host, origin } = new URL(url);
    switch (r.outcome) {
      case 'robots-disallowed': {
        const skip = this.skips.get(url);
        return disallowedError(url, skip?.line, skip?.rule);
      }
      case 'robots-unreachable':
        return unreachableError(url, origin);
      case 'host-dropped': {
        const detail = r.detail ?? '';
        if (detail.startsWith('retry-after-above-cap')) {
          const seen = this.retryAfters.get(host);
          if (seen && r.status === undefined) {
            const wait = parseRetryAfter(seen.raw, seen.at, {
              capSeconds: this.options.retryAfterCapSeconds,
              ...(seen.date === undefined ? {} : { dateHeader: seen.date }),
            });
            if (wait.kind !== 'invalid')
              return retryAfterError(url, host, {
                raw: seen.raw,
                requestedSeconds: Math.round(wait.requestedMs / 1000),
                capSeconds: this.options.retryAfterCapSeconds,
              });
          }
        }
        if (detail.startsWith('crawl-delay-above-cap')) {
          const file = this.book.get(origin)?.file;
          return crawlDelaySkipError(url, host, {
            declaredSeconds: file ? crawlDelayFor(file, this.options.productToken).seconds : undefined,
            capSeconds: this.options.maxCrawlDelaySeconds,
          });
        }
        if (r.status !== undefined) return this.failedStatus(item, r.status, r.attempts);
        return hostLeftError(url, host, detail.replace(/^[a-z-]+: /, ''));
      }
      case 'failed':
        if (r.status !== undefined) return this.failedStatus(item, r.status, r.attempts);
        return { code: 'fetch-failed', message: r.detail ?? 'no response' };
      case 'fetched':
        if (url === `${origin}/robots.txt`)
          return { code: 'not-a-sitemap', message: `not a sitemap: it is the robots.txt of ${origin}` };
        return { code: 'fetch-failed', message: `no sitemap read (${r.detail ?? 'fetched'})` };
      default:
        // Not reached: a file's answer that the engine took as final was read when it came.
        return { code: 'fetch-failed', message: `no sitemap read (${r.outcome}${r.detail ? `: ${r.detail}` : ''})` };
    }
  }

  /**
   * A 429 or 5xx that was the file's last answer; when its host was left for it (failures in a row, a Retry-After
   * above the cap: the answer that asked is the file's own), that too.
   */
  private failedStatus(item: FileItem, status: number, attempts: number): FileError {
    const e = statusError(item.report, status, attempts);
    const host = new URL(item.current).host;
    const left = this.leftAfterFailures.get(host);
    if (left !== undefined) return { ...e, message: `${e.message}; ${host} was left after ${left}` };
    const seen = this.retryAfters.get(host);
    if (this.leftForRetryAfter.has(host) && seen !== undefined) {
      const wait = parseRetryAfter(seen.raw, seen.at, {
        capSeconds: this.options.retryAfterCapSeconds,
        ...(seen.date === undefined ? {} : { dateHeader: seen.date }),
      });
      if (wait.kind !== 'invalid')
        return {
          ...e,
          message: `${e.message}; it asked to wait ${Math.round(wait.requestedMs / 1000)} s (Retry-After: ${seen.raw.trim()}), above the cap of ${this.options.retryAfterCapSeconds} s, so ${host} was left`,
        };
    }
    return e;
  }

  /** The finished files read for `root`, in the order they were met. */
  filesOf(root: string): FileItem[] {
    return this.items.filter((i) => i.root === root && i.done && !i.capped);
  }
}
