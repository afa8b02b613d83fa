/**
 * Request starts: the frontier's ready hosts started while global slots are free, and a page request
 * sent on one of two roads, a fetcher's promise (CrawlOptions.fetch, with an AbortController each) or a
 * callback (CrawlOptions.startFetch: the simulation's, no promise and one shared signal), announced once it
 * is on its way, and its result, whatever the fetcher gave, handed to the response rules.
 */
import { errorMessage } from '../format/text';
import { crawlPart, type CrawlState, type UrlRecord } from './crawlState';
import type { EventStream } from './eventStream';
import type { HostSlot } from './frontier';
import type { Outcomes } from './outcomes';
import type { ResponseRules } from './responseRules';
import type { RobotsTimeline } from './robotsTimeline';
import type { StopAndFailure } from './stopAndFailure';
import type { PageFailure, PageResult } from './types';
import type { WakeUps } from './wakeUps';

/** What request starts work with, besides the crawl's state. */
export interface RequestStartsParts {
  events: EventStream;
  outcomes: Outcomes;
  responses: ResponseRules;
  robots: RobotsTimeline;
  stops: StopAndFailure;
  wakeUps: WakeUps;
}

export class RequestStarts extends crawlPart<RequestStartsParts>() {
  private readonly controllers: Map<UrlRecord, AbortController>;
  private readonly sharedRequests: AbortController;

  constructor(s: CrawlState, parts: RequestStartsParts) {
    super(s, parts);
    this.controllers = s.controllers;
    this.sharedRequests = s.sharedRequests;
  }

  /**
   * Starts what may start now: while a global slot is free, the frontier's next ready host starts the
   * first item of its queue it may, a page request or its origin's robots.txt request.
   */
  startReady(): void {
    if (this.s.stopping || this.s.fatal) return;
    const now = this.clock.now();
    while (this.s.inFlight < this.o.concurrency) {
      const taken = this.frontier.takeReady(now);
      if (!taken) break;
      if (taken.item.robotsRelease) this.robots.startRobots(taken.slot, taken.item, taken.previousStartAt, now);
      else this.start(taken.slot, taken.item, taken.previousStartAt, now);
    }
  }

  /** Starts a page request (first try, retry or redirect hop) on the promise road or the callback road. */
  private start(slot: HostSlot<UrlRecord>, rec: UrlRecord, previousStartAt: number | undefined, now: number): void {
    rec.attempts++;
    rec.state = 'in-flight';
    rec.notBefore = 0;
    if (!rec.inChain) this.outcomes.chainStarted(rec);
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
      ...(slot.unit.size > 1 ? { unit: slot.unit.name } : {}),
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
