/**
 * The crawl plan engine: targets and per-host facts in, per-host intervals and durations, the makespan,
 * the binding constraint in words, warnings and sharding out. Pure; the CLI and the webview call the
 * same `plan()`. The parts: input.ts (checks and defaults), host.ts (one host), makespan.ts (one
 * machine), words.ts (the binding constraint in words), warnings.ts.
 *
 * Timing convention (docs/planning.md#timing-convention): the first request starts at t = 0 and the crawl is done when
 * the last response has arrived. A host's first request is its robots.txt; its n pages on one lane then
 * take firstPage + (n − 1) × step + latency, the step being its period plus the per-request overhead;
 * the global rate allows its N requests in (N − 1) / rate + the shortest latency; the worker slots, each
 * held for a request's latency, need Σ requests × latency / workers.
 */
import { calibrationMatcher } from '../calibrate/match';
import { deadlineOpenSeconds, planCalendar } from './calendar';
import { solveDeadline } from './deadline';
import { machineForHost } from './hash';
import { planHostWithNotes, tidy, type HostNotes } from './host';
import { groupHosts, problemsOf, resolvePlanInput, seedUrlsOf } from './input';
import { makespan, type Makespan, type MachineUnits } from './makespan';
import { spreadPages } from './pages';
import { overheadOf } from './timing';
import {
  PlanInputError,
  type DeadlineVerdict,
  type HostPlan,
  type MachinePlan,
  type Plan,
  type PlanInput,
  type Sharding,
} from './types';
import { planWarnings } from './warnings';
import { sharedServers } from './sharedServers';
import { describeBinding } from './words';
import { planUnit, unitsOfPlan } from './unitPlan';
import { planTransfer } from './transfer';
import type { UnitPlan } from './types';

/** Plans a crawl. Throws {@link PlanInputError} for input outside the limits (see `validatePlanInput`). */
export function plan(input: PlanInput): Plan {
  // Hosts are grouped once, for the checks and the plan (100,000 hosts: one Map, not three).
  let groups: Map<string, number> | undefined;
  const problems = problemsOf(input, () => (groups = groupHosts(input.seeds)).size);
  if (problems.length > 0 || groups === undefined) throw new PlanInputError(problems);
  const r = resolvePlanInput(input);
  const pages = spreadPages(r.pages, groups.size, 'byHost' in r.pages ? [...groups.keys()] : undefined);
  // Notes only for the hosts that have one (a capped Crawl-delay): most hosts have none.
  const notes = new Map<string, HostNotes>();
  const hosts: HostPlan[] = new Array<HostPlan>(groups.size);
  const calibrationOf = calibrationMatcher(r.calibration);
  const overhead = overheadOf(r.calibration);
  // The hosts whose pages are unknown (resolvePlanInput kept only those the target decides): 0 pages, no total.
  const unknown = 'byHost' in r.pages ? r.pages.unknown : undefined;
  const unknownHosts: string[] = [];
  let index = 0;
  for (const [host, seeds] of groups) {
    const planned = planHostWithNotes(host, seeds, pages[index]!, r, calibrationOf(host), overhead);
    if (planned.notes.capped) notes.set(host, planned.notes);
    if (unknown !== undefined && Object.hasOwn(unknown, host)) {
      planned.plan.pagesUnknown = unknown[host]!;
      planned.plan.bytes = null;
      if (!planned.plan.skipped) unknownHosts.push(host);
    }
    hosts[index++] = planned.plan;
  }
  groups = undefined;
  // Politeness units (docs/planning.md#politeness-units): under ip or domain, each host's unit, and the units of
  // two or more hosts planned as one queue each.
  const units: UnitPlan[] = [];
  const unitsOf = unitsOfPlan(
    hosts.map((h) => h.host),
    r,
    input.addressesByHost,
  );
  if (unitsOf !== null) {
    const byName = new Map(hosts.map((h) => [h.host, h]));
    for (const h of hosts) h.unit = unitsOf.unitOf(h.host);
    for (const u of unitsOf.units)
      if (u.hosts.length > 1)
        units.push(
          planUnit(
            u.name,
            u.hosts.map((host) => byName.get(host)!),
            r,
            calibrationOf,
            overhead,
          ),
        );
  }
  const machineCount = r.machines ?? 1;
  // A unit's members go to one machine: the hash of the unit's name (the host's own under `host`).
  if (r.machines !== null) {
    for (const h of hosts) h.machine = machineForHost(h.unit ?? h.host, machineCount);
    for (const u of units) u.machine = machineForHost(u.unit, machineCount);
  }

  // Machines (one without sharding).
  let byMachine: HostPlan[][] = [hosts];
  let unitsByMachine: UnitPlan[][] = [units];
  if (machineCount > 1) {
    byMachine = Array.from({ length: machineCount }, () => []);
    for (const h of hosts) byMachine[h.machine!]!.push(h);
    unitsByMachine = Array.from({ length: machineCount }, () => []);
    for (const u of units) unitsByMachine[u.machine!]!.push(u);
  }
  const machineUnits: MachineUnits[] = unitsByMachine.map((plans) => ({
    plans,
    names: new Set(plans.map((u) => u.unit)),
  }));
  const spans: Makespan[] = byMachine.map((mine, m) => makespan(mine, r, machineUnits[m]));
  let slowest = 0;
  for (let m = 1; m < machineCount; m++) if (spans[m]!.seconds > spans[slowest]!.seconds) slowest = m;
  const total = spans[slowest]!;
  const totalPages = spans.reduce((s, span) => s + span.pages, 0);

  let sharding: Sharding | null = null;
  if (r.machines !== null) {
    const perMachine: MachinePlan[] = spans.map((span, m) => ({
      machine: m,
      hosts: byMachine[m]!.map((h) => h.host),
      pages: span.pages,
      seconds: span.seconds,
      bindingConstraint: span.bindingConstraint,
      bindingHost: span.bindingHost?.host ?? null,
      bindingUnit: unitName(span),
      bounds: span.bounds,
    }));
    const mean = perMachine.reduce((s, m) => s + m.seconds, 0) / machineCount;
    const meanPages = perMachine.reduce((s, m) => s + m.pages, 0) / machineCount;
    const imbalance = mean > 0 ? tidy(total.seconds / mean) : 1;
    const maxPages = perMachine.reduce((max, m) => Math.max(max, m.pages), 0);
    const pagesImbalance = meanPages > 0 ? tidy(maxPages / meanPages) : 1;
    sharding = { machines: machineCount, hash: 'fnv1a-32', perMachine, imbalance, pagesImbalance };
  }

  let deadline: DeadlineVerdict | null = null;
  if (r.deadlineSeconds !== null) {
    // With windows the deadline is calendar time: the crawl time it leaves is what the plan must fit.
    const budget = deadlineOpenSeconds(input.calendar, r.deadlineSeconds);
    const margin = tidy(budget - total.seconds);
    deadline = { seconds: budget, met: margin >= 0, marginSeconds: margin };
  }

  const servers = sharedServers(input, r, hosts, units);
  const warnings = planWarnings({
    input,
    servers,
    r,
    hosts,
    notes,
    byMachine,
    bindingHost: total.bindingHost,
    bindingUnit: total.bindingUnit,
    sharding,
    deadline,
    totalSeconds: total.seconds,
    unknownHosts,
    units: machineUnits,
  });
  const machineNote = r.machines !== null && machineCount > 1 ? { index: slowest, of: machineCount } : null;
  const result: Plan = {
    input: r,
    seedUrls: seedUrlsOf(input.seeds),
    totalSeconds: total.seconds,
    totalPages,
    skippedPages: hosts.reduce((s, h) => s + (h.skipped ? h.pages : 0), 0),
    complete: unknownHosts.length === 0,
    unknownHosts,
    bindingConstraint: total.bindingConstraint,
    bindingHost: total.bindingHost?.host ?? null,
    bindingUnit: unitName(total),
    bindingMachine: r.machines !== null ? slowest : null,
    bindingDescription: describeBinding(total, r, notes, machineNote, unknownHosts.length),
    perWorkerDelaySeconds: r.rate === null ? null : tidy(r.workers / r.rate),
    bounds: total.bounds,
    overhead,
    hosts,
    warnings,
    deadline: null,
    sharding,
    sharedServers: servers,
    calendar: planCalendar(input.calendar, total.seconds, hosts, r.deadlineSeconds),
    units,
    transfer: planTransfer(hosts, units),
  };
  // What meets the deadline: found by re-planning (deadline.ts), so it needs the plan made so far.
  if (deadline !== null) result.deadline = solveDeadline(input, result, deadline, plan);
  return result;
}

/** The unit that sets a makespan: a unit of several, else the binding host's own (its name under `host`). */
function unitName(span: Makespan): string | null {
  return span.bindingUnit?.unit ?? span.bindingHost?.unit ?? span.bindingHost?.host ?? null;
}
