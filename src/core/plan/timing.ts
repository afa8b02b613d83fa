/**
 * The gap between two request starts on one host, as the crawl engine makes it (docs/planning.md#per-host):
 * after an answer that took L, with the interval I in whole milliseconds (as the engine keeps it)
 * and the per-request overhead (REQUEST_OVERHEAD, src/core/politeness/pacing.ts, or as a test crawl measured it):
 *
 *   start reading:  L + afterResponse        when that is at least I (the answer is what the host waits for)
 *                   I + afterInterval        otherwise (it waits for its interval, on a timer)
 *   end reading:    L + afterResponse + I + afterInterval   (L + afterResponse with no interval)
 *
 * With measured answer times (a calibration) the plan takes the mean of that gap over them.
 */
import { OVERHEAD_MIN_SAMPLES, type Calibration } from '../calibrate/types';
import { intervalMs } from '../crawl/frontier';
import type { DelayFrom } from '../politeness/interval';
import { REQUEST_OVERHEAD } from '../politeness/pacing';

export interface Overhead {
  readonly afterIntervalSeconds: number;
  readonly afterResponseSeconds: number;
}

/**
 * The per-request overhead a plan uses: what a calibration's test crawl measured (the mean of each kind of
 * gap, when it measured at least OVERHEAD_MIN_SAMPLES), else REQUEST_OVERHEAD.
 */
export function overheadOf(calibration: Calibration | null): Overhead & { measured: boolean } {
  const m = calibration?.overhead;
  const interval = m && m.afterInterval.count >= OVERHEAD_MIN_SAMPLES ? m.afterInterval.meanSeconds : undefined;
  const response = m && m.afterResponse.count >= OVERHEAD_MIN_SAMPLES ? m.afterResponse.meanSeconds : undefined;
  return {
    afterIntervalSeconds: interval ?? REQUEST_OVERHEAD.afterIntervalSeconds,
    afterResponseSeconds: response ?? REQUEST_OVERHEAD.afterResponseSeconds,
    measured: interval !== undefined || response !== undefined,
  };
}

/** Seconds as the engine keeps an interval: whole milliseconds, rounded up. */
export function engineSeconds(seconds: number): number {
  return intervalMs(seconds) / 1000;
}

/** The gap after one answer that took `latency` seconds, with the interval `interval` (engine seconds). */
export function gapAfter(
  interval: number,
  latency: number,
  delayFrom: DelayFrom,
  o: Overhead = REQUEST_OVERHEAD,
): number {
  const answered = latency + o.afterResponseSeconds;
  if (delayFrom === 'end') return interval > 0 ? answered + interval + o.afterIntervalSeconds : answered;
  return answered >= interval ? answered : interval + o.afterIntervalSeconds;
}

/** A host's answer times: one typed value, or the samples a test crawl measured. */
export class LatencyModel {
  /** The mean answer time, seconds. */
  readonly mean: number;
  private readonly sorted: readonly number[];
  /** suffix[k] = Σ sorted[k…]. */
  private readonly suffix: number[];

  private constructor(sorted: readonly number[]) {
    this.sorted = sorted;
    this.suffix = new Array<number>(sorted.length + 1);
    this.suffix[sorted.length] = 0;
    for (let k = sorted.length - 1; k >= 0; k--) this.suffix[k] = this.suffix[k + 1]! + sorted[k]!;
    this.mean = this.suffix[0]! / sorted.length;
  }

  static fixed(seconds: number): LatencyModel {
    return new LatencyModel([seconds]);
  }

  /** From samples (seconds; at least one), in any order. */
  static samples(seconds: readonly number[]): LatencyModel {
    if (seconds.length === 0) throw new RangeError('LatencyModel.samples: no samples');
    return new LatencyModel([...seconds].sort((a, b) => a - b));
  }

  /** The answer time at quantile `u` (0 ≤ u < 1) of the samples. */
  at(u: number): number {
    return this.sorted[Math.min(this.sorted.length - 1, Math.floor(u * this.sorted.length))]!;
  }

  /** Whether every answer takes the same time. */
  get fixed(): boolean {
    return this.sorted[0] === this.sorted[this.sorted.length - 1];
  }

  /** The mean of gapAfter over the answer times. */
  meanGap(interval: number, delayFrom: DelayFrom, o: Overhead = REQUEST_OVERHEAD): number {
    const n = this.sorted.length;
    if (delayFrom === 'end' || n === 1) {
      if (n === 1) return gapAfter(interval, this.sorted[0]!, delayFrom, o);
      return gapAfter(interval, this.mean, delayFrom, o);
    }
    // Answers shorter than the interval (less the overhead) wait for the interval; the rest are the gap.
    const threshold = interval - o.afterResponseSeconds;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < threshold) lo = mid + 1;
      else hi = mid;
    }
    const waiting = lo;
    return (
      (waiting * (interval + o.afterIntervalSeconds) + this.suffix[waiting]! + (n - waiting) * o.afterResponseSeconds) /
      n
    );
  }
}
