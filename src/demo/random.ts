/**
 * Deterministic randomness for the demo hosts: the same seed gives the same link graph and the same
 * latency sequence (in request order), so a demo run and a test are reproducible.
 */
import type { LatencyConfig } from './config';

export { deriveSeed, mulberry32 } from '../core/random';

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
