/**
 * The deadline solver (docs/planning.md#what-meets-the-deadline): with a deadline, what each host
 * can give by it, the earliest finish possible at all, and what meets it: capping or dropping the hosts
 * that make it impossible, or else the workers, the global rate or the machines it would take.
 *
 * It copies none of the plan's formulas. A host's pages by the deadline come from the plan's own
 * per-host duration (planHost), and every option is checked by re-planning the input with the option's
 * change (applyPlanChange, then plan() itself, passed in as `replan`) before it is offered. Numbers the
 * plan reports (a host's ceiling, the bounds) only seed the searches, so the options stay right when the
 * plan's maths change.
 */
import { calibrationMatcher } from '../calibrate/match';
import type { HostCalibration } from '../calibrate/types';
import { formatDuration, formatNumber } from '../format/duration';
import { plural } from '../format/text';
import { planHost, tidy } from './host';
import { groupHosts, lowerKeys } from './input';
import { unitTimeline } from './unitPlan';
import { spreadPages } from './pages';
import type { Overhead } from './timing';
import {
  PLAN_LIMITS,
  PlanInputError,
  type Bounds,
  type DeadlineCheck,
  type DeadlineOption,
  type DeadlineOptionKind,
  type DeadlineVerdict,
  type HostPlan,
  type PagesTarget,
  type Plan,
  type PlanChange,
  type PlanInput,
  type ResolvedPlanInput,
  type UnitPlan,
} from './types';

/** plan() itself (plan.ts calls the solver, so the solver is handed plan() rather than importing it). */
export type Replan = (input: PlanInput) => Plan;

/** A plan input with its own kind of seeds (the CLI's carry URLs), kept through a change. */
export type PlanInputOf<S extends { host: string }> = Omit<PlanInput, 'seeds'> & { seeds: readonly S[] };

/**
 * The input with `change` applied: the plan an option stands for is `plan(applyPlanChange(input,
 * change))`. Every host the change does not name keeps the pages it had: a total is pinned to each host's
 * share of it (as spreadPages gives it) before hosts are capped or dropped, so dropping a host does not
 * spread its share over the others. A dropped host's seeds, page count, latency and Crawl-delay are
 * removed. Hosts are matched without regard to case.
 */
export function applyPlanChange<S extends { host: string }>(input: PlanInputOf<S>, change: PlanChange): PlanInputOf<S> {
  const drop = new Set((change.dropHosts ?? []).map((h) => h.trim().toLowerCase()));
  const caps = lowerKeys(change.pagesByHost);
  const out: PlanInputOf<S> = { ...input };
  if (drop.size > 0 || Object.keys(caps).length > 0) {
    out.pages = pagesAfter(input.pages, input.seeds, caps, drop);
    if (drop.size > 0) {
      out.seeds = input.seeds.filter((s) => !drop.has(s.host.toLowerCase()));
      if (input.latencyByHost !== undefined) out.latencyByHost = without(input.latencyByHost, drop);
      if (input.crawlDelayByHost !== undefined) out.crawlDelayByHost = without(input.crawlDelayByHost, drop);
    }
  }
  if (change.workers !== undefined) out.workers = change.workers;
  if (change.rate !== undefined) out.rate = change.rate;
  if (change.machines !== undefined) out.machines = change.machines;
  return out;
}

function without(record: Readonly<Record<string, number>>, drop: ReadonlySet<string>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).filter(([host]) => !drop.has(host.trim().toLowerCase())));
}

/**
 * The page target with `caps` set and `drop` removed, every other host keeping its pages: a host whose pages are
 * unknown stays unknown (a cap gives it a number; a drop removes it).
 */
function pagesAfter(
  pages: PagesTarget,
  seeds: ReadonlyArray<{ host: string }>,
  caps: Readonly<Record<string, number>>,
  drop: ReadonlySet<string>,
): PagesTarget {
  if ('byHost' in pages) {
    const byHost = lowerKeys(pages.byHost);
    for (const [host, n] of Object.entries(caps)) byHost[host] = n;
    for (const host of drop) delete byHost[host];
    const out: PagesTarget = { byHost, ...(pages.otherwise !== undefined ? { otherwise: pages.otherwise } : {}) };
    if (pages.unknown !== undefined) {
      const unknown = lowerKeys(pages.unknown);
      for (const host of drop) delete unknown[host];
      out.unknown = unknown;
    }
    return out;
  }
  let otherwise: number;
  const byHost: Record<string, number> = {};
  if ('perHost' in pages) {
    if (Object.keys(caps).length === 0) return pages;
    otherwise = pages.perHost;
  } else {
    // Each host's share of the total, pinned: the last host has the base share, the first few one more.
    const hosts = [...groupHosts(seeds).keys()];
    const shares = spreadPages(pages, hosts.length);
    otherwise = shares[shares.length - 1] ?? 0;
    hosts.forEach((host, i) => {
      if (shares[i] !== otherwise) byHost[host] = shares[i]!;
    });
  }
  for (const [host, n] of Object.entries(caps)) byHost[host] = n;
  for (const host of drop) delete byHost[host];
  return { byHost, otherwise };
}

/**
 * The most pages `h` can give within `deadlineSeconds` at its own interval: the largest n for which the
 * plan's per-host duration is within the deadline (never more than the plan's page limit). The host's
 * ceiling gives the first guess; planHost decides, with the host's calibration and the overhead the plan
 * used (both as plan() gives them; none: the typed values and REQUEST_OVERHEAD).
 */
export function pagesByDeadline(
  h: HostPlan,
  r: ResolvedPlanInput,
  deadlineSeconds: number,
  calibration?: HostCalibration,
  overhead?: Overhead,
): number {
  const max = PLAN_LIMITS.pages.max;
  const fits = (n: number) =>
    n <= 0 || (n <= max && planHost(h.host, h.seeds, n, r, calibration, overhead).seconds <= deadlineSeconds);
  return largestFitting(Math.floor(deadlineSeconds * h.pagesPerSecond), max, fits);
}

/**
 * The largest n in [0, max] with fits(n), fits being monotone (true up to some n, false above) and true at 0:
 * galloping from `guess`, then halved.
 */
function largestFitting(guessed: number, max: number, fits: (n: number) => boolean): number {
  // fits(lo) and !fits(hi), found by galloping from the guess, then halved.
  let lo: number;
  let hi: number;
  const guess = Math.max(0, Math.min(max, guessed));
  let step = 1;
  if (fits(guess)) {
    lo = guess;
    hi = Math.min(max + 1, lo + step);
    while (fits(hi)) {
      lo = hi;
      step *= 2;
      hi = Math.min(max + 1, lo + step);
    }
  } else {
    hi = guess;
    lo = Math.max(0, hi - step);
    while (!fits(lo)) {
      hi = lo;
      step *= 2;
      lo = Math.max(0, hi - step);
    }
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The pages each member of a unit of several hosts gives by the deadline (docs/planning.md#politeness-units):
 * its planned pages scaled by one factor for the whole unit, the largest for which the unit's time
 * (unitTimeline, at the unit's interval) is within the deadline. The member with the most pages gets n, each
 * other ⌊n × its pages / the most⌋. Members without pages (or skipped) give 0.
 */
export function unitPagesByDeadline(
  unit: UnitPlan,
  members: readonly HostPlan[],
  r: ResolvedPlanInput,
  deadlineSeconds: number,
  calibrationOf: (host: string) => HostCalibration | undefined,
  overhead: Overhead,
): Record<string, number> {
  const active = members.filter((h) => !h.skipped && h.pages > 0);
  const most = active.reduce((m, h) => Math.max(m, h.pages), 0);
  const out: Record<string, number> = {};
  for (const h of members) if (!h.skipped) out[h.host] = 0;
  if (most === 0) return out;
  const share = (h: HostPlan, n: number) => (h.pages === most ? n : Math.floor((n * h.pages) / most));
  const max = Math.floor(PLAN_LIMITS.pages.max / active.length);
  const fits = (n: number) =>
    n <= 0 ||
    (n <= max &&
      unitTimeline(
        active.map((plan) => ({ plan, pages: share(plan, n) })),
        unit.intervalSeconds,
        r,
        calibrationOf,
        overhead,
      ).seconds <= deadlineSeconds);
  const guess = unit.seconds > 0 ? Math.floor((most * deadlineSeconds) / unit.seconds) : most;
  const n = largestFitting(guess, max, fits);
  for (const h of active) out[h.host] = share(h, n);
  return out;
}

/**
 * The deadline part of a plan: plan() has decided `verdict` for `base` (made from `input`); this adds
 * the earliest finish, the blocking hosts, each host's pages by the deadline and, when the deadline is
 * missed, the options. A deadline that is met gets no options.
 */
export function solveDeadline(input: PlanInput, base: Plan, verdict: DeadlineVerdict, replan: Replan): DeadlineCheck {
  const deadline = verdict.seconds;
  // A unit of several hosts is timed as one (docs/planning.md#politeness-units): its members are not alone.
  const grouped = new Map(base.units.map((u) => [u.unit, u]));
  const inUnit = (h: HostPlan) => h.unit !== undefined && grouped.has(h.unit);
  const active = base.hosts.filter((h) => !h.skipped && h.pages > 0);
  const alone = grouped.size === 0 ? active : active.filter((h) => !inUnit(h));
  const units = base.units.filter((u) => u.pages > 0);
  const earliest = Math.max(
    alone.reduce((max, h) => Math.max(max, h.seconds), 0),
    units.reduce((max, u) => Math.max(max, u.seconds), 0),
  );
  const slowUnits = new Set(units.filter((u) => u.seconds > deadline).map((u) => u.unit));
  const blocking = active.filter((h) => (inUnit(h) ? slowUnits.has(h.unit!) : h.seconds > deadline));
  const pagesByHost: Record<string, number> = {};
  const calibrationOf = calibrationMatcher(base.input.calibration);
  for (const h of base.hosts)
    if (!h.skipped && !inUnit(h))
      pagesByHost[h.host] = pagesByDeadline(h, base.input, deadline, calibrationOf(h.host), base.overhead);
  if (grouped.size > 0) {
    const byName = new Map(base.hosts.map((h) => [h.host, h]));
    for (const u of base.units) {
      const members = u.hosts.map((host) => byName.get(host)!);
      Object.assign(pagesByHost, unitPagesByDeadline(u, members, base.input, deadline, calibrationOf, base.overhead));
    }
  }
  const check: DeadlineCheck = {
    ...verdict,
    earliestSeconds: earliest,
    blockingHosts: blocking.map((h) => h.host),
    pagesByHost,
    options: [],
  };
  if (verdict.met) return check;
  const solver = new Solver(input, base, deadline, replan);
  check.options = blocking.length > 0 ? solver.cuts(blocking, pagesByHost) : solver.capacity();
  return check;
}

/** A ladder of values a lever may take, so that options read 23 workers or 11.6 req/s. */
interface Grid {
  /** The smallest value on the grid ≥ x. */
  up(x: number): number;
  /** The smallest value on the grid > v. */
  next(v: number): number;
  /** The largest value on the grid < v. */
  below(v: number): number;
}

const WHOLE: Grid = {
  up: (x) => Math.ceil(x - 1e-9),
  next: (v) => Math.floor(v + 1e-9) + 1,
  below: (v) => Math.ceil(v - 1e-9) - 1,
};

/** Three significant digits (a grid step is at least 0.1% of the value). */
const SIGNIFICANT: Grid = {
  up: (x) => {
    const unit = 10 ** (Math.floor(Math.log10(x)) - 2);
    return tidy(Math.ceil(x / unit - 1e-9) * unit);
  },
  next: (v) => SIGNIFICANT.up(v * (1 + 1e-6)),
  below: (v) => {
    const x = v * (1 - 1e-6);
    const unit = 10 ** (Math.floor(Math.log10(x)) - 2);
    return tidy(Math.floor(x / unit + 1e-9) * unit);
  },
};

type Lever = 'workers' | 'rate' | 'machines';

const LEVER_GRID: Readonly<Record<Lever, Grid>> = { workers: WHOLE, rate: SIGNIFICANT, machines: WHOLE };

/** The bounds of every machine (the one machine without sharding). */
function machineBounds(p: Plan): Bounds[] {
  return p.sharding !== null ? p.sharding.perMachine.map((m) => m.bounds) : [p.bounds];
}

function worstBound(p: Plan, key: 'globalRateSeconds' | 'workersSeconds'): number {
  return machineBounds(p).reduce((max, b) => Math.max(max, b[key] ?? 0), 0);
}

/** The machines searched at most: this many per host with pages. */
const MACHINES_PER_HOST = 64;

/** The searches re-plan at most this many times per lever before giving up on it. */
const MAX_REPLANS_PER_LEVER = 64;

/** One search for options: the input without its deadline, re-planned with each change tried. */
class Solver {
  private readonly bare: PlanInput;

  constructor(
    input: PlanInput,
    private readonly base: Plan,
    private readonly deadline: number,
    private readonly replan: Replan,
  ) {
    this.bare = { ...input };
    delete this.bare.deadlineSeconds;
  }

  /** The plan with `change`, or null when the plan refuses it (a value beyond the limits, no host left). */
  private tryPlan(change: PlanChange): Plan | null {
    try {
      return this.replan(applyPlanChange(this.bare, change));
    } catch (err) {
      if (err instanceof PlanInputError) return null;
      throw err;
    }
  }

  /** Hosts too slow alone: cap each at what it gives by the deadline, or drop them. */
  cuts(blocking: readonly HostPlan[], pagesByHost: Readonly<Record<string, number>>): DeadlineOption[] {
    const hosts = blocking.map((h) => h.host);
    const options: DeadlineOption[] = [];
    // A host that cannot give a single page by the deadline is capped at 0: dropping says the same.
    if (blocking.some((h) => pagesByHost[h.host]! > 0)) {
      const cap = this.withCapacity({ pagesByHost: Object.fromEntries(hosts.map((h) => [h, pagesByHost[h]!])) });
      if (cap) options.push(this.option('cap', hosts, cap.change, cap.plan));
    }
    const drop = this.withCapacity({ dropHosts: hosts });
    if (drop && drop.plan.totalPages > 0) options.push(this.option('drop', hosts, drop.change, drop.plan));
    return options;
  }

  /** No host is too slow alone: the workers or the rate it would take, and the machines. */
  capacity(): DeadlineOption[] {
    const options: DeadlineOption[] = [];
    const more = this.throughput({}, this.base);
    if (more)
      options.push(this.option(more.change.workers !== undefined ? 'workers' : 'rate', [], more.change, more.plan));
    const machines = this.machines();
    if (machines) options.push(this.option('machines', [], machines.change, machines.plan));
    return options;
  }

  /** `cut`, with the workers or rate it still needs. */
  private withCapacity(cut: PlanChange): { change: PlanChange; plan: Plan } | null {
    const p = this.tryPlan(cut);
    if (p === null) return null;
    return p.totalSeconds <= this.deadline ? { change: cut, plan: p } : this.throughput(cut, p);
  }

  /** `change` plus the least rate and the fewest workers that bring their bounds within the deadline. */
  private throughput(change: PlanChange, p: Plan): { change: PlanChange; plan: Plan } | null {
    let current = { change, plan: p };
    for (const [lever, key] of [
      ['rate', 'globalRateSeconds'],
      ['workers', 'workersSeconds'],
    ] as const) {
      if (worstBound(current.plan, key) <= this.deadline) continue;
      const found = this.least(lever, current.change, current.plan, (q) => worstBound(q, key) <= this.deadline);
      if (found === null) return null;
      current = found;
    }
    return current.plan.totalSeconds <= this.deadline ? current : null;
  }

  private machines(): { change: PlanChange; plan: Plan } | null {
    return this.least('machines', {}, this.base, (q) => q.totalSeconds <= this.deadline);
  }

  /**
   * `change` with the least value of `lever` (on its grid, within its limit) for which the plan meets
   * `meets`, and that plan; or null. `current` is the plan with `change` and the lever as it is, which
   * does not meet it. The first guess reads the bound as a + b / value (from the bound at the value and
   * at twice it); then re-plans decide: galloping up until one meets, then halving down to the least.
   * Hosts go to machines by hash, so for machines the guess is an even split, the search goes no higher
   * than {@link MACHINES_PER_HOST} per host (tried once the guess has been doubled twice: when that many
   * do not meet it, the search stops), and the count found meets the deadline though a smaller one may too.
   */
  private least(
    lever: Lever,
    change: PlanChange,
    current: Plan,
    meets: (p: Plan) => boolean,
  ): { change: PlanChange; plan: Plan } | null {
    const grid = LEVER_GRID[lever];
    const active = current.hosts.filter((h) => !h.skipped && h.pages > 0).length;
    const limit =
      lever === 'machines' ? Math.min(PLAN_LIMITS.machines.max, MACHINES_PER_HOST * active) : PLAN_LIMITS[lever].max;
    const now =
      lever === 'rate'
        ? current.input.rate
        : lever === 'workers'
          ? current.input.workers
          : (current.input.machines ?? 1);
    if (now === null || now >= limit) return null;
    const tried = new Map<number, Plan | null>();
    const planWith = (v: number): Plan | null => {
      if (!tried.has(v)) tried.set(v, this.tryPlan({ ...change, [lever]: v }));
      return tried.get(v)!;
    };
    const test = (v: number): boolean => {
      const q = planWith(v);
      return q !== null && meets(q);
    };
    const b1 =
      lever === 'machines'
        ? current.totalSeconds
        : worstBound(current, lever === 'rate' ? 'globalRateSeconds' : 'workersSeconds');
    let guess: number;
    if (lever === 'machines') {
      guess = (now * b1) / this.deadline;
    } else {
      const twice = Math.min(limit, grid.up(now * 2));
      const q2 = planWith(twice);
      const b2 = q2 === null ? b1 : worstBound(q2, lever === 'rate' ? 'globalRateSeconds' : 'workersSeconds');
      const b = b2 < b1 ? (b1 - b2) / (1 / now - 1 / twice) : 0;
      const a = b1 - b / now;
      guess = b > 0 && this.deadline > a ? b / (this.deadline - a) : twice;
    }

    let lo = now; // does not meet
    let hi = Math.min(limit, Math.max(grid.up(guess), grid.next(now)));
    let doublings = 0;
    while (!test(hi)) {
      if (hi >= limit || tried.size >= MAX_REPLANS_PER_LEVER) return null;
      lo = hi;
      hi = Math.min(limit, grid.up(hi * 2));
      if (lever === 'machines' && ++doublings === 2 && hi < limit && !test(limit)) return null;
    }
    const below = grid.below(hi);
    if (below > lo && test(below)) {
      hi = below;
      while (tried.size < MAX_REPLANS_PER_LEVER) {
        let mid = grid.up((lo + hi) / 2);
        if (mid >= hi) mid = grid.next(lo);
        if (mid >= hi || mid <= lo) break;
        if (test(mid)) hi = mid;
        else lo = mid;
      }
    }
    return { change: { ...change, [lever]: hi }, plan: planWith(hi)! };
  }

  private option(kind: DeadlineOptionKind, hosts: string[], change: PlanChange, p: Plan): DeadlineOption {
    return {
      kind,
      hosts,
      pages: p.totalPages,
      totalSeconds: p.totalSeconds,
      text: `${describeChange(kind, change, this.base)}: ${plural(p.totalPages, 'page')} in ${formatDuration(p.totalSeconds)}.`,
      change,
      cli: cliChange(change, this.base),
    };
  }
}

/** How many hosts a sentence names before "and N more". */
const HOSTS_NAMED = 3;

function hostList(items: string[]): string {
  const shown = items.slice(0, HOSTS_NAMED).join('; ');
  return items.length > HOSTS_NAMED ? `${shown}; and ${formatNumber(items.length - HOSTS_NAMED)} more` : shown;
}

function rateText(rate: number): string {
  return `${formatNumber(rate, 6)} req/s`;
}

/** The option's change in words, against the plan it changes. */
function describeChange(kind: DeadlineOptionKind, change: PlanChange, base: Plan): string {
  const r = base.input;
  const pagesOf = new Map(base.hosts.map((h) => [h.host, h.pages] as const));
  const perMachine = r.machines !== null ? ' per machine' : '';
  let text: string;
  switch (kind) {
    case 'cap': {
      const caps = Object.entries(change.pagesByHost ?? {});
      text =
        caps.length === 1
          ? `Cap ${caps[0]![0]} at ${plural(caps[0]![1], 'page')} (of ${formatNumber(pagesOf.get(caps[0]![0]) ?? 0)})`
          : `Cap ${formatNumber(caps.length)} hosts at the pages each gives by the deadline (` +
            `${hostList(caps.map(([h, n]) => `${h} ${formatNumber(n)} of ${formatNumber(pagesOf.get(h) ?? 0)}`))})`;
      break;
    }
    case 'drop': {
      const hosts = change.dropHosts ?? [];
      const lost = hosts.reduce((sum, h) => sum + (pagesOf.get(h) ?? 0), 0);
      text =
        hosts.length === 1
          ? `Drop ${hosts[0]} (${plural(lost, 'page')})`
          : `Drop ${formatNumber(hosts.length)} hosts (${hostList(hosts)}: ${plural(lost, 'page')})`;
      break;
    }
    case 'workers':
      text = `Raise the workers from ${formatNumber(r.workers)} to ${formatNumber(change.workers!)}${perMachine}`;
      if (change.rate !== undefined)
        text += ` and the global rate from ${rateText(r.rate ?? 0)} to ${rateText(change.rate)}${perMachine}`;
      return text;
    case 'rate':
      return `Raise the global rate from ${rateText(r.rate ?? 0)} to ${rateText(change.rate!)}${perMachine}`;
    case 'machines':
      return (
        (r.machines !== null
          ? `Shard over ${formatNumber(change.machines!)} machines instead of ${formatNumber(r.machines)}`
          : `Shard the hosts over ${formatNumber(change.machines!)} machines`) +
        `, each with ${plural(r.workers, 'worker')}${r.rate !== null ? ` at ${rateText(r.rate)}` : ''}`
      );
  }
  const more: string[] = [];
  if (change.workers !== undefined)
    more.push(`${plural(change.workers, 'worker')}${perMachine} (now ${formatNumber(r.workers)})`);
  if (change.rate !== undefined)
    more.push(`a global rate of ${rateText(change.rate)}${perMachine} (now ${rateText(r.rate ?? 0)})`);
  return more.length > 0 ? `${text}, with ${more.join(' and ')}` : text;
}

/**
 * The change as `crawl-planner estimate` options (docs/cli.md §What meets the deadline). A cap is
 * `--pages-for HOST=N`. With `--pages N` (a total, which `--pages-for` does not go with) or
 * `--pages-per-host N`, every host's pages are given: the count most hosts have as `--pages-per-host`
 * (kept when it does not change), the others as `--pages-for`, so that capping every host reads
 * `--pages-per-host N`.
 */
export function cliChange(change: PlanChange, base: Plan): { add: string[]; remove: string[] } {
  const add: string[] = [];
  const remove: string[] = [];
  const caps = change.pagesByHost ?? {};
  if (Object.keys(caps).length > 0) {
    let pagesFor: Record<string, number> = caps;
    const target = base.input.pages;
    if (!('byHost' in target)) {
      const pages = new Map(base.hosts.map((h) => [h.host, h.pages] as const));
      for (const [host, n] of Object.entries(caps)) pages.set(host, n);
      // The count most hosts have (at least 1, the least --pages-per-host takes); the first on a tie.
      const counts = new Map<number, number>();
      for (const n of pages.values()) counts.set(n, (counts.get(n) ?? 0) + 1);
      let common = 1;
      let most = 0;
      for (const [n, count] of counts) if (n >= 1 && count > most) [common, most] = [n, count];
      if ('total' in target || common !== target.perHost) {
        remove.push('total' in target ? '--pages' : '--pages-per-host');
        add.push('--pages-per-host', String(common));
      }
      pagesFor = Object.fromEntries([...pages].filter(([, n]) => n !== common));
    }
    for (const [host, n] of Object.entries(pagesFor)) add.push('--pages-for', `${host}=${n}`);
  }
  for (const host of change.dropHosts ?? []) add.push('--drop-host', host);
  if (change.workers !== undefined) add.push('--workers', String(change.workers));
  if (change.rate !== undefined) add.push('--rate', String(change.rate));
  if (change.machines !== undefined) add.push('--machines', String(change.machines));
  return { add, remove };
}
