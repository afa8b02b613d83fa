/**
 * The band of a plan too large to simulate request by request (a million pages × 200 runs): per-host sums.
 * Hosts crawl independently but for the global slots, so each run's makespan is the slowest host's time
 * (or the plan's worker or rate bound, when larger), and each host's time is drawn on its own:
 *
 * - a host with nothing drawn at random (fixed answer time, no faults) takes the plan's time, which is what
 *   the engine does (test/unit/simulate.test.ts holds them equal);
 * - any other host: the engine runs that host alone SAMPLE_RUNS times on its first m pages (m as large as the
 *   budget allows, at most its pages); with m its pages, each run draws one of those times; else the time
 *   is the sum of its steps, drawn from a normal distribution with the mean and variance per step those
 *   runs show (the central limit theorem: the sum of many steps, raised intervals and pauses included).
 *
 * With politeness units (a plan kept by ip or domain) the members of a unit share one queue: they are run and
 * drawn together, a unit's time extrapolated over all its members' requests, each member ending with its unit.
 *
 * test/unit/simulate.test.ts holds the band within a few per cent of the request-by-request one where both run.
 */
import type { HostCalibration } from '../calibrate/types';
import type { Random } from '../clock';
import type { HostPlan, Plan } from '../plan/types';
import { deriveSeed, mulberry32 } from '../random';
import { mean, percentileSorted } from '../statistics';
import { makespanHistogram } from './histogram';
import type { HostModel } from './model';
import { normalDraw } from './draws';
import { byMachine, runOnce, simulationUnits } from './run';
import type { Simulation, TimelineHost } from './types';

/** Engine runs of one host alone, for its spread. */
export const SAMPLE_RUNS = 40;
/** The fewest pages a host's sample runs have (when it has that many). */
const MIN_SAMPLE_PAGES = 20;

export function perHostSums(
  plan: Plan,
  hosts: readonly HostPlan[],
  models: readonly HostModel[],
  calibrations: ReadonlyArray<HostCalibration | undefined>,
  o: { runs: number; seed: number; budget: number },
): Simulation {
  const drawnHosts = models.filter((m) => !m.fixed).length;
  // A quarter of the budget for the sample runs: the band of a plan this large comes in a fraction of it.
  const samplePages = Math.max(MIN_SAMPLE_PAGES, Math.floor(o.budget / 4 / Math.max(1, drawnHosts * SAMPLE_RUNS)));
  let requests = 0;
  // The politeness units (a plan kept by ip or domain): their members share one queue, so they are drawn together.
  const units = simulationUnits(plan);
  const groups = new Map<string, number[]>();
  hosts.forEach((h, i) => {
    const key = units?.unitOf(h.host) ?? h.host;
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
  });
  // Per unit: a function drawing its members' ends in one run.
  const draws = [...groups].map(([key, members]): ((random: Random) => number[]) => {
    const ms = members.map((i) => hosts[i]!);
    if (members.every((i) => models[i]!.fixed)) {
      const planned = ms.length === 1 ? ms[0]!.seconds : (plan.units.find((u) => u.unit === key)?.seconds ?? 0);
      const time = Math.max(planned, ...ms.map((h) => h.seconds));
      return () => ms.map(() => time);
    }
    const total = ms.reduce((n, h) => n + h.pages, 0);
    const share = Math.min(1, samplePages / total);
    const sample = ms.map((h) => {
      const pages = share === 1 ? h.pages : Math.max(1, Math.round(h.pages * share));
      return { ...h, pages, nonPageRequests: Math.round((h.nonPageRequests * pages) / h.pages) };
    });
    const machines = byMachine(
      sample,
      members.map((i) => calibrations[i]),
      units,
    );
    const runs: number[][] = [];
    for (let k = 0; k < SAMPLE_RUNS; k++) {
      const run = runOnce(
        plan.input,
        machines,
        mulberry32(deriveSeed(o.seed, `host ${key} ${k}`)),
        undefined,
        () => null,
      );
      runs.push(sample.map((_, j) => run.ends[j] ?? run.makespan));
      requests += run.requests;
    }
    if (share === 1) return (random) => runs[Math.floor(random() * runs.length)]!;
    // The unit's time: its slowest member's end in each sample run, extrapolated by the steps.
    const times = runs.map((ends) => Math.max(...ends));
    // The part that does not grow with the pages: the robots.txt gap and the last answer.
    const fixedPart =
      Math.min(...ms.map((h) => h.firstPageSeconds)) +
      Math.max(...ms.map((h) => h.latencySeconds)) +
      plan.overhead.afterResponseSeconds;
    // Steps at the unit's interval: every member's requests, its robots.txt included, after the first.
    const stepsOf = (list: readonly { pages: number; nonPageRequests: number }[]) =>
      list.reduce((n, h) => n + h.pages + h.nonPageRequests, 0) + list.length - 2;
    const sampleSteps = stepsOf(sample);
    const perStep = (mean(times) - fixedPart) / sampleSteps;
    const average = mean(times);
    const variancePerStep =
      times.reduce((sum, t) => sum + (t - average) ** 2, 0) / Math.max(1, times.length - 1) / sampleSteps;
    const steps = stepsOf(ms);
    // Every member ends about when its unit does (their requests take turns).
    return (random) => {
      const t = fixedPart + steps * perStep + Math.sqrt(steps * variancePerStep) * normalDraw(random);
      return ms.map(() => t);
    };
  });
  const memberIndexes = [...groups.values()];
  const bound = Math.max(plan.bounds.workersSeconds, plan.bounds.globalRateSeconds ?? 0);
  const makespans: number[] = [];
  const ends: number[][] = hosts.map(() => []);
  const random = mulberry32(deriveSeed(o.seed, 'per-host sums'));
  for (let r = 0; r < o.runs; r++) {
    let slowest = bound;
    draws.forEach((draw, g) => {
      const drawn = draw(random);
      memberIndexes[g]!.forEach((i, j) => {
        const t = drawn[j]!;
        ends[i]!.push(t);
        if (t > slowest) slowest = t;
      });
    });
    makespans.push(slowest);
  }
  const sorted = [...makespans].sort((a, b) => a - b);
  const p50 = percentileSorted(sorted, 50);
  const hostBands = hosts.map((h, i) => {
    const mine = ends[i]!.sort((a, b) => a - b);
    return { host: h.host, p50Seconds: percentileSorted(mine, 50), p90Seconds: percentileSorted(mine, 90) };
  });
  // No run to draw: each host's line is its plan, from its robots.txt to its p50 end.
  const timeline: TimelineHost[] = hosts.map((h, i) => ({
    host: h.host,
    startSeconds: 0,
    endSeconds: hostBands[i]!.p50Seconds,
    pages: [
      [0, 0],
      [h.firstPageSeconds, 0],
      [hostBands[i]!.p50Seconds, h.pages],
    ],
    pauses: [],
  }));
  return {
    method: 'per-host-sums',
    runs: o.runs,
    seed: o.seed,
    p10Seconds: percentileSorted(sorted, 10),
    p50Seconds: p50,
    p90Seconds: percentileSorted(sorted, 90),
    hosts: hostBands,
    requests,
    histogram: makespanHistogram(sorted),
    timeline: { run: null, seconds: p50, hosts: timeline },
  };
}
