/**
 * `npm run bench [-- [--quick] [SECTION...]]`: runs the bench sections in order, prints each table on the
 * terminal and writes every table, with the machine and the date, to `bench/results/<YYYY-MM-DD>.json`.
 * Sections are listed in `bench/sections/index.ts`; see CONTRIBUTING.md for how to add one.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchTableLines } from './lib/print';
import type { BenchContext, BenchTable } from './lib/types';
import { SECTIONS } from './sections';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const wanted = args.filter((a) => !a.startsWith('--'));
  const unknown = wanted.filter((id) => !SECTIONS.some((s) => s.id === id));
  if (unknown.length > 0) {
    console.error(`bench: unknown section ${unknown.join(', ')}; sections: ${SECTIONS.map((s) => s.id).join(', ')}`);
    process.exit(2);
  }
  const chosen = wanted.length === 0 ? SECTIONS : SECTIONS.filter((s) => wanted.includes(s.id));
  const root = path.resolve(__dirname, '..');
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
  };
  const date = new Date().toISOString();
  console.log(
    `Crawl Planner bench · ${date.slice(0, 10)} · ${machine.cpus} × ${machine.cpuModel} · ${machine.memoryGiB} GiB · Node ${machine.node}`,
  );
  const results: { id: string; title: string; tables: BenchTable[]; error?: string }[] = [];
  let failed = false;
  for (const section of chosen) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `crawl-planner-bench-${section.id}-`));
    const ctx: BenchContext = { root, tmp, quick, log: (line) => process.stderr.write(`  [${section.id}] ${line}\n`) };
    console.log(`\n## ${section.title}`);
    try {
      const tables = await section.run(ctx);
      for (const t of tables) console.log(`\n${benchTableLines(t).join('\n')}`);
      results.push({ id: section.id, title: section.title, tables });
    } catch (err) {
      failed = true;
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      console.log(`  section failed: ${message}`);
      results.push({ id: section.id, title: section.title, tables: [], error: message });
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  const dir = path.join(root, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${date.slice(0, 10)}${quick ? '-quick' : ''}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ date, machine, quick, sections: results }, null, 2)}\n`);
  console.log(`\nResults: ${path.relative(root, file)}`);
  if (failed) process.exit(1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
