/**
 * The response rules: what a request's result leads to. An error or a 429/5xx is a failure of the host
 * (its rate raised, Retry-After read and the host paused, the attempt retried with backoff at the back of
 * the host's queue, or given up, and the host dropped after too many failures in a row); a 3xx is a new
 * hop through admission; anything else is a page fetched, read for links (pageReading.ts). The retry
 * table is docs/crawl-engine.md.
 */
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
import type { Admission } from './admission';
import type { BlockWatch } from './blockWatch';
import { crawlPart, type UrlRecord } from './crawlState';
import type { DeferredWork } from './deferredWork';
import type { CrawlEvent } from './events';
import type { EventStream } from './eventStream';
import type { HostSlot } from './frontier';
import type { Outcomes } from './outcomes';
import type { PageReading } from './pageReading';
import type { HostStats } from './stats';
import type { PageFailure, PageResult, PageSuccess } from './types';

/** What the rules work with, besides the crawl's state. */
export interface ResponseRulesParts {
  events: EventStream;
  outcomes: Outcomes;
  admission: Admission;
  deferred: DeferredWork;
  blocking: BlockWatch;
  pages: PageReading;
}

export class ResponseRules extends crawlPart<ResponseRulesParts>() {
  /** A request's result is in (the request has left the slots): the rules for it, then the host re-keyed. */
  complete(slot: HostSlot<UrlRecord>, rec: UrlRecord, result: PageResult): void {
    this.deferred.runDeferred();
    const now = this.clock.now();
    this.frontier.end(slot, now, result.sentAt);
    if (this.s.fatal) {
      this.outcomes.finalize(rec, 'failed', 'crawl failed');
      return;
    }
    if ('error' in result) this.onError(slot, rec, result, now);
    else this.onResponse(slot, rec, result, now);
    // A dropped host's unit goes on with its other members: it is re-keyed too.
    this.frontier.refresh(slot);
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
    this.stats.transfer(result.bytes, result.wireBytes, rec.url);
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
          ...(result.wireBytes !== undefined ? { wireBytes: result.wireBytes } : {}),
          truncated: result.truncated,
          at: now,
          ...(location === undefined ? {} : { location }),
          linksQueued,
          intervalSeconds: slot.rate.intervalSeconds,
          intervalSource: slot.rate.source,
        });

    if (isThrottleStatus(status)) {
      this.onThrottleResponse(slot, rec, result, now, () => responseEvent(0));
      this.blocking.observe(slot, result, undefined);
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
      this.blocking.observe(slot, result, undefined);
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
    if (!slot.dropped) slot.rate.onThrottle(valid ? 'retry-after' : 'backoff', status);

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
      this.events.emit({
        type: 'host-paused',
        at: now,
        host: slot.name,
        until: pausedUntil,
        retryAfter: raw!,
        status,
        ...(slot.unit.size > 1 ? { unit: slot.unit.name } : {}),
      });
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
}

/** The response event's stand-in when nobody listens to events (never emitted). */
function noEvent(): CrawlEvent {
  return NO_EVENT;
}
const NO_EVENT: CrawlEvent = { type: 'progress', at: 0, done: 0, planned: 0, queued: 0, inFlight: 0, ratePerSecond: 0 };
