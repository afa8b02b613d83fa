/**
 * The fidelity bench's statistics (bench/sections/fidelity.ts), pure: a scenario's signed error (planned
 * against actual), and over all scenarios the median and 90th percentile of |error| and the band's coverage,
 * against the targets.
 */
import { percentileSorted } from '../../src/core/statistics';

/** The targets: median |error| ≤ 3%, 90th percentile ≤ 8%, 70% to 90% of the crawls inside p10–p90. */
export const FIDELITY_TARGETS = {
  medianAbsError: 0.03,
  p90AbsError: 0.08,
  coverage: { min: 0.7, max: 0.9 },
} as const;

/** What one scenario gives: the plan, its band and the crawl's measured makespan, seconds. */
export interface FidelityOutcome {
  plannedSeconds: number;
  p10Seconds: number;
  p90Seconds: number;
  actualSeconds: number;
}

/** planned / actual − 1: +0.1 for a plan 10% above the crawl, −0.1 for one 10% short. */
export function signedError(plannedSeconds: number, actualSeconds: number): number {
  return plannedSeconds / actualSeconds - 1;
}

/** Whether the actual makespan is inside the band, p10 and p90 included. */
export function inBand(o: FidelityOutcome): boolean {
  return o.p10Seconds <= o.actualSeconds && o.actualSeconds <= o.p90Seconds;
}

/** The median: the middle value, or the mean of the two middle ones; 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface FidelitySummary {
  scenarios: number;
  /** Median of |signed error|. */
  medianAbsError: number;
  /** Nearest-rank 90th percentile of |signed error| (never below an error seen). */
  p90AbsError: number;
  /** Share of the scenarios whose actual makespan is inside p10–p90. */
  coverage: number;
  met: { medianAbsError: boolean; p90AbsError: boolean; coverage: boolean };
}

export function fidelitySummary(outcomes: readonly FidelityOutcome[]): FidelitySummary {
  const abs = outcomes.map((o) => Math.abs(signedError(o.plannedSeconds, o.actualSeconds)));
  const medianAbsError = median(abs);
  const p90AbsError = percentileSorted(
    [...abs].sort((a, b) => a - b),
    90,
  );
  const coverage = outcomes.length === 0 ? 0 : outcomes.filter(inBand).length / outcomes.length;
  const t = FIDELITY_TARGETS;
  return {
    scenarios: outcomes.length,
    medianAbsError,
    p90AbsError,
    coverage,
    met: {
      medianAbsError: outcomes.length > 0 && medianAbsError <= t.medianAbsError,
      p90AbsError: outcomes.length > 0 && p90AbsError <= t.p90AbsError,
      coverage: outcomes.length > 0 && coverage >= t.coverage.min && coverage <= t.coverage.max,
    },
  };
}
