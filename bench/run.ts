/**
 * `npm run bench [-- [--quick] [--NAME=VALUE...] [SECTION...]]`: runs the bench sections in order (all of them, or
 * those named; `--NAME=VALUE` is for a section that reads it, e.g. the fidelity section's `--seed=N`), prints each
 * table on the terminal, and writes one result file per section as soon as it ends:
 * `bench/results/<YYYY-MM-DD>-<section>.json` (`-quick` before `.json` with `--quick`), written whole by this run
 * (the date, the machine, the git commit of the tree and whether it was dirty, the section's tables;
 * bench/lib/results.ts). Nothing is merged: a later run of the same section on the same date replaces its file,
 * and a section that fails writes none (the run then exits 1).
 *
 * The result files are committed: they are the source of the figures in docs/benchmarks.md, and are never edited
 * by hand. `npm run bench:table -- FILE` prints a file's tables as Markdown. Sections are listed in
 * `bench/sections/index.ts`; see CONTRIBUTING.md for how to add one.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchTableLines } from './lib/print';
import { benchMachine, gitState, writeResultFile } from './lib/results';
import type { BenchContext } from './lib/types';
import { SECTIONS } from './sections';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  // `--seed=7`: a value a section may read (ctx.flags); a section that reads none ignores it.
  const flags = Object.fromEntries(
    args.flatMap((a) => {
      const m = /^--([a-z][a-z0-9-]*)=(.*)$/.exec(a);
      return m ? [[m[1]!, m[2]!]] : [];
    }),
  );
  const wanted = args.filter((a) => !a.startsWith('--'));
  const unknown = wanted.filter((id) => !SECTIONS.some((s) => s.id === id));
  if (unknown.length > 0) {
    console.error(`bench: unknown section ${unknown.join(', ')}; sections: ${SECTIONS.map((s) => s.id).join(', ')}`);
    process.exit(2);
  }
  const chosen = wanted.length === 0 ? SECTIONS : SECTIONS.filter((s) => wanted.includes(s.id));
  const root = path.resolve(__dirname, '..');
  const machine = benchMachine();
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  // The tree as it is before anything runs: the result files this run writes are not part of it.
  const git = gitState(root);
  const commit = git.commit === null ? 'no git commit' : `${git.commit}${git.dirty ? ' (dirty)' : ''}`;
  console.log(
    `Crawl Planner bench · ${new Date().toISOString().slice(0, 10)} · ${commit} · ${machine.cpus} × ${machine.cpuModel} · ${machine.memoryGiB} GiB · Node ${machine.node}`,
  );
  const failed: string[] = [];
  for (const section of chosen) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `crawl-planner-bench-${section.id}-`));
    const ctx: BenchContext = {
      root,
      tmp,
      quick,
      flags,
      log: (line) => process.stderr.write(`  [${section.id}] ${line}\n`),
    };
    console.log(`\n## ${section.title}`);
    const started = new Date();
    const loadAverage = os.loadavg().map((l) => Math.round(l * 100) / 100);
    try {
      const tables = await section.run(ctx);
      for (const t of tables) console.log(`\n${benchTableLines(t).join('\n')}`);
      const file = writeResultFile(root, {
        schemaVersion: 1,
        section: { id: section.id, title: section.title },
        date: started.toISOString(),
        durationSeconds: Math.round((Date.now() - started.getTime()) / 100) / 10,
        quick,
        machine,
        loadAverage,
        git,
        version,
        tables,
      });
      console.log(`\nResults: ${path.relative(root, file)}`);
    } catch (err) {
      failed.push(section.id);
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      console.log(`  section failed, no result file written: ${message}`);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  if (failed.length > 0) {
    console.log(`\nFailed: ${failed.join(', ')}`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
