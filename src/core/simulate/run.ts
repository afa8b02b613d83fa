/**
 * One simulated run: each machine's crawl by the crawl engine (runCrawl, on the callback road) on its own
 * virtual clock, over answers drawn from the hosts' models. See simulate.ts.
 */
import type { Random } from '../clock';
import { runCrawl } from '../crawl/engine';
import type { PageRequest, PageResult, RobotsDecision, RobotsGate } from '../crawl/types';
import type { HostPlan, Plan, ResolvedPlanInput } from '../plan/types';
import { politenessUnits, type PolitenessUnits } from '../servers/units';
import { REQUEST_OVERHEAD } from '../politeness/pacing';
import { OVERHEAD_MIN_SAMPLES, type Calibration, type HostCalibration, type LatencySummary } from '../calibrate/types';
import { hostModel, sampler, type FaultKind, type HostModel } from './model';
import { RequestLog } from './requestLog';
import type { TimelineHost } from './types';
import { VirtualClock } from './virtualClock';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Points of a host's pages-over-time line in the timeline, at most. */
export const TIMELINE_MAX_POINTS = 60;

export interface Machine {
  /** Indexes into the plan's simulated hosts. */
  indexes: number[];
  /** The machine's hosts and what a test crawl measured of each; each run draws its models from them. */
  hosts: HostPlan[];
  calibrations: Array<HostCalibration | undefined>;
  seeds: string[];
  /** The host of each robots.txt URL. */
  robotsUrls: Set<string>;
  /** The plan's politeness units (docs/how-it-works.md#politeness-units), when it keeps them by ip or domain. */
  units?: PolitenessUnits;
}

/**
 * The plan's politeness units for the engine: its `politenessBy` (ip, domain) over its hosts, with the
 * addresses the plan was given (its input's, or else its shared-address groups'); undefined per host.
 */
export function simulationUnits(plan: Pick<Plan, 'input' | 'hosts' | 'sharedServers'>): PolitenessUnits | undefined {
  const input = plan.input as ResolvedPlanInput & {
    politenessBy?: unknown;
    addressesByHost?: Readonly<Record<string, readonly string[]>>;
  };
  const by = input.politenessBy;
  if (by !== 'ip' && by !== 'domain') return undefined;
  let addresses = input.addressesByHost;
  if (by === 'ip' && addresses === undefined) {
    const fromGroups: Record<string, string[]> = {};
    for (const g of plan.sharedServers.groups)
      if (g.kind === 'address') for (const h of g.hosts) fromGroups[h] = (g.addresses ?? []).map((a) => a.address);
    addresses = fromGroups;
  }
  return politenessUnits(
    plan.hosts.map((h) => h.host),
    by,
    addresses,
  );
}

export function byMachine(
  hosts: readonly HostPlan[],
  calibrations: ReadonlyArray<HostCalibration | undefined>,
  units?: PolitenessUnits,
): Machine[] {
  const groups = new Map<number, Machine>();
  hosts.forEach((h, i) => {
    const key = h.machine ?? 0;
    let m = groups.get(key);
    if (!m) {
      m = { indexes: [], hosts: [], calibrations: [], seeds: [], robotsUrls: new Set(), ...(units ? { units } : {}) };
      groups.set(key, m);
    }
    m.indexes.push(i);
    m.hosts.push(h);
    m.calibrations.push(calibrations[i]);
    const robots = `http://${h.host}/robots.txt`;
    m.robotsUrls.add(robots);
    m.seeds.push(robots);
    // Its pages and the requests that fetch none (redirects: answered as pages, for their time).
    for (let p = 1; p <= h.pages + h.nonPageRequests; p++) m.seeds.push(`http://${h.host}/${p}`);
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
  overhead: OverheadDraws = overheadDraws(r.calibration),
): RunResult {
  const ends: number[] = [];
  let makespan = 0;
  let requests = 0;
  for (const machine of machines) {
    const models = machine.hosts.map((h, i) => hostModel(h, machine.calibrations[i], random));
    const clock = new VirtualClock(0, overhead.afterInterval(random));
    const afterResponse = overhead.afterResponse(random);
    // Each periodic fault kind's count of requests, per host (the kth comes at k × every).
    const due = models.map((m) => m.faults.map(() => 0));
    const index = new Map(models.map((m, i) => [m.host, i] as const));
    const hostEnds = new Array<number>(models.length).fill(0);
    const track =
      timeline === undefined
        ? undefined
        : models.map((m) => ({
            host: m.host,
            start: -1,
            done: 0,
            points: [] as Array<[number, number]>,
            pauses: [] as TimelineHost['pauses'],
            log: new RequestLog(),
          }));
    const decisions = models.map((m): RobotsDecision => ({
      verdict: 'allowed',
      ...(m.crawlDelaySeconds === undefined ? {} : { crawlDelaySeconds: m.crawlDelaySeconds }),
    }));
    const gate: RobotsGate = Object.assign(() => Promise.resolve<RobotsDecision>({ verdict: 'allowed' }), {
      peek: (url: string): RobotsDecision => decisions[index.get(hostOf(url))!]!,
    });
    const startFetch = (request: PageRequest, done: (result: PageResult) => void): void => {
      const i = index.get(request.host)!;
      const m = models[i]!;
      const startedAt = clock.now();
      requests++;
      const t = track?.[i];
      if (t && t.start < 0) t.start = startedAt;
      // A limiter counts every request, robots.txt included (the host's first: it passes).
      const refused = m.limiter !== null && !m.limiter.admit(startedAt / 1000);
      if (machine.robotsUrls.has(request.url)) {
        const endedAt = startedAt + m.robotsSeconds * 1000 + afterResponse();
        clock.at(endedAt, () => {
          if (endedAt > hostEnds[i]!) hostEnds[i] = endedAt;
          t?.log.add(startedAt, endedAt, 200);
          done({ status: 200, headers: NO_HEADERS, bytes: 0, truncated: false, startedAt, endedAt });
        });
        return;
      }
      const fault = refused ? m.refusal! : drawFault(m, due[i]!, random);
      if (fault === undefined) {
        const endedAt = startedAt + m.latency(random) * 1000 + afterResponse();
        clock.at(endedAt, () => {
          if (endedAt > hostEnds[i]!) hostEnds[i] = endedAt;
          if (t) t.points.push([endedAt / 1000, ++t.done]);
          t?.log.add(startedAt, endedAt, 200);
          done({ status: 200, headers: NO_HEADERS, bytes: 0, truncated: false, startedAt, endedAt });
        });
        return;
      }
      const drawn = fault.draw(random, startedAt);
      const endedAt = startedAt + drawn.seconds * 1000 + afterResponse();
      clock.at(endedAt, () => {
        if (endedAt > hostEnds[i]!) hostEnds[i] = endedAt;
        t?.log.add(startedAt, endedAt, drawn.status);
        if (t && drawn.retryAfterSeconds !== null) {
          t.pauses.push({
            fromSeconds: endedAt / 1000,
            untilSeconds: endedAt / 1000 + drawn.retryAfterSeconds,
            status: drawn.status,
            retryAfterSeconds: drawn.retryAfterSeconds,
          });
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
      ...(machine.units ? { politenessUnits: machine.units } : {}),
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
    const bound = rateBound(models[0]!.host);
    if (bound !== null) machineEnd = Math.max(machineEnd, bound);
    if (machineEnd > makespan) makespan = machineEnd;
    if (track && timeline) {
      for (const t of track) {
        const end = hostEnds[index.get(t.host)!]! / 1000;
        const start = Math.max(0, t.start) / 1000;
        timeline.push({
          host: t.host,
          startSeconds: start,
          endSeconds: end,
          pages: thinPoints([[start, 0], ...t.points], TIMELINE_MAX_POINTS),
          pauses: t.pauses,
          requestCount: t.log.count,
          refusedCount: t.log.refused,
          requests: t.log.kept(),
        });
      }
    }
  }
  return { makespan, ends, requests };
}

/**
 * Whether this page request is a fault, and which: a periodic kind when its count comes to a whole period
 * (as the plan places it, faults.ts), else a draw over the random kinds' rates.
 */
function drawFault(m: HostModel, due: number[], random: Random): FaultKind | undefined {
  if (m.faults.length === 0) return undefined;
  let periodic: FaultKind | undefined;
  for (let k = 0; k < m.faults.length; k++) {
    const f = m.faults[k]!;
    if (f.every === null) continue;
    due[k]! += 1 / f.every;
    if (periodic === undefined && due[k]! >= 1 - 1e-9) {
      due[k]! -= 1;
      periodic = f;
    }
  }
  if (periodic) return periodic;
  let u = random();
  for (const f of m.faults) {
    if (f.every !== null) continue;
    if (u < f.rate) return f;
    u -= f.rate;
  }
  return undefined;
}

/** The per-request overhead a run draws from: the calibration's measured gaps, or REQUEST_OVERHEAD. */
export interface OverheadDraws {
  /** Per run: ms a timer fires late, drawn per timer. */
  afterInterval(random: Random): () => number;
  /** Per run: ms from an answer's arrival to its reading, drawn per answer. */
  afterResponse(random: Random): () => number;
}

export function overheadDraws(calibration: Calibration | null): OverheadDraws {
  const m = calibration?.overhead;
  const draw = (summary: LatencySummary | undefined, fallback: number) => (random: Random) => {
    if (summary === undefined || summary.count < OVERHEAD_MIN_SAMPLES || summary.samplesSeconds.length === 0)
      return () => fallback * 1000;
    // A bootstrap of the measured gaps for each run, as for the hosts' times (model.ts).
    const draw = sampler(summary.samplesSeconds, random);
    return () => (draw(random) ?? fallback) * 1000;
  };
  return {
    afterInterval: draw(m?.afterInterval, REQUEST_OVERHEAD.afterIntervalSeconds),
    afterResponse: draw(m?.afterResponse, REQUEST_OVERHEAD.afterResponseSeconds),
  };
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
