/**
 * The plan's warnings: what in the input or the result deserves a second look, each a stable code with a
 * sentence, in a fixed order (input problems, per host, shared servers, the crawl as a whole, machines, the
 * deadline).
 * Computed from the plan's facts, after the maths (plan.ts).
 */
import { formatDuration, formatNumber, formatSeconds } from '../format/duration';
import { tidy, type HostNotes } from './host';
import { isActive, type MachineUnits } from './makespan';
import type { DeadlineVerdict, HostPlan, PlanInput, PlanWarning, ResolvedPlanInput, Sharding, UnitPlan } from './types';
import { plural } from '../format/text';
import { percent } from './words';
import { moreGroupsText, SHARED_GROUPS_WARNED, sharedGroupText, type SharedServers } from './sharedServers';

/** `host-dominates`: the host's time is at least this share of all hosts' time… */
export const HOST_DOMINATES_SHARE = 0.5;
/** …and at least this many times the next host's. */
export const HOST_DOMINATES_RATIO = 2;
/** `shard-imbalance`: the slowest machine takes at least this many times the mean. */
export const SHARD_IMBALANCE_THRESHOLD = 1.5;

/** Details are formatted for the first few machines only: a fleet can have 100,000 of them. */
const MACHINES_SHOWN = 3;

/** What the warnings are read from. */
export interface PlanFacts {
  /** The input as given (a warning about the workers is made only when they were asked for). */
  input: PlanInput;
  r: ResolvedPlanInput;
  hosts: readonly HostPlan[];
  /** Notes for the hosts that have one (a capped Crawl-delay). */
  notes: ReadonlyMap<string, HostNotes>;
  /** The hosts of each machine (one machine without sharding). */
  byMachine: ReadonlyArray<readonly HostPlan[]>;
  /** The host that sets the slowest machine's makespan, or null when the rate or the workers do. */
  bindingHost: HostPlan | null;
  /** The unit of several hosts that sets it, when one does. */
  bindingUnit?: UnitPlan | null;
  sharding: Sharding | null;
  deadline: DeadlineVerdict | null;
  totalSeconds: number;
  /** The planned hosts whose pages are unknown (Plan.unknownHosts). */
  unknownHosts: readonly string[];
  /** Hosts on one address or in one registered domain (sharedServers.ts). */
  servers?: SharedServers;
  /** The units of several hosts on each machine (docs/planning.md#politeness-units); none under `host`. */
  units?: readonly MachineUnits[];
}

/** Hosts named in the `pages-unknown` warning (the rest are counted). */
export const UNKNOWN_HOSTS_NAMED = 3;

/** "a.example (429: …), b.example (no sitemap) and 3 more": the first few hosts with why. */
export function unknownHostsText(hosts: readonly HostPlan[], named = UNKNOWN_HOSTS_NAMED): string {
  const shown = hosts.slice(0, named).map((h) => `${h.host} (${h.pagesUnknown?.reason ?? 'pages unknown'})`);
  const more = hosts.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${formatNumber(more)} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : (shown[0] ?? '');
}

/** What the dominance check compares: a host alone, or a unit of several (`group` set, `host` its name). */
type Timed = Pick<HostPlan, 'host' | 'seconds'> & { group?: UnitPlan };

export function planWarnings(f: PlanFacts): PlanWarning[] {
  const { r, hosts } = f;
  const warnings: PlanWarning[] = [];
  const warn = (code: PlanWarning['code'], message: string, host?: string) =>
    warnings.push(host === undefined ? { code, message } : { code, message, host });

  // Overrides that match no seed host are most likely typos.
  const overrides = [
    ['A latency', r.latencyByHost],
    ['A Crawl-delay', r.crawlDelayByHost],
    ['A page count', 'byHost' in r.pages ? r.pages.byHost : {}],
  ] as const;
  if (overrides.some(([, record]) => Object.keys(record).length > 0)) {
    const known = new Set(hosts.map((h) => h.host));
    for (const [what, record] of overrides) {
      for (const host of Object.keys(record)) {
        if (!known.has(host))
          warn('override-for-unknown-host', `${what} was given for ${host}, which is not the host of any seed.`, host);
      }
    }
  }

  // Per host, in host order.
  for (const h of hosts) {
    const capped = f.notes.get(h.host)?.capped;
    if (capped) {
      warn(
        'crawl-delay-capped',
        `Crawl-delay of ${formatSeconds(capped.declaredSeconds)} is above the ${formatSeconds(capped.capSeconds)} cap; planned at ${formatSeconds(capped.capSeconds)} (policy cap).`,
        h.host,
      );
    }
    if (h.skipped) {
      warn(
        'crawl-delay-host-skipped',
        `Crawl-delay of ${formatSeconds(h.crawlDelaySeconds ?? 0)} is above the ${formatSeconds(r.maxCrawlDelaySeconds)} cap; the host is skipped (policy skip) and its ${plural(h.pages, 'page')} are not planned.`,
        h.host,
      );
    } else if (h.intervalSource === 'latency' && h.intervalSeconds > 0) {
      // (With no interval at all, `zero-delay` says it.)
      warn(
        'latency-exceeds-interval',
        `Responses take ${formatSeconds(h.latencySeconds)}, longer than the ${formatSeconds(h.intervalSeconds)} interval: with requests measured start to start and ${plural(r.perHostConcurrency, 'request')} in flight, the host gets one page every ${formatSeconds(h.periodSeconds)} per lane, ${percent(h.intervalSeconds / h.periodSeconds)} of the configured rate.`,
        h.host,
      );
    }
  }

  // Hosts that share a server: a finding per group, largest first, the rest counted (docs/planning.md#shared-servers).
  for (const kind of ['address', 'domain'] as const) {
    const groups = (f.servers?.groups ?? []).filter((g) => g.kind === kind);
    const code = kind === 'address' ? 'shared-address' : 'shared-domain';
    for (const g of groups.slice(0, SHARED_GROUPS_WARNED)) warn(code, sharedGroupText(g, r.politenessBy));
    const rest = groups.slice(SHARED_GROUPS_WARNED);
    if (rest.length > 0)
      warn(
        code,
        moreGroupsText(
          kind,
          rest.length,
          rest.reduce((s, g) => s + g.hosts.length, 0),
        ),
      );
  }

  // The crawl as a whole, over the active hosts in one pass (100,000 hosts: no filtered or sorted copy):
  // how many have no interval, their time summed, and the two slowest (the first in host order on a tie).
  // A unit of several hosts is timed as one (docs/planning.md#politeness-units): its members are not compared alone.
  const grouped = new Set<string>();
  for (const m of f.units ?? []) for (const name of m.names) grouped.add(name);
  let zero = 0;
  let sum = 0;
  const best: { top?: Timed; next?: Timed } = {};
  const time = (t: Timed) => {
    sum += t.seconds;
    if (best.top === undefined || t.seconds > best.top.seconds) [best.top, best.next] = [t, best.top];
    else if (best.next === undefined || t.seconds > best.next.seconds) best.next = t;
  };
  for (const h of hosts) {
    if (!isActive(h)) continue;
    if (h.intervalSeconds === 0) zero++;
    if (h.unit !== undefined && grouped.has(h.unit)) continue;
    time(h);
  }
  for (const m of f.units ?? [])
    for (const u of m.plans) if (u.pages > 0) time({ host: u.unit, seconds: u.seconds, group: u });
  if (r.delaySeconds === 0) {
    warn(
      'zero-delay',
      `A delay of 0 s imposes no wait between requests to a host; it is not a licence for unbounded concurrency` +
        (zero > 0 ? ` (${plural(zero, 'host')} will be paced only by response time).` : '.'),
    );
  }
  if (r.perHostConcurrency > 1) {
    const c = r.perHostConcurrency;
    warn(
      'per-host-burst',
      `${c} requests in flight per host: each host can see ${c} requests at the same instant, a burst of ${c}× its configured rate. Keep 1 unless the server is known to absorb more.`,
    );
  }
  // A host whose pages are unknown has none planned, but none were given for it either: `pages-unknown` says so.
  const withoutPages = hosts.filter((h) => h.pages === 0 && h.pagesUnknown === undefined).length;
  if (withoutPages > 0) {
    warn(
      'hosts-without-pages',
      `${formatNumber(withoutPages)} of ${plural(hosts.length, 'host')} ${withoutPages === 1 ? 'gets' : 'get'} no pages: ` +
        ('byHost' in r.pages
          ? `no page count above 0 was given for ${withoutPages === 1 ? 'it' : 'them'}.`
          : 'the page total is smaller than the number of hosts.'),
    );
  }
  if (f.unknownHosts.length > 0) {
    const unknown = new Set(f.unknownHosts);
    const which = hosts.filter((h) => unknown.has(h.host));
    const n = which.length;
    const others = hosts.filter((h) => !h.skipped).length - n;
    warn(
      'pages-unknown',
      `${n === 1 ? "1 host's pages are" : `${formatNumber(n)} hosts' pages are`} unknown: ${unknownHostsText(which)}. ` +
        `${n === 1 ? 'It is' : 'They are'} left out of the plan: ` +
        (others === 0
          ? `it has nothing to crawl until ${n === 1 ? 'it has' : 'they have'} pages. `
          : `its total is a lower bound, for the other ${others === 1 ? 'host' : `${formatNumber(others)} hosts`} only. `) +
        `Give ${n === 1 ? 'it a number' : 'each a number'} of pages to plan ${n === 1 ? 'it' : 'them'}.`,
    );
  }
  if (hosts.length > 0 && hosts.every((h) => h.skipped)) {
    warn(
      'all-hosts-skipped',
      'Every host is skipped for its Crawl-delay: nothing is planned. Raise the cap or use the cap policy.',
    );
  }

  // Machines (one without sharding).
  const machineCount = f.byMachine.length;
  const sharded = r.machines !== null && machineCount > 1;
  const ceilingShort: string[] = [];
  const idleShort: string[] = [];
  let ceilingCount = 0;
  let idleCount = 0;
  f.byMachine.forEach((mine, m) => {
    // Per politeness unit: a host alone, or a unit of several with its own ceiling.
    let count = 0;
    let pagesPerSecond = 0;
    const unitsHere = f.units?.[m];
    for (const h of mine) {
      if (!isActive(h) || (h.unit !== undefined && unitsHere?.names.has(h.unit))) continue;
      count++;
      pagesPerSecond += h.pagesPerSecond;
    }
    for (const u of unitsHere?.plans ?? []) {
      if (u.pages === 0 || u.periodSeconds === 0) continue;
      count++;
      pagesPerSecond += r.perHostConcurrency / u.periodSeconds;
    }
    if (count === 0) return;
    const prefix = sharded ? `machine ${m}: ` : '';
    const ceiling = tidy(pagesPerSecond);
    if (r.rate !== null && r.rate > ceiling) {
      if (ceilingCount++ < MACHINES_SHOWN)
        ceilingShort.push(
          `${prefix}${formatNumber(ceiling, 3)} req/s over ${plural(count, grouped.size > 0 ? 'unit' : 'host')}`,
        );
    }
    // Only when the worker count was asked for: the default is no claim about the user's set-up.
    const inFlight = count * r.perHostConcurrency;
    if (f.input.workers !== undefined && r.workers > inFlight) {
      if (idleCount++ < MACHINES_SHOWN)
        idleShort.push(
          `${prefix}at most ${formatNumber(inFlight)} in flight with ${plural(count, grouped.size > 0 ? 'politeness unit' : 'host')} × ${r.perHostConcurrency} per ${grouped.size > 0 ? 'unit' : 'host'}, ${formatNumber(r.workers - inFlight)} idle`,
        );
    }
  });
  const listed = (items: string[], count: number) =>
    sharded
      ? ` on ${count} of ${machineCount} machines (${items.join('; ')}${count > items.length ? '; …' : ''})`
      : ` (${items[0]})`;
  if (ceilingShort.length > 0) {
    warn(
      'rate-exceeds-host-ceilings',
      `The target rate of ${formatNumber(r.rate ?? 0, 3)} req/s${sharded ? ' per machine' : ''} is above the sum of the per-host ceilings${listed(ceilingShort, ceilingCount)}; the crawl can never reach it.`,
    );
  }
  if (idleShort.length > 0) {
    warn(
      'workers-exceed-hosts',
      `${plural(r.workers, 'worker')}${sharded ? ' per machine' : ''}, more than can ever be busy${listed(idleShort, idleCount)}.`,
    );
  }

  // One host (or unit) dominating the makespan.
  const { top, next } = best;
  const isBinding = (t: Timed) => (f.bindingUnit ? t.group === f.bindingUnit : t === f.bindingHost);
  if (f.bindingHost !== null && top !== undefined && next !== undefined) {
    if (
      isBinding(top) &&
      top.seconds >= HOST_DOMINATES_SHARE * sum &&
      top.seconds >= HOST_DOMINATES_RATIO * next.seconds
    ) {
      warn(
        'host-dominates',
        `${top.host} takes ${percent(top.seconds / sum)} of all hosts' crawl time and ${formatNumber(top.seconds / next.seconds, 1)}× as long as the next host (${next.host}); the crawl ends when it does. More hosts or fewer pages from this one shorten the crawl.`,
        top.host,
      );
    }
  }

  if (f.sharding !== null && machineCount > 1 && f.sharding.imbalance >= SHARD_IMBALANCE_THRESHOLD) {
    const idle = f.sharding.perMachine.filter((m) => m.pages === 0).length;
    warn(
      'shard-imbalance',
      `The slowest of ${machineCount} machines takes ${formatNumber(f.sharding.imbalance, 2)}× the mean machine time (hosts are assigned by hash, not by size)` +
        (idle > 0 ? `; ${plural(idle, 'machine')} ${idle === 1 ? 'has' : 'have'} nothing to crawl.` : '.'),
    );
  }

  if (f.deadline !== null && !f.deadline.met) {
    warn(
      'deadline-unreachable',
      `The crawl takes ${formatDuration(f.totalSeconds)}, longer than the ${formatDuration(f.deadline.seconds)} deadline by ${formatDuration(-f.deadline.marginSeconds)}.`,
    );
  }
  return warnings;
}
