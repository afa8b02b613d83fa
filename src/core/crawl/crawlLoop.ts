/**
 * The crawl loop and its run: the seeds in, then each turn starts what may start and waits for a wake-up (a
 * response, a robots.txt answer, a stop) or the next host's time, until all work is done, the crawl is
 * stopped or has failed; then the end: what is left is not started, the last progress, the summary, the
 * `done` event, and run()'s promise settles. The turns run on wake-ups, so no promise is made per turn.
 */
import { MAX_TIMER_MS } from '../clock';
import type { Admission } from './admission';
import { crawlPart } from './crawlState';
import type { DeferredWork } from './deferredWork';
import type { EventStream } from './eventStream';
import type { Outcomes } from './outcomes';
import type { RequestStarts } from './requestStarts';
import type { StopAndFailure } from './stopAndFailure';
import type { CrawlResult } from './types';
import type { WakeUps } from './wakeUps';

/** What the loop drives, besides the crawl's state. */
export interface CrawlLoopParts {
  wakeUps: WakeUps;
  stops: StopAndFailure;
  events: EventStream;
  outcomes: Outcomes;
  deferred: DeferredWork;
  admission: Admission;
  requests: RequestStarts;
}

export class CrawlLoop extends crawlPart<CrawlLoopParts>() {
  private ended = false;
  private settleRun: { resolve: (result: CrawlResult) => void; reject: (err: unknown) => void } | undefined = undefined;

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

  /**
   * The loop: start what may start, then wait for a wake-up (a response, a robots.txt answer, a stop) or
   * the next host's time. The wait's end posts the loop again on the clock's `post` (a microtask by
   * default), as the continuation of an `await` would run.
   */
  private readonly step = (): void => {
    if (this.ended) return;
    const s = this.s;
    try {
      if (s.fatal) {
        if (s.inFlight === 0) {
          this.end(undefined);
          return;
        }
        this.wakeUps.idle(undefined, this.step);
        return;
      }
      this.requests.startReady();
      if (this.finished()) {
        this.end(undefined);
        return;
      }
      this.wakeUps.idle(this.wakeDelay(), s.sharedHosts ? this.afterInstant : this.step);
    } catch (err) {
      this.end({ error: err });
    }
  };

  /** With more than one request in flight per host, the loop goes on only once the instant has run out (endOfInstant). */
  private readonly afterInstant = (): void => {
    if (this.ended) return;
    this.wakeUps.endOfInstant(this.step);
  };

  private finished(): boolean {
    const s = this.s;
    if (this.deferred.tasks.length > 0 || s.inFlight > 0) return false;
    if (s.stopping) return true;
    if (s.checking.size > 0) return false;
    return s.frontier.queued === 0 || s.frontier.nextReadyAt() === undefined;
  }

  /** Ms until the next host is ready, or undefined to wait only for a wake-up (slots full, nothing ready). */
  private wakeDelay(): number | undefined {
    const s = this.s;
    if (s.stopping || s.inFlight >= s.o.concurrency) return undefined;
    const at = s.frontier.nextReadyAt();
    if (at === undefined) return undefined;
    return Math.min(Math.max(0, at - s.clock.now()), MAX_TIMER_MS);
  }

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

  private finish(): CrawlResult {
    const s = this.s;
    const now = s.clock.now();
    this.outcomes.finalizeUnfinished(s.stopping ? 'stopped' : 'not scheduled');
    this.events.maybeProgress(now, true);
    const summary = this.events.summary(now);
    this.events.emit({ type: 'done', at: now, summary });
    if (s.fatal) throw s.fatal.error;
    return { summary, urls: this.outcomes.reports() };
  }
}
