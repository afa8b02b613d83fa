/**
 * Politeness units in the plan (docs/planning.md#politeness-units): under `politenessBy` `ip` or `domain`, the
 * hosts of one group (src/core/servers/units.ts) are one unit: one queue, `perHostConcurrency` requests in flight
 * for the whole unit, and the largest of its members' intervals (each member's own Crawl-delay, adaptive delay
 * and robots.txt stay its own, so a member's Crawl-delay still floors it; the unit keeps the largest).
 *
 * A unit's time: its members' requests one after another on the unit's lanes, at the unit's interval. Each
 * member is planned at that interval with the plan's own per-host rule (planHost: its robots.txt first, its
 * pages at the gap the engine keeps, its faults), and the members are laid end to end: the answer that ends one
 * member's timeline is instead the gap to the next member's robots.txt. A unit of one host is that host's plan.
 */
import type { HostCalibration } from '../calibrate/types';
import { politenessUnits, type PolitenessUnits } from '../servers/units';
import { planHost, tidy } from './host';
import { isActive } from './makespan';
import type { Overhead } from './timing';
import type { HostPlan, PlanInput, ResolvedPlanInput, UnitPlan } from './types';

/** The units of the plan's hosts under `r.politenessBy`, or null under `host` (each host its own unit). */
export function unitsOfPlan(
  hosts: readonly string[],
  r: ResolvedPlanInput,
  addressesByHost: PlanInput['addressesByHost'],
): PolitenessUnits | null {
  if (r.politenessBy === 'host') return null;
  return politenessUnits(hosts, r.politenessBy, addressesByHost);
}

/** A member of a unit as its time is computed: its own plan, and the pages it is given. */
export interface UnitMember {
  plan: HostPlan;
  pages: number;
}

/** The interval a unit keeps: the largest of its active members' (the first on a tie), or its members' when none is active. */
export function unitInterval(members: readonly HostPlan[]): { seconds: number; host: HostPlan | null } {
  let top: HostPlan | null = null;
  for (const h of members) if (isActive(h) && (top === null || h.intervalSeconds > top.intervalSeconds)) top = h;
  return { seconds: top?.intervalSeconds ?? 0, host: top };
}

/**
 * The unit's time, requests and fault time with each member given `pages` (0: it sends nothing) at the
 * interval `intervalSeconds`. The one rule for a unit's time: plan() and the deadline solver both use it.
 */
export function unitTimeline(
  members: readonly UnitMember[],
  intervalSeconds: number,
  r: ResolvedPlanInput,
  calibrationOf: (host: string) => HostCalibration | undefined,
  overhead: Overhead,
): { seconds: number; requests: number; faultSeconds: number; pages: number } {
  // The member planned with the unit's interval as its configured delay: its own Crawl-delay and adaptive
  // delay are at most that (the unit keeps the largest), so the interval planned is the unit's.
  const atUnit: ResolvedPlanInput = { ...r, delaySeconds: Math.max(r.delaySeconds, intervalSeconds) };
  let seconds = 0;
  let requests = 0;
  let faultSeconds = 0;
  let pages = 0;
  let lastEnd = 0;
  let count = 0;
  for (const m of members) {
    if (m.plan.skipped || m.pages <= 0) continue;
    const p = planHost(m.plan.host, m.plan.seeds, m.pages, atUnit, calibrationOf(m.plan.host), overhead);
    // The end of the previous member's timeline (its last answer) becomes a step to this member's robots.txt.
    if (count > 0) seconds += lastEnd;
    seconds += p.seconds;
    lastEnd = p.stepSeconds - (p.latencySeconds + overhead.afterResponseSeconds);
    requests += p.requests;
    faultSeconds += p.faultSeconds;
    pages += m.pages;
    count++;
  }
  return { seconds: tidy(seconds), requests, faultSeconds: tidy(faultSeconds), pages };
}

/** A unit of two or more hosts, planned (`members`: their plans, in host order). */
export function planUnit(
  name: string,
  members: readonly HostPlan[],
  r: ResolvedPlanInput,
  calibrationOf: (host: string) => HostCalibration | undefined,
  overhead: Overhead,
): UnitPlan {
  const interval = unitInterval(members);
  const t = unitTimeline(
    members.map((plan) => ({ plan, pages: plan.pages })),
    interval.seconds,
    r,
    calibrationOf,
    overhead,
  );
  const h = interval.host;
  return {
    unit: name,
    hosts: members.map((m) => m.host),
    pages: t.pages,
    requests: t.requests,
    intervalSeconds: interval.seconds,
    intervalHost: h?.host ?? null,
    intervalSource: h?.intervalSource ?? 'configured',
    periodSeconds: h?.periodSeconds ?? 0,
    pagesPerHour: h?.pagesPerHour ?? 0,
    seconds: t.seconds,
    faultSeconds: t.faultSeconds,
  };
}
