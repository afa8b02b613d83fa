/**
 * How a crawl is cut short: a stop (CrawlOptions.stop: nothing new starts, requests in flight get the grace
 * period, then are aborted), a failure (an injected function or the event sink threw: every request is
 * aborted and the crawl rejects once they have settled), and the aborts that reach every request, pages on
 * both roads and the robots.txt gate's calls. Each wakes the loop, which ends the crawl.
 */
import { crawlPart } from './crawlState';
import type { WakeUps } from './wakeUps';

/** What a stop and a failure work with, besides the crawl's state. */
export interface StopAndFailureParts {
  wakeUps: WakeUps;
}

export class StopAndFailure extends crawlPart<StopAndFailureParts>() {
  /** Aborts the robots.txt gate's calls; made when the first call is, since aborting one costs an exception's stack. */
  private robotsAbortController: AbortController | undefined = undefined;
  private robotsAborted = false;
  /** Cancels a stop's grace period (the crawl ended before it ran out). */
  private graceAbort: AbortController | undefined = undefined;
  /** The stop signal's listener. */
  private readonly onStop = (): void => this.requestStop();

  /** Listens to the stop signal (CrawlOptions.stop), once the seeds are in. */
  listen(): void {
    this.o.stop?.addEventListener('abort', this.onStop);
  }

  /** The crawl is over: no more listening, a stop's grace cancelled, the robots.txt gate's calls aborted. */
  close(): void {
    this.o.stop?.removeEventListener('abort', this.onStop);
    this.graceAbort?.abort();
    this.abortRobots();
  }

  /** The signal handed to the robots.txt gate's calls. */
  robotsSignal(): AbortSignal {
    if (this.robotsAbortController === undefined) {
      this.robotsAbortController = new AbortController();
      if (this.robotsAborted) this.robotsAbortController.abort();
    }
    return this.robotsAbortController.signal;
  }

  requestStop(): void {
    const s = this.s;
    if (s.stopping) return;
    s.stopping = true;
    this.abortRobots();
    if (s.inFlight > 0) {
      const grace = new AbortController();
      this.graceAbort = grace;
      s.clock.sleep(s.o.graceMs, grace.signal).then(
        () => {
          this.abortInFlight();
        },
        () => undefined,
      );
    }
    this.wakeUps.wake();
  }

  /** The crawl fails with `error` (the first one counts): every request is aborted, held events are dropped. */
  failCrawl(error: unknown): void {
    const s = this.s;
    if (s.fatal) return;
    s.fatal = { error };
    s.eventBuffer = undefined;
    this.abortInFlight();
    this.abortRobots();
    this.wakeUps.wake();
  }

  /** Aborts every request in flight (a stop's grace is over, or the crawl failed). */
  private abortInFlight(): void {
    const s = this.s;
    for (const controller of s.controllers.values()) controller.abort();
    if (s.inFlight > s.controllers.size) s.sharedRequests.abort();
  }

  private abortRobots(): void {
    this.robotsAborted = true;
    this.robotsAbortController?.abort();
  }
}
