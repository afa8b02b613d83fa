/**
 * Calibrations written by hand for unit tests (the shape `calibrationFromReport` gives, src/core/calibrate/types.ts):
 * one host's answer-time samples and fault rates, and a calibration of such hosts with no measured overhead (so
 * the plan uses REQUEST_OVERHEAD).
 */
import type { Calibration, HostCalibration } from '../../src/core/calibrate/types';
import { mean, percentileSorted } from '../../src/core/statistics';

function fault(rate: number, requests: number, latency: number[] = [0.02], retryAfter: number[] = [], every: number | null = null) {
  return { count: Math.round(rate * requests), rate, latencySeconds: latency, retryAfterSeconds: retryAfter, every };
}

const noGaps = { count: 0, meanSeconds: 0, p50Seconds: 0, p90Seconds: 0, minSeconds: 0, maxSeconds: 0, samplesSeconds: [] };

/** A host of 100 measured requests: `samples` answer times, 429s and 503s at their rates with Retry-After `ra` (1 s), every 1/rate-th with `every`. */
export function hostCalibration(host: string, o: { samples: number[]; rate429?: number; rate503?: number; ra?: number; every?: boolean }): HostCalibration {
  const sorted = [...o.samples].sort((a, b) => a - b);
  return {
    host,
    requests: 100,
    latency: { count: sorted.length, meanSeconds: mean(sorted), p50Seconds: percentileSorted(sorted, 50), p90Seconds: percentileSorted(sorted, 90), minSeconds: sorted[0]!, maxSeconds: sorted.at(-1)!, samplesSeconds: sorted },
    robotsLatencySeconds: 0.01,
    faults: {
      tooManyRequests: fault(o.rate429 ?? 0, 100, [0.02], o.rate429 ? Array(Math.round(o.rate429 * 100)).fill(o.ra ?? 1) : [], o.every && o.rate429 ? 1 / o.rate429 : null),
      serverErrors: { ...fault(o.rate503 ?? 0, 100, [0.03], o.rate503 ? Array(Math.round(o.rate503 * 100)).fill(o.ra ?? 1) : []), statuses: o.rate503 ? { '503': Math.round(o.rate503 * 100) } : {} },
      timeouts: fault(0, 100),
      otherErrors: { ...fault(0, 100), kinds: {} },
    },
    interval: { keptSeconds: 0.2, source: 'configured', crawlDelaySeconds: null, achievedMeanSeconds: null, achievedMinSeconds: null },
  };
}

/** A calibration of `list`, with no measured overhead. */
export function calibration(list: HostCalibration[]): Calibration {
  return { source: { file: null, startedAt: 0, endedAt: 1, elapsedSeconds: 1, pages: 100, requests: 100 }, hosts: list, overhead: { afterInterval: noGaps, afterResponse: noGaps } };
}
