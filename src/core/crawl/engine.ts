/**
 * The crawl engine: a Mercator-style scheduler on an injected Clock. One loop starts requests from the
 * frontier (per-host back queues + a heap of next-allowed times) while global slots are free, then
 * sleeps until the next host is ready or something changes (a response, a robots.txt answer, a stop).
 *
 * Politeness is counted in request STARTS: every request to a host, first tries, retries and redirect
 * hops alike, goes through that host's queue and waits for its next-allowed time, so no rule (interval,
 * Retry-After pause, token bucket, per-host concurrency) can be bypassed. The model, the retry table
 * and the defaults are written up in docs/how-it-works.md §The crawl engine.
 */
import { MAX_TIMER_MS, type Clock } from '../clock';
import { errorMessage } from '../format/text';
import { backoffDelayMs } from '../politeness/backoff';
import { HostRate } from '../politeness/hostRate';
import { parseRetryAfter, type RetryAfter } from '../politeness/retryAfter';
import {
  isRedirectStatus,
  isRetryableError,
  isRetryableStatus,
  isThrottleError,
  isThrottleStatus,
  readsRetryAfter,
} from '../politeness/retryPolicy';
import { TokenBucket } from '../politeness/tokenBucket';
import type { CrawlEvent, CrawlSummary, HostDroppedEvent } from './events';
import { resolveCrawlOptions } from './engineOptions';
import { canonicalHttpHost } from './canonicalUrl';
import { Frontier, intervalMs, type HostSlot } from './frontier';
import { summarizeNotFollowed } from './notFollowed';
import { CrawlStats, type HostStats } from './stats';
import {
  type CrawlOptions,
  type CrawlResult,
  type PageFailure,
  type PageResult,
  type PageSuccess,
  type ResolvedCrawlOptions,
  type RobotsDecision,
  type RobotsFetch,
  type UrlOutcome,
  type UrlReport,
} from './types';

/** The reason an idle wait's timer is cancelled with (a fixed value: `abort()` would build a DOMException each time). */
const IDLE_OVER = new Error('idle wait over');

/**
 * Runs a crawl to its end (all work done, the page limit, a stop, or every host dropped) and returns the
 * summary and one outcome per URL met. Rejects only on a bad option (RangeError, before anything starts)
 * or when `emit` or an injected function throws unexpectedly.
 */
export function runCrawl(options: CrawlOptions): Promise<CrawlResult> {
  let resolved: ResolvedCrawlOptions;
  try {
    resolved = resolveCrawlOptions(options);
  } catch (err) {
    return Promise.reject(err);
  }
  return new CrawlScheduler(resolved).run();
}

/** One URL the crawl met. All fields are set in the constructor, so every record has one shape. */
class UrlRecord {
  /** Retry backoff or Retry-After: not before this time. */
  notBefore = 0;
  attempts = 0;
  /** Counted in `activeChains` (started, or continuing a started chain, and not yet final). */
  inChain = false;
  state: 'new' | 'checking' | 'queued' | 'in-flight' | 'done' = 'new';
  /**
   * Set while this URL carries its origin's robots.txt request through the host's queue: called once the
   * request is decided or the URL leaves the run, to let the origin's other robots checks go on.
   */
  robotsRelease: (() => void) | undefined = undefined;
  outcome: UrlOutcome | undefined = undefined;
  status: number | undefined = undefined;
  detail: string | undefined = undefined;

  constructor(
    readonly url: string,
    /** `URL.host`; '' for a URL that did not parse. */
    readonly host: string,
    readonly depth: number,
    readonly from: string | undefined,
    /** Redirect hops from the start of its chain. */
    readonly hops: number,
    /** A redirect target: it continues a chain that has already started, so the page budget does not hold it back. */
    readonly continuation: boolean,
  ) {}

  /** `URL.origin` (scheme://host), from the URL's scheme and its host. */
  get origin(): string {
    return (this.url.startsWith('https:') ? 'https://' : 'http://') + this.host;
  }
}

interface AdmitContext {
  depth: number;
  from?: string;
  hops: number;
  continuation: boolean;
  seed: boolean;
}

class CrawlScheduler {
  private readonly clock: Clock;
  private readonly frontier: Frontier<UrlRecord>;
  private readonly records = new Map<string, UrlRecord>();
  private readonly order: UrlRecord[] = [];
  private readonly stats: CrawlStats;
  private readonly seedHosts = new Set<string>();
  private readonly checking = new Set<UrlRecord>();
  private readonly originChains = new Map<string, Promise<void>>();
  /** Requests in flight (robots.txt included), and the controllers of those on the promise road. */
  private inFlight = 0;
  private readonly controllers = new Map<UrlRecord, AbortController>();
  /** Aborts the robots.txt gate's calls; made when the first call is, since aborting one costs an exception's stack. */
  private robotsAbortController: AbortController | undefined;
  private robotsAborted = false;
  /** The one signal of every request on the callback road (CrawlOptions.startFetch): aborts reach them all at once. */
  private readonly sharedRequests = new AbortController();
  /** Whether anyone listens to events: when not, none is built. */
  private readonly emitting: boolean;
  private graceAbort: AbortController | undefined;

  private activeChains = 0;
  private gateOpen = true;
  private maxPagesReached = false;

  private stopping = false;
  private fatal: { error: unknown } | undefined;
  /** What runs when the wait in hand ends; undefined while the loop is not waiting. */
  private wakeThen: (() => void) | undefined;
  /** Cancels the wait's timer, when it has one; `idleAt` is when it is set for (a clock's own timer). */
  private idleCancel: (() => void) | undefined;
  private idleAt = 0;
  private wakePending = false;
  private ended = false;
  private settleRun: { resolve: (result: CrawlResult) => void; reject: (err: unknown) => void } | undefined;
  private readonly onStop = (): void => this.requestStop();
  private eventBuffer: CrawlEvent[] | undefined;
  /** Pages to read once their host's next request is on its way (see CrawlOptions.defer), in order. */
  private readonly deferred: Array<() => void> = [];
  private lastProgressAt: number | undefined;
  /** Records not yet final (state other than 'done'). */
  private unfinished = 0;
  /** More than one request in flight per host: new starts wait for the end of the instant (endOfInstant). */
  private readonly sharedHosts: boolean;

  constructor(private readonly o: ResolvedCrawlOptions) {
    this.clock = o.clock;
    this.sharedHosts = o.perHostConcurrency > 1;
    this.emitting = o.emit !== undefined;
    this.stats = new CrawlStats(this.clock.now());
    this.frontier = new Frontier<UrlRecord>({
      delayFrom: o.delayFrom,
      perHostConcurrency: o.perHostConcurrency,
      exempt: (r) => r.attempts > 0 || r.continuation,
      mayStartNew: () => this.gateOpen,
    });
  }

  /**
   * Starts the crawl and returns its result. The first turn of the loop runs at once; after that the loop
   * runs whenever it is woken (see step), so no promise is made per turn.
   */
  run(): Promise<CrawlResult> {
    return new Promise<CrawlResult>((resolve, reject) => {
      this.settleRun = { resolve, reject };
      try {
        this.begin();
      } catch (err) {
        this.end({ error: err });
        return;
      }
      this.step();
    });
  }

  private begin(): void {
    const stop = this.o.stop;
    const seeds = this.o.seeds;
    // Each seed's host when it is a canonical URL (so that admit need not look again), else undefined.
    const canonical = new Array<string | undefined>(seeds.length);
    for (let i = 0; i < seeds.length; i++) {
      const host = (canonical[i] = canonicalHttpHost(seeds[i]!.trim())) ?? seedHost(seeds[i]!);
      if (host !== undefined) this.seedHosts.add(host);
    }
    if (stop?.aborted) this.stopping = true;
    const ctx: AdmitContext = { depth: 0, hops: 0, continuation: false, seed: true };
    for (let i = 0; i < seeds.length; i++) this.admit(seeds[i]!, undefined, ctx, canonical[i]);
    stop?.addEventListener('abort', this.onStop);
    this.updateGate();
  }

  // -------------------------------------------------------------------------------------------------
  // The loop
  // -------------------------------------------------------------------------------------------------

  private dispatch(): void {
    if (this.stopping || this.fatal) return;
    const now = this.clock.now();
    while (this.inFlight < this.o.concurrency) {
      const taken = this.frontier.takeReady(now);
      if (!taken) break;
      if (taken.item.robotsRelease) this.startRobots(taken.slot, taken.item, taken.previousStartAt, now);
      else this.start(taken.slot, taken.item, taken.previousStartAt, now);
    }
  }

  /**
   * Lets the clock's current instant run out: every response that ended at this instant is handled
   * before anything new starts. With more than one request in flight per host, two of a host's
   * responses can end at the same instant; were the first (a 301) to free a slot and start the host's
   * next request at once, a Retry-After in the second (a 429) would pause the host from an instant
   * that already holds a start. With one request per host this cannot happen (a host starts again only
   * after its one response is handled), so no turn is spent there.
   */
  private endOfInstant(then: () => void): void {
    this.timer(0, then);
  }

  private finished(): boolean {
    if (this.deferred.length > 0 || this.inFlight > 0) return false;
    if (this.stopping) return true;
    if (this.checking.size > 0) return false;
    return this.frontier.queued === 0 || this.frontier.nextReadyAt() === undefined;
  }

  /** Ms until the next host is ready, or undefined to wait only for a wake-up (slots full, nothing ready). */
  private wakeDelay(): number | undefined {
    if (this.stopping || this.inFlight >= this.o.concurrency) return undefined;
    const at = this.frontier.nextReadyAt();
    if (at === undefined) return undefined;
    return Math.min(Math.max(0, at - this.clock.now()), MAX_TIMER_MS);
  }

  /**
   * The loop: start what may start, then wait for a wake-up (a response, a robots.txt answer, a stop) or
   * the next host's time. The wait's end posts the loop again on the clock's `post` (a microtask by
   * default), as the continuation of an `await` would run.
   */
  private readonly step = (): void => {
    if (this.ended) return;
    try {
      if (this.fatal) {
        if (this.inFlight === 0) {
          this.end(undefined);
          return;
        }
        this.idle(undefined, this.step);
        return;
      }
      this.dispatch();
      if (this.finished()) {
        this.end(undefined);
        return;
      }
      this.idle(this.wakeDelay(), this.sharedHosts ? this.afterInstant : this.step);
    } catch (err) {
      this.end({ error: err });
    }
  };

  /** With more than one request in flight per host, the loop goes on only once the instant has run out (endOfInstant). */
  private readonly afterInstant = (): void => {
    if (this.ended) return;
    this.endOfInstant(this.step);
  };

  /** The crawl is over (or failed inside the loop): clean up, then settle run()'s promise. */
  private end(thrown: { error: unknown } | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.cancelIdle();
    const settle = this.settleRun!;
    try {
      this.o.stop?.removeEventListener('abort', this.onStop);
      this.graceAbort?.abort();
      this.abortRobots();
      if (thrown) throw thrown.error;
      this.runDeferred();
      if (this.fatal) throw this.fatal.error;
      settle.resolve(this.finish());
    } catch (err) {
      settle.reject(err);
    }
  }

  /** The signal handed to the robots.txt gate's calls. */
  private get robotsSignal(): AbortSignal {
    if (this.robotsAbortController === undefined) {
      this.robotsAbortController = new AbortController();
      if (this.robotsAborted) this.robotsAbortController.abort();
    }
    return this.robotsAbortController.signal;
  }

  private abortRobots(): void {
    this.robotsAborted = true;
    this.robotsAbortController?.abort();
  }

  /** Runs `task` after a wait is over, as the continuation of an `await` would run. */
  private post(task: () => void): void {
    if (this.clock.post) this.clock.post(task);
    else void Promise.resolve().then(task);
  }

  /** Calls `task` after `ms` of the clock's time unless cancelled; the clock's own timer when it has one. */
  private timer(ms: number, task: () => void): () => void {
    if (this.clock.setTimer) return this.clock.setTimer(ms, task);
    const controller = new AbortController();
    this.clock.sleep(ms, controller.signal).then(task, () => undefined);
    return () => controller.abort(IDLE_OVER);
  }

  /** Waits for a wake-up, or `ms` of the clock's time when given, then posts `then`. */
  private idle(ms: number | undefined, then: () => void): void {
    if (this.wakePending) {
      this.wakePending = false;
      this.post(then);
      return;
    }
    this.wakeThen = then;
    if (this.clock.setTimer) {
      // A clock's own timer stays set across wake-ups while the loop wants the same time (one per host start,
      // not one per response); a wake-up leaves it, a new time replaces it, and a wait for a wake-up alone
      // (every slot busy) leaves it too: should it fire first, the loop only looks again.
      if (ms === undefined) return;
      const at = this.clock.now() + ms;
      if (this.idleCancel !== undefined && this.idleAt === at) return;
      this.cancelIdle();
      this.idleAt = at;
      this.idleCancel = this.clock.setTimer(ms, this.onIdleTimer);
      return;
    }
    this.cancelIdle();
    if (ms !== undefined) this.idleCancel = this.timer(ms, this.onIdleTimer);
  }

  private readonly onIdleTimer = (): void => {
    this.idleCancel = undefined;
    this.wakeUp();
  };

  /** Ends the wait in hand and posts what was to follow it (a sleep's timer is cancelled; a clock's own one stays). */
  private wakeUp(): void {
    const then = this.wakeThen;
    if (then === undefined) return;
    this.wakeThen = undefined;
    if (!this.clock.setTimer) this.cancelIdle();
    this.post(then);
  }

  private cancelIdle(): void {
    const cancel = this.idleCancel;
    if (cancel === undefined) return;
    this.idleCancel = undefined;
    cancel();
  }

  private wake(): void {
    if (this.wakeThen) this.wakeUp();
    else this.wakePending = true;
  }

  private requestStop(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.abortRobots();
    if (this.inFlight > 0) {
      const grace = new AbortController();
      this.graceAbort = grace;
      this.clock.sleep(this.o.graceMs, grace.signal).then(
        () => {
          this.abortInFlight();
        },
        () => undefined,
      );
    }
    this.wake();
  }

  /** Aborts every request in flight (a stop's grace is over, or the crawl failed). */
  private abortInFlight(): void {
    for (const controller of this.controllers.values()) controller.abort();
    if (this.inFlight > this.controllers.size) this.sharedRequests.abort();
  }

  private failCrawl(error: unknown): void {
    if (this.fatal) return;
    this.fatal = { error };
    this.eventBuffer = undefined;
    this.abortInFlight();
    this.abortRobots();
    this.wake();
  }

  // -------------------------------------------------------------------------------------------------
  // Meeting URLs
  // -------------------------------------------------------------------------------------------------

  /**
   * Meets a URL: resolves, normalises (fragment dropped), dedupes and scope-checks it, records it, and for
   * an in-scope URL emits `queued` and sends it through robots.txt into its host's queue.
   */
  private admit(
    raw: string,
    base: string | undefined,
    ctx: AdmitContext,
    canonicalHost?: string,
  ): { queued: boolean; url?: string; why?: string } {
    const text = raw.trim();
    let url: string;
    let host: string | undefined = canonicalHost ?? canonicalHttpHost(text);
    if (host !== undefined) {
      url = text;
    } else {
      let u: URL;
      try {
        u = base === undefined ? new URL(text) : new URL(text, base);
      } catch {
        return this.refuse(text, '', ctx, 'out-of-scope', 'invalid-url');
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') {
        u.hash = '';
        return this.refuse(u.href, '', ctx, 'out-of-scope', 'scheme');
      }
      // Only a fragment puts '#' in a serialized URL; setting `hash` re-parses, so it is done only then.
      url = u.href;
      if (url.includes('#')) {
        u.hash = '';
        url = u.href;
      }
      host = u.host;
    }
    if (this.records.has(url)) return { queued: false, url, why: 'already-met' };
    // One string per host, however many URLs it has (the frontier's name for it).
    const known = this.frontier.get(host);
    if (known) host = known.name;
    if (
      !ctx.seed &&
      !this.o.allowOtherHosts &&
      !(ctx.continuation && this.o.followOtherHostRedirects) &&
      !this.seedHosts.has(host)
    ) {
      return this.refuse(url, host, ctx, 'out-of-scope', 'other-host');
    }
    if (ctx.depth > this.o.maxDepth) return this.refuse(url, host, ctx, 'out-of-scope', 'depth');
    if (ctx.hops > this.o.maxRedirects) return this.refuse(url, host, ctx, 'out-of-scope', 'redirect-limit');
    if (this.stopping) return this.refuse(url, host, ctx, 'not-started', 'stopped');
    if (!ctx.continuation && this.stats.pages >= this.o.maxPages) {
      this.stats.notStartedByMaxPages++;
      return this.refuse(url, host, ctx, 'not-started', 'max-pages');
    }
    const rec = this.record(url, host, ctx);
    rec.inChain = ctx.continuation;
    if (this.emitting)
      this.emit({
        type: 'queued',
        at: this.clock.now(),
        url,
        host,
        depth: rec.depth,
        ...(rec.from === undefined ? {} : { from: rec.from }),
      });
    const slot = this.ensureHost(host);
    if (slot.dropped) this.finalizeForDroppedHost(slot, rec);
    else this.checkRobots(rec);
    return { queued: true, url };
  }

  private refuse(
    url: string,
    host: string,
    ctx: AdmitContext,
    outcome: UrlOutcome,
    why: string,
  ): { queued: false; url: string; why: string } {
    if (!this.records.has(url)) {
      const rec = this.record(url, host, ctx);
      this.finalize(rec, outcome, why);
    }
    return { queued: false, url, why };
  }

  private record(url: string, host: string, ctx: AdmitContext): UrlRecord {
    const rec = new UrlRecord(url, host, ctx.depth, ctx.from, ctx.hops, ctx.continuation);
    this.records.set(url, rec);
    this.order.push(rec);
    this.unfinished++;
    return rec;
  }

  private ensureHost(host: string): HostSlot<UrlRecord> {
    const existing = this.frontier.get(host);
    if (existing) return existing;
    const rate = new HostRate({
      configuredSeconds: this.o.delaySeconds,
      crawlDelayPolicy: this.o.crawlDelayPolicy,
      maxCrawlDelaySeconds: this.o.maxCrawlDelaySeconds,
      adaptive: this.o.adaptive,
      increaseFactor: this.o.rateIncreaseFactor,
      recoveryFactor: this.o.rateRecoveryFactor,
      maxIntervalSeconds: this.o.maxRaisedIntervalSeconds,
      minRaisedSeconds: 1,
    });
    const bucket = this.o.tokenBucket
      ? new TokenBucket(
          { ratePerSecond: this.o.tokenBucket.ratePerSecond, capacity: this.o.tokenBucket.burst },
          this.clock.now(),
        )
      : undefined;
    this.stats.addHost(host);
    return this.frontier.add(host, rate, bucket);
  }

  /**
   * Asks robots.txt about the URL, then queues it (or records the skip). What the gate can answer from
   * what it holds (`peek`) is decided at once; otherwise the questions of one origin go one at a time, and
   * when the gate would have to fetch the origin's robots.txt, the URL first carries that request through
   * its host's queue (see startRobots), so robots.txt is a request on the host's timeline like any other.
   */
  private checkRobots(rec: UrlRecord): void {
    rec.state = 'checking';
    const gate = this.o.robots;
    if (!gate) {
      this.robotsDecided(rec, ALLOWED);
      return;
    }
    if (gate.peek && (this.originChains.size === 0 || !this.originChains.has(rec.origin))) {
      const known = gate.peek(rec.url);
      if (known) {
        this.decideAtHand(rec, known);
        return;
      }
    }
    // The answer takes a turn (or a request): meanwhile the URL is being checked.
    this.checking.add(rec);
    const origin = rec.origin;
    const previous = this.originChains.get(origin) ?? Promise.resolve();
    const next = previous.then(async () => {
      // After a stop nothing more is asked (the URL ends as not started).
      if (rec.state !== 'checking' || this.fatal || this.stopping) return;
      if (gate.peek) {
        const known = gate.peek(rec.url);
        if (!known) {
          await this.carryRobots(rec);
          return;
        }
        this.decideAtHand(rec, known);
      } else {
        let decision: RobotsDecision;
        try {
          decision = await gate(rec.url, this.robotsSignal);
        } catch (err) {
          decision = {
            verdict: 'disallowed',
            outcome: 'unreachable',
            detail: `robots.txt check failed: ${errorMessage(err)}`,
          };
        }
        if (rec.state !== 'checking' || this.fatal) return;
        this.decideAtHand(rec, decision);
      }
      this.updateGate();
      this.wake();
    });
    const chain: Promise<void> = next.then(
      () => this.endChain(origin, chain),
      (err: unknown) => {
        this.endChain(origin, chain);
        this.failCrawl(err);
      },
    );
    this.originChains.set(origin, chain);
  }

  /** Forgets an origin's chain once its last question is answered (later ones may then be decided at once). */
  private endChain(origin: string, chain: Promise<void>): void {
    if (this.originChains.get(origin) === chain) this.originChains.delete(origin);
  }

  /** A decision that took no request of this run (robots.txt at hand, or a gate without `peek`). */
  private decideAtHand(rec: UrlRecord, decision: RobotsDecision): void {
    const slot = this.frontier.get(rec.host)!;
    this.robotsDecided(rec, decision);
    if (decision.fetch && !slot.dropped) this.spaceAfterRobots(slot, decision.fetch);
  }

  /**
   * Puts the URL into its host's queue as the carrier of its origin's robots.txt request; resolves when
   * that request is decided, or the URL leaves the run first (then the origin's next URL carries it).
   */
  private carryRobots(rec: UrlRecord): Promise<void> {
    return new Promise<void>((release) => {
      this.checking.delete(rec);
      const slot = this.frontier.get(rec.host)!;
      rec.robotsRelease = release;
      if (slot.dropped) {
        this.finalizeForDroppedHost(slot, rec);
        return;
      }
      rec.state = 'queued';
      this.frontier.enqueue(slot, rec, 'front');
      this.wake();
    });
  }

  /**
   * Keeps the host's next start at least its interval (Crawl-delay included) after a robots.txt request
   * that did not go through its queue: one fetched before this run (a cache) holds nothing back when it
   * is long past, and holds the first page back when it was a moment ago. Both readings.
   */
  private spaceAfterRobots(slot: HostSlot<UrlRecord>, fetch: RobotsFetch): void {
    const interval = intervalMs(slot.rate.intervalSeconds);
    let until = Math.max(fetch.sentAt ?? fetch.startedAt, fetch.startedAt) + interval;
    if (this.o.delayFrom === 'end') until = Math.max(until, fetch.endedAt + interval);
    if (until > this.clock.now()) this.frontier.pause(slot, until);
  }

  private robotsDecided(
    rec: UrlRecord,
    decision: RobotsDecision,
    where: 'front' | 'back' = rec.continuation ? 'front' : 'back',
  ): void {
    this.checking.delete(rec);
    const slot = this.frontier.get(rec.host)!;
    if (slot.dropped) {
      this.finalizeForDroppedHost(slot, rec);
      return;
    }
    if (decision.outcome === 'unreachable') {
      this.dropHost(slot, 'robots-unreachable', decision.detail ?? `robots.txt of ${rec.origin} is unreachable`, rec);
      return;
    }
    if (decision.crawlDelaySeconds !== undefined) {
      const plan = slot.rate.mergeCrawlDelay(decision.crawlDelaySeconds);
      if (plan.skipped) {
        const above = plan.crawlDelayAboveCap;
        this.dropHost(
          slot,
          'crawl-delay-above-cap',
          `Crawl-delay ${above?.declaredSeconds ?? decision.crawlDelaySeconds} s is above the cap of ${above?.capSeconds ?? this.o.maxCrawlDelaySeconds} s`,
          rec,
        );
        return;
      }
      this.frontier.refresh(slot);
    }
    if (decision.fetch !== undefined && rec.url.endsWith('/robots.txt') && rec.url === `${rec.origin}/robots.txt`) {
      // The origin's own robots.txt (always allowed, RFC 9309 §2.2.2): the robots.txt request behind this
      // decision answered it, so it is not fetched again, and it is not a page (no page request was made).
      if (decision.fetch.status !== undefined) rec.status = decision.fetch.status;
      this.finalize(rec, 'fetched', 'answered by its robots.txt request');
      return;
    }
    if (decision.verdict === 'disallowed') {
      this.stats.robotsSkip(rec.host);
      this.emit({
        type: 'robots-skip',
        at: this.clock.now(),
        url: rec.url,
        host: rec.host,
        ...(decision.line === undefined ? {} : { line: decision.line }),
        ...(decision.rule === undefined ? {} : { rule: decision.rule }),
        reason: 'disallowed',
      });
      const where =
        decision.line === undefined
          ? undefined
          : `robots.txt line ${decision.line}${decision.rule ? `: ${decision.rule}` : ''}`;
      this.finalize(rec, 'robots-disallowed', where);
      return;
    }
    rec.state = 'queued';
    this.frontier.enqueue(slot, rec, where);
  }

  /**
   * The carrier's turn on its host: ask the gate, which fetches robots.txt. The frontier has recorded this
   * as the host's start, and it holds a global slot, like a page request.
   */
  private startRobots(
    slot: HostSlot<UrlRecord>,
    rec: UrlRecord,
    previousStartAt: number | undefined,
    now: number,
  ): void {
    const gate = this.o.robots!;
    const release = rec.robotsRelease;
    rec.robotsRelease = undefined;
    const done = (): void => {
      release?.();
      this.wake();
    };
    // Another caller may have fetched it since the URL was queued: then there is no request to make (the
    // start the frontier recorded stays: the host waits one interval more, never less).
    const known = gate.peek?.(rec.url);
    if (known) {
      this.frontier.end(slot, now);
      this.robotsDecided(rec, known, 'front');
      if (!slot.dropped) this.frontier.refresh(slot);
      this.updateGate();
      done();
      return;
    }
    rec.state = 'in-flight';
    const robotsUrl = `${rec.origin}/robots.txt`;
    this.stats.started(slot.name, now);
    const controller = new AbortController();
    this.inFlight++;
    this.controllers.set(rec, controller);
    const settle = (decision: RobotsDecision): void => {
      this.inFlight--;
      this.controllers.delete(rec);
      this.runDeferred();
      try {
        const end = this.clock.now();
        // A gate that gave no details (or was stopped) still closes the request it started.
        const fetch: RobotsFetch = decision.fetch ?? {
          url: robotsUrl,
          startedAt: now,
          endedAt: end,
          error: {
            kind: this.robotsSignal.aborted ? 'aborted' : 'other',
            message: decision.detail ?? 'robots.txt check ended without a response',
          },
          bytes: 0,
          truncated: false,
          fetchedNow: true,
        };
        // The response ended when the fetch says (parsing came after): the end reading counts from then.
        this.frontier.end(slot, Math.min(end, Math.max(fetch.endedAt, fetch.sentAt ?? fetch.endedAt)), fetch.sentAt);
        this.reportRobotsRequest(slot, fetch, end);
        if (this.fatal) this.finalize(rec, 'failed', 'crawl failed');
        else if (this.stopping && decision.outcome === 'unreachable') this.finalize(rec, 'not-started', 'stopped');
        else this.robotsDecided(rec, decision, 'front');
        if (!slot.dropped) this.frontier.refresh(slot);
        this.updateGate();
      } catch (err) {
        this.failCrawl(err);
      }
      done();
    };
    let pending: Promise<RobotsDecision>;
    try {
      pending = Promise.resolve(gate(rec.url, this.robotsSignal));
    } catch (err) {
      pending = Promise.reject(err);
    }
    // The request is on its way: now say so (the event sink's work does not delay it).
    this.emit({
      type: 'request-start',
      at: now,
      url: robotsUrl,
      host: rec.host,
      method: 'GET',
      attempt: 1,
      intervalSeconds: slot.rate.intervalSeconds,
      intervalSource: slot.rate.source,
      ...(previousStartAt === undefined ? {} : { sinceLastStartSeconds: (now - previousStartAt) / 1000 }),
      robotsTxt: true,
    });
    pending.then(settle, (err: unknown) =>
      settle({
        verdict: 'disallowed',
        outcome: 'unreachable',
        detail: `robots.txt check failed: ${errorMessage(err)}`,
      }),
    );
  }

  /** A robots.txt request's outcome in the event stream and the counts: a response (any status) or an error. */
  private reportRobotsRequest(slot: HostSlot<UrlRecord>, fetch: RobotsFetch, at: number): void {
    const sent = fetch.sentAt !== undefined ? { sentAt: fetch.sentAt } : {};
    if (fetch.status === undefined) {
      this.stats.error(slot.name);
      const error = fetch.error ?? { kind: 'other' as const, message: 'no response' };
      this.emit({
        type: 'error',
        at,
        url: fetch.url,
        host: slot.name,
        attempt: 1,
        kind: error.kind,
        message: error.message,
        startedAt: fetch.startedAt,
        ...sent,
        willRetry: false,
        robotsTxt: true,
      });
      return;
    }
    this.stats.status(fetch.status);
    this.emit({
      type: 'response',
      at,
      url: fetch.url,
      host: slot.name,
      status: fetch.status,
      attempt: 1,
      startedAt: fetch.startedAt,
      ...sent,
      latencyMs: Math.max(0, fetch.endedAt - fetch.startedAt),
      bytes: fetch.bytes,
      truncated: fetch.truncated,
      linksQueued: 0,
      intervalSeconds: slot.rate.intervalSeconds,
      intervalSource: slot.rate.source,
      robotsTxt: true,
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Requests
  // -------------------------------------------------------------------------------------------------

  private start(slot: HostSlot<UrlRecord>, rec: UrlRecord, previousStartAt: number | undefined, now: number): void {
    rec.attempts++;
    rec.state = 'in-flight';
    rec.notBefore = 0;
    if (!rec.inChain) {
      rec.inChain = true;
      this.activeChains++;
    }
    this.stats.started(slot.name, now);
    const startFetch = this.o.startFetch;
    if (startFetch) {
      // The callback road (a simulation on its own clock): no promise and no AbortController per request.
      const shared = this.sharedRequests;
      this.inFlight++;
      let answered = false;
      const done = (result: PageResult): void => {
        if (answered) return;
        answered = true;
        this.settleRequest(slot, rec, normaliseResult(result, now, this.clock.now()));
      };
      try {
        startFetch({ url: rec.url, host: rec.host, attempt: rec.attempts, signal: shared.signal }, done);
      } catch (err) {
        // As a fetcher that rejects: the result comes in a later turn, never inside start().
        const endedAt = this.clock.now();
        this.post(() =>
          done({
            error: { kind: shared.signal.aborted ? 'aborted' : 'other', message: errorMessage(err) },
            startedAt: now,
            endedAt,
          }),
        );
      }
      if (this.emitting) this.emitRequestStart(slot, rec, previousStartAt, now);
      this.updateGate();
      return;
    }
    const controller = new AbortController();
    this.inFlight++;
    this.controllers.set(rec, controller);
    let pending: Promise<PageResult>;
    try {
      pending = Promise.resolve(
        this.o.fetch!({ url: rec.url, host: rec.host, attempt: rec.attempts, signal: controller.signal }),
      );
    } catch (err) {
      pending = Promise.reject(err);
    }
    // The request is on its way: now say so (the event sink's work does not delay it).
    if (this.emitting) this.emitRequestStart(slot, rec, previousStartAt, now);
    this.updateGate();
    pending
      .then(
        (result) => normaliseResult(result, now, this.clock.now()),
        (err: unknown): PageFailure => ({
          error: { kind: controller.signal.aborted ? 'aborted' : 'other', message: errorMessage(err) },
          startedAt: now,
          endedAt: this.clock.now(),
        }),
      )
      .then((result) => this.settleRequest(slot, rec, result));
  }

  private emitRequestStart(
    slot: HostSlot<UrlRecord>,
    rec: UrlRecord,
    previousStartAt: number | undefined,
    now: number,
  ): void {
    this.emit({
      type: 'request-start',
      at: now,
      url: rec.url,
      host: rec.host,
      method: 'GET',
      attempt: rec.attempts,
      intervalSeconds: slot.rate.intervalSeconds,
      intervalSource: slot.rate.source,
      ...(previousStartAt === undefined ? {} : { sinceLastStartSeconds: (now - previousStartAt) / 1000 }),
    });
  }

  /** A request's result is in: the request leaves the slots, the result is handled, the loop is woken. */
  private settleRequest(slot: HostSlot<UrlRecord>, rec: UrlRecord, result: PageResult): void {
    this.inFlight--;
    this.controllers.delete(rec);
    try {
      this.complete(slot, rec, result);
    } catch (err) {
      this.failCrawl(err);
    }
    this.wake();
  }

  private complete(slot: HostSlot<UrlRecord>, rec: UrlRecord, result: PageResult): void {
    this.runDeferred();
    const now = this.clock.now();
    this.frontier.end(slot, now, result.sentAt);
    if (this.fatal) {
      this.finalize(rec, 'failed', 'crawl failed');
      return;
    }
    if ('error' in result) this.onError(slot, rec, result, now);
    else this.onResponse(slot, rec, result, now);
    if (!slot.dropped) this.frontier.refresh(slot);
    this.updateGate();
    this.maybeProgress(now, false);
  }

  private onError(slot: HostSlot<UrlRecord>, rec: UrlRecord, result: PageFailure, now: number): void {
    const { kind, message } = result.error;
    const st = this.stats.host(slot.name);
    this.stats.error(slot.name);
    if (isThrottleError(kind) && !slot.dropped) slot.rate.onThrottle('backoff');
    // Our own stop aborting a request says nothing about the host.
    const giveUp = !slot.dropped && !this.stopping && this.countFailure(st);
    const wouldRetry = isRetryableError(kind) && rec.attempts <= this.o.maxRetries && !this.stopping;
    const willRetry = wouldRetry && !giveUp && !slot.dropped;
    this.emit({
      type: 'error',
      at: now,
      url: rec.url,
      host: rec.host,
      attempt: rec.attempts,
      kind,
      message,
      startedAt: result.startedAt,
      ...(result.sentAt !== undefined ? { sentAt: result.sentAt } : {}),
      willRetry,
    });
    const detail = `${kind}: ${message}`;
    if (willRetry) {
      rec.detail = detail;
      this.scheduleRetry(slot, rec, now + this.backoff(rec), kind);
      return;
    }
    this.endFailedAttempt(slot, rec, st, detail, {
      wouldRetry,
      dropHost: giveUp,
      failedDetail: this.stopping && kind === 'aborted' ? 'aborted: crawl stopped' : detail,
    });
  }

  /**
   * A failed attempt (an error, a 429 or a 5xx) that is not retried: the host is dropped when its failures
   * in a row reached the limit (`dropHost`); the URL fails, or, when it would have been retried, goes with
   * its dropped host.
   */
  private endFailedAttempt(
    slot: HostSlot<UrlRecord>,
    rec: UrlRecord,
    st: HostStats,
    detail: string,
    end: { wouldRetry: boolean; dropHost: boolean; failedDetail: string },
  ): void {
    const why = `${st.consecutiveFailures} consecutive failures (last: ${detail})`;
    if (end.wouldRetry && (end.dropHost || slot.dropped)) {
      rec.detail = detail;
      if (end.dropHost) this.dropHost(slot, 'consecutive-failures', why, rec);
      else this.finalizeForDroppedHost(slot, rec);
      return;
    }
    this.finalize(rec, 'failed', end.failedDetail);
    if (end.dropHost) this.dropHost(slot, 'consecutive-failures', why);
  }

  private onResponse(slot: HostSlot<UrlRecord>, rec: UrlRecord, result: PageSuccess, now: number): void {
    const status = result.status;
    rec.status = status;
    this.stats.status(status);
    const latencyMs = Math.max(0, result.endedAt - result.startedAt);
    slot.rate.recordLatency(latencyMs / 1000);
    const responseEvent = !this.emitting
      ? noEvent
      : (linksQueued: number, location?: string): CrawlEvent => ({
          type: 'response' as const,
          url: rec.url,
          host: rec.host,
          status,
          attempt: rec.attempts,
          startedAt: result.startedAt,
          ...(result.sentAt !== undefined ? { sentAt: result.sentAt } : {}),
          latencyMs,
          bytes: result.bytes,
          truncated: result.truncated,
          at: now,
          ...(location === undefined ? {} : { location }),
          linksQueued,
          intervalSeconds: slot.rate.intervalSeconds,
          intervalSource: slot.rate.source,
        });

    if (isThrottleStatus(status)) {
      this.onThrottleResponse(slot, rec, result, now, () => responseEvent(0));
      return;
    }
    this.stats.host(slot.name).consecutiveFailures = 0;
    slot.rate.onSuccess();

    const locationRaw = result.location ?? result.headers['location'];
    if (isRedirectStatus(status) && locationRaw !== undefined && locationRaw.trim() !== '') {
      this.eventBuffer = [];
      const target = this.admit(locationRaw, rec.url, {
        depth: rec.depth,
        from: rec.url,
        hops: rec.hops + 1,
        continuation: true,
        seed: false,
      });
      this.finalize(rec, 'redirected', target.queued ? undefined : `not followed: ${target.why}`, target.queued);
      this.flushWith(responseEvent(target.queued ? 1 : 0, target.url));
      return;
    }

    this.finalize(rec, 'fetched', undefined);
    const html =
      this.o.extractLinks &&
      status >= 200 &&
      status < 300 &&
      isHtml(result.contentType ?? result.headers['content-type'])
        ? result.body
        : undefined;
    const given = result.links;
    if (html === undefined && given === undefined) {
      if (this.emitting) this.emit(responseEvent(0));
      return;
    }
    if (this.o.defer && !this.sharedHosts) {
      // The host's next request first: it goes out while this page is read (not with several requests
      // in flight per host: a response of this same instant may still pause the host, see endOfInstant). Its events wait for this
      // page's response event, and every later completion reads the pages put off before it.
      this.eventBuffer = [];
      this.frontier.refresh(slot);
      this.updateGate();
      const before = this.inFlight;
      this.dispatch();
      const held = this.eventBuffer;
      this.eventBuffer = undefined;
      if (this.inFlight > before) {
        this.later(() => this.readPage(rec, html, given, responseEvent, held));
        return;
      }
      this.readPage(rec, html, given, responseEvent, held);
      return;
    }
    this.readPage(rec, html, given, responseEvent, []);
  }

  /**
   * Queues the links of a fetched page (those the fetcher gave, then the body's), then emits its response
   * event, the held events and the links' events.
   */
  private readPage(
    rec: UrlRecord,
    html: string | undefined,
    given: readonly string[] | undefined,
    responseEvent: (linksQueued: number) => CrawlEvent,
    held: readonly CrawlEvent[],
  ): void {
    if (this.fatal) return;
    this.eventBuffer = [];
    let linksQueued = 0;
    let links: readonly string[] = given ?? [];
    if (html !== undefined) {
      try {
        const found = this.o.extractLinks!(html, rec.url);
        links = given === undefined ? found : [...given, ...found];
      } catch {
        // A page whose links cannot be read adds none.
      }
    }
    for (const link of links) {
      if (
        typeof link === 'string' &&
        this.admit(link, rec.url, { depth: rec.depth + 1, from: rec.url, hops: 0, continuation: false, seed: false })
          .queued
      )
        linksQueued++;
    }
    const found = this.eventBuffer ?? [];
    this.eventBuffer = undefined;
    this.emit(responseEvent(linksQueued));
    for (const event of held) this.emit(event);
    for (const event of found) this.emit(event);
  }

  /** Puts `task` off until the I/O started now has gone out (CrawlOptions.defer). */
  private later(task: () => void): void {
    this.deferred.push(task);
    if (this.deferred.length > 1) return;
    this.o.defer!(() => {
      this.runDeferred();
      this.updateGate();
      this.wake();
    });
  }

  /** Runs the work put off so far, in order (also before any completion, so events stay in order). */
  private runDeferred(): void {
    while (this.deferred.length > 0) {
      const task = this.deferred.shift()!;
      try {
        task();
      } catch (err) {
        this.failCrawl(err);
      }
    }
  }

  /** 429 and 5xx: Retry-After, the rate raise, retry or give up. */
  private onThrottleResponse(
    slot: HostSlot<UrlRecord>,
    rec: UrlRecord,
    result: PageSuccess,
    now: number,
    responseEvent: () => CrawlEvent,
  ): void {
    const status = result.status;
    const st = this.stats.host(slot.name);
    let retryAfter: RetryAfter | undefined;
    const raw = readsRetryAfter(status) ? result.headers['retry-after'] : undefined;
    if (raw !== undefined) {
      retryAfter = parseRetryAfter(raw, now, {
        capSeconds: this.o.retryAfterCapSeconds,
        ...(result.headers['date'] === undefined ? {} : { dateHeader: result.headers['date'] }),
      });
      this.stats.retryAfter(slot.name, raw);
    }
    const valid = retryAfter !== undefined && retryAfter.kind !== 'invalid';
    if (!slot.dropped) slot.rate.onThrottle(valid ? 'retry-after' : 'backoff');

    if (valid && retryAfter!.capped && !slot.dropped) {
      this.emit(responseEvent());
      const asked = Math.round(retryAfter!.requestedMs / 1000);
      this.dropHost(
        slot,
        'retry-after-above-cap',
        `Retry-After: ${raw!.trim()} (${asked} s) is above the cap of ${this.o.retryAfterCapSeconds} s`,
        rec,
      );
      return;
    }

    const giveUp = !slot.dropped && this.countFailure(st);
    const wouldRetry = isRetryableStatus(status) && rec.attempts <= this.o.maxRetries && !this.stopping;
    const willRetry = wouldRetry && !giveUp && !slot.dropped;
    this.emit(responseEvent());

    let pausedUntil: number | undefined;
    if (valid && !slot.dropped) {
      pausedUntil = now + retryAfter!.delayMs;
      this.frontier.pause(slot, pausedUntil);
      this.emit({ type: 'host-paused', at: now, host: slot.name, until: pausedUntil, retryAfter: raw!, status });
    }
    const detail = `status ${status}`;
    if (willRetry) {
      const notBefore = pausedUntil ?? now + this.backoff(rec);
      this.scheduleRetry(
        slot,
        rec,
        notBefore,
        pausedUntil !== undefined ? `status ${status}, Retry-After: ${raw!.trim()}` : detail,
      );
      return;
    }
    const failedDetail = isRetryableStatus(status)
      ? `${detail}${this.stopping ? ' (stopped before a retry)' : ' after retries'}`
      : detail;
    this.endFailedAttempt(slot, rec, st, detail, { wouldRetry, dropHost: giveUp, failedDetail });
  }

  private countFailure(st: HostStats): boolean {
    st.consecutiveFailures++;
    return st.consecutiveFailures >= this.o.maxConsecutiveFailures;
  }

  private backoff(rec: UrlRecord): number {
    return backoffDelayMs(
      rec.attempts - 1,
      { baseMs: this.o.backoffBaseMs, capMs: this.o.backoffCapMs },
      this.o.random,
    );
  }

  /** A retry goes to the BACK of the same host's queue: it waits for the host like any other request. */
  private scheduleRetry(slot: HostSlot<UrlRecord>, rec: UrlRecord, notBefore: number, reason: string): void {
    rec.notBefore = notBefore;
    rec.state = 'queued';
    this.stats.retry(slot.name);
    this.emit({
      type: 'retry-scheduled',
      at: this.clock.now(),
      url: rec.url,
      host: rec.host,
      attempt: rec.attempts + 1,
      notBefore,
      reason,
    });
    this.frontier.enqueue(slot, rec, 'back');
  }

  // -------------------------------------------------------------------------------------------------
  // Outcomes
  // -------------------------------------------------------------------------------------------------

  /** Drops a host for the run; every URL of it that is queued or awaiting robots.txt gets its outcome. */
  private dropHost(
    slot: HostSlot<UrlRecord>,
    reason: HostDroppedEvent['reason'],
    detail: string,
    current?: UrlRecord,
  ): void {
    const st = this.stats.host(slot.name);
    if (slot.dropped) {
      if (current) this.finalizeForDroppedHost(slot, current);
      return;
    }
    const left = this.frontier.drop(slot);
    const checking = [...this.checking].filter((r) => r.host === slot.name && r !== current);
    const all = [...(current ? [current] : []), ...left, ...checking];
    st.dropReason = reason;
    st.dropped = `${reason}: ${detail}`;
    this.emit({ type: 'host-dropped', at: this.clock.now(), host: slot.name, reason, detail, urlsLeft: all.length });
    for (const rec of all) this.finalizeForDroppedHost(slot, rec);
  }

  private finalizeForDroppedHost(slot: HostSlot<UrlRecord>, rec: UrlRecord): void {
    this.checking.delete(rec);
    const st = this.stats.host(slot.name);
    if (st.dropReason === 'robots-unreachable') {
      this.stats.robotsSkip(slot.name);
      this.emit({ type: 'robots-skip', at: this.clock.now(), url: rec.url, host: rec.host, reason: 'unreachable' });
      this.finalize(rec, 'robots-unreachable', st.dropped);
    } else {
      this.finalize(rec, 'host-dropped', st.dropped);
    }
  }

  private finalize(rec: UrlRecord, outcome: UrlOutcome, detail: string | undefined, continued = false): void {
    if (rec.state === 'done') return;
    this.checking.delete(rec);
    const release = rec.robotsRelease;
    if (release) {
      rec.robotsRelease = undefined;
      release();
    }
    rec.state = 'done';
    this.unfinished--;
    rec.outcome = outcome;
    if (detail !== undefined) rec.detail = detail;
    else if (outcome === 'fetched' || outcome === 'redirected') rec.detail = undefined;
    if (rec.inChain && !(outcome === 'redirected' && continued)) this.activeChains--;
    rec.inChain = false;
    // A robots.txt URL answered by its robots.txt request made no page request (attempts 0): not a page.
    if (outcome === 'fetched' && rec.attempts > 0) this.stats.page(rec.host, this.clock.now());
  }

  /** The page budget: new URLs start only while pages + chains in progress < maxPages. */
  private updateGate(): void {
    if (!this.maxPagesReached && this.stats.pages >= this.o.maxPages) {
      this.maxPagesReached = true;
      const cut = (r: UrlRecord): boolean => r.attempts === 0 && !r.continuation;
      const left = [...this.frontier.removeWhere(cut), ...[...this.checking].filter(cut)];
      for (const rec of left) {
        this.stats.notStartedByMaxPages++;
        this.finalize(rec, 'not-started', 'max-pages');
      }
    }
    // The frontier reads the gate through mayStartNew when it takes work: nothing to re-key.
    this.gateOpen = this.stats.pages + this.activeChains < this.o.maxPages;
  }

  // -------------------------------------------------------------------------------------------------
  // Events and the end
  // -------------------------------------------------------------------------------------------------

  private emit(event: CrawlEvent): void {
    if (!this.emitting) return;
    if (this.eventBuffer) {
      this.eventBuffer.push(event);
      return;
    }
    try {
      this.o.emit?.(event);
    } catch (err) {
      this.failCrawl(err);
    }
  }

  /** Emits `first`, then what was buffered while it was being worked out (its `queued` events). */
  private flushWith(first: CrawlEvent): void {
    const buffered = this.eventBuffer ?? [];
    this.eventBuffer = undefined;
    this.emit(first);
    for (const event of buffered) this.emit(event);
  }

  private maybeProgress(now: number, force: boolean): void {
    if (!this.emitting) return;
    if (!force && this.lastProgressAt !== undefined && now - this.lastProgressAt < this.o.progressIntervalMs) return;
    this.lastProgressAt = now;
    const ratePerSecond = this.stats.pageRate(now);
    const pending = this.unfinished;
    const pages = this.stats.pages;
    const planned = Math.min(this.o.maxPages, pages + pending);
    const remaining = Math.max(0, planned - pages);
    const etaSeconds = remaining === 0 ? 0 : ratePerSecond > 0 ? remaining / ratePerSecond : undefined;
    this.emit({
      type: 'progress',
      at: now,
      done: pages,
      planned,
      queued: this.frontier.queued + this.checking.size,
      inFlight: this.inFlight,
      ratePerSecond,
      ...(etaSeconds === undefined ? {} : { etaSeconds }),
    });
  }

  private finish(): CrawlResult {
    const now = this.clock.now();
    const why = this.stopping ? 'stopped' : 'not scheduled';
    for (const rec of this.frontier.removeWhere(() => true)) this.finalize(rec, 'not-started', why);
    for (const rec of this.order) if (rec.state !== 'done') this.finalize(rec, 'not-started', why);
    this.maybeProgress(now, true);
    const summary = this.summary(now);
    this.emit({ type: 'done', at: now, summary });
    if (this.fatal) throw this.fatal.error;
    return { summary, urls: this.o.urlOutcomes === false ? [] : this.order.map(toReport) };
  }

  private summary(now: number): CrawlSummary {
    const hosts = [...this.frontier.hosts()].map((slot) => ({ name: slot.name, planned: slot.rate.planned() }));
    return this.stats.summary(now, hosts, {
      stopped: this.stopping,
      plannedSeconds: this.o.plannedSeconds,
      notFollowed: summarizeNotFollowed(this.order),
    });
  }
}

/** robots.txt's answer when there is no gate: everything is allowed. */
const ALLOWED: RobotsDecision = Object.freeze({ verdict: 'allowed' });

/** The response event's stand-in when nobody listens to events (never emitted). */
function noEvent(): CrawlEvent {
  return NO_EVENT;
}
const NO_EVENT: CrawlEvent = { type: 'progress', at: 0, done: 0, planned: 0, queued: 0, inFlight: 0, ratePerSecond: 0 };

/** The host of a seed that is an http(s) URL (its politeness key), else undefined. */
function seedHost(seed: string): string | undefined {
  const text = seed.trim();
  const fast = canonicalHttpHost(text);
  if (fast !== undefined) return fast;
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : undefined;
  } catch {
    return undefined;
  }
}

function toReport(rec: UrlRecord): UrlReport {
  return {
    url: rec.url,
    host: rec.host,
    outcome: rec.outcome ?? 'not-started',
    ...(rec.status === undefined ? {} : { status: rec.status }),
    attempts: rec.attempts,
    depth: rec.depth,
    ...(rec.from === undefined ? {} : { from: rec.from }),
    ...(rec.detail === undefined ? {} : { detail: rec.detail }),
  };
}

/** Guards against a fetcher that resolves with something that is not a PageResult. */
function normaliseResult(result: PageResult, startedAt: number, now: number): PageResult {
  if (result && typeof result === 'object') {
    if ('error' in result && result.error && typeof result.error === 'object') return result;
    if ('status' in result && typeof result.status === 'number') {
      if (result.headers && typeof result.bytes === 'number' && typeof result.truncated === 'boolean') return result;
      return {
        ...result,
        headers: result.headers ?? {},
        bytes: result.bytes ?? 0,
        truncated: result.truncated ?? false,
      };
    }
  }
  return { error: { kind: 'other', message: 'the fetcher returned no result' }, startedAt, endedAt: now };
}

function isHtml(contentType: string | undefined): boolean {
  return contentType === undefined || /html/i.test(contentType);
}
