/**
 * Time, injected. The core never reads the wall clock or starts timers of its own (ARCHITECTURE.md §Layers):
 * adapters pass a real clock, tests pass a virtual one.
 */
export interface Clock {
  /** Milliseconds since the epoch (or since any fixed origin, for a virtual clock). */
  now(): number;
  /**
   * Resolves after `ms` milliseconds of this clock's time, or rejects with an AbortError when
   * `signal` aborts first. `ms <= 0` resolves on the next turn.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Optional, for a clock that drives its callers itself (the simulation's VirtualClock,
   * src/core/simulate/virtualClock.ts): calls `callback` after `ms` of this clock's time unless the returned
   * function is called first. Without it the engine sleeps with an AbortController, which does the same.
   */
  setTimer?(ms: number, callback: () => void): () => void;
  /**
   * Optional, with `setTimer`: runs `task` once the work in hand is done (the engine's own continuations:
   * its loop after a wake-up). Without it a resolved promise's `then` does, so the task runs in a microtask.
   */
  post?(task: () => void): void;
}

/** The longest sleep one timer can hold (2^31−1 ms, about 24.8 days; Node fires after 1 ms for anything longer). */
export const MAX_TIMER_MS = 2_147_483_647;

/** A source of uniformly distributed numbers in [0, 1), injected so that jitter is testable. */
export type Random = () => number;
