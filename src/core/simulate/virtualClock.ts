/**
 * The simulation's clock: virtual time that only moves when nothing is left to do at the present instant.
 * It drives its callers itself: the crawl engine arms its waits with `setTimer` and posts its loop with
 * `post` (src/core/clock.ts), the simulated fetcher answers with `at`, and `run()` works through them in
 * order (every task posted at an instant, then the next timer) until none is left. No promise, no
 * microtask and no real timer is involved, so a run is the same every time and costs a few hundred
 * nanoseconds per request.
 *
 * Timers fire in (time, creation order). `lateness` models a real timer's lateness: every timer armed with
 * `setTimer` for a positive time fires that much late (Node fires timers about a millisecond late; see
 * docs/calibration-and-simulation.md#the-simulation---simulate), while `at` is exact (the simulated network).
 *
 * `sleep` works too (for code that waits on promises), but what follows it runs only when the caller of
 * `run()` lets microtasks run; the engine on the callback road never sleeps.
 */
import type { Clock } from '../clock';
import { SeqHeap } from '../crawl/heap';

export class VirtualClock implements Clock {
  private t: number;
  private seq = 0;
  /** The timers, by (time, creation order): the frontier's heap (src/core/crawl/heap.ts). */
  private readonly timers = new SeqHeap<Entry>();
  private readonly tasks: Array<() => void> = [];
  private taskHead = 0;
  private taskTail = 0;
  /** Timers fired so far. */
  fired = 0;

  /** `lateness`: ms a setTimer fires late, a number or a draw per timer. */
  constructor(
    startMs = 0,
    private readonly lateness: number | (() => number) = 0,
  ) {
    this.t = startMs;
  }

  now(): number {
    return this.t;
  }

  setTimer(ms: number, callback: () => void): () => void {
    const late = typeof this.lateness === 'number' ? this.lateness : this.lateness();
    const delay = Number.isFinite(ms) && ms > 0 ? ms + late : 0;
    const timer = new Timer(callback);
    this.timers.push(this.t + delay, this.seq++, timer);
    return timer.cancel;
  }

  /** Calls `callback` at virtual time `time` exactly (not before now), after the timers set for that time before it. */
  at(time: number, callback: () => void): void {
    this.timers.push(Math.max(this.t, time), this.seq++, callback);
  }

  post(task: () => void): void {
    if (this.taskTail < this.tasks.length) this.tasks[this.taskTail] = task;
    else this.tasks.push(task);
    this.taskTail++;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<void>((resolve, reject) => {
      let cancel: (() => void) | undefined = undefined;
      const onAbort = (): void => {
        cancel?.();
        reject(abortError(signal!));
      };
      cancel = this.setTimer(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Timers not yet fired (cancelled ones included until their time comes). */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Runs everything: the tasks posted, then the earliest timer (time moves to it), and so on until no task
   * and no timer is left, or until `untilMs` of virtual time (later timers stay). Returns the timers fired.
   */
  run(untilMs = Infinity): number {
    const before = this.fired;
    for (;;) {
      this.drainTasks();
      const at = this.timers.peekKey();
      if (at === undefined || at > untilMs) break;
      const entry = this.timers.pop()!;
      const callback = typeof entry === 'function' ? entry : entry.callback;
      if (callback === undefined) continue;
      if (at > this.t) this.t = at;
      this.fired++;
      callback();
    }
    return this.fired - before;
  }

  private drainTasks(): void {
    const tasks = this.tasks;
    while (this.taskHead < this.taskTail) {
      const task = tasks[this.taskHead]!;
      tasks[this.taskHead++] = noop;
      task();
    }
    // The array is kept (not shortened) for the next instant's tasks.
    this.taskHead = 0;
    this.taskTail = 0;
  }
}

function noop(): void {}

type Entry = (() => void) | Timer;

/** A timer that can be cancelled: the heap keeps it until its time, and drops its callback then. */
class Timer {
  constructor(public callback: (() => void) | undefined) {}
  readonly cancel = (): void => {
    this.callback = undefined;
  };
}

function abortError(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The operation was aborted', 'AbortError');
}
