/**
 * The simulation's draws of a model's parameters from what a test crawl measured
 * (docs/calibration-and-simulation.md#the-band-what-a-short-test-crawl-leaves-open): a fault rate from its Beta
 * posterior given the count seen in the requests made (FAULT_RATE_PRIOR, src/core/calibrate/faultModel.ts), so
 * that few requests leave a rate open and none fixes it at 0. Pure: the random function is passed in.
 */
import { FAULT_RATE_PRIOR } from '../calibrate/faultModel';
import type { Random } from '../clock';

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
  const p = FAULT_RATE_PRIOR;
  return betaDraw(count + p.faults, Math.max(0, requests - count) + p.requests - p.faults, random);
}
