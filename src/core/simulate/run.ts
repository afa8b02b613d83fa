/**
 * One simulated run: each machine's crawl by the crawl engine (runCrawl, on the callback road) on its own
 * virtual clock, over answers drawn from the hosts' models. See simulate.ts.
 */
import type { Random } from '../clock';
import { runCrawl } from '../crawl/engine';
import type { PageRequest, PageResult, RobotsDecision, RobotsGate } from '../crawl/types';
import type { HostPlan, ResolvedPlanInput } from '../plan/types';
import { REQUEST_OVERHEAD } from '../politeness/pacing';
import type { HostModel } from './model';
import type { TimelineHost } from './types';
import { VirtualClock } from './virtualClock';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Points of a host's pages-over-time line in the timeline, at most. */
export const TIMELINE_MAX_POINTS = 60;

export interface Machine {
  /** Indexes into the plan's simulated hosts. */
  indexes: number[];
  models: HostModel[];
  seeds: string[];
  /** The host of each robots.txt URL. */
  robotsUrls: Set<string>;
}

export function byMachine(hosts: readonly HostPlan[], models: readonly HostModel[]): Machine[] {
  const groups = new Map<number, Machine>();
  hosts.forEach((h, i) => {
    const key = h.machine ?? 0;
    let m = groups.get(key);
    if (!m) {
      m = { indexes: [], models: [], seeds: [], robotsUrls: new Set() };
      groups.set(key, m);
    }
    m.indexes.push(i);
    m.models.push(models[i]!);
    const robots = `http://${h.host}/robots.txt`;
    m.robotsUrls.add(robots);
    m.seeds.push(robots);
    for (let p = 1; p <= h.pages; p++) m.seeds.push(`http://${h.host}/${p}`);
  });
  return [...groups.values()];
}

export interface RunResult {
  makespan: number;
  /** Per simulated host (the plan's order), its last answer, seconds. */
  ends: number[];
  requests: number;
}

/** One run: each machine's crawl by the engine on its own virtual clock. `timeline`, when given, is filled in. */
export function runOnce(
  r: ResolvedPlanInput,
  machines: readonly Machine[],
  random: Random,
  timeline: TimelineHost[] | undefined,
  rateBound: (host: string) => number | null,
): RunResult {
  const ends: number[] = [];
  let makespan = 0;
  let requests = 0;
  for (const machine of machines) {
    const clock = new VirtualClock(0, REQUEST_OVERHEAD.afterIntervalSeconds * 1000);
    const afterResponseMs = REQUEST_OVERHEAD.afterResponseSeconds * 1000;
    const index = new Map(machine.models.map((m, i) => [m.host, i] as const));
    const hostEnds = new Array<number>(machine.models.length).fill(0);
    const track = timeline === undefined ? undefined : machine.models.map((m) => ({ host: m.host, start: -1, done: 0, points: [] as Array<[number, number]>, pauses: [] as TimelineHost['pauses'] }));
    const decisions = machine.models.map((m): RobotsDecision => ({ verdict: 'allowed', ...(m.crawlDelaySeconds === undefined ? {} : { crawlDelaySeconds: m.crawlDelaySeconds }) }));
    const gate: RobotsGate = Object.assign(() => Promise.resolve<RobotsDecision>({ verdict: 'allowed' }), {
      peek: (url: string): RobotsDecision => decisions[index.get(hostOf(url))!]!,
    });
    const startFetch = (request: PageRequest, done: (result: PageResult) => void): void => {
      const i = index.get(request.host)!;
      const m = machine.models[i]!;
      const startedAt = clock.now();
      requests++;
      const t = track?.[i];
      if (t && t.start < 0) t.start = startedAt;
      if (machine.robotsUrls.has(request.url)) {
        const endedAt = startedAt + m.robotsSeconds * 1000 + afterResponseMs;
        clock.at(endedAt, () => {
          if (endedAt > hostEnds[i]!) hostEnds[i] = endedAt;
          done({ status: 200, headers: NO_HEADERS, bytes: 0, truncated: false, startedAt, endedAt });
        });
        return;
      }
      const fault = drawFault(m, random);
      if (fault === undefined) {
        const endedAt = startedAt + m.latency(random) * 1000 + afterResponseMs;
        clock.at(endedAt, () => {
          if (endedAt > hostEnds[i]!) hostEnds[i] = endedAt;
          if (t) t.points.push([endedAt / 1000, ++t.done]);
          done({ status: 200, headers: NO_HEADERS, bytes: 0, truncated: false, startedAt, endedAt });
        });
        return;
      }
      const drawn = fault.draw(random, startedAt);
      const endedAt = startedAt + drawn.seconds * 1000 + afterResponseMs;
      clock.at(endedAt, () => {
        if (endedAt > hostEnds[i]!) hostEnds[i] = endedAt;
        if (t && drawn.retryAfterSeconds !== null) {
          t.pauses.push({ fromSeconds: endedAt / 1000, untilSeconds: endedAt / 1000 + drawn.retryAfterSeconds, status: drawn.status, retryAfterSeconds: drawn.retryAfterSeconds });
        }
        done(drawn.result(endedAt));
      });
    };
    const finished = runCrawl({
      seeds: machine.seeds,
      clock,
      random,
      startFetch,
      robots: gate,
      concurrency: r.workers,
      perHostConcurrency: r.perHostConcurrency,
      delaySeconds: r.delaySeconds,
      delayFrom: r.delayFrom,
      crawlDelayPolicy: r.crawlDelayPolicy,
      maxCrawlDelaySeconds: r.maxCrawlDelaySeconds,
      adaptive: r.adaptive,
      maxPages: Infinity,
      maxDepth: 0,
      urlOutcomes: false,
    });
    let failure: unknown;
    finished.catch((err: unknown) => (failure = err ?? new Error('simulation failed')));
    clock.run();
    if (failure !== undefined) throw failure;
    let machineEnd = 0;
    machine.indexes.forEach((hostIndex, i) => {
      const end = hostEnds[i]! / 1000;
      ends[hostIndex] = end;
      if (end > machineEnd) machineEnd = end;
    });
    const bound = rateBound(machine.models[0]!.host);
    if (bound !== null) machineEnd = Math.max(machineEnd, bound);
    if (machineEnd > makespan) makespan = machineEnd;
    if (track && timeline) {
      for (const t of track) {
        const end = hostEnds[index.get(t.host)!]! / 1000;
        const start = Math.max(0, t.start) / 1000;
        timeline.push({ host: t.host, startSeconds: start, endSeconds: end, pages: thinPoints([[start, 0], ...t.points], TIMELINE_MAX_POINTS), pauses: t.pauses });
      }
    }
  }
  return { makespan, ends, requests };
}

/** Draws whether this attempt is a fault, and which. */
function drawFault(m: HostModel, random: Random): HostModel['faults'][number] | undefined {
  if (m.faults.length === 0) return undefined;
  let u = random();
  for (const f of m.faults) {
    if (u < f.rate) return f;
    u -= f.rate;
  }
  return undefined;
}

/** `host` of a URL the simulation made (`http://host/…`). */
function hostOf(url: string): string {
  return url.slice(7, url.indexOf('/', 7));
}

/** At most `max` points, evenly spaced by index, the first and the last kept. */
export function thinPoints(points: Array<[number, number]>, max: number): Array<[number, number]> {
  if (points.length <= max) return points;
  const out: Array<[number, number]> = [];
  for (let i = 0; i < max; i++) out.push(points[Math.round((i * (points.length - 1)) / (max - 1))]!);
  return out;
}
