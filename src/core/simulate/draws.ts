/**
 * The simulation's draws of a model's parameters from what a test crawl measured
 * (docs/calibration-and-simulation.md#the-band-what-a-short-test-crawl-leaves-open): a fault rate from its Beta
 * posterior given the count seen in the requests made (Jeffreys' prior, Beta(½, ½)), so that few requests
 * leave a rate open and none fixes it at 0; a limiter's interval uniformly over the range the test crawl's
 * gaps leave open. Pure: the random function is passed in.
 */
import type { Random } from '../clock';

/** The prior's pseudo-counts (Jeffreys): a fault seen k times in n requests has a rate ~ Beta(k + ½, n − k + ½). */
export const RATE_PRIOR = 0.5;

/** A standard normal draw (Box–Muller; 1 − random() is in (0, 1], so the log is finite). */
export function normalDraw(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A Gamma(shape, 1) draw (Marsaglia and Tsang; a shape below 1 by the boost U^(1/shape)). */
export function gammaDraw(shape: number, random: Random): number {
  if (shape < 1) return gammaDraw(shape + 1, random) * (1 - random()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normalDraw(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - random();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** A Beta(a, b) draw. */
export function betaDraw(a: number, b: number, random: Random): number {
  const x = gammaDraw(a, random);
  const y = gammaDraw(b, random);
  return x + y === 0 ? 0 : x / (x + y);
}

/** A fault rate given `count` seen in `requests`: a draw from its posterior. */
export function rateDraw(count: number, requests: number, random: Random): number {
  return betaDraw(count + RATE_PRIOR, Math.max(0, requests - count) + RATE_PRIOR, random);
}
