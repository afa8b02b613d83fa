/**
 * The crawl loop's waits and wake-ups on the injected Clock: the loop waits (idle) for a wake-up (a
 * response, a robots.txt answer, a stop) or for the next host's time, and what follows the wait is posted
 * as the continuation of an `await` would run. No promise is made per wait on a clock with its own timer
 * (`setTimer`, `post`: the simulation's); on any other clock a wait's timer is a `sleep`.
 */
import type { Clock } from '../clock';

/** The reason an idle wait's timer is cancelled with (a fixed value: `abort()` would build a DOMException each time). */
const IDLE_OVER = new Error('idle wait over');

export class WakeUps {
  /** What runs when the wait in hand ends; undefined while the loop is not waiting. */
  private wakeThen: (() => void) | undefined = undefined;
  /** Cancels the wait's timer, when it has one; `idleAt` is when it is set for (a clock's own timer). */
  private idleCancel: (() => void) | undefined = undefined;
  private idleAt = 0;
  /** A wake-up came while the loop was not waiting: its next wait ends at once. */
  private wakePending = false;

  constructor(private readonly clock: Clock) {}

  /** Runs `task` after a wait is over, as the continuation of an `await` would run. */
  post(task: () => void): void {
    if (this.clock.post) this.clock.post(task);
    else void Promise.resolve().then(task);
  }

  /** Calls `task` after `ms` of the clock's time unless cancelled; the clock's own timer when it has one. */
  timer(ms: number, task: () => void): () => void {
    if (this.clock.setTimer) return this.clock.setTimer(ms, task);
    const controller = new AbortController();
    this.clock.sleep(ms, controller.signal).then(task, () => undefined);
    return () => controller.abort(IDLE_OVER);
  }

  /**
   * Lets the clock's current instant run out: every response that ended at this instant is handled
   * before anything new starts. With more than one request in flight per host, two of a host's
   * responses can end at the same instant; were the first (a 301) to free a slot and start the host's
   * next request at once, a Retry-After in the second (a 429) would pause the host from an instant
   * that already holds a start. With one request per host this cannot happen (a host starts again only
   * after its one response is handled), so no turn is spent there.
   */
  endOfInstant(then: () => void): void {
    this.timer(0, then);
  }

  /** Waits for a wake-up, or `ms` of the clock's time when given, then posts `then`. */
  idle(ms: number | undefined, then: () => void): void {
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

  /** Something the loop waits for happened: the wait in hand ends, or the next one does at once. */
  wake(): void {
    if (this.wakeThen) this.wakeUp();
    else this.wakePending = true;
  }

  /** Cancels the wait's timer, if it has one (the crawl is over). */
  cancelIdle(): void {
    const cancel = this.idleCancel;
    if (cancel === undefined) return;
    this.idleCancel = undefined;
    cancel();
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
}
