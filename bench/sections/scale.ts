/**
 * Scale and start-up (issue 10, "Scale"): planning 100,000 hosts through the engine and through
 * `estimate --json`, CLI start-up for each subcommand against `node -e 0`, and the extension bundle's size
 * and activation time. Everything runs on this machine; nothing touches the network.
 *
 * - The engine: plan() on 100,000 one-seed hosts in a child process of its own (a bundle of
 *   bench/lib/scaleEngine.ts), so its peak memory is the engine's and not this process's.
 * - `estimate --json`: the built dist/cli.js with 100,000 seed lines in a file, its output read through a
 *   pipe as a user's `| jq` would; wall time, CPU time and peak RSS (ru_maxrss, from bench/lib/maxRss.cjs).
 * - Start-up: each subcommand's `--help`, and a real call for the commands that have one without the
 *   network, against `node -e 0`; the median of several runs, interleaved so drift hits all alike.
 * - The extension: dist/extension.js as `npm run build` makes it, and a production (minified) build like
 *   the .vsix's; activation measured by bench/lib/activation.cjs (it says what it leaves out).
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import type { TableCell } from '../../src/core/format/table';
import type { BenchContext, BenchSection, BenchTable } from '../lib/types';

/** Issue 10's targets. */
const TARGET = { estimateSeconds: 1, estimateMiB: 150, startupRatio: 1.5 };
const HOSTS = 100_000;
const PAGES = 1_000_000;

const MiB = 1024 * 1024;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} KB`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

interface Rusage {
  maxRSS: number;
  userCPUTime: number;
  systemCPUTime: number;
}

/** Runs `node --require maxRss.cjs ...args`, reads stdout through a pipe (counting bytes), returns its resource use. */
function runMeasured(
  ctx: BenchContext,
  args: string[],
  label: string,
): Promise<{
  wallMs: number;
  stdoutBytes: number;
  stdout: string;
  stderr: string;
  code: number | null;
  usage: Rusage;
}> {
  const usageFile = path.join(ctx.tmp, `rusage-${label}-${process.hrtime.bigint()}.json`);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--require', path.join(ctx.root, 'bench/lib/maxRss.cjs'), ...args], {
      cwd: ctx.root,
      env: { ...process.env, BENCH_RUSAGE_FILE: usageFile, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdoutBytes = 0;
    let head = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (head.length < 100_000) head += chunk.toString('utf8');
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      const wallMs = performance.now() - t0;
      try {
        const usage = JSON.parse(fs.readFileSync(usageFile, 'utf8')) as Rusage;
        resolve({ wallMs, stdoutBytes, stdout: head, stderr, code, usage });
      } catch (err) {
        reject(
          new Error(`${label}: no resource figures (exit ${code}): ${stderr.slice(0, 500)} ${(err as Error).message}`),
        );
      }
    });
  });
}

async function planning(ctx: BenchContext): Promise<BenchTable> {
  const runs = ctx.quick ? 1 : 3;
  // The engine, bundled for a child process of its own.
  const engine = path.join(ctx.tmp, 'scaleEngine.js');
  await esbuild.build({
    entryPoints: [path.join(ctx.root, 'bench/lib/scaleEngine.ts')],
    outfile: engine,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  ctx.log(`plan() on ${HOSTS.toLocaleString('en-US')} hosts in child processes`);
  const onceRuns: Array<
    Awaited<ReturnType<typeof runMeasured>> & {
      figures: { validateMs: number; planMs: number; documentMs: number; documentChars: number };
    }
  > = [];
  for (let i = 0; i < runs; i++) {
    const r = await runMeasured(ctx, [engine, 'once', String(HOSTS), String(PAGES)], `engine-${i}`);
    if (r.code !== 0) throw new Error(`engine run failed: ${r.stderr.slice(0, 500)}`);
    onceRuns.push({
      ...r,
      figures: JSON.parse(r.stdout) as {
        validateMs: number;
        planMs: number;
        documentMs: number;
        documentChars: number;
      },
    });
  }
  const repeat = await runMeasured(
    ctx,
    [engine, 'repeat', String(HOSTS), String(PAGES), String(ctx.quick ? 3 : 7)],
    'engine-repeat',
  );
  if (repeat.code !== 0) throw new Error(`engine run failed: ${repeat.stderr.slice(0, 500)}`);
  const warm = JSON.parse(repeat.stdout) as { planWarmMs: number; retainedBytesPerHost: number };
  const step = (key: 'validateMs' | 'planMs' | 'documentMs') => median(onceRuns.map((r) => r.figures[key]));
  const engineWall = median(onceRuns.map((r) => r.wallMs));
  const engineCpu = median(onceRuns.map((r) => (r.usage.userCPUTime + r.usage.systemCPUTime) / 1000));
  const engineRss = Math.max(...onceRuns.map((r) => r.usage.maxRSS * 1024));

  // estimate --json through the built CLI.
  const seedsFile = path.join(ctx.tmp, 'seeds-100k.txt');
  fs.writeFileSync(seedsFile, Array.from({ length: HOSTS }, (_, i) => `https://host${i}.example.com/\n`).join(''));
  const cli = path.join(ctx.root, 'dist/cli.js');
  const estimates = [];
  for (let i = 0; i < runs; i++) {
    ctx.log(`estimate --json, ${HOSTS.toLocaleString('en-US')} seeds, run ${i + 1} of ${runs}`);
    const r = await runMeasured(
      ctx,
      [cli, 'estimate', '--pages', String(PAGES), '--seeds-file', seedsFile, '--json'],
      `estimate-${i}`,
    );
    if (r.code !== 0) throw new Error(`estimate failed (${r.code}): ${r.stderr.slice(0, 500)}`);
    estimates.push(r);
  }
  const wall = median(estimates.map((r) => r.wallMs));
  const cpu = median(estimates.map((r) => (r.usage.userCPUTime + r.usage.systemCPUTime) / 1000));
  const rss = Math.max(...estimates.map((r) => r.usage.maxRSS * 1024));

  const rows: TableCell[][] = [
    [`engine: validate ${HOSTS.toLocaleString('en-US')} seed URLs`, ms(step('validateMs')), '', '', '', ''],
    ['engine: plan()', ms(step('planMs')), '', '', '', ''],
    [
      'engine: plan() again, warm',
      ms(warm.planWarmMs),
      '',
      `${warm.retainedBytesPerHost.toFixed(0)} B/host kept`,
      '',
      '',
    ],
    [
      'engine: the JSON document, in pieces',
      ms(step('documentMs')),
      '',
      `${(onceRuns[0]!.figures.documentChars / 1e6).toFixed(1)} M chars`,
      '',
      '',
    ],
    ['engine: all three, whole process', ms(engineWall), ms(engineCpu), mib(engineRss), '', ''],
    [
      'estimate --json, whole process',
      ms(wall),
      ms(cpu),
      mib(rss),
      `< ${TARGET.estimateSeconds} s, < ${TARGET.estimateMiB} MiB`,
      `${verdict(wall < TARGET.estimateSeconds * 1000)} / ${verdict(rss < TARGET.estimateMiB * MiB)}`,
    ],
  ];
  return {
    title: `Planning ${HOSTS.toLocaleString('en-US')} hosts (one seed each, ${PAGES.toLocaleString('en-US')} pages)`,
    columns: [
      { header: 'What' },
      { header: 'Wall', align: 'right' },
      { header: 'CPU', align: 'right' },
      { header: 'Memory', align: 'right' },
      { header: 'Target' },
      { header: 'Result' },
    ],
    rows,
    notes: [
      `estimate --json wrote ${(estimates[0]!.stdoutBytes / 1e6).toFixed(1)} MB to a pipe this process read; memory is the CLI's peak resident set (ru_maxrss, KiB × 1024).`,
      `Medians of ${runs} runs; memory is the peak of the runs. The engine runs bundled in a child process of its own (bench/lib/scaleEngine.ts), with the seed lines in memory, not in a file.`,
      '"plan() again, warm" is the median of further calls in one process; "B/host kept" is the heap one plan holds, after a full collection.',
    ],
  };
}

interface StartupCase {
  name: string;
  args: string[];
}

function startup(ctx: BenchContext): BenchTable {
  const runs = ctx.quick ? 5 : 15;
  const cli = path.join(ctx.root, 'dist/cli.js');
  const robotsFile = path.join(ctx.tmp, 'robots.txt');
  fs.writeFileSync(robotsFile, 'User-agent: *\nDisallow: /private\n');
  const cases: StartupCase[] = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: 'crawl-planner --help', args: [cli, '--help'] },
    { name: 'estimate --help', args: [cli, 'estimate', '--help'] },
    { name: 'estimate (one seed)', args: [cli, 'estimate', '--pages', '1000', 'https://a.example/'] },
    { name: 'robots --help', args: [cli, 'robots', '--help'] },
    { name: 'robots --file (one URL)', args: [cli, 'robots', '--file', robotsFile, 'https://a.example/private/x'] },
    { name: 'crawl --help', args: [cli, 'crawl', '--help'] },
    { name: 'demo --help', args: [cli, 'demo', '--help'] },
  ];
  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  const cpu = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  const usageFile = path.join(ctx.tmp, 'rusage-startup.json');
  ctx.log(`start-up: ${cases.length} commands × ${runs} runs`);
  // One warm-up round (file cache), then the runs, each round in a rotated order. Every run, the baseline
  // included, has the same preload, which reads the process's own CPU time at exit.
  for (let round = -1; round < runs; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(k + Math.max(0, round)) % cases.length]!;
      const t0 = performance.now();
      const r = spawnSync(process.execPath, ['--require', path.join(ctx.root, 'bench/lib/maxRss.cjs'), ...c.args], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', BENCH_RUSAGE_FILE: usageFile },
      });
      const elapsed = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${String(r.stderr).slice(0, 300)}`);
      if (round < 0) continue;
      const usage = JSON.parse(fs.readFileSync(usageFile, 'utf8')) as Rusage;
      times.get(c.name)!.push(elapsed);
      cpu.get(c.name)!.push((usage.userCPUTime + usage.systemCPUTime) / 1000);
    }
  }
  const base = median(times.get('node -e 0')!);
  const baseCpu = median(cpu.get('node -e 0')!);
  return {
    title: 'CLI start-up: each command against node -e 0',
    columns: [
      { header: 'Command' },
      { header: 'Median', align: 'right' },
      { header: 'Min', align: 'right' },
      { header: 'CPU', align: 'right' },
      { header: '× node -e 0', align: 'right' },
      { header: '× (CPU)', align: 'right' },
      { header: 'Target' },
      { header: 'Result' },
    ],
    rows: cases.map((c) => {
      const t = times.get(c.name)!;
      const isBase = c.name === 'node -e 0';
      const ratio = median(t) / base;
      return [
        c.name,
        ms(median(t)),
        ms(Math.min(...t)),
        ms(median(cpu.get(c.name)!)),
        isBase ? '1.00' : ratio.toFixed(2),
        isBase ? '1.00' : (median(cpu.get(c.name)!) / baseCpu).toFixed(2),
        isBase ? '' : `≤ ${TARGET.startupRatio}×`,
        isBase ? '' : verdict(ratio <= TARGET.startupRatio),
      ];
    }),
    notes: [
      `Median of ${runs} runs each, spawned from this process, in rotating order after one warm-up round: wall time from spawn to exit (the target), and the process's own CPU time (user + system), which other load on the machine disturbs less.`,
      'crawl and demo have no real call without the network or the demo hosts, so --help stands for them.',
    ],
  };
}

async function extension(ctx: BenchContext): Promise<BenchTable> {
  const runs = ctx.quick ? 3 : 9;
  const prod = path.join(ctx.tmp, 'production');
  ctx.log('a production build (minified, as in the .vsix)');
  const built = spawnSync(process.execPath, [path.join(ctx.root, 'esbuild.js'), '--production', `--outdir=${prod}`], {
    cwd: ctx.root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (built.status !== 0) throw new Error(`production build failed: ${String(built.stderr).slice(0, 500)}`);
  const bundles = [
    { name: 'development (npm run build)', file: path.join(ctx.root, 'dist/extension.js') },
    { name: 'production (npm run package)', file: path.join(prod, 'extension.js') },
  ];
  const rows: TableCell[][] = [];
  for (const b of bundles) {
    const bytes = fs.readFileSync(b.file);
    const requireMs: number[] = [];
    const activateMs: number[] = [];
    let subscriptions = 0;
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(
        process.execPath,
        [path.join(ctx.root, 'bench/lib/activation.cjs'), b.file, path.join(ctx.root, 'package.json')],
        { encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`activation of ${b.file} failed: ${r.stderr.slice(0, 500)}`);
      const m = JSON.parse(r.stdout) as { requireMs: number; activateMs: number; subscriptions: number };
      requireMs.push(m.requireMs);
      activateMs.push(m.activateMs);
      subscriptions = m.subscriptions;
    }
    rows.push([
      b.name,
      kb(bytes.length),
      kb(gzipSync(bytes, { level: 9 }).length),
      `${median(requireMs).toFixed(1)} ms`,
      `${median(activateMs).toFixed(1)} ms`,
      String(subscriptions),
    ]);
  }
  return {
    title: 'The extension bundle: size and activation',
    columns: [
      { header: 'dist/extension.js' },
      { header: 'Size', align: 'right' },
      { header: 'gzip -9', align: 'right' },
      { header: 'require()', align: 'right' },
      { header: 'activate()', align: 'right' },
      { header: 'Registered', align: 'right' },
    ],
    rows,
    notes: [
      `Median of ${runs} fresh processes (bench/lib/activation.cjs): require() is reading, compiling and initialising the bundle; activate() is the synchronous call.`,
      "vscode is a stub whose calls return at once, so this is our code's share only: VS Code's own work around activation, and what runs later on first use, are not in it.",
      'No target in issue 10. Sizes in KB (1,000 bytes).',
    ],
  };
}

export const scaleSection: BenchSection = {
  id: 'scale',
  title: 'Scale: 100,000 hosts, CLI start-up, the extension bundle',
  async run(ctx) {
    if (
      !fs.existsSync(path.join(ctx.root, 'dist/cli.js')) ||
      !fs.existsSync(path.join(ctx.root, 'dist/extension.js'))
    ) {
      throw new Error('dist/ is not built: run `npm run build` (npm run bench does)');
    }
    return [await planning(ctx), startup(ctx), await extension(ctx)];
  },
};
