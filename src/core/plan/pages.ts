/** How a page target becomes pages per host, and which hosts' pages are unknown. */
import { pageBudgetOf, pageBudgetsOf } from '../crawl/pageBudgets';
import type { PagesTarget, PagesUnknown } from './types';

/** A number-per-host target. */
export type ByHostTarget = Extract<PagesTarget, { byHost: unknown }>;

/**
 * Why `host`'s pages are unknown under a number-per-host target, or undefined when they are known: a host
 * with a number of its own (`byHost`) has it; else a given `otherwise` is its number; else, when `unknown`
 * names it, its pages are unknown; else it has 0. The one rule for it (the plan, `estimate --sitemaps` and the
 * sidebar all read it here). `host` is lower-case, as the target's keys are.
 */
export function unknownPagesOf(target: ByHostTarget, host: string): PagesUnknown | undefined {
  if (Object.hasOwn(target.byHost, host) || target.otherwise !== undefined) return undefined;
  return target.unknown !== undefined && Object.hasOwn(target.unknown, host) ? target.unknown[host] : undefined;
}

/**
 * The hosts of `unknown` whose pages are unknown by {@link unknownPagesOf}: none when `otherwise` is given,
 * and never one that `byHost` names.
 */
export function effectiveUnknown(target: ByHostTarget): Record<string, PagesUnknown> {
  const out: Record<string, PagesUnknown> = {};
  if (target.unknown === undefined) return out;
  for (const host of Object.keys(target.unknown)) {
    const why = unknownPagesOf(target, host);
    if (why !== undefined) out[host] = { code: why.code, reason: why.reason };
  }
  return out;
}

/**
 * Pages for each of `hostCount` hosts, in host order. A total is spread evenly: every host gets
 * ⌊total / hosts⌋ and the first (total mod hosts) hosts get one more. Non-decreasing in `total` for
 * every host. A number per host needs the hosts' names (lower-case), in the same order; a host whose pages
 * are unknown gets 0 (it is in no total).
 */
export function spreadPages(target: PagesTarget, hostCount: number, hosts?: readonly string[]): number[] {
  // A number per host is the host's page budget, the one rule the crawl stops it at (src/core/crawl/pageBudgets.ts).
  if ('perHost' in target) return Array.from({ length: hostCount }, () => target.perHost);
  if ('byHost' in target) {
    if (hosts === undefined || hosts.length !== hostCount)
      throw new TypeError('spreadPages: a number per host needs the hosts');
    const budgets = pageBudgetsOf(target)!;
    return hosts.map((h) => pageBudgetOf(budgets, h));
  }
  if (hostCount === 0) return [];
  const base = Math.floor(target.total / hostCount);
  const extra = target.total - base * hostCount;
  return Array.from({ length: hostCount }, (_, i) => base + (i < extra ? 1 : 0));
}
