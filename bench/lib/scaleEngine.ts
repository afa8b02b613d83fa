/**
 * Bench-only: bench/sections/scale.ts bundles this and runs it in child processes of their own, so the
 * engine's memory is measured apart from the bench's.
 *
 *   node scaleEngine.js once <hosts> <pages>      validate, plan() and the JSON document once, as a CLI run
 *                                                does: the times of each step (peak RSS: the caller's preload)
 *   node scaleEngine.js repeat <hosts> <pages> <R>   plan() R more times: the median, and the heap one plan
 *                                                keeps per host (after a full collection)
 *
 * Prints one JSON line.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { jsonPieces } from '../../src/core/format/json';
import { estimateDocument, plan } from '../../src/core/plan';
import { validateSeeds } from '../../src/core/seeds';

const [mode, hostsText, pagesText, repeatsText] = process.argv.slice(2);
const hosts = Number(hostsText);
const time = <T>(fn: () => T): [T, number] => {
  const t0 = performance.now();
  const value = fn();
  return [value, performance.now() - t0];
};

const lines = Array.from({ length: hosts }, (_, i) => ({ text: `https://host${i}.example.com/`, line: i + 1 }));
const [{ seeds }, validateMs] = time(() => validateSeeds(lines));
const input = { seeds, pages: { total: Number(pagesText) } };

if (mode === 'once') {
  const [result, planMs] = time(() => plan(input));
  const [documentChars, documentMs] = time(() => {
    let chars = 0;
    for (const piece of jsonPieces(estimateDocument(result))) chars += piece.length;
    return chars;
  });
  process.stdout.write(`${JSON.stringify({ validateMs, planMs, documentMs, documentChars })}\n`);
} else {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  plan(input);
  const warm: number[] = [];
  for (let i = 0; i < Number(repeatsText); i++) warm.push(time(() => plan(input))[1]);
  warm.sort((a, b) => a - b);
  gc();
  const without = process.memoryUsage().heapUsed;
  const kept = plan(input);
  gc();
  const retainedBytesPerHost = (process.memoryUsage().heapUsed - without) / hosts;
  process.stdout.write(
    `${JSON.stringify({ planWarmMs: warm[Math.floor(warm.length / 2)], retainedBytesPerHost, hosts: kept.hosts.length })}\n`,
  );
}
