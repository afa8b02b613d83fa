/**
 * `estimate --simulate`: the plan's crawl run many times by the crawl engine itself (runCrawl: the same
 * scheduler, politeness rules, Retry-After, backoff and retries) on the simulation's virtual clock, each run
 * over answer times and faults drawn from the calibration (model.ts), and the spread of the makespans as a
 * p10–p90 band. docs/calibration-and-simulation.md#the-simulation---simulate; the JSON: docs/formats.md §The `simulation` section.
 *
 * Each host's first request is its robots.txt (a request with its measured answer time; the Crawl-delay is
 * known from it before any page), then its pages, every one a seed. The clock adds the per-request overhead
 * (REQUEST_OVERHEAD) as the real crawl pays it: waits end that much late, answers are read that much after
 * they arrive.
 *
 * A plan too large to run request by request within SIMULATION_BUDGET_REQUESTS (a million pages × 200
 * runs) gets its band from per-host sums instead (bands.ts): each host's time is drawn from the spread the
 * engine shows on a shorter crawl of that host alone, and the makespan is the slowest host's.
 */
import { calibrationMatcher } from '../calibrate/match';
import type { HostPlan, Plan } from '../plan/types';
import { deriveSeed, mulberry32 } from '../random';
import { percentileSorted } from '../statistics';
import { perHostSums } from './bands';
import { makespanHistogram } from './histogram';
import { hostModel } from './model';
import { keepRequestsOfFirstHosts } from './requestLog';
import { byMachine, runOnce, simulationUnits } from './run';
import { SIMULATION_BUDGET_REQUESTS, SIMULATION_DEFAULTS } from './options';
import type { Simulation, TimelineHost } from './types';

export type { Simulation, SimulationTimeline, TimelineHost } from './types';
export { SIMULATION_BUDGET_REQUESTS, SIMULATION_DEFAULTS, SIMULATION_LIMITS } from './options';

export interface SimulationOptions {
  runs?: number;
  seed?: number;
  /** Requests to simulate one by one at most (default SIMULATION_BUDGET_REQUESTS). */
  budgetRequests?: number;
}

/** The hosts a simulation runs: planned, with pages, not skipped; grouped by machine. */
export function simulatedHosts(plan: Plan): HostPlan[] {
  return plan.hosts.filter((h) => !h.skipped && h.pages > 0);
}

/** Runs the simulation of `plan`. Deterministic: the same plan, runs and seed give the same result. */
export function simulate(plan: Plan, options: SimulationOptions = {}): Simulation {
  const runs = options.runs ?? SIMULATION_DEFAULTS.runs;
  const seed = options.seed ?? SIMULATION_DEFAULTS.seed;
  const budget = options.budgetRequests ?? SIMULATION_BUDGET_REQUESTS;
  const hosts = simulatedHosts(plan);
  const calibrationOf = calibrationMatcher(plan.input.calibration);
  const measured = hosts.map((h) => calibrationOf(h.host));
  const models = hosts.map((h, i) => hostModel(h, measured[i]));
  const perRun = hosts.reduce((sum, h) => sum + h.requests, 0);
  if (perRun * runs > budget) return perHostSums(plan, hosts, models, measured, { runs, seed, budget });

  // With nothing drawn at random (fixed answer times, no faults, the overhead a constant), every run is the
  // same: one is run.
  const drawn = models.some((m) => !m.fixed) || plan.overhead.measured;
  // Per politeness unit when the plan keeps them (docs/how-it-works.md#politeness-units).
  const machines = byMachine(hosts, measured, simulationUnits(plan));
  const makespans: number[] = [];
  const ends: number[][] = hosts.map(() => []);
  let requests = 0;
  for (let r = 0; r < runs; r++) {
    if (!drawn && r > 0) {
      makespans.push(makespans[0]!);
      for (const list of ends) list.push(list[0]!);
      requests += requests / r;
      continue;
    }
    const run = runOnce(plan.input, machines, mulberry32(deriveSeed(seed, `run ${r}`)), undefined, rateBounds(plan));
    makespans.push(run.makespan);
    run.ends.forEach((end, i) => ends[i]!.push(end));
    requests += run.requests;
  }
  const sorted = [...makespans].sort((a, b) => a - b);
  const p50 = percentileSorted(sorted, 50);
  const median = makespans.indexOf(p50);
  const timeline: TimelineHost[] = [];
  runOnce(plan.input, machines, mulberry32(deriveSeed(seed, `run ${median}`)), timeline, rateBounds(plan));
  keepRequestsOfFirstHosts(timeline, plan.bindingHost);
  return {
    method: 'engine',
    runs,
    seed,
    p10Seconds: percentileSorted(sorted, 10),
    p50Seconds: p50,
    p90Seconds: percentileSorted(sorted, 90),
    hosts: hosts.map((h, i) => {
      const mine = ends[i]!.sort((a, b) => a - b);
      return { host: h.host, p50Seconds: percentileSorted(mine, 50), p90Seconds: percentileSorted(mine, 90) };
    }),
    requests: Math.round(requests),
    histogram: makespanHistogram(sorted),
    timeline: { run: median, seconds: p50, hosts: timeline },
  };
}

/** Each host's machine's global-rate bound (the engine has no global rate; the plan's bound holds in every run). */
function rateBounds(plan: Plan): (host: string) => number | null {
  if (plan.input.rate === null) return () => null;
  if (plan.sharding === null) return () => plan.bounds.globalRateSeconds;
  const byHost = new Map<string, number | null>();
  for (const m of plan.sharding.perMachine) for (const host of m.hosts) byHost.set(host, m.bounds.globalRateSeconds);
  return (host) => byHost.get(host) ?? null;
}
