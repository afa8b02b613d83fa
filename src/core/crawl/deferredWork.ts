/**
 * Work put off until the I/O started just now has gone out (CrawlOptions.defer): with it, a fetched page is
 * read (its links, their robots.txt checks, its events) once its host's next request is on its way. What
 * was put off runs in order, and before anything else completes (a response, a robots.txt answer, the
 * end), so the events stay in order.
 */
import { crawlPart } from './crawlState';
import type { Outcomes } from './outcomes';
import type { StopAndFailure } from './stopAndFailure';
import type { WakeUps } from './wakeUps';

/** What deferred work works with, besides the crawl's state. */
export interface DeferredWorkParts {
  outcomes: Outcomes;
  stops: StopAndFailure;
  wakeUps: WakeUps;
}

export class DeferredWork extends crawlPart<DeferredWorkParts>() {
  /** The work put off so far, in order (the loop is not finished while any is left). */
  readonly tasks: Array<() => void> = [];

  /** Puts `task` off until the I/O started now has gone out (CrawlOptions.defer). */
  later(task: () => void): void {
    this.tasks.push(task);
    if (this.tasks.length > 1) return;
    this.o.defer!(() => {
      this.runDeferred();
      this.outcomes.updateGate();
      this.wakeUps.wake();
    });
  }

  /** Runs the work put off so far, in order (also before any completion, so events stay in order). */
  runDeferred(): void {
    const tasks = this.tasks;
    while (tasks.length > 0) {
      const task = tasks.shift()!;
      try {
        task();
      } catch (err) {
        this.stops.failCrawl(err);
      }
    }
  }
}
