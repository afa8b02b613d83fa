/**
 * Server-side politeness checks read arrival times that the demo servers stamp on their own event loop.
 * When that loop is late (GC, a busy CI core), a stamp is late and the gap after it looks shorter than it
 * was on the wire. This measures the loop's worst delay during a run, so a test can allow exactly that
 * much on top of the 2 ms loopback slack, and say so.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export const LOOPBACK_SLACK_MS = 2;

export function measureServerLag(): { stop(): number; histogram: IntervalHistogram } {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  return {
    histogram,
    /** The worst event-loop delay seen, in ms (resolution 1 ms is subtracted: it is the sampling period). */
    stop() {
      histogram.disable();
      return Math.max(0, histogram.max / 1e6 - 1);
    },
  };
}

/** Gaps between consecutive sorted times. */
export function gaps(times: readonly number[]): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.slice(1).map((t, i) => t - sorted[i]!);
}
