/**
 * Per-host page budgets (docs/crawl-engine.md#per-host-page-budgets): the one rule for what a host's budget
 * is. A budget counts a host's pages as `maxPages` does (final responses, 4xx included; a redirect chain is one
 * page, its hops and retries are requests). The crawl engine stops a host at its budget, the plan gives a host
 * the same number (spreadPages), and the budgets of a plan (src/core/plan/budgets.ts) are what `crawl --plan`,
 * the sidebar's Run test crawl and the exports use. Pure.
 */
import type { PagesTarget } from '../plan/types';

/** Pages per host: a host `byHost` names has its number, every other host `otherwise`. Keys are lower-case hosts. */
export interface PageBudgets {
  byHost: Readonly<Record<string, number>>;
  otherwise: number;
}

/** The budget of `host` (lower-case, with a non-default port). */
export function pageBudgetOf(budgets: PageBudgets, host: string): number {
  return Object.hasOwn(budgets.byHost, host) ? budgets.byHost[host]! : budgets.otherwise;
}

/**
 * The per-host budgets a page target sets: `{perHost: N}` gives every host N, `{byHost, otherwise}` each named
 * host its number and the others `otherwise` (0 when not given: a host neither names has no pages). A total
 * (`{total}`) sets no per-host budget: undefined.
 */
export function pageBudgetsOf(target: PagesTarget): PageBudgets | undefined {
  if ('perHost' in target) return { byHost: {}, otherwise: target.perHost };
  if ('byHost' in target) return { byHost: target.byHost, otherwise: target.otherwise ?? 0 };
  return undefined;
}

/** Σ budgets over `hosts` (each counted once). */
export function budgetTotal(budgets: PageBudgets, hosts: Iterable<string>): number {
  let sum = 0;
  for (const host of new Set(hosts)) sum += pageBudgetOf(budgets, host);
  return sum;
}

/**
 * The budgets of `hosts` cut to fit `cap` pages in all (a test crawl of a plan: a sample of each host, never
 * more of a host than its budget): unchanged when they fit; else the cap spread as evenly as it goes
 * (a host whose budget is below its share keeps its budget and leaves the rest to the others; of the
 * others, the first in `hosts` order get one more when the cap does not divide). Hosts not in `hosts` get 0.
 */
export function capBudgets(budgets: PageBudgets, hosts: readonly string[], cap: number): PageBudgets {
  const unique = [...new Set(hosts)];
  if (budgetTotal(budgets, unique) <= cap) return budgets;
  const wanted = new Map(unique.map((h) => [h, pageBudgetOf(budgets, h)]));
  const byHost: Record<string, number> = {};
  let left = cap;
  let open = unique;
  // Hosts whose budget is at most the even share keep it; repeat until every open host wants more than its share.
  for (;;) {
    const share = Math.floor(left / open.length);
    const small = open.filter((h) => wanted.get(h)! <= share);
    if (small.length === 0) break;
    for (const h of small) {
      byHost[h] = wanted.get(h)!;
      left -= byHost[h];
    }
    open = open.filter((h) => wanted.get(h)! > share);
    if (open.length === 0) break;
  }
  if (open.length > 0) {
    const share = Math.floor(left / open.length);
    let extra = left - share * open.length;
    for (const h of open) {
      byHost[h] = share + (extra > 0 ? 1 : 0);
      if (extra > 0) extra--;
    }
  }
  return { byHost, otherwise: 0 };
}

/** What a plan says of a host (a HostPlan, or an estimate document's host, whose `pages` is null when unknown). */
export interface PlannedHostPages {
  host: string;
  pages: number | null;
  skipped: boolean;
  pagesUnknown?: unknown;
}

/**
 * A planned host's budget: its planned pages; 0 when the plan skips it (its Crawl-delay is above the cap under
 * `skip`) or does not know its pages. What `crawl --plan`, the sidebar's Run test crawl and the exports give it.
 */
export function plannedHostBudget(h: PlannedHostPages): number {
  return h.skipped || h.pagesUnknown !== undefined || h.pages === null ? 0 : h.pages;
}

/** A plan's budgets: each of its hosts {@link plannedHostBudget}, every other host 0. */
export function planBudgets(hosts: readonly PlannedHostPages[]): PageBudgets {
  const byHost: Record<string, number> = {};
  for (const h of hosts) byHost[h.host] = plannedHostBudget(h);
  return { byHost, otherwise: 0 };
}
