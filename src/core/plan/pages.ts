/** How a page target becomes pages per host. */
import type { PagesTarget } from './types';

/**
 * Pages for each of `hostCount` hosts, in host order. A total is spread evenly: every host gets
 * ⌊total / hosts⌋ and the first (total mod hosts) hosts get one more. Non-decreasing in `total` for
 * every host. A number per host needs the hosts' names (lower-case), in the same order.
 */
export function spreadPages(target: PagesTarget, hostCount: number, hosts?: readonly string[]): number[] {
  if ('perHost' in target) return Array.from({ length: hostCount }, () => target.perHost);
  if ('byHost' in target) {
    if (hosts === undefined || hosts.length !== hostCount)
      throw new TypeError('spreadPages: a number per host needs the hosts');
    return hosts.map((h) => (Object.hasOwn(target.byHost, h) ? target.byHost[h]! : (target.otherwise ?? 0)));
  }
  if (hostCount === 0) return [];
  const base = Math.floor(target.total / hostCount);
  const extra = target.total - base * hostCount;
  return Array.from({ length: hostCount }, (_, i) => base + (i < extra ? 1 : 0));
}
