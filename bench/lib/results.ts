/**
 * One bench section's result file: `bench/results/<YYYY-MM-DD>-<section>.json` (`-quick` before `.json` for a
 * `--quick` run). A run of `npm run bench` writes one such file per section it runs, whole, as soon as that
 * section ends: the date, the machine, the git commit of the tree it measured (with a `dirty` flag), and the
 * section's tables. Nothing is merged into an older file: a later run of the same section on the same date
 * replaces it. The files are committed; they are the source of the figures in docs/benchmarks.md, and
 * `npm run bench:table -- FILE` prints their tables as Markdown (bench/lib/table.ts).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BenchTable } from './types';

/** The shape of a result file. A new field is added only with a new `schemaVersion`. */
export interface BenchResultFile {
  schemaVersion: 1;
  /** The section: its id on the command line and its one-line title. */
  section: { id: string; title: string };
  /** When the section started (ISO 8601, UTC); the file's name takes its date. */
  date: string;
  /** How long the section took, in seconds. */
  durationSeconds: number;
  /** `--quick`: fewer repetitions and smaller sizes, a smoke run; its figures are not the documented ones. */
  quick: boolean;
  machine: BenchMachine;
  /** The 1, 5 and 15 minute load averages when the section started (other work on the machine shows here). */
  loadAverage: number[];
  /** The tree measured: `git rev-parse --short HEAD`, and whether tracked or untracked files differed from it. */
  git: BenchGitState;
  /** Crawl Planner's version (package.json). */
  version: string;
  tables: BenchTable[];
}

export interface BenchMachine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  platform: string;
  node: string;
}

export interface BenchGitState {
  /** `git rev-parse --short HEAD`; null outside a git checkout. */
  commit: string | null;
  /** Uncommitted changes outside `bench/results/` (which the run itself writes); null outside a git checkout. */
  dirty: boolean | null;
}

export const RESULTS_DIR = path.join('bench', 'results');

export function benchMachine(): BenchMachine {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
  };
}

/** The commit of the tree under `root` and whether it is dirty; both null when git cannot tell. */
export function gitState(root: string): BenchGitState {
  const git = (args: string[]): string =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const commit = git(['rev-parse', '--short', 'HEAD']).trim();
    const status = git(['status', '--porcelain', '--', '.', `:(exclude)${RESULTS_DIR.split(path.sep).join('/')}`]);
    return { commit, dirty: status.trim() !== '' };
  } catch {
    return { commit: null, dirty: null };
  }
}

/** `2026-12-02-crawlers.json`, `2026-12-02-robots-quick.json`: the section's file for a run started at `date`. */
export function resultFileName(date: string, sectionId: string, quick: boolean): string {
  return `${date.slice(0, 10)}-${sectionId}${quick ? '-quick' : ''}.json`;
}

/**
 * Writes the section's result file under `root`, whole: to a temporary name first, then renamed over any file of
 * the same name, so a reader never sees half a file and nothing of an older run is kept. Returns its path.
 */
export function writeResultFile(root: string, result: BenchResultFile): string {
  const dir = path.join(root, RESULTS_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, resultFileName(result.date, result.section.id, result.quick));
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(result, null, 2)}\n`);
  fs.renameSync(tmp, file);
  return file;
}

/** Reads a result file, refusing anything that is not one (a message that says what is wrong). */
export function readResultFile(file: string): BenchResultFile {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: not a readable JSON file (${err instanceof Error ? err.message : String(err)})`);
  }
  const r = data as Partial<BenchResultFile> | null;
  if (typeof r !== 'object' || r === null || r.schemaVersion !== 1) {
    throw new Error(`${file}: not a bench result file of schemaVersion 1 (written by npm run bench)`);
  }
  if (typeof r.section?.id !== 'string' || typeof r.date !== 'string' || !Array.isArray(r.tables)) {
    throw new Error(`${file}: a bench result file needs section.id, date and tables`);
  }
  for (const t of r.tables) {
    if (typeof t?.title !== 'string' || !Array.isArray(t.columns) || !Array.isArray(t.rows)) {
      throw new Error(`${file}: every table needs a title, columns and rows`);
    }
  }
  return r as BenchResultFile;
}
