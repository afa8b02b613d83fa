/** How a page target becomes pages per host. */
import type { PagesTarget } from './types';

/**
 * Pages for each of `hostCount` hosts, in host order. A total is spread evenly: every host gets
 * ⌊total / hosts⌋ and the first (total mod hosts) hosts get one more. Non-decreasing in `total` for
 * every host.
 */
export function spreadPages(target: PagesTarget, hostCount: number): number[] {
  if ('perHost' in target) return Array.from({ length: hostCount }, () => target.perHost);
  if (hostCount === 0) return [];
  const base = Math.floor(target.total / hostCount);
  const extra = target.total - base * hostCount;
  return Array.from({ length: hostCount }, (_, i) => base + (i < extra ? 1 : 0));
}
