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
import { Admission } from './admission';
import { CrawlState, type UrlRecord } from './crawlState';
import { DeferredWork } from './deferredWork';
import { resolveCrawlOptions } from './engineOptions';
import { EventStream } from './eventStream';
import type { Frontier, HostSlot } from './frontier';
import { Outcomes } from './outcomes';
import { PageReading } from './pageReading';
import { ResponseRules } from './responseRules';
import { RobotsTimeline } from './robotsTimeline';
import type { CrawlStats } from './stats';
import { StopAndFailure } from './stopAndFailure';
import type { CrawlOptions, CrawlResult, PageFailure, PageResult, ResolvedCrawlOptions } from './types';
import { WakeUps } from './wakeUps';

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
  private readonly responses: ResponseRules;
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
    this.responses = new ResponseRules(s, {
      events: this.events,
      outcomes: this.outcomes,
      admission: this.admission,
      deferred: this.deferred,
      pages: this.pages,
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
      this.responses.complete(slot, rec, result);
    } catch (err) {
      this.stops.failCrawl(err);
    }
    this.wakeUps.wake();
  }

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
