/**
 * One machine's makespan: the largest of three lower bounds (the slowest host alone; the global rate over
 * every request, robots.txt included; the worker slots, each held for a request's latency), and which of
 * them binds.
 */
import { tidy } from './host';
import type { BindingConstraint, Bounds, HostPlan, IntervalSource, ResolvedPlanInput, UnitPlan } from './types';

export function nearlyAtLeast(a: number, b: number): boolean {
  return a >= b - 1e-9 * Math.max(1, Math.abs(b));
}

const HOST_BINDING: Readonly<Record<IntervalSource, BindingConstraint>> = {
  configured: 'host-interval',
  'crawl-delay': 'crawl-delay',
  adaptive: 'adaptive',
  latency: 'latency',
};

/** Whether a host counts in the totals: not skipped, and with pages to crawl. */
export function isActive(h: HostPlan): boolean {
  return !h.skipped && h.pages > 0;
}

export interface Makespan {
  seconds: number;
  bindingConstraint: BindingConstraint;
  bindingHost: HostPlan | null;
  /** The unit of two or more hosts that sets the makespan (bindingHost is then the member whose interval it keeps). */
  bindingUnit: UnitPlan | null;
  bounds: Bounds;
  /** The pages and the requests (robots.txt and retries included) of the active hosts. */
  pages: number;
  requests: number;
}

/** The units of two or more hosts on a machine: their plans, and their names (their members' `unit`). */
export interface MachineUnits {
  plans: readonly UnitPlan[];
  names: ReadonlySet<string>;
}

const NO_UNITS: MachineUnits = { plans: [], names: new Set() };

/**
 * One machine's makespan over its active hosts (`isActive`): the largest of three lower bounds (slowest
 * politeness unit, a host alone or a unit of several, docs/planning.md#politeness-units; global rate; worker
 * slots). On a tie the host is named (politeness is the reason), then the global rate, then the workers. One
 * pass over the hosts (100,000 hosts: no filtered copy).
 */
export function makespan(hosts: readonly HostPlan[], r: ResolvedPlanInput, units: MachineUnits = NO_UNITS): Makespan {
  let pages = 0;
  let requests = 0;
  let slotSeconds = 0;
  let minLatency = Number.POSITIVE_INFINITY;
  let top: HostPlan | undefined;
  for (const h of hosts) {
    if (!isActive(h)) continue;
    pages += h.pages;
    // Every request counts, each host's robots.txt and the retries its faults cost included.
    requests += h.requests;
    slotSeconds += h.requests * h.latencySeconds;
    minLatency = Math.min(minLatency, h.latencySeconds);
    // A member of a unit of several is timed with its unit, below.
    if (h.unit !== undefined && units.names.has(h.unit)) continue;
    if (top === undefined || h.seconds > top.seconds) top = h;
  }
  let topUnit: UnitPlan | undefined;
  for (const u of units.plans) {
    if (u.pages === 0 || u.intervalHost === null) continue;
    if ((top === undefined || u.seconds > top.seconds) && (topUnit === undefined || u.seconds > topUnit.seconds))
      topUnit = u;
  }
  if (topUnit !== undefined) top = hosts.find((h) => h.host === topUnit.intervalHost);
  if (top === undefined) {
    return {
      seconds: 0,
      bindingConstraint: 'none',
      bindingHost: null,
      bindingUnit: null,
      bounds: { hostSeconds: 0, globalRateSeconds: r.rate === null ? null : 0, workersSeconds: 0 },
      pages,
      requests,
    };
  }
  const globalRateSeconds = r.rate === null ? null : tidy((requests - 1) / r.rate + minLatency);
  const workersSeconds = tidy(slotSeconds / r.workers);
  const slowest = topUnit?.seconds ?? top.seconds;
  const source = topUnit?.intervalSource ?? top.intervalSource;
  const bounds: Bounds = { hostSeconds: slowest, globalRateSeconds, workersSeconds };
  const seconds = Math.max(slowest, globalRateSeconds ?? 0, workersSeconds);
  const counts = { pages, requests, bindingUnit: null };
  if (nearlyAtLeast(slowest, seconds)) {
    return {
      seconds,
      bindingConstraint: HOST_BINDING[source],
      bindingHost: top,
      bounds,
      ...counts,
      bindingUnit: topUnit ?? null,
    };
  }
  if (globalRateSeconds !== null && nearlyAtLeast(globalRateSeconds, seconds)) {
    return { seconds, bindingConstraint: 'global-rate', bindingHost: null, bounds, ...counts };
  }
  return { seconds, bindingConstraint: 'workers', bindingHost: null, bounds, ...counts };
}
