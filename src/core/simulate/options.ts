/**
 * The simulation's numbers: its defaults, its limits and its budget. Apart from simulate.ts so that an
 * adapter can read them (help, option checks) without loading the crawl engine.
 */
import type { NumberLimit } from '../limits';

/** `--runs` and `--seed` when not given. */
export const SIMULATION_DEFAULTS = { runs: 200, seed: 1 } as const;

export const SIMULATION_LIMITS = {
  runs: { min: 1, max: 10_000, integer: true },
  seed: { min: 0, max: 2 ** 32 - 1, integer: true },
} as const satisfies Record<string, NumberLimit>;

/**
 * Requests simulated one by one at most, over all runs (a million take under 2 s: docs/benchmarks.md); a
 * larger plan gets its band from per-host sums (bands.ts).
 */
export const SIMULATION_BUDGET_REQUESTS = 1_000_000;
