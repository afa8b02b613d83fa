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
import { parseRetryAfter, type RetryAfter } from '../politeness/retryAfter';
import {
  isRedirectStatus,
  isRetryableError,
  isRetryableStatus,
  isThrottleError,
  isThrottleStatus,
  readsRetryAfter,
} from '../politeness/retryPolicy';
import type { CrawlEvent } from './events';
import { resolveCrawlOptions } from './engineOptions';
import { CrawlState, type UrlRecord } from './crawlState';
import type { Frontier, HostSlot } from './frontier';
import { Admission } from './admission';
import { DeferredWork } from './deferredWork';
import { EventStream } from './eventStream';
import { Outcomes } from './outcomes';
import { PageReading } from './pageReading';
import { RobotsTimeline } from './robotsTimeline';
import { StopAndFailure } from './stopAndFailure';
import { WakeUps } from './wakeUps';
import type { CrawlStats, HostStats } from './stats';
import {
  type CrawlOptions,
  type CrawlResult,
  type PageFailure,
  type PageResult,
  type PageSuccess,
  type ResolvedCrawlOptions,
} from './types';

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

class CrawlScheduler {
  private readonly s: CrawlState;
  private readonly o: ResolvedCrawlOptions;
  private readonly clock: Clock;
  private readonly frontier: Frontier<UrlRecord>;
  private readonly stats: CrawlStats;
  private readonly checking: Set<UrlRecord>;
  private readonly controllers: Map<UrlRecord, AbortController>;
  private readonly sharedRequests: AbortController;
  private readonly emitting: boolean;

  private readonly wakeUps: WakeUps;
  private readonly stops: StopAndFailure;
  private readonly events: EventStream;
  private readonly outcomes: Outcomes;
  private readonly deferred: DeferredWork;
  private readonly robots: RobotsTimeline;
  private readonly admission: Admission;
  private readonly pages: PageReading;
  private ended = false;
  private settleRun: { resolve: (result: CrawlResult) => void; reject: (err: unknown) => void } | undefined;
  private readonly sharedHosts: boolean;

  constructor(o: ResolvedCrawlOptions) {
    const s = (this.s = new CrawlState(o));
    this.o = o;
    this.clock = s.clock;
    this.frontier = s.frontier;
    this.stats = s.stats;
    this.checking = s.checking;
    this.controllers = s.controllers;
    this.sharedRequests = s.sharedRequests;
    this.emitting = s.emitting;
    this.sharedHosts = s.sharedHosts;
    this.wakeUps = new WakeUps(s.clock);
    this.stops = new StopAndFailure(s, this.wakeUps);
    this.events = new EventStream(s, this.stops);
    this.outcomes = new Outcomes(s, this.events);
    this.deferred = new DeferredWork(s, this.outcomes, this.stops, this.wakeUps);
    this.robots = new RobotsTimeline(s, {
      events: this.events,
      outcomes: this.outcomes,
      deferred: this.deferred,
      stops: this.stops,
      wakeUps: this.wakeUps,
    });
    this.admission = new Admission(s, this.events, this.outcomes, this.robots);
    this.pages = new PageReading(s, {
      events: this.events,
      outcomes: this.outcomes,
      admission: this.admission,
      deferred: this.deferred,
      startReady: () => this.dispatch(),
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
    if (this.o.stop?.aborted) this.s.stopping = true;
    this.admission.admitSeeds();
    this.stops.listen();
    this.outcomes.updateGate();
  }

  // -------------------------------------------------------------------------------------------------
  // The loop
  // -------------------------------------------------------------------------------------------------

  private dispatch(): void {
    if (this.s.stopping || this.s.fatal) return;
    const now = this.clock.now();
    while (this.s.inFlight < this.o.concurrency) {
      const taken = this.frontier.takeReady(now);
      if (!taken) break;
      if (taken.item.robotsRelease) this.robots.startRobots(taken.slot, taken.item, taken.previousStartAt, now);
      else this.start(taken.slot, taken.item, taken.previousStartAt, now);
    }
  }

  private finished(): boolean {
    if (this.deferred.tasks.length > 0 || this.s.inFlight > 0) return false;
    if (this.s.stopping) return true;
    if (this.checking.size > 0) return false;
    return this.frontier.queued === 0 || this.frontier.nextReadyAt() === undefined;
  }

  /** Ms until the next host is ready, or undefined to wait only for a wake-up (slots full, nothing ready). */
  private wakeDelay(): number | undefined {
    if (this.s.stopping || this.s.inFlight >= this.o.concurrency) return undefined;
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
      if (this.s.fatal) {
        if (this.s.inFlight === 0) {
          this.end(undefined);
          return;
        }
        this.wakeUps.idle(undefined, this.step);
        return;
      }
      this.dispatch();
      if (this.finished()) {
        this.end(undefined);
        return;
      }
      this.wakeUps.idle(this.wakeDelay(), this.sharedHosts ? this.afterInstant : this.step);
    } catch (err) {
      this.end({ error: err });
    }
  };

  /** With more than one request in flight per host, the loop goes on only once the instant has run out (endOfInstant). */
  private readonly afterInstant = (): void => {
    if (this.ended) return;
    this.wakeUps.endOfInstant(this.step);
  };

  /** The crawl is over (or failed inside the loop): clean up, then settle run()'s promise. */
  private end(thrown: { error: unknown } | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.wakeUps.cancelIdle();
    const settle = this.settleRun!;
    try {
      this.stops.close();
      if (thrown) throw thrown.error;
      this.deferred.runDeferred();
      if (this.s.fatal) throw this.s.fatal.error;
      settle.resolve(this.finish());
    } catch (err) {
      settle.reject(err);
    }
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
      this.s.activeChains++;
    }
    this.stats.started(slot.name, now);
    const startFetch = this.o.startFetch;
    if (startFetch) {
      // The callback road (a simulation on its own clock): no promise and no AbortController per request.
      const shared = this.sharedRequests;
      this.s.inFlight++;
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
        this.wakeUps.post(() =>
          done({
            error: { kind: shared.signal.aborted ? 'aborted' : 'other', message: errorMessage(err) },
            startedAt: now,
            endedAt,
          }),
        );
      }
      if (this.emitting) this.emitRequestStart(slot, rec, previousStartAt, now);
      this.outcomes.updateGate();
      return;
    }
    const controller = new AbortController();
    this.s.inFlight++;
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
    this.outcomes.updateGate();
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
    this.events.emit({
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
    this.s.inFlight--;
    this.controllers.delete(rec);
    try {
      this.complete(slot, rec, result);
    } catch (err) {
      this.stops.failCrawl(err);
    }
    this.wakeUps.wake();
  }

  private complete(slot: HostSlot<UrlRecord>, rec: UrlRecord, result: PageResult): void {
    this.deferred.runDeferred();
    const now = this.clock.now();
    this.frontier.end(slot, now, result.sentAt);
    if (this.s.fatal) {
      this.outcomes.finalize(rec, 'failed', 'crawl failed');
      return;
    }
    if ('error' in result) this.onError(slot, rec, result, now);
    else this.onResponse(slot, rec, result, now);
    if (!slot.dropped) this.frontier.refresh(slot);
    this.outcomes.updateGate();
    this.events.maybeProgress(now, false);
  }

  private onError(slot: HostSlot<UrlRecord>, rec: UrlRecord, result: PageFailure, now: number): void {
    const { kind, message } = result.error;
    const st = this.stats.host(slot.name);
    this.stats.error(slot.name);
    if (isThrottleError(kind) && !slot.dropped) slot.rate.onThrottle('backoff');
    // Our own stop aborting a request says nothing about the host.
    const giveUp = !slot.dropped && !this.s.stopping && this.countFailure(st);
    const wouldRetry = isRetryableError(kind) && rec.attempts <= this.o.maxRetries && !this.s.stopping;
    const willRetry = wouldRetry && !giveUp && !slot.dropped;
    this.events.emit({
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
      failedDetail: this.s.stopping && kind === 'aborted' ? 'aborted: crawl stopped' : detail,
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
      if (end.dropHost) this.outcomes.dropHost(slot, 'consecutive-failures', why, rec);
      else this.outcomes.finalizeForDroppedHost(slot, rec);
      return;
    }
    this.outcomes.finalize(rec, 'failed', end.failedDetail);
    if (end.dropHost) this.outcomes.dropHost(slot, 'consecutive-failures', why);
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
      this.events.hold();
      const target = this.admission.admitRedirect(rec, locationRaw);
      this.outcomes.finalize(
        rec,
        'redirected',
        target.queued ? undefined : `not followed: ${target.why}`,
        target.queued,
      );
      this.events.flushWith(responseEvent(target.queued ? 1 : 0, target.url));
      return;
    }

    this.outcomes.finalize(rec, 'fetched', undefined);
    this.pages.fetched(slot, rec, result, responseEvent);
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
      this.events.emit(responseEvent());
      const asked = Math.round(retryAfter!.requestedMs / 1000);
      this.outcomes.dropHost(
        slot,
        'retry-after-above-cap',
        `Retry-After: ${raw!.trim()} (${asked} s) is above the cap of ${this.o.retryAfterCapSeconds} s`,
        rec,
      );
      return;
    }

    const giveUp = !slot.dropped && this.countFailure(st);
    const wouldRetry = isRetryableStatus(status) && rec.attempts <= this.o.maxRetries && !this.s.stopping;
    const willRetry = wouldRetry && !giveUp && !slot.dropped;
    this.events.emit(responseEvent());

    let pausedUntil: number | undefined;
    if (valid && !slot.dropped) {
      pausedUntil = now + retryAfter!.delayMs;
      this.frontier.pause(slot, pausedUntil);
      this.events.emit({ type: 'host-paused', at: now, host: slot.name, until: pausedUntil, retryAfter: raw!, status });
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
      ? `${detail}${this.s.stopping ? ' (stopped before a retry)' : ' after retries'}`
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
    this.events.emit({
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

  // -------------------------------------------------------------------------------------------------
  // The end
  // -------------------------------------------------------------------------------------------------

  private finish(): CrawlResult {
    const now = this.clock.now();
    this.outcomes.finalizeUnfinished(this.s.stopping ? 'stopped' : 'not scheduled');
    this.events.maybeProgress(now, true);
    const summary = this.events.summary(now);
    this.events.emit({ type: 'done', at: now, summary });
    if (this.s.fatal) throw this.s.fatal.error;
    return { summary, urls: this.outcomes.reports() };
  }
}

/** The response event's stand-in when nobody listens to events (never emitted). */
function noEvent(): CrawlEvent {
  return NO_EVENT;
}
const NO_EVENT: CrawlEvent = { type: 'progress', at: 0, done: 0, planned: 0, queued: 0, inFlight: 0, ratePerSecond: 0 };

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
