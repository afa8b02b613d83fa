/**
 * A deterministic virtual Clock for unit tests. Time stands still until a test moves it; `sleep`
 * registers a timer that fires when virtual time reaches it. Timers fire strictly in (time, creation
 * order), and every timer's callbacks and all the promise work they cause settle before the next timer
 * fires, so a run is the same every time.
 *
 *   const clock = new VirtualClock();
 *   const result = await clock.run(runCrawl({ clock, ... }));   // jumps from timer to timer until it settles
 *
 * `run` throws when the promise can never settle (no timer left while it is pending): a hang in the
 * code under test becomes a test failure, not a stuck test run.
 */
import type { Clock } from '../../src/core/clock';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
  cleanup: () => void;
}

export interface RunOptions {
  /** Give up (throw) after this much virtual time. Default 24 h. */
  maxMs?: number;
  /** Give up after this many timers. Default 1,000,000. */
  maxTimers?: number;
}

export class VirtualClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: Timer[] = [];
  /** How many timers have fired so far. */
  fired = 0;

  constructor(startMs = 0) {
    this.t = startMs;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<void>((resolve, reject) => {
      const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
      const onAbort = (): void => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(abortError(signal!));
      };
      const timer: Timer = {
        at: this.t + delay,
        seq: this.seq++,
        resolve,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.insert(timer);
    });
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.length;
  }

  /** When the next timer fires, or undefined when none is set. */
  nextTimerAt(): number | undefined {
    return this.timers[0]?.at;
  }

  /** Lets every queued promise reaction run (microtasks drain before a setImmediate callback). */
  async settle(): Promise<void> {
    for (let i = 0; i < 2; i++) await new Promise<void>((r) => setImmediate(r));
  }

  /** Moves time forward by `ms`, firing each due timer in order and settling after each. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.t + ms);
  }

  async advanceTo(target: number): Promise<void> {
    await this.settle();
    for (;;) {
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.fire(next);
      await this.settle();
    }
    if (target > this.t) this.t = target;
  }

  /**
   * Drives `work` to completion: settle, and while it is still pending jump to the next timer and fire
   * it. Returns its value (or throws its error).
   */
  async run<T>(work: Promise<T> | (() => Promise<T>), options: RunOptions = {}): Promise<T> {
    const promise = typeof work === 'function' ? work() : work;
    const maxMs = options.maxMs ?? 24 * 3600 * 1000;
    const maxTimers = options.maxTimers ?? 1_000_000;
    const start = this.t;
    type State = { done: false } | { done: true; ok: true; value: T } | { done: true; ok: false; error: unknown };
    let state: State = { done: false };
    promise.then(
      (value) => (state = { done: true, ok: true, value }),
      (error: unknown) => (state = { done: true, ok: false, error }),
    );
    let count = 0;
    for (;;) {
      await this.settle();
      const now = state as State; // assigned in the callbacks above; TS cannot see that
      if (now.done) {
        if (now.ok) return now.value;
        throw now.error;
      }
      const next = this.timers[0];
      if (!next) throw new Error(`VirtualClock.run: the work is pending but no timer is set (a hang) at t=${this.t}`);
      if (next.at - start > maxMs) throw new Error(`VirtualClock.run: still pending after ${maxMs} ms of virtual time`);
      if (++count > maxTimers) throw new Error(`VirtualClock.run: still pending after ${maxTimers} timers`);
      this.fire(next);
    }
  }

  private fire(timer: Timer): void {
    this.timers.shift();
    if (timer.at > this.t) this.t = timer.at;
    this.fired++;
    timer.cleanup();
    timer.resolve();
  }

  private insert(timer: Timer): void {
    // Sorted by (at, seq); new timers usually go near the end.
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1]!.at > timer.at) i--;
    this.timers.splice(i, 0, timer);
  }
}

function abortError(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The operation was aborted', 'AbortError');
}
