/**
 * The crawlers the bench runs side by side: ours, Scrapy and Crawlee, each a `CrawlerPeer` that turns the
 * same `CrawlJob` (seeds, delay, global slots, timeout, retries, limits) into one command line. A new
 * peer (an exported Scrapy project, a generated Crawlee script) is one more object with `prepare` and
 * `command`; `runPeer` runs any of them the same way and measures its CPU time.
 *
 * Every peer reaches the hosts by name (`m01.localhost`), resolved by the peer process itself from
 * `job.resolve` (Node: `resolvePreload.mjs`; Python: `run_scrapy.py`), so no DNS query leaves the machine.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BenchContext } from './types';

/** What every crawler is asked to do, in one run of one scenario. */
export interface CrawlJob {
  seeds: string[];
  /** The per-host delay in seconds, start to start (a robots.txt Crawl-delay may raise it). */
  delaySeconds: number;
  /** Global slots: requests in flight over all hosts. One per host. */
  concurrency: number;
  /** The bound on one request, in seconds. */
  timeoutSeconds: number;
  /** Retries per URL after the first attempt. */
  maxRetries: number;
  maxDepth: number;
  maxPages: number;
  /** Host name → loopback address, answered by the peer's own resolver. */
  resolve: Record<string, string>;
}

export interface PeerCommand {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

export interface CrawlerPeer {
  /** The row label: `crawl-planner`, `scrapy`, `crawlee`, `scrapy (export)`, … */
  id: string;
  /** Installs what is missing (first use only) and returns the version it runs; throws with the reason it cannot run. */
  prepare(ctx: BenchContext): Promise<string>;
  /** What the peer cannot express of the job, or does differently, one line each (printed under the tables). */
  limits: string[];
  /** The command for one crawl; its files go under `dir` (a fresh folder per run). */
  command(job: CrawlJob, dir: string, ctx: BenchContext): PeerCommand;
}

/** The environment variable that carries `job.resolve` to the peer's resolver (read by resolvePreload.mjs and run_scrapy.py). */
export const RESOLVE_ENV = 'CRAWL_BENCH_RESOLVE';
/** Debian's Python, where `python3-scrapy` installs (a `python3` first on PATH may be another one). */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** Extra Node options for the Node crawlers under test, space-separated, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where their time goes. */
export const NODE_ARGS_ENV = 'CRAWL_BENCH_NODE_ARGS';

/** `node --import <resolver> SCRIPT ARGS`: a Node crawler that resolves the bench's host names. */
export function nodeCommand(
  ctx: BenchContext,
  script: string,
  args: string[],
  extra: Omit<PeerCommand, 'command' | 'args'> = {},
): PeerCommand {
  const preload = path.join(ctx.root, 'bench', 'lib', 'resolvePreload.mjs');
  const nodeArgs = (process.env[NODE_ARGS_ENV] ?? '').split(' ').filter((a) => a !== '');
  return {
    command: process.execPath,
    args: [...nodeArgs, '--import', pathToFileUrl(preload), script, ...args],
    ...extra,
  };
}

/** `python3 run_scrapy.py ARGS` (the `scrapy` command, resolving the bench's host names), e.g. `crawl planned` in a project folder. */
export function scrapyCommand(
  ctx: BenchContext,
  args: string[],
  extra: Omit<PeerCommand, 'command' | 'args'> = {},
): PeerCommand {
  return {
    command: DEBIAN_PYTHON,
    args: [path.join(ctx.root, 'bench', 'peers', 'scrapy', 'run_scrapy.py'), ...args],
    ...extra,
  };
}

function pathToFileUrl(p: string): string {
  return new URL(`file://${path.resolve(p)}`).href;
}

function writeJob(job: CrawlJob, dir: string): string {
  const file = path.join(dir, 'job.json');
  fs.writeFileSync(file, JSON.stringify(job, null, 2));
  return file;
}

// ---------------------------------------------------------------------------------------------------------
// Ours

export const crawlPlannerPeer: CrawlerPeer = {
  id: 'crawl-planner',
  limits: [],
  async prepare(ctx) {
    if (!fs.existsSync(path.join(ctx.root, 'dist', 'cli.js')))
      throw new Error('dist/cli.js is missing: run `npm run build` (npm run bench does)');
    const version = (JSON.parse(fs.readFileSync(path.join(ctx.root, 'package.json'), 'utf8')) as { version: string })
      .version;
    const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ctx.root,
      encoding: 'utf8',
    }).stdout.trim();
    return commit ? `${version} (${commit})` : version;
  },
  command(job, dir, ctx) {
    const seeds = path.join(dir, 'seeds.txt');
    fs.writeFileSync(seeds, job.seeds.join('\n') + '\n');
    return nodeCommand(ctx, path.join(ctx.root, 'dist', 'cli.js'), [
      'crawl',
      '--seeds-file',
      seeds,
      '--delay',
      String(job.delaySeconds),
      '--delay-from',
      'start',
      '--concurrency',
      String(job.concurrency),
      '--timeout',
      String(job.timeoutSeconds),
      '--max-retries',
      String(job.maxRetries),
      '--max-depth',
      String(job.maxDepth),
      '--max-pages',
      String(job.maxPages),
      '--log',
      path.join(dir, 'crawl.ndjson'),
    ]);
  },
};

// ---------------------------------------------------------------------------------------------------------
// Scrapy (Debian's python3-scrapy)

function scrapyVersion(): string | undefined {
  const r = spawnSync(DEBIAN_PYTHON, ['-c', 'import scrapy; print(scrapy.__version__)'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Installs Debian's python3-scrapy with apt-get when `import scrapy` fails in Debian's Python. */
export async function ensureScrapy(ctx: BenchContext): Promise<string> {
  const have = scrapyVersion();
  if (have !== undefined) return have;
  if (process.getuid?.() !== 0)
    throw new Error('python3-scrapy is missing: apt-get install -y python3-scrapy (as root)');
  ctx.log("installing Debian's python3-scrapy (apt-get; first use only)");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'python3-scrapy'],
  ]) {
    const r = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0)
      throw new Error(`apt-get ${args.join(' ')} failed: ${(r.stderr ?? '').trim().split('\n').slice(-2).join(' ')}`);
  }
  const installed = scrapyVersion();
  if (installed === undefined) throw new Error(`python3-scrapy installed, but ${DEBIAN_PYTHON} cannot import scrapy`);
  return installed;
}

export const SCRAPY_LIMITS = [
  'ignores Crawl-delay (DOWNLOAD_DELAY only) and Retry-After (RetryMiddleware retries 429 and 503 like any other request)',
  'reads a robots.txt answered with 5xx, after its retries, as allow-all',
  'counts DOWNLOAD_DELAY from when a request leaves its slot, before connecting, so a gap can land a few ms short on the wire',
  'requests waiting out a slot delay hold one of CONCURRENT_REQUESTS, so a few hosts in their delay block all the others',
  'start URLs bypass the duplicate filter: a seed that a page links to is fetched twice',
];

export const scrapyPeer: CrawlerPeer = {
  id: 'scrapy',
  limits: SCRAPY_LIMITS,
  prepare: ensureScrapy,
  command(job, dir, ctx) {
    const settings: Record<string, string | number | boolean> = {
      DOWNLOAD_DELAY: job.delaySeconds,
      RANDOMIZE_DOWNLOAD_DELAY: false,
      CONCURRENT_REQUESTS: job.concurrency,
      CONCURRENT_REQUESTS_PER_DOMAIN: 1,
      ROBOTSTXT_OBEY: true,
      AUTOTHROTTLE_ENABLED: false,
      DOWNLOAD_TIMEOUT: job.timeoutSeconds,
      RETRY_TIMES: job.maxRetries,
      DEPTH_LIMIT: job.maxDepth,
      CLOSESPIDER_PAGECOUNT: job.maxPages,
      TELNETCONSOLE_ENABLED: false,
      LOG_LEVEL: 'INFO',
      LOG_FILE: path.join(dir, 'scrapy.log'),
    };
    const spider = path.join(ctx.root, 'bench', 'peers', 'scrapy', 'bench_spider.py');
    const args = ['runspider', spider, '-a', `job=${writeJob(job, dir)}`];
    for (const [k, v] of Object.entries(settings))
      args.push('-s', `${k}=${v === false ? 'False' : v === true ? 'True' : v}`);
    return scrapyCommand(ctx, args, { cwd: dir });
  },
};

// ---------------------------------------------------------------------------------------------------------
// Crawlee (npm, installed into bench/peers/crawlee/node_modules)

const CRAWLEE_DIR = ['bench', 'peers', 'crawlee'];
const INSTALL_STAMP = '.bench-install-stamp';

/** Installs bench/peers/crawlee from its lockfile when node_modules is missing or the lockfile changed. */
export async function ensureCrawlee(ctx: BenchContext): Promise<string> {
  const dir = path.join(ctx.root, ...CRAWLEE_DIR);
  const lockHash = createHash('sha256')
    .update(fs.readFileSync(path.join(dir, 'package-lock.json')))
    .digest('hex');
  const stamp = path.join(dir, 'node_modules', INSTALL_STAMP);
  const manifest = path.join(dir, 'node_modules', 'crawlee', 'package.json');
  const current = fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === lockHash && fs.existsSync(manifest);
  if (!current) {
    ctx.log('installing Crawlee into bench/peers/crawlee/node_modules (npm ci; first use only)');
    // `npm run bench` hands its own settings down as npm_* variables (among them the project's prefix);
    // the inner install must see only its own folder.
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
    try {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: dir,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    } catch (err) {
      const stderr = String((err as { stderr?: Buffer }).stderr ?? '')
        .trim()
        .split('\n')
        .slice(-3)
        .join(' ');
      throw new Error(`npm ci in ${CRAWLEE_DIR.join('/')} failed: ${stderr || (err as Error).message}`);
    }
    fs.writeFileSync(stamp, lockHash + '\n');
  }
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

export const CRAWLEE_LIMITS = [
  'ignores Crawl-delay (sameDomainDelaySecs only) and Retry-After',
  'keeps sameDomainDelaySecs per registrable domain: IP-address hosts get no delay at all, so the bench names its hosts NAME.localhost',
  'fetches robots.txt outside sameDomainDelaySecs, and reads one answered with 5xx as allow-all',
  'puts a request held back by sameDomainDelaySecs back in the queue on a timer; an idle pool looks again every 0.5 s',
  'global slots as minConcurrency = maxConcurrency (a fixed pool; it would otherwise start at 1 and scale up)',
];

export const crawleePeer: CrawlerPeer = {
  id: 'crawlee',
  limits: CRAWLEE_LIMITS,
  prepare: ensureCrawlee,
  command(job, dir, ctx) {
    const script = path.join(ctx.root, ...CRAWLEE_DIR, 'crawl.mjs');
    return nodeCommand(ctx, script, [writeJob(job, dir)], {
      cwd: dir,
      env: { CRAWLEE_STORAGE_DIR: path.join(dir, 'storage') },
    });
  },
};

/** The peers of `npm run bench`, in table order. */
export const DEFAULT_PEERS: CrawlerPeer[] = [crawlPlannerPeer, scrapyPeer, crawleePeer];

// ---------------------------------------------------------------------------------------------------------
// Running a peer

export interface PeerRun {
  exitCode: number | null;
  /** Killed after the run's time cap. */
  killed: boolean;
  /** User + system CPU seconds of the crawler and everything it started (when killed: up to the kill, Linux only). */
  cpuSeconds?: number;
  wallSeconds: number;
  /** The last lines of its stderr (for the notes when it failed). */
  stderrTail: string;
}

/** `times` prints the shell's and then its children's user and system time: `0m1.234s 0m0.056s`. */
const TIMES_LINE = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s\s*$/;

/**
 * Runs one crawl: the peer's command under `/bin/sh`, whose `times` reports the CPU time of everything it
 * waited for (the crawler and its children). Output goes to files in `dir`. After `capMs` the whole process
 * group is killed.
 */
export async function runPeer(
  peer: CrawlerPeer,
  job: CrawlJob,
  dir: string,
  ctx: BenchContext,
  capMs: number,
): Promise<PeerRun> {
  const cmd = peer.command(job, dir, ctx);
  const timesFile = path.join(dir, 'times.txt');
  const out = fs.openSync(path.join(dir, 'stdout.txt'), 'w');
  const err = fs.openSync(path.join(dir, 'stderr.txt'), 'w');
  const started = performance.now();
  const child = spawn(
    '/bin/sh',
    ['-c', '"$@"; rc=$?; times > "$CRAWL_BENCH_TIMES"; exit $rc', 'sh', cmd.command, ...cmd.args],
    {
      cwd: cmd.cwd ?? dir,
      env: { ...process.env, ...cmd.env, [RESOLVE_ENV]: JSON.stringify(job.resolve), CRAWL_BENCH_TIMES: timesFile },
      stdio: ['ignore', out, err],
      detached: true, // its own process group, so the cap can end it and everything it started
    },
  );
  fs.closeSync(out);
  fs.closeSync(err);
  let killed = false;
  let cpuAtKill: number | undefined;
  const killGroup = (): void => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
      process.kill(-child.pid, 'SIGKILL');
  };
  const timer = setTimeout(() => {
    killed = true;
    if (child.pid !== undefined) cpuAtKill = processGroupCpuSeconds(child.pid);
    killGroup();
  }, capMs);
  process.once('exit', killGroup); // the bench stopped early: take the crawler with it
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  }).finally(() => {
    clearTimeout(timer);
    process.off('exit', killGroup);
  });
  const wallSeconds = (performance.now() - started) / 1000;
  let cpuSeconds = cpuAtKill;
  const times = fs.existsSync(timesFile) ? fs.readFileSync(timesFile, 'utf8').trim() : '';
  const m = TIMES_LINE.exec(times);
  if (m) cpuSeconds = Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4]);
  const stderrTail = fs.readFileSync(path.join(dir, 'stderr.txt'), 'utf8').trim().split('\n').slice(-5).join('\n');
  return { exitCode, killed, wallSeconds, stderrTail, ...(cpuSeconds !== undefined ? { cpuSeconds } : {}) };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU seconds used so far by a process group (its live processes, and the children they waited for), from
 * /proc/PID/stat; undefined where there is no /proc.
 */
export function processGroupCpuSeconds(pgid: number): number | undefined {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // Fields after the command name (which may hold spaces): state ppid pgrp … utime(14) stime cutime cstime.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(f[2]) !== pgid) continue;
    ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  return ticks / USER_HZ;
}
