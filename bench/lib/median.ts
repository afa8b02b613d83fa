/** Timing helpers shared by the bench sections. */

/** Median of `reps` timings of `fn`, in ms. */
export function median(reps: number, fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return middle(times);
}

/** Median of `reps` timings of an async `fn`, run one after another, in ms. */
export async function medianAsync(reps: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return middle(times);
}

function middle(times: number[]): number {
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}
