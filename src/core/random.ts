/**
 * Deterministic randomness: a seeded generator and independent streams from one seed. The demo hosts use
 * it for their link graphs and latencies, the simulation (src/core/simulate) for its samples, so that the
 * same seed gives the same run.
 */
import type { Random } from './clock';

/** mulberry32: a small, fast 32-bit PRNG; returns numbers in [0, 1). */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed derived from a base seed and a label, so that independent streams do not correlate. */
export function deriveSeed(seed: number, label: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h;
}
