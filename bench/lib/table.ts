/**
 * `npm run bench:table -- [--text] [--table TEXT]... FILE...`: prints the tables of bench result files
 * (bench/lib/results.ts) for docs/benchmarks.md, so that a table there is regenerated from its file by one
 * command instead of being copied by hand. First a line naming the file and what it was measured on, then each
 * table: by default as a Markdown table with its notes as a list; with `--text`, as `npm run bench` prints it, in a
 * ```text block. `--table TEXT` keeps only the tables whose title contains TEXT (repeatable).
 */
import * as path from 'node:path';
import type { TableCell } from '../../src/core/format/table';
import { benchTableLines } from './print';
import { readResultFile, type BenchResultFile } from './results';
import type { BenchTable } from './types';

const root = path.resolve(__dirname, '..', '..');

/** Text as Markdown shows it literally: `*`, `_`, backticks, brackets, `<` and `|` escaped (titles hold `/*a*a…`). */
function md(value: TableCell): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text.replace(/[\\`*_[\]<|]/g, (c) => `\\${c}`);
}

export function markdownTable(t: BenchTable): string[] {
  const lines = [`**${md(t.title)}**`, ''];
  lines.push(`| ${t.columns.map((c) => md(c.header)).join(' | ')} |`);
  lines.push(`| ${t.columns.map((c) => (c.align === 'right' ? '---:' : '---')).join(' | ')} |`);
  for (const row of t.rows) lines.push(`| ${t.columns.map((_, i) => md(row[i])).join(' | ')} |`);
  if (t.notes && t.notes.length > 0) lines.push('', ...t.notes.map((note) => `- ${md(note)}`));
  return lines;
}

/** The line above a file's tables: where they come from, when, on what. Links are relative to docs/. */
export function sourceLine(file: string, r: BenchResultFile): string {
  const rel = path.relative(root, path.resolve(file)).split(path.sep).join('/');
  const commit =
    r.git.commit === null ? 'no git commit' : `commit ${r.git.commit}${r.git.dirty ? ' (dirty tree)' : ''}`;
  const m = r.machine;
  return (
    `From [\`${rel}\`](../${rel}): \`npm run bench -- ${r.quick ? '--quick ' : ''}${r.section.id}\` on ${r.date.slice(0, 10)}, ` +
    `${commit}, Crawl Planner ${r.version}; ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node.replace(/^v/, '')}, ` +
    `load average ${r.loadAverage.join(' / ')} at the start.`
  );
}

function main(): void {
  const args = process.argv.slice(2);
  const text = args.includes('--text');
  const only: string[] = [];
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--text') continue;
    if (a === '--table') {
      const value = args[++i];
      if (value === undefined) usage('--table needs the text of a table title');
      only.push(value);
    } else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else files.push(a);
  }
  if (files.length === 0) usage('name at least one result file');
  const out: string[] = [];
  for (const file of files) {
    let result: BenchResultFile;
    try {
      result = readResultFile(file);
    } catch (err) {
      console.error(`bench:table: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    }
    const tables = result.tables.filter((t) => only.length === 0 || only.some((o) => t.title.includes(o)));
    if (tables.length === 0) {
      console.error(`bench:table: ${file}: no table whose title contains ${only.map((o) => `"${o}"`).join(' or ')}`);
      process.exit(2);
    }
    if (out.length > 0) out.push('');
    out.push(sourceLine(file, result));
    for (const t of tables) {
      out.push('');
      if (text) out.push('```text', ...benchTableLines(t), '```');
      else out.push(...markdownTable(t));
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

function usage(problem: string): never {
  console.error(
    `bench:table: ${problem}\nusage: npm run bench:table -- [--text] [--table TEXT]... bench/results/FILE.json...`,
  );
  process.exit(2);
}

if (require.main === module) main();
