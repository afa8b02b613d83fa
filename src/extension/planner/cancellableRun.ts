/**
 * A step's cancellable run (the robots.txt check, the sitemap sizing, the simulation): a run is numbered and has
 * its AbortController; starting one supersedes the run before it (aborted, and its result ignored when it comes),
 * and so do cancelling and disposing. Every step of the planner holds one.
 */

/** One run: its signal, whether it is still the latest, and the check its result goes through. */
export interface RunTicket {
  /** Aborted when the run is superseded, cancelled or disposed. */
  readonly signal: AbortSignal;
  /** Whether this is still the latest run (not superseded, cancelled or disposed). */
  readonly current: boolean;
  /**
   * Called when the run's work settles: true when the run is still the latest (it is then over, nothing is
   * in progress), false for a stale result, which the caller ignores.
   */
  finish(): boolean;
}

export class CancellableRun {
  /** Bumped by every start and cancel: a run whose number is not the latest is stale. */
  private number = 0;
  /** The run in progress (undefined: none). */
  private abort: AbortController | undefined;
  private disposed = false;

  /** Starts a run: the one in progress is aborted and its result will be ignored. */
  start(): RunTicket {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    const number = ++this.number;
    const isCurrent = (): boolean => !this.disposed && number === this.number && !abort.signal.aborted;
    return {
      signal: abort.signal,
      get current() {
        return isCurrent();
      },
      finish: () => {
        if (!isCurrent()) return false;
        this.abort = undefined;
        return true;
      },
    };
  }

  /** Whether a run is in progress (started and not yet finished, cancelled or superseded). */
  get running(): boolean {
    return this.abort !== undefined;
  }

  /** Makes every run so far stale, aborting the one in progress; true when one was in progress. */
  cancel(): boolean {
    this.number++;
    const abort = this.abort;
    this.abort = undefined;
    abort?.abort();
    return abort !== undefined;
  }

  /** Cancels, for good: no run started after this is ever current. */
  dispose(): void {
    this.disposed = true;
    this.cancel();
  }
}

/** What `start` returns, as a promise; a throw becomes its rejection. */
export function started<T>(start: () => PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(start());
  } catch (err) {
    return Promise.reject(err);
  }
}
