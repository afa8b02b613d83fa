/**
 * The shape every bench section returns: tables that `bench/run.ts` prints on the terminal and writes to the
 * section's result file, `bench/results/<date>-<section>.json` (bench/lib/results.ts). Sections measure; they never
 * assert (tests assert behaviour, benches print).
 */
import type { TableCell, TableColumn } from '../../src/core/format/table';

export interface BenchTable {
  /** One line above the table, e.g. "robots.txt verdicts on a 108 KB real-world file". */
  title: string;
  columns: TableColumn[];
  rows: TableCell[][];
  /** Lines printed under the table: targets, what was measured and how, why a target is missed. */
  notes?: string[];
}

export interface BenchContext {
  /** The project root (absolute). */
  root: string;
  /** A scratch folder for this run, removed afterwards. */
  tmp: string;
  /** `--quick`: fewer repetitions and smaller sizes, for a smoke run. */
  quick: boolean;
  /** The run's `--name=value` arguments by name (`--seed=7` gives `{ seed: '7' }`), for a section that reads one. */
  flags?: Readonly<Record<string, string>>;
  /** Progress lines to stderr (not part of the results). */
  log(line: string): void;
}

export interface BenchSection {
  /** Short id used on the command line: `npm run bench -- robots frontier`. */
  id: string;
  /** What the section measures, one line. */
  title: string;
  run(ctx: BenchContext): Promise<BenchTable[]>;
}
