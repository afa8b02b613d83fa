/**
 * Deterministic randomness for the demo hosts: the same seed gives the same link graph and the same
 * latency sequence (in request order), so a demo run and a test are reproducible.
 */
import type { LatencyConfig } from './config';

/** mulberry32: a small, fast 32-bit PRNG; returns numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
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

/** The z-score of the 99th percentile of the standard normal distribution. */
const Z99 = 2.3263478740408408;

/**
 * A latency sampler in milliseconds. `long-tail` is log-normal with the given median and 99th percentile,
 * cut at `maxMs` (default 3 × p99).
 */
export function latencySampler(config: LatencyConfig | undefined, random: () => number): () => number {
  if (config === undefined) return () => 0;
  switch (config.kind) {
    case 'none':
      return () => 0;
    case 'fixed':
      return () => Math.max(0, config.ms);
    case 'uniform': {
      const lo = Math.max(0, Math.min(config.minMs, config.maxMs));
      const hi = Math.max(lo, config.minMs, config.maxMs);
      return () => lo + random() * (hi - lo);
    }
    case 'long-tail': {
      const median = Math.max(1, config.medianMs);
      const p99 = Math.max(median, config.p99Ms);
      const max = Math.max(p99, config.maxMs ?? 3 * p99);
      const sigma = Math.log(p99 / median) / Z99;
      return () => {
        // Box-Muller; 1 - random() is in (0, 1], so the log is finite.
        const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
        return Math.min(max, median * Math.exp(sigma * z));
      };
    }
  }
}
