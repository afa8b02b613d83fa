/**
 * What the sidebar shows of a plan (docs/extension.md §What it shows): the total, what limits it, the first
 * warnings, the chart, and the first rows of the host table, hosts alike grouped. The plan report has every
 * host (src/extension/planReport/). Pure.
 */
import { chartModel, hostGroups, hostRowText, totalText } from '../../core/format/planSummary';
import { deadlineFacts } from '../../core/format/planText';
import type { Plan } from '../../core/plan';
import { onCdnEdge, sharedGroupHeading, sharedGroupText } from '../../core/plan/sharedServers';
import { MAX_DEADLINE_OPTIONS } from '../../shared/planner/limits';
import type { DeadlineView, PlanSummaryView, SharedServersView, SummaryRow } from '../../shared/planner/viewModel';

/** Rows of the sidebar's host table at most (groups count as one). */
export const MAX_SUMMARY_ROWS = 50;
/** Warnings posted at most (a plan can warn about every host). */
export const MAX_WARNINGS_POSTED = 50;
/** Shared-server groups posted at most, the hosts named per group, and the hosts that did not resolve. */
export const MAX_SHARED_GROUPS_POSTED = 20;
export const MAX_SHARED_HOSTS_POSTED = 10;
export const MAX_UNRESOLVED_POSTED = 10;

/** The plan's hosts that share a server, with the findings' words (docs/extension.md#shared-servers). */
export function sharedServersView(plan: Pick<Plan, 'sharedServers'>): SharedServersView {
  const s = plan.sharedServers;
  return {
    addressesChecked: s.addressesChecked,
    groups: s.groups.slice(0, MAX_SHARED_GROUPS_POSTED).map((g) => ({
      kind: g.kind,
      key: g.key,
      heading: sharedGroupHeading(g),
      hosts: g.hosts.slice(0, MAX_SHARED_HOSTS_POSTED),
      hostCount: g.hosts.length,
      text: sharedGroupText(g, undefined, false),
      cdn: onCdnEdge(g),
    })),
    groupCount: s.groups.length,
    unresolved: s.unresolved.slice(0, MAX_UNRESOLVED_POSTED).map((u) => ({ ...u })),
    unresolvedCount: s.unresolved.length,
  };
}

export function planSummaryView(plan: Plan): PlanSummaryView {
  const groups = hostGroups(plan);
  const rows: SummaryRow[] = groups.slice(0, MAX_SUMMARY_ROWS).map((g) => ({
    ...hostRowText(g.host, g.binding && plan.bindingHost !== null, g.count),
    sort: {
      pages: g.host.pages,
      intervalSeconds: g.host.intervalSeconds,
      pagesPerHour: g.host.pagesPerHour,
      seconds: g.host.seconds,
    },
  }));
  return {
    totalText: totalText(plan),
    totalSeconds: plan.totalSeconds,
    totalPages: plan.totalPages,
    hostCount: plan.hosts.length,
    bindingConstraint: plan.bindingConstraint,
    bindingDescription: plan.bindingDescription,
    warnings: plan.warnings
      .slice(0, MAX_WARNINGS_POSTED)
      .map((w) =>
        w.host === undefined ? { code: w.code, text: w.message } : { code: w.code, host: w.host, text: w.message },
      ),
    warningCount: plan.warnings.length,
    chart: chartModel(plan, undefined, groups),
    groups: rows,
    groupCount: groups.length,
    sharedServers: sharedServersView(plan),
  };
}

/** The plan's deadline in words and its options (hosts named up to `maxHosts`); `plan` numbers the plan. */
export function deadlineView(p: Plan, plan: number, maxHosts: number): DeadlineView | null {
  const d = p.deadline;
  if (d === null) return null;
  const facts = deadlineFacts(p, d);
  const view: DeadlineView = {
    plan,
    seconds: d.seconds,
    met: d.met,
    verdict: facts.verdict,
    earliest: facts.earliest,
    blockingHosts: d.blockingHosts.slice(0, maxHosts),
    blockingCount: d.blockingHosts.length,
    options: d.options.slice(0, MAX_DEADLINE_OPTIONS).map((o) => ({
      kind: o.kind,
      text: o.text,
      pages: o.pages,
      totalSeconds: o.totalSeconds,
      hosts: o.hosts.slice(0, maxHosts),
      hostCount: o.hosts.length,
    })),
  };
  if (!d.met) view.blocking = facts.blocking;
  return view;
}
