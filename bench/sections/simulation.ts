/**
 * The estimate's two measured inputs and its simulation (issue: step 10):
 *
 * - The per-request overhead (REQUEST_OVERHEAD, src/core/politeness/pacing.ts): the real crawl
 *   (startPlannedCrawl, undici, the system clock) against one loopback demo host with no latency, at a 50 ms
 *   delay (every gap waits for the interval: its start minus the interval's end) and at no delay (every gap
 *   waits for the answer: its start minus the answer's arrival), read from the crawl's report the way
 *   `estimate --calibrate` reads it (src/core/calibrate); the median of the runs' means.
 * - The simulation's speed: `simulate()` (the crawl engine on the simulation's virtual clock) on calibrated
 *   plans of about 1,000,000 simulated requests in all, wall and CPU time; and a plan too large to run request
 *   by request (a million pages × 200 runs), whose band comes from per-host sums.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { calibrationFromReport } from '../../src/core/calibrate/fromCrawlReport';
import { validateSampleCrawlOptions } from '../../src/core/crawl/sampleCrawlOptions';
import { formatNumber } from '../../src/core/format/duration';
import { REQUEST_OVERHEAD } from '../../src/core/politeness/pacing';
import { SIMULATION_DEFAULTS } from '../../src/core/simulate/options';
import { percentileSorted } from '../../src/core/statistics';
import { startDemoHosts } from '../../src/demo';
import { startPlannedCrawl } from '../../src/net/crawlSession';
import type { BenchContext, BenchSection, BenchTable } from '../lib/types';

/** The target: 1,000,000 simulated requests in under 2 s. */
export const SIMULATION_TARGET = { requests: 1_000_000, seconds: 2 } as const;

const median = (xs: number[]) =>
  percentileSorted(
    [...xs].sort((a, b) => a - b),
    50,
  );
const msText = (seconds: number) => `${formatNumber(seconds * 1000, 2)} ms`;

/** One crawl of a latency-free loopback host: the overhead its report shows, seconds. */
async function overheadRun(
  delaySeconds: number,
  pages: number,
): Promise<{ afterInterval: number; afterResponse: number; gaps: number }> {
  const demo = await startDemoHosts({
    hosts: [
      {
        name: 'bench',
        description: 'no latency',
        pages,
        latency: { kind: 'none' },
        graph: { kind: 'tree', fanOut: 3 },
      },
    ],
  });
  try {
    const options = validateSampleCrawlOptions({
      seeds: demo.hosts[0]!.seeds,
      maxPages: pages,
      maxDepth: 100,
      delaySeconds,
    });
    const result = await startPlannedCrawl(options).done;
    const o = calibrationFromReport(result.report).overhead;
    return {
      afterInterval: o.afterInterval.meanSeconds,
      afterResponse: o.afterResponse.meanSeconds,
      gaps: o.afterInterval.count + o.afterResponse.count,
    };
  } finally {
    await demo.close();
  }
}

export const simulationSection: BenchSection = {
  id: 'simulation',
  title: 'The estimate: the per-request overhead on loopback, and the simulation',
  async run(ctx: BenchContext): Promise<BenchTable[]> {
    const reps = ctx.quick ? 1 : 5;
    const intervalRuns: number[] = [];
    const responseRuns: number[] = [];
    for (let r = 0; r < reps; r++) {
      ctx.log(`overhead: run ${r + 1} of ${reps} (a 50 ms delay, then none)`);
      intervalRuns.push((await overheadRun(0.05, ctx.quick ? 60 : 200)).afterInterval);
      responseRuns.push((await overheadRun(0, ctx.quick ? 100 : 300)).afterResponse);
    }
    const overhead: BenchTable = {
      title: 'Per-request overhead: the real crawl against a loopback host with no latency, read from its report',
      columns: [
        { header: 'gap' },
        { header: 'runs', align: 'right' },
        { header: 'median of the means', align: 'right' },
        { header: 'range', align: 'right' },
        { header: 'REQUEST_OVERHEAD', align: 'right' },
      ],
      rows: [
        [
          'after the interval (50 ms delay)',
          String(reps),
          msText(median(intervalRuns)),
          `${msText(Math.min(...intervalRuns))}–${msText(Math.max(...intervalRuns))}`,
          msText(REQUEST_OVERHEAD.afterIntervalSeconds),
        ],
        [
          'after the answer (no delay)',
          String(reps),
          msText(median(responseRuns)),
          `${msText(Math.min(...responseRuns))}–${msText(Math.max(...responseRuns))}`,
          msText(REQUEST_OVERHEAD.afterResponseSeconds),
        ],
      ],
      notes: [
        'The plan adds the first to every gap a host waits for its interval, the second to every gap it waits for an answer (docs/planning.md#per-host).',
        'Timer lateness and the request reaching its connection make the first; reading the answer and starting the next request the second. A loaded machine makes both larger:',
        '`estimate --calibrate` then uses what its test crawl measured.',
      ],
    };

    const runs = SIMULATION_DEFAULTS.runs;
    const runner = path.join(ctx.tmp, 'simulationRun.js');
    await esbuild.build({
      entryPoints: [path.join(ctx.root, 'bench/lib/simulationRun.ts')],
      outfile: runner,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
    });
    const measure = (
      hosts: number,
      perHost: number,
      shapeRuns: number,
      reps: number,
    ): { method: string; requests: number; wall: number; cpu: number } => {
      const r = spawnSync(process.execPath, [runner, String(hosts), String(perHost), String(shapeRuns), String(reps)], {
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`simulationRun: ${r.stderr}`);
      return JSON.parse(r.stdout) as { method: string; requests: number; wall: number; cpu: number };
    };
    const shapes: Array<{ hosts: number; perHost: number; runs: number }> = ctx.quick
      ? [{ hosts: 10, perHost: 50, runs }]
      : [
          { hosts: 10, perHost: 500, runs: 190 },
          { hosts: 100, perHost: 50, runs: 190 },
          { hosts: 1000, perHost: 5, runs: 160 },
        ];
    const rows = shapes.map((s) => {
      ctx.log(`simulation: ${s.hosts} hosts × ${s.perHost} pages × ${s.runs} runs`);
      const t = measure(s.hosts, s.perHost, s.runs, ctx.quick ? 1 : 3);
      const perSecond = t.requests / t.wall;
      const millionIn = SIMULATION_TARGET.requests / perSecond;
      return [
        `${formatNumber(s.hosts)} × ${formatNumber(s.perHost)} × ${s.runs}`,
        t.method,
        formatNumber(t.requests),
        `${formatNumber(t.wall, 2)} s`,
        `${formatNumber(t.cpu, 2)} s`,
        formatNumber(perSecond),
        `${formatNumber(millionIn, 2)} s`,
        millionIn < SIMULATION_TARGET.seconds ? 'met' : 'MISSED',
      ];
    });
    ctx.log('simulation: 1 host × 1,000,000 pages × 200 runs (per-host sums)');
    const large = measure(1, 1_000_000, runs, 1);
    rows.push([
      '1 × 1,000,000 × 200',
      large.method,
      formatNumber(large.requests),
      `${formatNumber(large.wall, 2)} s`,
      `${formatNumber(large.cpu, 2)} s`,
      '—',
      '—',
      '—',
    ]);
    const speed: BenchTable = {
      title:
        'Simulation: simulate() on calibrated plans (answers in 50–250 ms, a 2% rate of 429 on every third host), 0.2 s delay, 8 slots',
      columns: [
        { header: 'hosts × pages × runs' },
        { header: 'method' },
        { header: 'requests', align: 'right' },
        { header: 'wall', align: 'right' },
        { header: 'CPU', align: 'right' },
        { header: 'requests /s', align: 'right' },
        { header: '1,000,000 in', align: 'right' },
        { header: 'target' },
      ],
      rows,
      notes: [
        `Target: ${formatNumber(SIMULATION_TARGET.requests)} simulated requests in under ${SIMULATION_TARGET.seconds} s. Wall: the best of ${ctx.quick ? 1 : 3} runs; CPU includes the garbage collector's threads.`,
        "Each request goes through the crawl engine (runCrawl, its scheduler and politeness rules) on the simulation's virtual clock: no promise, no timer.",
        'Each shape runs bundled (bench/lib/simulationRun.ts) in a child process of its own.',
        'The last row is too large to run request by request within the budget (1,000,000 requests): its band comes from per-host sums; its requests are those of the sample runs.',
      ],
    };
    return [overhead, speed];
  },
};
