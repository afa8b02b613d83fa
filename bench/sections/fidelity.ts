/**
 * `npm run bench -- fidelity`: does the calibrated plan come true, and does its band hold the crawl? On
 * randomised loopback scenarios (bench/lib/fidelityScenarios.ts, from a fixed seed; `--seed=N` for another
 * set), each served by bench/lib/scenarioServer.ts, the three steps a user takes, with the built CLI:
 *
 *   1. a short test crawl: `crawl SEEDS --max-pages T --report test.json` (per-host budgets when crawl has them);
 *   2. the calibrated plan of the full crawl: `estimate SEEDS --pages-for HOST=N … --calibrate test.json
 *      --simulate --json`: its total and its p10–p90 band;
 *   3. the full crawl of the same pages per host, `crawl … --report full.json`, whose makespan (first request's
 *      start to last answer, the plan's timing convention) is the actual.
 *
 * The server draws each crawl's answer times and faults from a seed of its own (the scenario's seed × 2 for the
 * test crawl, × 2 + 1 for the full crawl): the plan is judged on a crawl it has not seen. Per scenario: planned,
 * band, actual, signed error, in band; over all: median and 90th-percentile |error| and coverage, against the
 * issue's targets.
 *
 * Environment: CRAWL_BENCH_SCENARIOS picks scenarios by id (`s03,s07`); CRAWL_BENCH_KEEP=DIR keeps every
 * crawl's report, output and the server's arrival log.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TableCell } from '../../src/core/format/table';
import {
  crawlPages,
  FIDELITY_SEED,
  FIDELITY_SIZES,
  fidelityScenarios,
  latencyText,
  limiterText,
  otherText,
  outageText,
  serverSeed,
  type FidelityScenario,
} from '../lib/fidelityScenarios';
import { FIDELITY_TARGETS, fidelitySummary, inBand, median, signedError } from '../lib/fidelityStats';
import { startScenarioHosts, type Arrival, type ScenarioHosts } from '../lib/scenarioServer';
import type { BenchContext, BenchSection, BenchTable } from '../lib/types';
import { chosen, SCENARIOS_ENV } from './crawlers';

const KEEP_ENV = 'CRAWL_BENCH_KEEP';

/** The most one crawl may take, seconds; a crawl still running then is stopped and its row marked. */
const CRAWL_CAP_SECONDS = { test: 90, full: 180 };

/** The crawl's options this bench reads from `crawl --help`: what the CLI can do at the commit measured. */
interface CrawlFlags {
  pagesFor: boolean;
}

interface CliRun {
  status: number | null;
  killed: boolean;
  seconds: number;
}

/** Runs the built CLI with `args`, its stdout and stderr to files in `dir` named `name`. */
function runCli(root: string, args: string[], dir: string, name: string, capSeconds: number): Promise<CliRun> {
  const out = fs.openSync(path.join(dir, `${name}.out`), 'w');
  const err = fs.openSync(path.join(dir, `${name}.err`), 'w');
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'dist', 'cli.js'), ...args], {
      stdio: ['ignore', out, err],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, capSeconds * 1000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (status) => {
      clearTimeout(timer);
      fs.closeSync(out);
      fs.closeSync(err);
      resolve({ status, killed, seconds: (performance.now() - t0) / 1000 });
    });
  });
}

const tail = (file: string): string => {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' / ');
  } catch {
    return '';
  }
};

/** What the bench reads of a crawl report. */
interface ReportRead {
  /** First request's start to last answer, seconds. */
  makespanSeconds: number;
  elapsedSeconds: number;
  pagesByHost: Record<string, number>;
  requests: number;
  dropped: string[];
  endReason: string;
}

interface ReportJson {
  summary: {
    elapsedSeconds: number;
    requests: number;
    endReason: string;
    hosts: Array<{ host: string; pages: number; dropped?: string }>;
  };
  requests: Array<{ startedAt: number; endedAt: number | null }>;
}

function readReport(file: string): ReportRead {
  const r = JSON.parse(fs.readFileSync(file, 'utf8')) as ReportJson;
  const starts = r.requests.map((q) => q.startedAt);
  const ends = r.requests.flatMap((q) => (q.endedAt === null ? [] : [q.endedAt]));
  return {
    makespanSeconds: starts.length === 0 ? 0 : (Math.max(...ends) - Math.min(...starts)) / 1000,
    elapsedSeconds: r.summary.elapsedSeconds,
    pagesByHost: Object.fromEntries(r.summary.hosts.map((h) => [h.host, h.pages])),
    requests: r.summary.requests,
    dropped: r.summary.hosts.filter((h) => h.dropped !== undefined).map((h) => `${h.host} (${h.dropped})`),
    endReason: r.summary.endReason,
  };
}

/** The faults a crawl met on the server: limiter refusals, 503 windows, random 5xx, hangs. */
function faultCounts(log: Record<string, Arrival[]>): { limited: number; outage: number; error: number; hang: number } {
  const all = Object.values(log).flat();
  const count = (kind: Arrival['kind']): number => all.filter((a) => a.kind === kind).length;
  return { limited: count('limited'), outage: count('outage'), error: count('error'), hang: count('hang') };
}

const faultText = (f: ReturnType<typeof faultCounts>): string => `${f.limited}/${f.outage}/${f.error}/${f.hang}`;

interface ScenarioResult {
  scenario: FidelityScenario;
  testPages: number;
  testFaults: ReturnType<typeof faultCounts>;
  fullFaults: ReturnType<typeof faultCounts>;
  plannedPages: number;
  plannedSeconds: number;
  p10Seconds: number;
  p50Seconds: number;
  p90Seconds: number;
  actualSeconds: number;
  elapsedSeconds: number;
  fetchedPages: number;
  notes: string[];
  wallSeconds: number;
}

async function runScenario(
  scenario: FidelityScenario,
  ctx: BenchContext,
  flags: CrawlFlags,
  firstAddress: number,
): Promise<ScenarioResult> {
  const t0 = performance.now();
  const dir = path.join(ctx.tmp, scenario.id);
  fs.mkdirSync(dir, { recursive: true });
  const served: ScenarioHosts = await startScenarioHosts(scenario.hosts, scenario.seed, { firstAddress });
  const notes: string[] = [];
  try {
    const seeds = served.hosts.map((h) => h.seed);
    const hostOf = new Map(scenario.hosts.map((spec, i) => [spec.name, served.hosts[i]!.host]));
    const common = [
      '--delay',
      String(scenario.delaySeconds),
      '--concurrency',
      String(scenario.concurrency),
      '--timeout',
      String(scenario.timeoutSeconds),
      '--max-retries',
      String(scenario.maxRetries),
      '--max-depth',
      '100',
    ];
    const perHost = (pages: (h: FidelityScenario['hosts'][number]) => number): string[] =>
      scenario.hosts.flatMap((h) => ['--pages-for', `${hostOf.get(h.name)}=${pages(h)}`]);

    // 1. The test crawl.
    served.reset(serverSeed(scenario, 'test'));
    const testReport = path.join(dir, 'test.json');
    const testBudget = scenario.hosts.reduce((n, h) => n + h.testPages, 0);
    const testArgs = [
      'crawl',
      ...seeds,
      ...common,
      ...(flags.pagesFor ? perHost((h) => h.testPages) : []),
      '--max-pages',
      String(testBudget),
      '--report',
      testReport,
    ];
    const test = await runCli(ctx.root, testArgs, dir, 'test', CRAWL_CAP_SECONDS.test);
    const testLog = served.log();
    fs.writeFileSync(path.join(dir, 'test-arrivals.json'), JSON.stringify(testLog));
    if (test.status === 2 || !fs.existsSync(testReport))
      throw new Error(
        `${scenario.id}: the test crawl failed (exit ${test.status}): ${tail(path.join(dir, 'test.err'))}`,
      );
    if (test.killed) notes.push(`test crawl cut at ${CRAWL_CAP_SECONDS.test} s`);
    const testRead = readReport(testReport);
    if (testRead.dropped.length > 0) notes.push(`test crawl dropped ${testRead.dropped.join(', ')}`);

    // 2. The calibrated plan of the full crawl, with its band.
    const estimateArgs = [
      'estimate',
      ...seeds,
      '--delay',
      String(scenario.delaySeconds),
      '--workers',
      String(scenario.concurrency),
      '--pages-per-host',
      String(crawlPages(scenario.hosts[0]!)),
      ...perHost(crawlPages),
      '--calibrate',
      testReport,
      '--simulate',
      '--json',
    ];
    const estimate = await runCli(ctx.root, estimateArgs, dir, 'estimate', 120);
    if (estimate.status !== 0)
      throw new Error(
        `${scenario.id}: estimate failed (exit ${estimate.status}): ${tail(path.join(dir, 'estimate.err'))}`,
      );
    const doc = JSON.parse(fs.readFileSync(path.join(dir, 'estimate.out'), 'utf8')) as {
      totalSeconds: number;
      hosts: Array<{ host: string; pages: number }>;
      simulation: { p10Seconds: number; p50Seconds: number; p90Seconds: number };
    };
    const plannedPages = doc.hosts.reduce((n, h) => n + h.pages, 0);

    // 3. The full crawl: every page of every host, on a run the plan has not seen.
    served.reset(serverSeed(scenario, 'full'));
    const fullReport = path.join(dir, 'full.json');
    const budget = scenario.hosts.reduce((n, h) => n + crawlPages(h), 0);
    const fullArgs = [
      'crawl',
      ...seeds,
      ...common,
      ...(flags.pagesFor ? perHost(crawlPages) : []),
      // Without per-host budgets: the whole sites, which are the planned pages (404s included) and no more.
      '--max-pages',
      String(budget),
      '--report',
      fullReport,
    ];
    const full = await runCli(ctx.root, fullArgs, dir, 'full', CRAWL_CAP_SECONDS.full);
    const fullLog = served.log();
    fs.writeFileSync(path.join(dir, 'full-arrivals.json'), JSON.stringify(fullLog));
    if (full.status === 2 || !fs.existsSync(fullReport))
      throw new Error(
        `${scenario.id}: the full crawl failed (exit ${full.status}): ${tail(path.join(dir, 'full.err'))}`,
      );
    if (full.killed) notes.push(`full crawl cut at ${CRAWL_CAP_SECONDS.full} s`);
    const fullRead = readReport(fullReport);
    if (fullRead.dropped.length > 0) notes.push(`full crawl dropped ${fullRead.dropped.join(', ')}`);
    for (const h of scenario.hosts) {
      const got = fullRead.pagesByHost[hostOf.get(h.name)!] ?? 0;
      if (got !== crawlPages(h)) notes.push(`${h.name}: ${got} of ${crawlPages(h)} pages`);
    }
    return {
      scenario,
      testPages: Object.values(testRead.pagesByHost).reduce((a, b) => a + b, 0),
      testFaults: faultCounts(testLog),
      fullFaults: faultCounts(fullLog),
      plannedPages,
      plannedSeconds: doc.totalSeconds,
      p10Seconds: doc.simulation.p10Seconds,
      p50Seconds: doc.simulation.p50Seconds,
      p90Seconds: doc.simulation.p90Seconds,
      actualSeconds: fullRead.makespanSeconds,
      elapsedSeconds: fullRead.elapsedSeconds,
      fetchedPages: Object.values(fullRead.pagesByHost).reduce((a, b) => a + b, 0),
      notes,
      wallSeconds: (performance.now() - t0) / 1000,
    };
  } finally {
    await served.close();
  }
}

const s2 = (x: number): string => x.toFixed(2);
const scenarioCount = (n: number): string => `${n} scenario${n === 1 ? '' : 's'}`;
const signedPct = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

function scenariosTable(scenarios: FidelityScenario[], seed: number): BenchTable {
  const rows: TableCell[][] = scenarios.flatMap((sc) =>
    sc.hosts.map((h, i) => [
      i === 0 ? `${sc.id} · delay ${sc.delaySeconds} s` : '',
      h.name,
      `${crawlPages(h)} / ${h.testPages}`,
      latencyText(h.latency),
      limiterText(h.limiter),
      outageText(h.outages),
      otherText(h),
    ]),
  );
  return {
    title: `Scenarios drawn from seed ${seed}: each host's pages (full / test), answer times and mechanisms`,
    columns: [
      { header: 'scenario' },
      { header: 'host' },
      { header: 'pages', align: 'right' },
      { header: 'answer times' },
      { header: 'rate limiter' },
      { header: '503 windows' },
      { header: 'other' },
    ],
    rows,
    notes: [
      'pages: what the full crawl fetches (HTML pages and 404s, both final answers) / what the test crawl is given of it. RA: the Retry-After sent ("left": the time left in the window).',
      `Every scenario: 8 global slots, --timeout ${scenarios[0]?.timeoutSeconds ?? 1} s, 2 retries, start-to-start delay; refusals answer in 2 ms, robots.txt in 3 ms.`,
    ],
  };
}

function resultsTable(results: ScenarioResult[], flags: CrawlFlags): BenchTable {
  const rows: TableCell[][] = results.map((r) => {
    const error = signedError(r.plannedSeconds, r.actualSeconds);
    return [
      r.scenario.id,
      r.scenario.hosts.length,
      `${r.fetchedPages} / ${r.plannedPages}`,
      r.testPages,
      faultText(r.testFaults),
      faultText(r.fullFaults),
      s2(r.plannedSeconds),
      s2(r.p50Seconds),
      `${s2(r.p10Seconds)}–${s2(r.p90Seconds)}`,
      s2(r.actualSeconds),
      signedPct(error),
      inBand(r) ? 'yes' : r.actualSeconds > r.p90Seconds ? 'above' : 'below',
      r.notes.join('; '),
    ];
  });
  return {
    title: 'Per scenario: the calibrated plan and its band against the full crawl',
    columns: [
      { header: 'scenario' },
      { header: 'hosts', align: 'right' },
      { header: 'pages', align: 'right' },
      { header: 'test pages', align: 'right' },
      { header: 'test faults', align: 'right' },
      { header: 'full faults', align: 'right' },
      { header: 'planned s', align: 'right' },
      { header: 'p50 s', align: 'right' },
      { header: 'band p10–p90 s', align: 'right' },
      { header: 'actual s', align: 'right' },
      { header: 'error', align: 'right' },
      { header: 'in band' },
      { header: 'notes' },
    ],
    rows,
    notes: [
      'pages: fetched by the full crawl / planned · faults: limiter refusals / 503-window answers / random 5xx / hangs, as the server saw them in that crawl.',
      "planned: the plan's total (estimate --calibrate --simulate); p50 and band: its simulation · actual: the full crawl's first request's start to its last answer (the plan's timing convention).",
      'error: planned / actual − 1 (+: the plan is longer than the crawl).',
      flags.pagesFor
        ? 'Both crawls ran with per-host budgets (crawl --pages-for HOST=N), the test crawl with its pages, the full crawl with the planned ones.'
        : 'crawl has no per-host budget at this commit: the test crawl takes its --max-pages in the order it finds them; the full crawl fetches the whole sites, which hold exactly the planned pages.',
    ],
  };
}

function summaryTable(results: ScenarioResult[], seed: number): BenchTable {
  const sum = fidelitySummary(results);
  const p50 = fidelitySummary(results.map((r) => ({ ...r, plannedSeconds: r.p50Seconds })));
  const t = FIDELITY_TARGETS;
  const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');
  return {
    title: `Over ${scenarioCount(results.length)} (seed ${seed}): the plan's error and the band's coverage`,
    columns: [{ header: 'measure' }, { header: 'value', align: 'right' }, { header: 'target' }, { header: '' }],
    rows: [
      ['median |error|', pct(sum.medianAbsError), `≤ ${pct(t.medianAbsError)}`, verdict(sum.met.medianAbsError)],
      ['90th percentile |error|', pct(sum.p90AbsError), `≤ ${pct(t.p90AbsError)}`, verdict(sum.met.p90AbsError)],
      [
        'coverage (actual inside p10–p90)',
        pct(sum.coverage),
        `${pct(t.coverage.min)}–${pct(t.coverage.max)}`,
        verdict(sum.met.coverage),
      ],
      ['median |error| of the band p50', pct(p50.medianAbsError), '', ''],
      ['90th percentile |error| of the band p50', pct(p50.p90AbsError), '', ''],
      [
        'median signed error',
        signedPct(median(results.map((r) => signedError(r.plannedSeconds, r.actualSeconds)))),
        '',
        '',
      ],
    ],
    notes: [
      'Targets (issue 24): median |error| ≤ 3%, 90th percentile ≤ 8%, coverage between 70% and 90% (a p10–p90 band should hold about 80%).',
      'Median: the middle value (the mean of the two middle ones for an even count); 90th percentile: nearest rank.',
      `The scenarios come from seed ${seed} (npm run bench -- fidelity --seed=N draws another set); each crawl's server draws from the scenario's seed × 2 (test crawl) and × 2 + 1 (full crawl).`,
    ],
  };
}

export const fidelitySection: BenchSection = {
  id: 'fidelity',
  title: 'Fidelity: the calibrated plan and its band against the crawl, on randomised loopback scenarios',
  async run(ctx) {
    const seedFlag = ctx.flags?.seed;
    const seed = seedFlag === undefined ? FIDELITY_SEED : Number(seedFlag);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new Error(`--seed=${seedFlag}: a whole number, 0 … 4294967295`);
    const sizes = ctx.quick ? FIDELITY_SIZES.quick : FIDELITY_SIZES.full;
    const scenarios = chosen(fidelityScenarios(seed, sizes), SCENARIOS_ENV);
    const help = spawnSync(process.execPath, [path.join(ctx.root, 'dist', 'cli.js'), 'crawl', '--help'], {
      encoding: 'utf8',
    });
    const flags: CrawlFlags = { pagesFor: /--pages-for\b/.test(help.stdout ?? '') };
    ctx.log(
      `seed ${seed}: ${scenarioCount(scenarios.length)}${flags.pagesFor ? ', per-host budgets (crawl --pages-for)' : ', crawl without per-host budgets'}`,
    );
    const results: ScenarioResult[] = [];
    try {
      for (const [i, scenario] of scenarios.entries()) {
        // Each scenario on addresses of its own (127.0.0.21 …, 6 apart), so no connection of the last one is reused.
        const r = await runScenario(scenario, ctx, flags, 21 + (i % 30) * 6);
        const error = signedError(r.plannedSeconds, r.actualSeconds);
        ctx.log(
          `${scenario.id}: ${scenario.hosts.length} hosts, planned ${s2(r.plannedSeconds)} s, band ${s2(r.p10Seconds)}–${s2(r.p90Seconds)} s, actual ${s2(r.actualSeconds)} s (${signedPct(error)}) in ${r.wallSeconds.toFixed(0)} s`,
        );
        results.push(r);
      }
    } finally {
      const keep = process.env[KEEP_ENV];
      if (keep) fs.cpSync(ctx.tmp, path.resolve(keep), { recursive: true });
    }
    return [scenariosTable(scenarios, seed), resultsTable(results, flags), summaryTable(results, seed)];
  },
};
