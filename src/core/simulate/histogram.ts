/**
 * The runs' makespans as a histogram: how the band is drawn (docs/extension.md#calibration-and-simulation;
 * the JSON: docs/formats.md §The `simulation` section). Round bins (1, 2 or 5 × 10^k seconds wide), about √runs
 * of them and never more than {@link HISTOGRAM_MAX_BINS}, so the estimate document and the plan report's message
 * stay small whatever `--runs` is. Pure.
 */
import { niceStep } from '../statistics';

/** Bins at most (10,000 runs give about 100 by √runs; the picture has room for this many). */
export const HISTOGRAM_MAX_BINS = 40;
/** Bins at least, when the runs spread at all. */
const HISTOGRAM_MIN_BINS = 5;

/** `counts[k]` runs ended in [fromSeconds + k × binSeconds, fromSeconds + (k + 1) × binSeconds). */
export interface MakespanHistogram {
  fromSeconds: number;
  binSeconds: number;
  counts: number[];
}

/**
 * The histogram of `sorted` (ascending makespans, seconds). Runs that all end alike (no spread) give one bin
 * around that time, one per cent of it wide.
 */
export function makespanHistogram(sorted: readonly number[], maxBins = HISTOGRAM_MAX_BINS): MakespanHistogram {
  if (sorted.length === 0) return { fromSeconds: 0, binSeconds: 1, counts: [] };
  const min = sorted[0]!;
  const max = sorted[sorted.length - 1]!;
  const range = max - min;
  if (!(range > Math.abs(max) * 1e-9)) {
    const width = niceStep(Math.max(Math.abs(min) / 100, 0.001));
    return { fromSeconds: Math.floor(min / width) * width, binSeconds: width, counts: [sorted.length] };
  }
  // A round width gives up to 2.5 × fewer bins than asked for, and one more for where the first starts.
  const target = Math.min(maxBins - 1, Math.max(HISTOGRAM_MIN_BINS, Math.ceil(Math.sqrt(sorted.length))));
  let width = niceStep(range / target);
  let from = Math.floor(min / width) * width;
  while (Math.floor((max - from) / width) + 1 > maxBins) {
    width = niceStep(width * 1.5);
    from = Math.floor(min / width) * width;
  }
  const bins = Math.floor((max - from) / width + 1e-9) + 1;
  const counts = new Array<number>(bins).fill(0);
  for (const t of sorted) counts[Math.min(bins - 1, Math.max(0, Math.floor((t - from) / width + 1e-9)))]!++;
  return { fromSeconds: Number(from.toPrecision(12)), binSeconds: width, counts };
}
