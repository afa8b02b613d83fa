/**
 * Bench-only: bench/sections/simulation.ts bundles this and runs it in a child process of its own (bundled
 * as the CLI is, without the test loader's helpers, and with a heap of its own), for each plan shape:
 *
 *   node simulationRun.js <hosts> <pages per host> <runs> <repetitions>
 *
 * Prints one JSON line: the method, the simulated requests, and the best wall time of the repetitions with
 * its CPU time (seconds).
 */
import type { Calibration, HostCalibration } from '../../src/core/calibrate/types';
import { plan, type Plan } from '../../src/core/plan';
import { simulate, type Simulation } from '../../src/core/simulate/simulate';
import { mean } from '../../src/core/statistics';

/** A calibration of `hosts` hosts answering in 50–250 ms, every third with a 2% rate of 429 (Retry-After 1 s). */
function syntheticCalibration(hosts: string[]): Calibration {
  const samples = Array.from({ length: 41 }, (_, i) => 0.05 + i * 0.005);
  const none = { count: 0, rate: 0, latencySeconds: [], retryAfterSeconds: [], every: null };
  const noGaps = {
    count: 0,
    meanSeconds: 0,
    p50Seconds: 0,
    p90Seconds: 0,
    minSeconds: 0,
    maxSeconds: 0,
    samplesSeconds: [],
  };
  return {
    source: { file: null, startedAt: 0, endedAt: null, elapsedSeconds: 0, pages: 0, requests: 0 },
    hosts: hosts.map((host, i): HostCalibration => ({
      host,
      requests: 100,
      latency: {
        count: samples.length,
        meanSeconds: mean(samples),
        p50Seconds: 0.15,
        p90Seconds: 0.23,
        minSeconds: 0.05,
        maxSeconds: 0.25,
        samplesSeconds: samples,
      },
      robotsLatencySeconds: 0.02,
      faults: {
        tooManyRequests:
          i % 3 === 0
            ? { count: 2, rate: 0.02, latencySeconds: [0.01, 0.02], retryAfterSeconds: [1, 1], every: null }
            : none,
        serverErrors: { ...none, statuses: {} },
        timeouts: none,
        otherErrors: { ...none, kinds: {} },
      },
      interval: {
        keptSeconds: 0.2,
        source: 'configured',
        crawlDelaySeconds: null,
        achievedMeanSeconds: null,
        achievedMinSeconds: null,
      },
    })),
    overhead: { afterInterval: noGaps, afterResponse: noGaps },
  };
}

export function calibratedPlan(hostCount: number, perHost: number): Plan {
  const hosts = Array.from({ length: hostCount }, (_, i) => `h${i}.example`);
  return plan({
    seeds: hosts.map((host) => ({ host })),
    pages: { perHost },
    delaySeconds: 0.2,
    calibration: syntheticCalibration(hosts),
  });
}

/** simulate() on `p`, timed: the best wall time of `reps` (a shared machine only slows a run down), its CPU time. */
export function timeSimulation(p: Plan, runs: number, reps: number): { sim: Simulation; wall: number; cpu: number } {
  let best: { sim: Simulation; wall: number; cpu: number } | undefined;
  for (let r = 0; r < reps; r++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const sim = simulate(p, { runs });
    const wall = (performance.now() - t0) / 1000;
    const used = process.cpuUsage(cpu0);
    const cpu = (used.user + used.system) / 1e6;
    if (best === undefined || wall < best.wall) best = { sim, wall, cpu };
  }
  return best!;
}

if (require.main === module) {
  const [hosts, perHost, runs, reps] = process.argv.slice(2).map(Number);
  const t = timeSimulation(calibratedPlan(hosts!, perHost!), runs!, reps!);
  process.stdout.write(
    `${JSON.stringify({ method: t.sim.method, requests: t.sim.requests, wall: t.wall, cpu: t.cpu })}\n`,
  );
}
