/**
 * Exponential backoff with full jitter (seed "Rate limiting and backoff"): the wait before retry number
 * `attempt` (0 for the first retry) is uniform in [0, min(cap, base · 2^attempt)). Randomness is
 * injected so tests can pin it.
 */
import type { Random } from '../clock';

export interface BackoffOptions {
  /** The ceiling of the first retry's wait, in ms. */
  baseMs: number;
  /** The largest ceiling, in ms. */
  capMs: number;
}

export const BACKOFF_DEFAULTS: Readonly<BackoffOptions> = { baseMs: 1000, capMs: 60_000 };

/** min(cap, base · 2^attempt) for attempt ≥ 0 (negative or fractional attempts are read as floor ≥ 0). */
export function backoffCeilingMs(attempt: number, options: BackoffOptions): number {
  const n = Number.isFinite(attempt) ? Math.max(0, Math.floor(attempt)) : 0;
  const base = Math.max(0, options.baseMs);
  const cap = Math.max(0, options.capMs);
  // 2^1024 is Infinity; min() then gives the cap, so large attempts are safe.
  return Math.min(cap, base * 2 ** Math.min(n, 1023));
}

/**
 * Full jitter: a whole number of ms, uniform in [0, ceiling). A `random` that misbehaves (≥ 1, < 0,
 * NaN) is clamped into [0, 1), so the result stays below the ceiling (or is 0 when the ceiling is 0).
 */
export function backoffDelayMs(attempt: number, options: BackoffOptions, random: Random): number {
  const ceiling = backoffCeilingMs(attempt, options);
  if (ceiling <= 0) return 0;
  let r = random();
  if (!(r >= 0)) r = 0;
  if (r >= 1) r = 1 - Number.EPSILON;
  return Math.min(Math.floor(r * ceiling), Math.ceil(ceiling) - 1);
}
