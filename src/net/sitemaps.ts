/**
 * Sitemap sizing over the network: for each host, its robots.txt, then the sitemaps it names (else
 * `/sitemap.xml`), every index followed, gzip included, each file streamed into the core's reader and
 * counter (src/core/sitemaps). One call for the CLI (`crawl-planner sitemaps`, `estimate --sitemaps`) and
 * the extension:
 *
 *   const sizing = await sizeFromSitemaps(['https://a.example/'], { productToken, userAgentHeader }, signal);
 *   for (const h of sizing.hosts) h.urls; // pages per host
 *
 * Sitemap fetches are requests like any other (docs/how-it-works.md §Sitemap sizing):
 * - **robots.txt first.** Every origin's robots.txt is the first request on its host, and every input
 *   origin's is read before any sitemap (whether a host accepts URLs from another host's sitemap depends
 *   on its robots.txt). A sitemap URL that robots.txt disallows is not fetched; an unreachable robots.txt
 *   (5xx, network) disallows the whole origin, sitemaps included.
 * - **One request in flight per host, starts kept an interval apart** (start to start, from the moment the
 *   request went onto its connection): the interval is the configured delay, raised by the host's
 *   Crawl-delay under the cap policy (src/core/politeness/interval.ts) and, after 429, 5xx or a timeout,
 *   by the host's live rate (src/core/politeness/hostRate.ts); a Retry-After on 429/503 pauses the host.
 *   Each host works through its own queue (robots.txt, sitemap files, redirect hops); hosts run in
 *   parallel, at most `concurrency` requests in flight over all of them.
 * - **Bounded.** Each fetch has the HTTP client's connect, headers, idle-body and total timeouts; each file
 *   is read up to 50,000 entries and 50 MiB uncompressed (a gzip bomb stops there); the run stops taking
 *   files at the caps on files, URLs and bytes (SITEMAP_TOTALS_DEFAULT), and then says the counts are
 *   lower bounds. Failed files are not retried: the error says what happened.
 */
import type { Clock } from '../core/clock';
import { CRAWL_DEFAULTS } from '../core/crawl/engineOptions';
import { PLAN_DEFAULTS } from '../core/plan';
import { HostRate, HOST_RATE_DEFAULTS } from '../core/politeness/hostRate';
import type { CrawlDelayPolicy } from '../core/politeness/interval';
import { parseRetryAfter } from '../core/politeness/retryAfter';
import { isThrottleError, isThrottleStatus, readsRetryAfter } from '../core/politeness/retryPolicy';
import {
  crawlDelayFor,
  loadRobotsFile,
  ROBOTS_FETCH_TIMEOUT_SECONDS,
  sitemaps as robotsSitemaps,
  verdictWithOutcome,
  type RobotsFile,
} from '../core/robots';
import {
  acceptingHosts,
  SitemapReader,
  SitemapTally,
  SITEMAP_FETCH_TIMEOUT_SECONDS,
  SITEMAP_MAX_BYTES_PER_FILE,
  SITEMAP_MAX_INDEX_DEPTH,
  SITEMAP_MAX_REDIRECTS,
  SITEMAP_MAX_URLS_PER_FILE,
  SITEMAP_TOTALS_DEFAULT,
  SITEMAPS_SCHEMA_VERSION,
  type OriginRobots,
  type SitemapError,
  type SitemapErrorCode,
  type SitemapFileReport,
  type SitemapHostReport,
  type SitemapReadResult,
  type SitemapRobotsReport,
  type SitemapSizing,
  type SitemapTotals,
  type SitemapVia,
} from '../core/sitemaps';
import { systemClock } from './clock';
import { createHttpClient, parseHttpUrl, type HttpClient, type HttpClientOptions } from './http';
import { RobotsCache } from './robotsCache';
import type { RobotsFetchResult } from './robotsFetch';
import { createRobotsCache } from './robotsInspect';
import { BodyPipe } from './sitemapSizing/bodyPipe';

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
  /** Total seconds per robots.txt fetch (default 10) and per sitemap file (default 60), redirects included;
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

const CONNECT_TIMEOUT_MS = 10_000;

interface FileItem {
  kind: 'file';
  /** The URL to request now (a redirect hop's target after the first). */
  url: string;
  report: SitemapFileReport;
  /** The host the file is read for. */
  root: string;
  /** The file's listed URL first, then the indexes above it. */
  chain: string[];
  /** URLs requested in this file's redirect chain. */
  hops: Set<string>;
}

interface RobotsItem {
  kind: 'robots';
  origin: string;
}

type Item = FileItem | RobotsItem;

/** One host's timeline: its queue, its interval and when it last started a request. */
interface Lane {
  host: string;
  queue: Item[];
  running: boolean;
  rate: HostRate;
  /** When the previous request reached its connection (or started), epoch ms. */
  lastSent: number | undefined;
  pausedUntil: number;
  /** Set when the host takes no more requests: why. */
  closed?: { code: SitemapErrorCode; message: string };
}

interface HostState {
  host: string;
  origins: string[];
  robots: SitemapRobotsReport[];
  files: SitemapFileReport[];
  errors: SitemapError[];
  source: SitemapHostReport['source'];
  /** Files not read for a cap on the whole run. */
  capped: number;
}

/** A counting semaphore: at most `n` holders. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  constructor(n: number) {
    this.free = Math.max(1, Math.floor(n));
  }
  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
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

class Sizing {
  private readonly clock: Clock;
  private readonly client: HttpClient;
  private readonly cache: RobotsCache;
  private readonly slots: Slots;
  private readonly lanes = new Map<string, Lane>();
  private readonly hosts = new Map<string, HostState>();
  /** origin → its robots.txt, parsed once. */
  private readonly robots = new Map<
    string,
    { result: RobotsFetchResult; file: RobotsFile | undefined; rules: OriginRobots }
  >();
  /** host → the sitemap URLs its origins' robots.txt list. */
  private readonly listed = new Map<string, Set<string>>();
  private readonly seenFiles = new Set<string>();
  private readonly tally: SitemapTally;
  private readonly totals: SitemapTotals;
  private readonly robotsMs: number;
  private readonly sitemapMs: number;
  private readonly delaySeconds: number;
  private readonly crawlDelayPolicy: CrawlDelayPolicy;
  private readonly maxCrawlDelaySeconds: number;
  private readonly retryAfterCapSeconds: number;
  private requests = 0;
  private filesStarted = 0;
  private bytesRead = 0;
  private complete = true;
  private outstanding = 0;
  private idle: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | undefined;
  private failure: unknown;

  constructor(
    private readonly origins: string[],
    private readonly options: SitemapSizingOptions,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.clock = options.clock ?? systemClock;
    this.totals = { ...SITEMAP_TOTALS_DEFAULT, ...options.totals };
    this.robotsMs = Math.max(1, Math.round((options.timeouts?.robotsSeconds ?? ROBOTS_FETCH_TIMEOUT_SECONDS) * 1000));
    this.sitemapMs = Math.max(
      1,
      Math.round((options.timeouts?.sitemapSeconds ?? SITEMAP_FETCH_TIMEOUT_SECONDS) * 1000),
    );
    this.delaySeconds = options.delaySeconds ?? PLAN_DEFAULTS.delaySeconds;
    this.crawlDelayPolicy = options.crawlDelayPolicy ?? PLAN_DEFAULTS.crawlDelayPolicy;
    this.maxCrawlDelaySeconds = options.maxCrawlDelaySeconds ?? PLAN_DEFAULTS.maxCrawlDelaySeconds;
    this.retryAfterCapSeconds = options.retryAfterCapSeconds ?? CRAWL_DEFAULTS.retryAfterCapSeconds;
    const connectMs = Math.min(CONNECT_TIMEOUT_MS, this.robotsMs, this.sitemapMs);
    this.client = createHttpClient({
      ...options.http,
      userAgent: options.userAgentHeader,
      connectTimeoutMs: connectMs,
      now: () => this.clock.now(),
    });
    this.cache =
      options.cache ??
      createRobotsCache({
        userAgentHeader: options.userAgentHeader,
        timeouts: { connectMs, headersMs: this.robotsMs, bodyMs: this.robotsMs, totalMs: this.robotsMs },
        now: () => this.clock.now(),
        ...(options.http ? { http: options.http } : {}),
      });
    this.slots = new Slots(options.concurrency ?? 4);
    for (const origin of origins) {
      const host = new URL(origin).host;
      let state = this.hosts.get(host);
      if (!state) {
        state = { host, origins: [], robots: [], files: [], errors: [], source: 'none', capped: 0 };
        this.hosts.set(host, state);
      }
      state.origins.push(origin);
    }
    this.tally = new SitemapTally(this.hosts.keys(), {
      productToken: options.productToken,
      now: this.clock.now(),
      ...(options.changedSince !== undefined ? { changedSince: options.changedSince } : {}),
      maxUrls: this.totals.urls,
      robots: (origin) => this.robots.get(origin)?.rules,
    });
  }

  async run(): Promise<SitemapSizing> {
    try {
      this.checkAborted();
      // 1. Every input origin's robots.txt, each the first request on its host.
      for (const origin of this.origins) this.enqueue({ kind: 'robots', origin });
      await this.settled();
      // 2. The sitemaps they name, else /sitemap.xml, and every index below them.
      for (const state of this.hosts.values()) this.startHost(state);
      await this.settled();
      // 3. robots.txt of the origins that counted URLs wait for (http vs https of a sized host).
      for (const origin of this.tally.pendingOrigins())
        if (!this.robots.has(origin)) this.enqueue({ kind: 'robots', origin });
      await this.settled();
      return this.report();
    } finally {
      await this.client.close();
    }
  }

  private checkAborted(): void {
    if (this.signal?.aborted) throw this.signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
  }

  // ------------------------------------------------------------------------------------------------
  // Queues

  private laneFor(host: string): Lane {
    let lane = this.lanes.get(host);
    if (!lane) {
      lane = {
        host,
        queue: [],
        running: false,
        rate: new HostRate({
          configuredSeconds: this.delaySeconds,
          crawlDelayPolicy: this.crawlDelayPolicy,
          maxCrawlDelaySeconds: this.maxCrawlDelaySeconds,
          adaptive: false,
          ...HOST_RATE_DEFAULTS,
        }),
        lastSent: undefined,
        pausedUntil: 0,
      };
      this.lanes.set(host, lane);
    }
    return lane;
  }

  private enqueue(item: Item, front = false): void {
    const host = new URL(item.kind === 'robots' ? item.origin : item.url).host;
    const lane = this.laneFor(host);
    if (front) lane.queue.unshift(item);
    else lane.queue.push(item);
    this.outstanding++;
    if (!lane.running) {
      lane.running = true;
      void this.drain(lane);
    }
  }

  private settled(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.outstanding === 0) return Promise.resolve();
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.idle = { promise, resolve, reject };
    return promise;
  }

  /** A host's loop: its items one at a time, in order. */
  private async drain(lane: Lane): Promise<void> {
    while (lane.queue.length > 0) {
      const item = lane.queue.shift()!;
      try {
        if (this.failure === undefined) await this.process(lane, item);
      } catch (err) {
        this.failure ??= err;
        this.idle?.reject(err);
      }
      if (--this.outstanding === 0 && this.failure === undefined) this.idle?.resolve();
    }
    lane.running = false;
  }

  private process(lane: Lane, item: Item): Promise<void> {
    this.checkAborted();
    return item.kind === 'robots' ? this.readRobots(lane, item.origin) : this.readFile(lane, item);
  }

  /** Waits for the host's turn (its interval after the previous start, any Retry-After pause), then a slot. */
  private async turn(lane: Lane): Promise<() => void> {
    const ready = Math.max(
      lane.lastSent === undefined ? 0 : lane.lastSent + lane.rate.intervalSeconds * 1000,
      lane.pausedUntil,
    );
    const wait = ready - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait, this.signal);
    return this.slots.take();
  }

  // ------------------------------------------------------------------------------------------------
  // robots.txt

  private async readRobots(lane: Lane, origin: string): Promise<void> {
    if (this.robots.has(origin)) return;
    const before = this.cache.peek(origin);
    const fresh = before !== undefined && this.cache.isFresh(before);
    let result: RobotsFetchResult;
    if (fresh) result = before.result;
    else {
      const release = await this.turn(lane);
      try {
        result = (await this.cache.get(origin, this.signal ? { signal: this.signal } : {})).result;
      } finally {
        release();
      }
      this.checkAborted();
      this.requests += 1 + result.redirects.length;
    }
    // A robots.txt fetched before (a shared cache) still spaces the host's next request after it.
    const sent = result.sentAt ?? result.startedAt;
    lane.lastSent = Math.max(lane.lastSent ?? 0, sent);
    const contentType = result.headers?.['content-type'];
    const file =
      result.outcome === 'ok'
        ? loadRobotsFile(result.body ?? new Uint8Array(), {
            robotsUrl: result.robotsUrl,
            maxCrawlDelaySeconds: this.maxCrawlDelaySeconds,
            ...(contentType !== undefined ? { contentType } : {}),
          })
        : undefined;
    this.robots.set(origin, {
      result,
      file,
      rules: { outcome: result.outcome, ...(file ? { file } : {}), robotsUrl: result.robotsUrl },
    });
    const crawlDelay = file ? crawlDelayFor(file, this.options.productToken).seconds : undefined;
    const plan = lane.rate.mergeCrawlDelay(crawlDelay);
    if (plan.skipped && !lane.closed) {
      lane.closed = {
        code: 'crawl-delay-skip',
        message: `Crawl-delay ${plan.crawlDelayAboveCap?.declaredSeconds} s is above the cap of ${this.maxCrawlDelaySeconds} s (policy skip): nothing fetched from ${lane.host}`,
      };
    }
    const listed = file ? robotsSitemaps(file).map((s) => s.url) : [];
    if (listed.length > 0) {
      const set = this.listed.get(lane.host) ?? new Set<string>();
      for (const u of listed) set.add(u);
      this.listed.set(lane.host, set);
    }
    const state = this.hosts.get(lane.host);
    if (state && state.origins.includes(origin)) {
      state.robots.push({
        origin,
        outcome: result.outcome,
        status: result.status ?? null,
        sitemaps: listed,
        crawlDelaySeconds: crawlDelay ?? null,
      });
      if (result.outcome === 'unreachable') {
        state.errors.push({
          code: 'robots-unreachable',
          url: result.robotsUrl,
          message: `${result.reason}: no sitemap of ${origin} is fetched`,
        });
      }
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Sitemap files

  /** The root files of a sized host: the Sitemap lines of its origins' robots.txt, else /sitemap.xml. */
  private startHost(state: HostState): void {
    const reachable = state.robots.filter((r) => r.outcome !== 'unreachable');
    const named = reachable.flatMap((r) => r.sitemaps);
    if (named.length > 0) {
      state.source = 'robots.txt';
      for (const url of named) this.addFile(state.host, url, 'robots.txt', 0, []);
      return;
    }
    if (reachable.length === 0) return;
    state.source = 'fallback';
    for (const r of reachable) this.addFile(state.host, `${r.origin}/sitemap.xml`, 'fallback', 0, []);
  }

  private addFile(root: string, url: string, via: SitemapVia, depth: number, above: string[]): void {
    if (this.seenFiles.has(url)) return;
    this.seenFiles.add(url);
    const report: SitemapFileReport = {
      url,
      via,
      depth,
      status: null,
      redirects: [],
      format: null,
      gzip: false,
      entries: 0,
      bytes: 0,
      error: null,
    };
    this.enqueue({ kind: 'file', url, report, root, chain: [url, ...above], hops: new Set([url]) });
  }

  private fail(item: FileItem, code: SitemapErrorCode, message: string, url: string | null = item.report.url): void {
    item.report.error ??= code;
    this.hosts.get(item.root)!.errors.push({ code, url, message });
  }

  /** A file that is over (read, failed or left): listed on its host, reported to the caller. */
  private finish(item: FileItem): void {
    this.hosts.get(item.root)!.files.push(item.report);
    this.options.onFile?.(item.report, item.root);
  }

  private capReached(): string | undefined {
    if (this.tally.full) return `the cap of ${this.totals.urls.toLocaleString('en-US')} URLs per run`;
    if (this.bytesRead >= this.totals.bytes)
      return `the cap of ${this.totals.bytes.toLocaleString('en-US')} bytes per run`;
    if (this.filesStarted >= this.totals.files)
      return `the cap of ${this.totals.files.toLocaleString('en-US')} files per run`;
    return undefined;
  }

  private async readFile(lane: Lane, item: FileItem): Promise<void> {
    const first = item.hops.size === 1 && item.report.redirects.length === 0;
    const origin = new URL(item.url).origin;
    // robots.txt is the first request on a host, and it decides whether the sitemap may be fetched.
    if (!this.robots.has(origin)) {
      this.enqueue(item, true);
      this.enqueue({ kind: 'robots', origin }, true);
      return;
    }
    if (lane.closed) {
      this.fail(item, lane.closed.code, lane.closed.message, item.url);
      return this.finish(item);
    }
    const robots = this.robots.get(origin)!;
    const v = verdictWithOutcome(
      robots.rules.outcome,
      robots.file,
      item.url,
      this.options.productToken,
      robots.rules.robotsUrl,
    );
    if (v.verdict === 'disallowed') {
      const why =
        robots.rules.outcome === 'unreachable'
          ? `robots.txt of ${origin} is unreachable, so every URL there is disallowed`
          : `robots.txt disallows it (line ${v.line}: ${v.rule})`;
      this.fail(item, 'disallowed', `not fetched: ${why}`, item.url);
      return this.finish(item);
    }
    if (first) {
      const cap = this.capReached();
      if (cap !== undefined) {
        this.complete = false;
        this.hosts.get(item.root)!.capped++;
        return; // left unread; counted in the host's `limit` error
      }
      this.filesStarted++;
    }

    const accepting = acceptingHosts(item.chain, this.listed);
    const children: string[] = [];
    const pipe = new BodyPipe(
      new SitemapReader(
        {
          url: (loc, lastmod) => void this.tally.add(item.root, accepting, loc, lastmod),
          sitemap: (loc) => children.push(loc),
        },
        {
          maxEntries: SITEMAP_MAX_URLS_PER_FILE,
          maxBytes: Math.min(SITEMAP_MAX_BYTES_PER_FILE, this.totals.bytes - this.bytesRead),
        },
      ),
      () => this.tally.full,
    );
    const release = await this.turn(lane);
    let res;
    try {
      res = await this.client.get(item.url, {
        accept: 'application/xml, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5',
        headersTimeoutMs: this.sitemapMs,
        bodyTimeoutMs: this.sitemapMs,
        totalTimeoutMs: this.sitemapMs,
        maxBytes: SITEMAP_MAX_BYTES_PER_FILE + 1,
        readBody: (status) => status >= 200 && status < 300,
        onChunk: (chunk) => pipe.write(chunk),
        onSent: () => {
          lane.lastSent = this.clock.now();
        },
        ...(this.signal ? { signal: this.signal } : {}),
      });
    } finally {
      release();
    }
    this.checkAborted();
    this.requests++;
    lane.lastSent = res.sentAt ?? res.startedAt;
    item.report.status = res.status ?? null;

    // The host's rate: up at once on overload, back down slowly.
    if (res.ok ? isThrottleStatus(res.status) : isThrottleError(res.kind)) lane.rate.onThrottle('backoff');
    else lane.rate.onSuccess();
    if (res.ok && readsRetryAfter(res.status) && res.headers['retry-after'] !== undefined)
      this.retryAfter(lane, res.headers['retry-after'], res.headers['date']);

    if (res.ok && res.status >= 300 && res.status < 400)
      return this.redirect(item, res.status, res.location, res.headers.location);
    if (res.ok && (res.status < 200 || res.status >= 300)) {
      if (item.report.via === 'fallback' && res.status >= 400 && res.status < 500 && res.status !== 429) {
        this.fail(item, 'no-sitemap', `robots.txt names no sitemap, and ${item.report.url} answered ${res.status}`);
      } else
        this.fail(
          item,
          'http-status',
          `${res.status}: the sitemap was not served${item.report.redirects.length ? ` (after ${item.report.redirects.length} redirect${item.report.redirects.length > 1 ? 's' : ''})` : ''}`,
        );
      return this.finish(item);
    }

    const read = await pipe.end();
    this.bytesRead += read.bytes;
    item.report.format = read.format;
    item.report.gzip = pipe.gzip;
    item.report.entries = read.entries;
    item.report.bytes = read.bytes;
    if (!res.ok) {
      const counted =
        read.entries > 0 ? `; the ${read.entries.toLocaleString('en-US')} entries read before it were counted` : '';
      this.fail(item, 'fetch-failed', `${res.kind}: ${res.message}${counted}`);
      return this.finish(item);
    }
    this.judge(item, read, pipe);
    if (read.format === 'sitemapindex') this.follow(item, children);
    return this.finish(item);
  }

  /** What a file's body was, in errors: not a sitemap, a feed, over a limit, malformed, bad gzip. */
  private judge(item: FileItem, read: SitemapReadResult, pipe: BodyPipe): void {
    if (pipe.gzipError !== undefined) {
      this.fail(
        item,
        'bad-gzip',
        `the gzip data does not decompress (${pipe.gzipError}); the ${read.entries.toLocaleString('en-US')} entries before it were counted`,
      );
    }
    switch (read.format) {
      case 'other':
        this.fail(
          item,
          'not-a-sitemap',
          `not a sitemap: the root element is <${read.root}>, not <urlset> or <sitemapindex>`,
        );
        return;
      case 'empty':
        this.fail(item, 'not-a-sitemap', 'not a sitemap: the body is empty');
        return;
      case 'feed':
        this.fail(item, 'feed', `an RSS or Atom feed (<${read.root}>): not read, as a feed lists recent URLs only`);
        return;
      default:
        break;
    }
    if (read.stopped === 'max-entries') {
      this.fail(
        item,
        'too-many-urls',
        `more than ${SITEMAP_MAX_URLS_PER_FILE.toLocaleString('en-US')} entries (the sitemaps.org limit): only the first ${SITEMAP_MAX_URLS_PER_FILE.toLocaleString('en-US')} were read`,
      );
    } else if (read.stopped === 'max-bytes') {
      if (read.bytes >= SITEMAP_MAX_BYTES_PER_FILE) {
        this.fail(
          item,
          'too-large',
          `larger than ${SITEMAP_MAX_BYTES_PER_FILE.toLocaleString('en-US')} bytes uncompressed (the sitemaps.org limit): only the first ${read.bytes.toLocaleString('en-US')} bytes were read`,
        );
      } else {
        this.complete = false;
        this.fail(
          item,
          'limit',
          `the cap of ${this.totals.bytes.toLocaleString('en-US')} bytes per run was reached in this file: the rest of it was not read`,
        );
      }
    } else if (this.tally.full) {
      this.complete = false;
      this.fail(
        item,
        'limit',
        `the cap of ${this.totals.urls.toLocaleString('en-US')} URLs per run was reached in this file: the rest of it was not counted`,
      );
    }
    if (read.malformed) {
      const more = read.malformed.count > 1 ? ` (and ${(read.malformed.count - 1).toLocaleString('en-US')} more)` : '';
      this.fail(
        item,
        'malformed',
        `malformed XML, repaired: ${read.malformed.first}${more}; what could be read was counted`,
      );
    }
  }

  /** An index's children: each a file of its own, unless it loops back or is nested too deep. */
  private follow(item: FileItem, children: string[]): void {
    let deep = 0;
    let invalid = 0;
    for (const loc of children) {
      const url = fetchableHref(loc);
      if (url === undefined) {
        invalid++;
        continue;
      }
      if (item.chain.includes(url)) {
        this.fail(item, 'loop', `lists ${url}, which leads back to itself: not followed again`);
        continue;
      }
      if (item.report.depth + 1 > SITEMAP_MAX_INDEX_DEPTH) {
        deep++;
        continue;
      }
      this.addFile(item.root, url, 'index', item.report.depth + 1, item.chain);
    }
    if (deep > 0) {
      this.fail(
        item,
        'too-deep',
        `${deep.toLocaleString('en-US')} child sitemap${deep > 1 ? 's' : ''} not followed: sitemaps are followed at most ${SITEMAP_MAX_INDEX_DEPTH} levels below the one robots.txt (or /sitemap.xml) names`,
      );
    }
    if (invalid > 0) {
      this.fail(
        item,
        'malformed',
        `${invalid.toLocaleString('en-US')} child sitemap${invalid > 1 ? 's are' : ' is'} not an absolute http(s) URL`,
      );
    }
  }

  private redirect(item: FileItem, status: number, location: string | undefined, raw: string | undefined): void {
    if (location === undefined) {
      this.fail(
        item,
        'redirect',
        `${status} with ${raw === undefined ? 'no Location header' : `an unusable Location ${JSON.stringify(raw)}`}`,
      );
      return this.finish(item);
    }
    const target = fetchableHref(location);
    if (target === undefined) {
      this.fail(item, 'redirect', `${status} to ${location}, which is not http(s)`);
      return this.finish(item);
    }
    if (item.hops.has(target)) {
      this.fail(item, 'redirect', `redirect loop: ${status} from ${item.url} back to ${target}`);
      return this.finish(item);
    }
    if (item.report.redirects.length >= SITEMAP_MAX_REDIRECTS) {
      this.fail(item, 'redirect', `more than ${SITEMAP_MAX_REDIRECTS} redirects (the next was ${status} to ${target})`);
      return this.finish(item);
    }
    item.report.redirects.push({ status, to: target });
    item.hops.add(target);
    item.url = target;
    // The next hop is a request on its own host's timeline, ahead of that host's other work.
    this.enqueue(item, true);
  }

  private retryAfter(lane: Lane, raw: string, date: string | undefined): void {
    const now = this.clock.now();
    const r = parseRetryAfter(raw, now, {
      capSeconds: this.retryAfterCapSeconds,
      ...(date !== undefined ? { dateHeader: date } : {}),
    });
    if (r.kind === 'invalid') return;
    if (r.capped) {
      lane.closed ??= {
        code: 'retry-after',
        message: `${lane.host} asked to wait ${Math.round(r.requestedMs / 1000)} s (Retry-After: ${raw.trim()}), above the cap of ${this.retryAfterCapSeconds} s: nothing more fetched from it`,
      };
      return;
    }
    lane.pausedUntil = Math.max(lane.pausedUntil, now + r.delayMs);
  }

  // ------------------------------------------------------------------------------------------------

  private report(): SitemapSizing {
    const counts = this.tally.counts();
    const hosts: SitemapHostReport[] = counts.map((c) => {
      const state = this.hosts.get(c.host)!;
      if (state.capped > 0) {
        state.errors.push({
          code: 'limit',
          url: null,
          message: `${state.capped.toLocaleString('en-US')} sitemap file${state.capped > 1 ? 's' : ''} not read: ${this.capReached() ?? 'a cap on the run'} was reached; the counts are lower bounds`,
        });
      }
      const lane = this.lanes.get(c.host);
      return {
        ...c,
        files: state.files.filter((f) => f.format !== null).length,
        source: state.source,
        intervalSeconds: lane ? lane.rate.planned().seconds : this.delaySeconds,
        robots: state.robots,
        sitemaps: state.files,
        errors: state.errors,
      };
    });
    return {
      schemaVersion: SITEMAPS_SCHEMA_VERSION,
      generatedAt: new Date(this.clock.now()).toISOString(),
      productToken: this.options.productToken,
      userAgent: this.options.userAgentHeader,
      changedSince: this.options.changedSince === undefined ? null : new Date(this.options.changedSince).toISOString(),
      limits: {
        urlsPerFile: SITEMAP_MAX_URLS_PER_FILE,
        bytesPerFile: SITEMAP_MAX_BYTES_PER_FILE,
        files: this.totals.files,
        urls: this.totals.urls,
        bytes: this.totals.bytes,
        indexDepth: SITEMAP_MAX_INDEX_DEPTH,
      },
      complete: this.complete && !this.tally.full,
      requests: this.requests,
      hosts,
    };
  }
}

/** An absolute http(s) URL without its fragment, or undefined. */
function fetchableHref(text: string): string | undefined {
  try {
    const u = parseHttpUrl(text);
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}
