/**
 * Server-side politeness checks read arrival times that the demo servers stamp on their own event loop.
 * When that loop is late (GC, a busy core, the crawler sharing the process), a stamp is late and the gap
 * after it looks shorter than it was on the wire. This measures the loop's worst delay during a run, so a
 * check can allow exactly that much on top of the loopback slack, and say so.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Loopback timing slack for server-side gaps. */
export const LOOPBACK_SLACK_MS = 2;

export function measureServerLag(): { stop(): number } {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  return {
    /** The worst event-loop delay seen, in ms (less the 1 ms sampling period). */
    stop() {
      histogram.disable();
      return Math.max(0, histogram.max / 1e6 - 1);
    },
  };
}

/** Gaps between consecutive times, sorted first. */
export function gaps(times: readonly number[]): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.slice(1).map((t, i) => t - sorted[i]!);
}
