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
}

/** The longest sleep one timer can hold (2^31−1 ms, about 24.8 days; Node fires after 1 ms for anything longer). */
export const MAX_TIMER_MS = 2_147_483_647;

/** A source of uniformly distributed numbers in [0, 1), injected so that jitter is testable. */
export type Random = () => number;
