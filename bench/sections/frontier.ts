/**
 * The frontier and the scheduler at scale, on virtual time with no I/O:
 *
 * - the frontier alone (src/core/crawl/frontier.ts): 1 host × 1,000,000 URLs and 100,000 hosts × 10 URLs;
 *   enqueue operations per second, take + end operations per second, and live heap bytes per queued URL;
 * - the scheduler: `runCrawl` on a virtual clock with a fetcher that answers after 50 ms of virtual time,
 *   1,000,000 seeds over 100,000 hosts; requests per second of wall time and heap bytes per queued URL.
 *
 * Bytes per queued URL are `process.memoryUsage().heapUsed` after a full garbage collection, once
 * everything is queued, minus the same before the URLs were made, divided by the URLs: the URL strings,
 * the items, the hosts and the frontier's own structures all count.
 */
import { runCrawl } from '../../src/core/crawl/engine';
import type { CrawlResult } from '../../src/core/crawl/types';
import { Frontier, type HostSlot } from '../../src/core/crawl/frontier';
import { HOST_RATE_DEFAULTS, HostRate } from '../../src/core/politeness/hostRate';
import { formatNumber } from '../../src/core/format/duration';
import { VirtualClock as SimulationClock } from '../../src/core/simulate/virtualClock';
import { VirtualClock } from '../../test/helpers/virtualClock';
import { liveHeapBytes } from '../lib/memory';
import type { BenchContext, BenchSection, BenchTable } from '../lib/types';

/** The targets (issue: step 8), printed under the tables. */
export const FRONTIER_TARGETS = { opsPerSecond: 1_000_000, bytesPerQueuedUrl: 200 } as const;

export interface Shape {
  hosts: number;
  perHost: number;
  /** Hosts per politeness unit (docs/how-it-works.md#politeness-units); none: each host its own. */
  unitSize?: number;
}

/** The politeness unit of host h with `size` hosts a unit: hosts h, h + 1, … share one. */
function unitName(h: number, size: number): string {
  return ['unit-', Math.floor(h / size)].join('');
}

/** A host's number back from its name (www.host-H.example). */
function hostNumber(host: string): number {
  return Number(host.slice(9, host.indexOf('.', 9)));
}

export interface FrontierMeasure {
  urls: number;
  meanUrlChars: number;
  enqueuePerSecond: number;
  takePerSecond: number;
  bytesPerUrl: number;
}

export interface SchedulerMeasure {
  urls: number;
  requests: number;
  wallSeconds: number;
  requestsPerSecond: number;
  bytesPerUrl: number;
  virtualSeconds: number;
}

interface Item {
  url: string;
  notBefore: number;
}

const DELAY_SECONDS = 1;
const LATENCY_MS = 50;
const CONCURRENCY = 64;
const T0 = Date.UTC(2024, 0, 1);

function hostName(h: number): string {
  return ['www.host-', h, '.example'].join('');
}

/** A realistic URL, as one flat string (joined, not concatenated, so no rope of parts is kept alive). */
function url(h: number, i: number): string {
  return ['https://', hostName(h), '/articles/', Math.floor(i / 1000), '/page-', i, '.html'].join('');
}

function rate(): HostRate {
  return new HostRate({
    configuredSeconds: DELAY_SECONDS,
    crawlDelayPolicy: 'cap',
    maxCrawlDelaySeconds: 30,
    adaptive: false,
    ...HOST_RATE_DEFAULTS,
  });
}

/**
 * One pass: queue hosts × perHost URLs (URL i on host i mod hosts, so hosts interleave as links are met),
 * then take and end every one of them on virtual time (each host one request at a time, 1 s apart).
 */
function frontierPass(shape: Shape): FrontierMeasure {
  // Plain loops, no closures over the frontier: a closure's context can outlive the pass and keep a
  // drained frontier alive into the next pass's "before" reading.
  const n = shape.hosts * shape.perHost;
  const before = liveHeapBytes();
  const frontier = new Frontier<Item>({
    delayFrom: 'start',
    perHostConcurrency: 1,
    exempt: never,
    mayStartNew: always,
  });
  const slots: HostSlot<Item>[] = [];
  const size = shape.unitSize;
  let unitRate = rate();
  for (let h = 0; h < shape.hosts; h++) {
    if (size === undefined) slots.push(frontier.add(hostName(h), rate()));
    else {
      // The unit's first host makes its rate; the others share it.
      if (h % size === 0) unitRate = rate();
      slots.push(frontier.add(hostName(h), unitRate, undefined, unitName(h, size)));
    }
  }
  let items: Item[] | undefined = [];
  let chars = 0;
  for (let i = 0; i < n; i++) {
    const item = { url: url(i % shape.hosts, i), notBefore: 0 };
    chars += item.url.length;
    items.push(item);
  }

  let t = performance.now();
  for (let i = 0; i < n; i++) frontier.enqueue(slots[i % shape.hosts]!, items[i]!, 'back');
  const enqueueSeconds = (performance.now() - t) / 1000;
  items = undefined;
  const bytesPerUrl = (liveHeapBytes() - before) / n;

  let taken = 0;
  t = performance.now();
  for (;;) {
    const at = frontier.nextReadyAt();
    if (at === undefined) break;
    const start = frontier.takeReady(at)!;
    frontier.end(start.slot, at);
    frontier.refresh(start.slot);
    taken++;
  }
  const takeSeconds = (performance.now() - t) / 1000;
  if (taken !== n) throw new Error(`frontier bench: took ${taken} of ${n}`);
  return {
    urls: n,
    meanUrlChars: chars / n,
    enqueuePerSecond: n / enqueueSeconds,
    takePerSecond: n / takeSeconds,
    bytesPerUrl,
  };
}

const never = (): boolean => false;
const always = (): boolean => true;

/** The best of `reps` passes for each speed (a shared machine only ever slows a pass down); bytes from the last. */
export function measureFrontier(shape: Shape, reps: number): FrontierMeasure {
  let best: FrontierMeasure | undefined;
  for (let r = 0; r < reps; r++) {
    const m = frontierPass(shape);
    best =
      best === undefined
        ? m
        : {
            ...m,
            enqueuePerSecond: Math.max(best.enqueuePerSecond, m.enqueuePerSecond),
            takePerSecond: Math.max(best.takePerSecond, m.takePerSecond),
          };
  }
  return best!;
}

/** The engine's options in both scheduler passes. */
const PASS_OPTIONS = {
  random: () => 0.5,
  concurrency: CONCURRENCY,
  delaySeconds: DELAY_SECONDS,
  maxPages: Infinity,
  maxDepth: 0,
} as const;

/**
 * One scheduler pass: every URL a seed, `crawl(seeds, firstStart)` runs the engine and calls `firstStart` at
 * its first request, when every seed is queued: the bytes are measured then, and the time that takes is left
 * out of the wall time.
 */
async function schedulerPass(
  shape: Shape,
  crawl: (seeds: string[], firstStart: () => void) => Promise<CrawlResult>,
): Promise<SchedulerMeasure> {
  const n = shape.hosts * shape.perHost;
  const before = liveHeapBytes();
  const seeds = Array.from({ length: n }, (_, i) => url(i % shape.hosts, i));
  let bytesPerUrl = 0;
  let measuring = 0;
  const firstStart = (): void => {
    if (bytesPerUrl > 0) return;
    const m = performance.now();
    bytesPerUrl = (liveHeapBytes() - before) / n;
    measuring = performance.now() - m;
  };
  const t = performance.now();
  const result = await crawl(seeds, firstStart);
  const wallSeconds = (performance.now() - t - measuring) / 1000;
  const requests = result.summary.requests;
  return {
    urls: n,
    requests,
    wallSeconds,
    requestsPerSecond: requests / wallSeconds,
    bytesPerUrl,
    virtualSeconds: result.summary.elapsedSeconds,
  };
}

/** The engine's politeness units for a shape with units (none without). */
function unitsOption(shape: Shape): { politenessUnits?: (host: string) => string } {
  const size = shape.unitSize;
  return size === undefined ? {} : { politenessUnits: (host) => unitName(hostNumber(host), size) };
}

/** `runCrawl` on the tests' virtual clock; the fetcher's promise answers 200 after LATENCY_MS. */
export function measureScheduler(shape: Shape): Promise<SchedulerMeasure> {
  return schedulerPass(shape, (seeds, firstStart) => {
    const clock = new VirtualClock(T0);
    return clock.run(
      runCrawl({
        ...PASS_OPTIONS,
        ...unitsOption(shape),
        seeds,
        clock,
        progressIntervalMs: 60_000,
        emit: (event) => {
          if (event.type === 'request-start') firstStart();
        },
        fetch: async (req) => {
          const startedAt = clock.now();
          await clock.sleep(LATENCY_MS, req.signal);
          return { status: 200, headers: {}, bytes: 0, truncated: false, startedAt, endedAt: clock.now() };
        },
      }),
      { maxTimers: 10 * seeds.length, maxMs: Number.MAX_SAFE_INTEGER },
    );
  });
}

/**
 * The same crawl on the callback road the simulation takes (src/core/simulate): the simulation's virtual
 * clock drives the engine, and a fetcher answers after LATENCY_MS through the clock (no promise, no event sink).
 */
export function measureSchedulerOnSimulationClock(shape: Shape): Promise<SchedulerMeasure> {
  return schedulerPass(shape, (seeds, firstStart) => {
    const clock = new SimulationClock(T0);
    const finished = runCrawl({
      ...PASS_OPTIONS,
      ...unitsOption(shape),
      seeds,
      clock,
      urlOutcomes: false,
      startFetch: (_req, done) => {
        firstStart();
        const startedAt = clock.now();
        clock.at(startedAt + LATENCY_MS, () =>
          done({ status: 200, headers: {}, bytes: 0, truncated: false, startedAt, endedAt: clock.now() }),
        );
      },
    });
    clock.run();
    return finished;
  });
}

function shapeLabel(shape: Shape): string {
  const units = shape.unitSize === undefined ? '' : `, units of ${formatNumber(shape.unitSize)} hosts`;
  return `${formatNumber(shape.hosts)} host${shape.hosts === 1 ? '' : 's'} × ${formatNumber(shape.perHost)} URLs${units}`;
}

/** Hosts per unit in the grouped rows (--politeness-by ip or domain: 10,000 units of 10 hosts). */
const UNIT_SIZE = 10;

/** "met", or "missed:" and what. */
function verdict(misses: [boolean, string][]): string {
  const missed = misses.filter(([miss]) => miss).map(([, what]) => what);
  return missed.length === 0 ? 'met' : `missed: ${missed.join(', ')}`;
}

export const frontierSection: BenchSection = {
  id: 'frontier',
  title: 'Frontier and scheduler at scale (virtual time, no I/O)',
  async run(ctx: BenchContext): Promise<BenchTable[]> {
    const scale = ctx.quick ? 10 : 1;
    const shapes: Shape[] = [
      { hosts: 1, perHost: 1_000_000 / scale },
      { hosts: 100_000 / scale, perHost: 10 },
      { hosts: 100_000 / scale, perHost: 10, unitSize: UNIT_SIZE },
    ];
    const reps = ctx.quick ? 1 : 3;
    const frontierRows = shapes.map((shape) => {
      ctx.log(`frontier: ${shapeLabel(shape)}, ${reps} pass${reps === 1 ? '' : 'es'}`);
      return { shape, m: measureFrontier(shape, reps) };
    });
    const schedulerShape: Shape = { hosts: 100_000 / scale, perHost: 10 };
    ctx.log(`scheduler: ${shapeLabel(schedulerShape)}`);
    const s = await measureScheduler(schedulerShape);
    ctx.log(`scheduler on the simulation's clock: ${shapeLabel(schedulerShape)}`);
    const c = await measureSchedulerOnSimulationClock(schedulerShape);
    const groupedShape: Shape = { ...schedulerShape, unitSize: UNIT_SIZE };
    ctx.log(`scheduler: ${shapeLabel(groupedShape)}`);
    const sg = await measureScheduler(groupedShape);
    ctx.log(`scheduler on the simulation's clock: ${shapeLabel(groupedShape)}`);
    const cg = await measureSchedulerOnSimulationClock(groupedShape);
    const { opsPerSecond, bytesPerQueuedUrl } = FRONTIER_TARGETS;
    const sameShape = frontierRows.find(
      (row) =>
        row.shape.hosts === schedulerShape.hosts &&
        row.shape.perHost === schedulerShape.perHost &&
        row.shape.unitSize === undefined,
    )!.m;
    const frontierMicros = 1e6 / sameShape.enqueuePerSecond + 1e6 / sameShape.takePerSecond;
    return [
      {
        title: `Frontier alone: enqueue, then take + end every URL (1 request in flight per host, ${DELAY_SECONDS} s apart)`,
        columns: [
          { header: 'shape' },
          { header: 'URLs', align: 'right' },
          { header: 'URL chars', align: 'right' },
          { header: 'enqueue /s', align: 'right' },
          { header: 'take + end /s', align: 'right' },
          { header: 'bytes / queued URL', align: 'right' },
          { header: 'targets' },
        ],
        rows: frontierRows.map(({ shape, m }) => [
          shapeLabel(shape),
          formatNumber(m.urls),
          formatNumber(m.meanUrlChars),
          formatNumber(m.enqueuePerSecond),
          formatNumber(m.takePerSecond),
          formatNumber(m.bytesPerUrl),
          verdict([
            [m.enqueuePerSecond < opsPerSecond, 'enqueue'],
            [m.takePerSecond < opsPerSecond, 'take'],
            [m.bytesPerUrl > bytesPerQueuedUrl, 'bytes'],
          ]),
        ]),
        notes: [
          `Targets: ≥ ${formatNumber(opsPerSecond)} enqueue and ≥ ${formatNumber(opsPerSecond)} take operations per second; ≤ ${bytesPerQueuedUrl} bytes per queued URL.`,
          `Speeds: ${reps === 1 ? 'one pass' : `the best of ${reps} passes`}. Bytes: the live heap (heapUsed after full GCs) once all are queued, minus before the URLs were made,`,
          'per URL: the URL string (URL chars: its mean length), the item { url, notBefore }, the hosts (name, HostRate) and the frontier all count.',
          `Units of ${UNIT_SIZE} hosts: the hosts kept polite in groups (--politeness-by ip or domain), one heap entry per unit and each unit ranking its members.`,
        ],
      },
      {
        title: `Scheduler: runCrawl on a virtual clock, every URL a seed, a fetcher that answers 200 after ${LATENCY_MS} ms, ${CONCURRENCY} global slots`,
        columns: [
          { header: 'shape' },
          { header: 'requests', align: 'right' },
          { header: 'wall s', align: 'right' },
          { header: 'requests /s', align: 'right' },
          { header: 'bytes / queued URL', align: 'right' },
          { header: 'virtual time', align: 'right' },
          { header: 'targets' },
        ],
        rows: (
          [
            [schedulerShape, "promises, the tests' clock", s],
            [schedulerShape, "callbacks, the simulation's clock", c],
            [groupedShape, "promises, the tests' clock", sg],
            [groupedShape, "callbacks, the simulation's clock", cg],
          ] as const
        ).map(([shape, road, m]) => [
          `${shapeLabel(shape)}, ${road}`,
          formatNumber(m.requests),
          formatNumber(m.wallSeconds, 1),
          formatNumber(m.requestsPerSecond),
          formatNumber(m.bytesPerUrl),
          `${formatNumber(m.virtualSeconds)} s`,
          verdict([
            [m.requestsPerSecond < opsPerSecond, 'requests/s'],
            [m.bytesPerUrl > bytesPerQueuedUrl, 'bytes'],
          ]),
        ]),
        notes: [
          `Targets: ≥ ${formatNumber(opsPerSecond)} scheduling operations per second; ≤ ${bytesPerQueuedUrl} bytes per queued URL.`,
          "Two roads through the same engine: a fetcher's promise on the tests' clock (test/helpers/virtualClock.ts, which settles the event loop after every timer),",
          'and the callbacks the simulation uses (CrawlOptions.startFetch on src/core/simulate/virtualClock.ts, which drives the engine itself).',
          `Per request: ${formatNumber(1e6 / s.requestsPerSecond, 1)} µs in all with promises, ${formatNumber(1e6 / c.requestsPerSecond, 1)} µs with callbacks, of which the frontier's enqueue, take and end are ${formatNumber(frontierMicros, 2)} µs (the same shape above).`,
          'Wall time runs from runCrawl to its result: seeds parsed and queued, every request started and ended. Bytes are measured at the first start,',
          "when every seed is queued, and count the seed strings, the engine's URL records, its per-host state and the frontier.",
        ],
      },
    ];
  },
};
