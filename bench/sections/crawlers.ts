/**
 * `npm run bench -- crawlers`: politeness and efficiency of Crawl Planner, Scrapy and Crawlee, side by side
 * on the same loopback hosts with the same seeds, delay and global slots, judged from the servers' own
 * arrival logs (robots.txt counted as a request). The hosts run in a separate process (hostServer.ts);
 * the metrics are defined in politeness.ts, the scenarios in scenarios.ts, the crawlers in peers.ts.
 *
 * Environment: CRAWL_BENCH_SCENARIOS and CRAWL_BENCH_PEERS pick scenarios and crawlers by id (comma-separated);
 * CRAWL_BENCH_KEEP=DIR keeps every run's folder (job, command output, arrival log).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DemoHostConfig, DemoHostInfo } from '../../src/demo';
import { crawlDelayFor, explain, parseRobots } from '../../src/core/robots';
import type { TableCell, TableColumn } from '../../src/core/format/table';
import { startHostServer, type HostServer } from '../lib/hostServer';
import { DEFAULT_PEERS, runPeer, type CrawlerPeer, type CrawlJob, type PeerRun } from '../lib/peers';
import { analyseRun, ROBOTS_PATH, type HostFacts, type RunMetrics } from '../lib/politeness';
import { BENCH_MAX_DEPTH, crawlerScenarios, type Scenario } from '../lib/scenarios';
import type { BenchContext, BenchSection, BenchTable } from '../lib/types';

/** `CRAWL_BENCH_KEEP=DIR npm run bench -- crawlers` copies every run's files (job, output, arrival log) to DIR. */
const KEEP_ENV = 'CRAWL_BENCH_KEEP';
/** Comma-separated scenario ids and peer ids to run (default: all), e.g. `CRAWL_BENCH_SCENARIOS=faults CRAWL_BENCH_PEERS=scrapy`. */
export const SCENARIOS_ENV = 'CRAWL_BENCH_SCENARIOS';
export const PEERS_ENV = 'CRAWL_BENCH_PEERS';

/** The items of `all` named in the environment variable (comma-separated ids), or all of them. */
export function chosen<T extends { id: string }>(all: T[], variable: string): T[] {
  const wanted = process.env[variable]
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (!wanted || wanted.length === 0) return all;
  const unknown = wanted.filter((id) => !all.some((x) => x.id === id));
  if (unknown.length > 0)
    throw new Error(`${variable}: unknown ${unknown.join(', ')}; known: ${all.map((x) => x.id).join(', ')}`);
  return all.filter((x) => wanted.includes(x.id));
}

/** The most one crawler may take for one scenario; a slower one is stopped and its row marked. */
const RUN_CAP_SECONDS = { full: 40, quick: 30 };

/** The product token the bench reads the hosts' robots.txt with (they only have `User-agent: *` groups). */
const ROBOTS_TOKEN = 'bench';

const COLUMNS: TableColumn[] = [
  { header: 'crawler' },
  { header: 'requests', align: 'right' },
  { header: 'pages', align: 'right' },
  { header: 'short gaps', align: 'right' },
  { header: 'beyond lag', align: 'right' },
  { header: 'worst ms', align: 'right' },
  { header: 'in flight', align: 'right' },
  { header: 'early RA', align: 'right' },
  { header: 'robots 5xx', align: 'right' },
  { header: 'disallowed', align: 'right' },
  { header: 'makespan s', align: 'right' },
  { header: 'bound s', align: 'right' },
  { header: 'efficiency', align: 'right' },
  { header: 'late p50 ms', align: 'right' },
  { header: 'late p99 ms', align: 'right' },
  { header: 'CPU s', align: 'right' },
  { header: 'lag ms', align: 'right' },
];

/** What each column means, printed once under the summary. */
const LEGEND = [
  'requests: all the servers saw, robots.txt included · pages: 200 answers other than robots.txt',
  'short gaps: two request starts on one host closer than the interval − 2 ms, the interval being max(delay, Crawl-delay), robots.txt included · beyond lag: short by more than 2 ms + lag ms, so not stamping noise · worst ms: the largest shortfall',
  'in flight: the most requests one host had open at once · early RA: requests that reached a host before the Retry-After it had sent was over',
  'robots 5xx: pages requested from a host whose robots.txt answers 503 (RFC 9309: disallow all) · disallowed: requests for paths robots.txt disallows',
  'bound: per host Σ max(interval, answer time) + the last answer time, or all answer time / slots if larger · efficiency: bound / makespan (above 1 only by breaking the interval)',
  "late: how long after it was allowed (the crawl's first request; then previous start + interval, previous answer's end, Retry-After's end) each request started",
  "CPU s: user + system time of the crawler process and its children · lag ms: the host server's worst event-loop delay in the run (its stamps may be that late)",
];

export interface PeerResult {
  peer: CrawlerPeer;
  capSeconds?: number;
  run?: PeerRun;
  metrics?: RunMetrics;
  lagMs?: number;
  error?: string;
}

/** What the hosts ask of a crawler: the interval (delay and Crawl-delay merged by max), robots.txt reachability, Disallow. */
export function hostFacts(config: DemoHostConfig, info: DemoHostInfo, delaySeconds: number): HostFacts {
  const robotsUrl = `${info.origin}${ROBOTS_PATH}`;
  const file = info.robotsTxt === null ? undefined : parseRobots(info.robotsTxt, { robotsUrl });
  const crawlDelay = file ? (crawlDelayFor(file, ROBOTS_TOKEN).seconds ?? 0) : 0;
  const robots = config.robotsTxt;
  return {
    name: config.name,
    intervalMs: Math.max(delaySeconds, crawlDelay) * 1000,
    robotsUnreachable: robots?.kind === 'status' && robots.status >= 500,
    disallowed: (p) => (file ? explain(file, `${info.origin}${p}`, ROBOTS_TOKEN).verdict === 'disallowed' : false),
  };
}

async function runScenario(
  scenario: Scenario,
  peers: { peer: CrawlerPeer; ready: boolean }[],
  server: HostServer,
  ctx: BenchContext,
): Promise<{ results: PeerResult[]; load: number[] }> {
  const results: PeerResult[] = [];
  const load: number[] = [];
  const capSeconds = ctx.quick ? RUN_CAP_SECONDS.quick : RUN_CAP_SECONDS.full;
  for (const { peer, ready } of peers) {
    if (!ready) {
      results.push({ peer, error: 'not available' });
      continue;
    }
    const dir = path.join(ctx.tmp, scenario.id, peer.id.replace(/[^a-z0-9-]+/gi, '_'));
    fs.mkdirSync(dir, { recursive: true });
    load.push(os.loadavg()[0] ?? 0);
    const { hosts } = await server.start({ hosts: scenario.hosts, addressing: 'distinct' });
    const job: CrawlJob = {
      seeds: hosts.flatMap((h) => h.seeds),
      delaySeconds: scenario.delaySeconds,
      concurrency: scenario.concurrency,
      timeoutSeconds: scenario.timeoutSeconds,
      maxRetries: scenario.maxRetries,
      maxDepth: BENCH_MAX_DEPTH,
      maxPages: scenario.hosts.reduce((n, h) => n + h.pages, 0) * 2,
      resolve: Object.fromEntries(hosts.map((h) => [new URL(h.origin).hostname, h.address])),
    };
    let run: PeerRun | undefined;
    let error: string | undefined;
    try {
      ctx.log(`${scenario.id}: ${peer.id}`);
      run = await runPeer(peer, job, dir, ctx, capSeconds * 1000);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const log = await server.stop();
    fs.writeFileSync(path.join(dir, 'arrivals.json'), JSON.stringify(log, null, 1));
    const facts = scenario.hosts.map((config, i) => hostFacts(config, hosts[i]!, scenario.delaySeconds));
    const metrics = analyseRun(facts, log, scenario.concurrency);
    if (run?.killed) error = `stopped at the run's cap of ${capSeconds} s: the figures cover what it did until then`;
    else if (run && log.arrivals.length === 0)
      error = `no request reached the hosts (exit ${run.exitCode}): ${run.stderrTail}`;
    results.push({ peer, capSeconds, ...(run ? { run } : {}), metrics, lagMs: log.lagMs, ...(error ? { error } : {}) });
  }
  return { results, load };
}

const s = (ms: number): string => (ms / 1000).toFixed(2);
const ms = (v: number): string => v.toFixed(v < 10 ? 1 : 0);

function row(r: PeerResult): TableCell[] {
  const m = r.metrics;
  if (!m || (r.error && m.requests === 0)) return [r.peer.id, ...COLUMNS.slice(1).map(() => '—')];
  return [
    r.run?.killed ? `${r.peer.id} (cut at ${r.capSeconds} s)` : r.peer.id,
    m.requests,
    m.pages,
    m.shortGaps,
    m.shortGapsBeyondLag,
    m.shortGaps === 0 ? '' : ms(m.worstShortfallMs),
    m.maxInFlight,
    m.earlyAfterRetryAfter,
    m.unreachableRobotsFetches,
    m.disallowedFetches,
    s(m.makespanMs),
    s(m.boundMs),
    m.efficiency.toFixed(3),
    ms(m.latenessP50Ms),
    ms(m.latenessP99Ms),
    r.run?.cpuSeconds === undefined ? '—' : r.run.cpuSeconds.toFixed(2),
    r.lagMs === undefined ? '—' : ms(r.lagMs),
  ];
}

function scenarioTable(scenario: Scenario, results: PeerResult[], load: number[]): BenchTable {
  const notes = [
    `delay ${scenario.delaySeconds} s start to start, ${scenario.concurrency} global slots, 1 per host, timeout ${scenario.timeoutSeconds} s, ${scenario.maxRetries} retries${scenario.faults ? '; faults, so efficiency is no target here' : ''}`,
    `machine load (1-minute average) before each run: ${load.map((l) => l.toFixed(1)).join(', ')} on ${os.cpus().length} cores`,
  ];
  for (const r of results) {
    if (r.error) notes.push(`${r.peer.id}: ${r.error}`);
    else if (r.run && r.run.exitCode !== 0) notes.push(`${r.peer.id}: exit code ${r.run.exitCode}`);
  }
  return { title: `${scenario.id}: ${scenario.title}`, columns: COLUMNS, rows: results.map(row), notes };
}

/** One line per crawler: short gaps and efficiency in every scenario, then the faults and the cost over all of them. */
function summaryTable(
  scenarios: Scenario[],
  all: PeerResult[][],
  peers: CrawlerPeer[],
  versions: Map<CrawlerPeer, string>,
): BenchTable {
  const columns: TableColumn[] = [
    { header: 'crawler' },
    ...scenarios.map((sc) => ({ header: sc.id, align: 'right' as const })),
    { header: 'in flight', align: 'right' },
    { header: 'early RA', align: 'right' },
    { header: 'robots 5xx', align: 'right' },
    { header: 'CPU s', align: 'right' },
  ];
  const rows = peers.map((peer) => {
    const mine = all.map((results) => results.find((r) => r.peer === peer));
    const metrics = mine.flatMap((r) => (r?.metrics && r.metrics.requests > 0 ? [r.metrics] : []));
    const sum = (f: (m: RunMetrics) => number): number => metrics.reduce((n, m) => n + f(m), 0);
    const cpu = mine.map((r) => r?.run?.cpuSeconds);
    return [
      `${peer.id} ${versions.get(peer) ?? ''}`.trim(),
      ...mine.map((r) => {
        const m = r?.metrics;
        if (!m || m.requests === 0) return '—';
        return `${m.shortGaps} · ${m.efficiency.toFixed(2)}${r?.run?.killed ? ' (cut)' : ''}`;
      }),
      metrics.length > 0 ? Math.max(...metrics.map((m) => m.maxInFlight)) : '—',
      metrics.length > 0 ? sum((m) => m.earlyAfterRetryAfter) : '—',
      metrics.length > 0 ? sum((m) => m.unreachableRobotsFetches) : '—',
      cpu.every((c) => c !== undefined) && cpu.length > 0 ? cpu.reduce((a, b) => a! + b!, 0)!.toFixed(1) : '—',
    ];
  });
  return {
    title:
      'Summary: short gaps (robots.txt included) · efficiency per scenario; most in flight per host, early after Retry-After, pages from the robots.txt-503 host and CPU over all scenarios',
    columns,
    rows,
    notes: [
      'Targets: 0 short gaps everywhere; efficiency ≥ 0.98 where there are no faults; 1 in flight; 0 early after Retry-After; 0 pages from a host whose robots.txt is unreachable.',
    ],
  };
}

export interface CrawlerBench {
  /** One table per scenario, then the summary. */
  tables: BenchTable[];
  /** Per scenario (in order), each peer's run and metrics: for callers that check them (e.g. a proof). */
  results: { scenario: Scenario; peers: PeerResult[] }[];
}

/**
 * Runs `peers` through `scenarios` on the bench's host server and returns the tables and the metrics. The
 * `crawlers` section runs the default peers; another caller can add peers (an exported Scrapy project, a
 * generated Crawlee script) and get the same tables with them beside the defaults.
 */
export async function runCrawlerBench(
  ctx: BenchContext,
  selected: CrawlerPeer[],
  scenarios: Scenario[],
): Promise<CrawlerBench> {
  const versions = new Map<CrawlerPeer, string>();
  const peers: { peer: CrawlerPeer; ready: boolean }[] = [];
  const setupNotes: string[] = [];
  for (const peer of selected) {
    try {
      versions.set(peer, await peer.prepare(ctx));
      peers.push({ peer, ready: true });
    } catch (err) {
      peers.push({ peer, ready: false });
      setupNotes.push(`${peer.id}: not run: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const server = await startHostServer();
  const results: CrawlerBench['results'] = [];
  const tables: BenchTable[] = [];
  try {
    for (const scenario of scenarios) {
      const { results: perPeer, load } = await runScenario(scenario, peers, server, ctx);
      results.push({ scenario, peers: perPeer });
      tables.push(scenarioTable(scenario, perPeer, load));
    }
  } finally {
    await server.close();
    // Each run's folder (job, command output, the servers' arrival log), for a closer look.
    const keep = process.env[KEEP_ENV];
    if (keep) fs.cpSync(ctx.tmp, path.resolve(keep), { recursive: true });
  }
  const summary = summaryTable(
    scenarios,
    results.map((r) => r.peers),
    selected,
    versions,
  );
  summary.notes = [
    ...(summary.notes ?? []),
    ...setupNotes,
    ...selected.flatMap((p) => p.limits.map((l) => `${p.id}: ${l}`)),
    'Judged from the arrival logs of the host servers, which run in a process of their own.',
    ...LEGEND,
  ];
  return { tables: [...tables, summary], results };
}

export const crawlersSection: BenchSection = {
  id: 'crawlers',
  title: 'Politeness and efficiency: Crawl Planner, Scrapy and Crawlee on the same loopback hosts',
  async run(ctx) {
    const peers = chosen(DEFAULT_PEERS, PEERS_ENV);
    const scenarios = chosen(crawlerScenarios(ctx.quick), SCENARIOS_ENV);
    return (await runCrawlerBench(ctx, peers, scenarios)).tables;
  },
};
