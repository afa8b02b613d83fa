/**
 * Small statistics shared by the calibration, the simulation and the bench: nearest-rank percentiles,
 * the mean, and thinning a sorted list to evenly spaced quantiles.
 */

/** Nearest-rank percentile (p in 0..100) of values sorted ascending; 0 for none. */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  return percentileSorted(
    [...values].sort((a, b) => a - b),
    p,
  );
}

/** The arithmetic mean; 0 for none. */
export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length === 0 ? 0 : sum / values.length;
}

/**
 * At most `max` values of a sorted list, evenly spaced in rank from the first to the last (both kept), so
 * that the quantiles of the result are those of the list. The list itself when it is short enough.
 */
export function thinSorted(sorted: readonly number[], max: number): number[] {
  if (sorted.length <= max) return [...sorted];
  if (max <= 1) return sorted.length === 0 ? [] : [sorted[Math.floor((sorted.length - 1) / 2)]!];
  const out: number[] = [];
  for (let i = 0; i < max; i++) out.push(sorted[Math.round((i * (sorted.length - 1)) / (max - 1))]!);
  return out;
}

/** 1, 2 or 5 × 10^k: the round step nearest above `rough` (an axis's ticks, a histogram's bins). */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const m of [1, 2, 5, 10]) if (m * power >= rough * (1 - 1e-12)) return Number((m * power).toPrecision(12));
  return Number((10 * power).toPrecision(12));
}
