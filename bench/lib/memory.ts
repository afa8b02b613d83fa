/**
 * Heap measurements for bench sections: a full garbage collection on demand, and the live heap after it.
 * Under `node --expose-gc` this is `global.gc`; otherwise the same flag is switched on at run time, so
 * `npm run bench` needs no extra flag.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

let collect: (() => void) | undefined;

/** Runs a full, synchronous garbage collection. */
export function gc(): void {
  if (collect === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === 'function') collect = exposed;
    else {
      v8.setFlagsFromString('--expose-gc');
      collect = vm.runInNewContext('gc') as () => void;
    }
  }
  collect();
}

/**
 * `process.memoryUsage().heapUsed` once it has settled: full collections until two readings in a row are
 * within 1 MiB (a collection's sweeping can finish after it returns, so one reading may still count garbage).
 */
export function liveHeapBytes(): number {
  gc();
  let last = process.memoryUsage().heapUsed;
  for (let i = 0; i < 8; i++) {
    gc();
    const now = process.memoryUsage().heapUsed;
    if (Math.abs(now - last) < 2 ** 20) return Math.min(now, last);
    last = now;
  }
  return last;
}
