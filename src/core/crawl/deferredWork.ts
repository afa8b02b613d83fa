/**
 * Work put off until the I/O started just now has gone out (CrawlOptions.defer): with it, a fetched page is
 * read (its links, their robots.txt checks, its events) once its host's next request is on its way. What
 * was put off runs in order, and before anything else completes (a response, a robots.txt answer, the
 * end), so the events stay in order.
 */
import type { CrawlState } from './crawlState';
import type { Outcomes } from './outcomes';
import type { StopAndFailure } from './stopAndFailure';
import type { WakeUps } from './wakeUps';

export class DeferredWork {
  /** The work put off so far, in order (the loop is not finished while any is left). */
  readonly tasks: Array<() => void> = [];

  constructor(
    private readonly s: CrawlState,
    private readonly outcomes: Outcomes,
    private readonly stops: StopAndFailure,
    private readonly wakeUps: WakeUps,
  ) {}

  /** Puts `task` off until the I/O started now has gone out (CrawlOptions.defer). */
  later(task: () => void): void {
    this.tasks.push(task);
    if (this.tasks.length > 1) return;
    this.s.o.defer!(() => {
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
