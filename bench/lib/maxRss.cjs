'use strict';
/**
 * Bench-only preload (`node --require bench/lib/maxRss.cjs …`): when the process exits, writes its own
 * resource use to the file named by BENCH_RUSAGE_FILE as JSON: `maxRSS` (the peak resident set size,
 * KiB, getrusage's ru_maxrss), `userCPUTime` and `systemCPUTime` (µs). Used by bench/sections/scale.ts to
 * read a child's peak memory and CPU without a shell tool.
 */
const fs = require('node:fs');

const file = process.env.BENCH_RUSAGE_FILE;
if (file) {
  process.on('exit', () => {
    const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
    fs.writeFileSync(file, JSON.stringify({ maxRSS, userCPUTime, systemCPUTime }));
  });
}
