/**
 * The crawl plan engine: targets and per-host facts in, per-host intervals and durations, the makespan,
 * the binding constraint in words, warnings and sharding out. Pure; the CLI and the webview call the
 * same `plan()`.
 *
 * Timing convention (README.md): the first request starts at t = 0 and the crawl is done when
 * the last response has arrived. A host with n pages on one lane with period p therefore takes
 * (n − 1) × p + latency; the global rate allows its N requests in (N − 1) / rate + the shortest latency;
 * the worker slots, each held for a request's latency, need Σ pages × latency / workers.
 */
import { formatDuration, formatNumber, formatSeconds } from '../format/duration';
import { numberProblem, numberProblemText } from '../limits';
import { ADAPTIVE_FLOOR_SECONDS, effectiveInterval, type IntervalInput } from '../politeness/interval';
import { machineForHost } from './hash';
import { spreadPages } from './pages';
import {
  CRAWL_DELAY_CEILING_SECONDS,
  PLAN_DEFAULTS,
  PLAN_LIMITS,
  PlanInputError,
  type BindingConstraint,
  type Bounds,
  type DeadlineCheck,
  type HostPlan,
  type IntervalSource,
  type MachinePlan,
  type NumberLimit,
  type Plan,
  type PlanInput,
  type PlanProblem,
  type PlanWarning,
  type ResolvedPlanInput,
  type Sharding,
} from './types';

/** `host-dominates`: the host's time is at least this share of all hosts' time… */
export const HOST_DOMINATES_SHARE = 0.5;
/** …and at least this many times the next host's. */
export const HOST_DOMINATES_RATIO = 2;
/** `shard-imbalance`: the slowest machine takes at least this many times the mean. */
export const SHARD_IMBALANCE_THRESHOLD = 1.5;

/** Rounds float noise away (10 × 0.3 = 3.0000000000000004 → 3): 12 significant digits. Monotone. */
export function tidy(x: number): number {
  // Fast path (toPrecision is slow, and plan() calls this four times per host): a number that is already
  // the closest double to a decimal with at most 6 decimals and under 10⁶ has at most 12 significant
  // digits, so toPrecision(12) would give it back unchanged.
  if (x > -1e6 && x < 1e6 && Math.round(x * 1e6) / 1e6 === x) return x === 0 ? 0 : x;
  return x === 0 ? 0 : Number(x.toPrecision(12));
}

function ownValue(record: Readonly<Record<string, number>> | undefined, key: string): number | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

function lowerKeys(record: Readonly<Record<string, number>> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (record) for (const key of Object.keys(record)) out[key.trim().toLowerCase()] = record[key]!;
  return out;
}

/** A problem named by the PlanInput field: `workers: 0 must be at least 1`. */
function checkNumber(problems: PlanProblem[], field: string, value: unknown, limit: NumberLimit): void {
  if (value === undefined) return;
  const problem = numberProblem(value, limit);
  if (problem !== undefined) problems.push({ field, message: `${field}: ${numberProblemText(problem, String(value), limit)}` });
}

/** Every out-of-range field of `input`, or [] when `plan(input)` will accept it. */
export function validatePlanInput(input: PlanInput): PlanProblem[] {
  return problemsOf(input, () => groupHosts(input.seeds).size);
}

/** validatePlanInput, with the number of distinct seed hosts counted only when the input is a list. */
function problemsOf(input: PlanInput, countHosts: () => number): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (!Array.isArray(input.seeds)) return [{ field: 'seeds', message: 'seeds: must be a list' }];
  if (typeof input.pages !== 'object' || input.pages === null) {
    return [{ field: 'pages', message: 'pages: give a total or a number per host' }];
  }
  const hostCount = countHosts();
  if (hostCount === 0) problems.push({ field: 'seeds', message: 'seeds: no seed host to plan' });
  if ('perHost' in input.pages) {
    checkNumber(problems, 'pages.perHost', input.pages.perHost, PLAN_LIMITS.pages);
    if (problems.length === 0 && input.pages.perHost * hostCount > PLAN_LIMITS.pages.max) {
      problems.push({
        field: 'pages.perHost',
        message: `pages.perHost: ${formatNumber(input.pages.perHost)} × ${formatNumber(hostCount)} hosts is more than ${formatNumber(PLAN_LIMITS.pages.max)} pages`,
      });
    }
  } else {
    checkNumber(problems, 'pages.total', input.pages.total, PLAN_LIMITS.pages);
    if (input.pages.total === undefined) problems.push({ field: 'pages.total', message: 'pages: give a total or a number per host' });
  }
  checkNumber(problems, 'rate', input.rate, PLAN_LIMITS.rate);
  checkNumber(problems, 'workers', input.workers, PLAN_LIMITS.workers);
  checkNumber(problems, 'delaySeconds', input.delaySeconds, PLAN_LIMITS.delaySeconds);
  checkNumber(problems, 'latencySeconds', input.latencySeconds, PLAN_LIMITS.latencySeconds);
  checkNumber(problems, 'maxCrawlDelaySeconds', input.maxCrawlDelaySeconds, PLAN_LIMITS.maxCrawlDelaySeconds);
  checkNumber(problems, 'perHostConcurrency', input.perHostConcurrency, PLAN_LIMITS.perHostConcurrency);
  checkNumber(problems, 'machines', input.machines, PLAN_LIMITS.machines);
  checkNumber(problems, 'deadlineSeconds', input.deadlineSeconds, PLAN_LIMITS.deadlineSeconds);
  for (const [host, value] of Object.entries(input.latencyByHost ?? {})) {
    checkNumber(problems, `latencyByHost[${host}]`, value, PLAN_LIMITS.latencySeconds);
  }
  for (const [host, value] of Object.entries(input.crawlDelayByHost ?? {})) {
    // Crawl-delay comes from untrusted robots.txt files: anything finite and ≥ 0 is read (above the ceiling, as the ceiling).
    checkNumber(problems, `crawlDelayByHost[${host}]`, value, { min: 0, max: Number.MAX_VALUE });
  }
  if (input.delayFrom !== undefined && input.delayFrom !== 'start' && input.delayFrom !== 'end') {
    problems.push({ field: 'delayFrom', message: `delayFrom: "${String(input.delayFrom)}" must be start or end` });
  }
  const policy = input.crawlDelayPolicy;
  if (policy !== undefined && policy !== 'cap' && policy !== 'skip' && policy !== 'obey') {
    problems.push({ field: 'crawlDelayPolicy', message: `crawlDelayPolicy: "${String(policy)}" must be cap, skip or obey` });
  }
  return problems;
}

/** The input with defaults filled in. Does not validate. */
export function resolvePlanInput(input: PlanInput): ResolvedPlanInput {
  return {
    pages: 'perHost' in input.pages ? { perHost: input.pages.perHost } : { total: input.pages.total },
    rate: input.rate ?? null,
    workers: input.workers ?? PLAN_DEFAULTS.workers,
    delaySeconds: input.delaySeconds ?? PLAN_DEFAULTS.delaySeconds,
    delayFrom: input.delayFrom ?? PLAN_DEFAULTS.delayFrom,
    latencySeconds: input.latencySeconds ?? PLAN_DEFAULTS.latencySeconds,
    latencyByHost: lowerKeys(input.latencyByHost),
    crawlDelayByHost: lowerKeys(input.crawlDelayByHost),
    crawlDelayPolicy: input.crawlDelayPolicy ?? PLAN_DEFAULTS.crawlDelayPolicy,
    maxCrawlDelaySeconds: input.maxCrawlDelaySeconds ?? PLAN_DEFAULTS.maxCrawlDelaySeconds,
    adaptive: input.adaptive ?? PLAN_DEFAULTS.adaptive,
    perHostConcurrency: input.perHostConcurrency ?? PLAN_DEFAULTS.perHostConcurrency,
    machines: input.machines ?? null,
    deadlineSeconds: input.deadlineSeconds ?? null,
  };
}

/** Hosts (lower-cased) in first-seen order, each with how many seeds named it. */
function groupHosts(seeds: ReadonlyArray<{ host: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { host } of seeds) {
    const key = host.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

interface HostNotes {
  /** Set when a Crawl-delay above the cap was planned at the cap. */
  capped?: { declaredSeconds: number; capSeconds: number };
}

/** One host's interval, period, ceiling and duration under resolved settings. */
export function planHost(host: string, seeds: number, pages: number, r: ResolvedPlanInput): HostPlan {
  return planHostWithNotes(host, seeds, pages, r).plan;
}

function planHostWithNotes(host: string, seeds: number, pages: number, r: ResolvedPlanInput): { plan: HostPlan; notes: HostNotes } {
  const latency = ownValue(r.latencyByHost, host) ?? r.latencySeconds;
  const declared = ownValue(r.crawlDelayByHost, host);
  const crawlDelay = declared === undefined ? undefined : Math.min(declared, CRAWL_DELAY_CEILING_SECONDS);
  const intervalInput: IntervalInput = {
    configuredSeconds: r.delaySeconds,
    crawlDelayPolicy: r.crawlDelayPolicy,
    maxCrawlDelaySeconds: r.maxCrawlDelaySeconds,
    ...(crawlDelay === undefined ? {} : { crawlDelaySeconds: crawlDelay }),
    ...(r.adaptive ? { adaptiveLatencySeconds: latency } : {}),
  };
  const decision = effectiveInterval(intervalInput);
  // A skipped host shows what obeying its Crawl-delay would cost.
  const shown = decision.skipped ? effectiveInterval({ ...intervalInput, crawlDelayPolicy: 'obey' }) : decision;
  // Only the adaptive rule computes a number (10 × 0.3 = 3.0000000000000004); tidy it, but never below
  // the numbers it has to respect. Configured delays and Crawl-delays are kept exactly as given.
  const interval = shown.source === 'adaptive' ? Math.max(tidy(shown.seconds), r.delaySeconds, ADAPTIVE_FLOOR_SECONDS) : shown.seconds;
  const period = r.delayFrom === 'start' ? Math.max(interval, latency) : Math.max(tidy(latency + interval), interval, latency);
  const intervalSource: IntervalSource = r.delayFrom === 'start' && latency > interval ? 'latency' : shown.source;
  const lanes = r.perHostConcurrency;
  const lanePages = Math.ceil(pages / lanes);
  const plan: HostPlan = {
    host,
    seeds,
    pages,
    latencySeconds: latency,
    crawlDelaySeconds: crawlDelay ?? null,
    intervalSeconds: interval,
    intervalSource,
    politenessSource: shown.source,
    periodSeconds: period,
    pagesPerSecond: tidy(lanes / period),
    pagesPerHour: tidy((3600 * lanes) / period),
    pagesPerDay: tidy((86_400 * lanes) / period),
    seconds: pages === 0 ? 0 : tidy((lanePages - 1) * period + latency),
    skipped: decision.skipped,
  };
  const capped = decision.crawlDelayAboveCap && !decision.skipped ? decision.crawlDelayAboveCap : undefined;
  return { plan, notes: capped ? { capped } : {} };
}

function nearlyAtLeast(a: number, b: number): boolean {
  return a >= b - 1e-9 * Math.max(1, Math.abs(b));
}

const HOST_BINDING: Readonly<Record<IntervalSource, BindingConstraint>> = {
  configured: 'host-interval',
  'crawl-delay': 'crawl-delay',
  adaptive: 'adaptive',
  latency: 'latency',
};

interface Makespan {
  seconds: number;
  bindingConstraint: BindingConstraint;
  bindingHost: HostPlan | null;
  bounds: Bounds;
}

/**
 * One machine's makespan: the largest of three lower bounds (slowest host; global rate; worker slots).
 * On a tie the host is named (politeness is the reason), then the global rate, then the workers.
 */
function makespan(active: readonly HostPlan[], r: ResolvedPlanInput): Makespan {
  const n = active.reduce((sum, h) => sum + h.pages, 0);
  if (n === 0) {
    return {
      seconds: 0,
      bindingConstraint: 'none',
      bindingHost: null,
      bounds: { hostSeconds: 0, globalRateSeconds: r.rate === null ? null : 0, workersSeconds: 0 },
    };
  }
  let top = active[0]!;
  for (const h of active) if (h.seconds > top.seconds) top = h;
  const minLatency = active.reduce((min, h) => Math.min(min, h.latencySeconds), Number.POSITIVE_INFINITY);
  const globalRateSeconds = r.rate === null ? null : tidy((n - 1) / r.rate + minLatency);
  const workersSeconds = tidy(active.reduce((sum, h) => sum + h.pages * h.latencySeconds, 0) / r.workers);
  const bounds: Bounds = { hostSeconds: top.seconds, globalRateSeconds, workersSeconds };
  const seconds = Math.max(top.seconds, globalRateSeconds ?? 0, workersSeconds);
  if (nearlyAtLeast(top.seconds, seconds)) {
    return { seconds, bindingConstraint: HOST_BINDING[top.intervalSource], bindingHost: top, bounds };
  }
  if (globalRateSeconds !== null && nearlyAtLeast(globalRateSeconds, seconds)) {
    return { seconds, bindingConstraint: 'global-rate', bindingHost: null, bounds };
  }
  return { seconds, bindingConstraint: 'workers', bindingHost: null, bounds };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** Why a host gets the period it gets, in words. */
function hostReason(h: HostPlan, notes: HostNotes, r: ResolvedPlanInput): string {
  const interval = formatSeconds(h.intervalSeconds);
  let reason: string;
  switch (h.intervalSource) {
    case 'configured':
      reason = `the configured delay of ${interval}`;
      break;
    case 'crawl-delay':
      reason = notes.capped
        ? `its Crawl-delay of ${formatSeconds(notes.capped.declaredSeconds)}, capped at ${interval}`
        : `its Crawl-delay of ${interval}`;
      break;
    case 'adaptive':
      reason = `the adaptive delay max(1 s, 10 × ${formatSeconds(h.latencySeconds)} latency) = ${interval}`;
      break;
    case 'latency':
      if (h.intervalSeconds === 0) {
        return `its ${formatSeconds(h.latencySeconds)} response time alone (no delay), with ${plural(r.perHostConcurrency, 'request')} in flight per host,`;
      }
      return (
        `its ${formatSeconds(h.latencySeconds)} response time, longer than its ${interval} interval, with ` +
        `${plural(r.perHostConcurrency, 'request')} in flight per host (${percent(h.intervalSeconds / h.periodSeconds)} of the configured rate)`
      );
  }
  return r.delayFrom === 'end'
    ? `${reason}, measured from the end of each ${formatSeconds(h.latencySeconds)} response,`
    : `${reason}, measured from start to start,`;
}

function describe(
  m: Makespan,
  r: ResolvedPlanInput,
  notes: ReadonlyMap<string, HostNotes>,
  machine: { index: number; of: number } | null,
  n: number,
): string {
  const where = machine ? `On machine ${machine.index} (the slowest of ${machine.of}), ` : '';
  const cap = (s: string) => (where ? s : s.charAt(0).toUpperCase() + s.slice(1));
  const took = formatDuration(m.seconds);
  switch (m.bindingConstraint) {
    case 'none':
      return 'Nothing to crawl: every host with pages is skipped.';
    case 'global-rate':
      return (
        `${where}${cap('the')} global rate of ${formatNumber(r.rate ?? 0, 3)} req/s limits the crawl: ` +
        `${plural(n, 'page')} take ${took} at that rate, longer than any single host needs.`
      );
    case 'workers': {
      const mean = (m.bounds.workersSeconds * r.workers) / n;
      return (
        `${where}${cap('the')} ${plural(r.workers, 'worker')} ${r.workers === 1 ? 'limits' : 'limit'} the crawl: each request holds a worker for its ` +
        `response time (${formatSeconds(tidy(mean))} on average), so ${plural(n, 'page')} take ${took}.`
      );
    }
    default: {
      const h = m.bindingHost!;
      const lanes = r.perHostConcurrency > 1 ? ` on each of ${r.perHostConcurrency} lanes` : '';
      return (
        `${where}${h.host} limits the crawl: ${hostReason(h, notes.get(h.host) ?? {}, r)} gives one request every ${formatSeconds(h.periodSeconds)}${lanes} ` +
        `(${formatNumber(h.pagesPerHour, 1)} pages/h), so its ${plural(h.pages, 'page')} take ${took}.`
      );
    }
  }
}

/** Plans a crawl. Throws {@link PlanInputError} for input outside the limits (see `validatePlanInput`). */
export function plan(input: PlanInput): Plan {
  // Hosts are grouped once, for the checks and the plan (100,000 hosts: one Map, not three).
  let groups: Map<string, number> | undefined;
  const problems = problemsOf(input, () => (groups = groupHosts(input.seeds)).size);
  if (problems.length > 0 || groups === undefined) throw new PlanInputError(problems);
  const r = resolvePlanInput(input);
  const pages = spreadPages(r.pages, groups.size);
  // Notes only for the hosts that have one (a capped Crawl-delay): most hosts have none.
  const notes = new Map<string, HostNotes>();
  const hosts: HostPlan[] = new Array<HostPlan>(groups.size);
  let index = 0;
  for (const [host, seeds] of groups) {
    const planned = planHostWithNotes(host, seeds, pages[index]!, r);
    if (planned.notes.capped) notes.set(host, planned.notes);
    hosts[index++] = planned.plan;
  }
  groups = undefined;
  const machineCount = r.machines ?? 1;
  if (r.machines !== null) for (const h of hosts) h.machine = machineForHost(h.host, machineCount);

  const warnings: PlanWarning[] = [];
  const warn = (code: PlanWarning['code'], message: string, host?: string) =>
    warnings.push(host === undefined ? { code, message } : { code, message, host });

  // Overrides that match no seed host are most likely typos.
  const overrides = [['A latency', r.latencyByHost], ['A Crawl-delay', r.crawlDelayByHost]] as const;
  if (overrides.some(([, record]) => Object.keys(record).length > 0)) {
    const known = new Set(hosts.map((h) => h.host));
    for (const [what, record] of overrides) {
      for (const host of Object.keys(record)) {
        if (!known.has(host)) warn('override-for-unknown-host', `${what} was given for ${host}, which is not the host of any seed.`, host);
      }
    }
  }

  // Per host, in host order.
  for (const h of hosts) {
    const capped = notes.get(h.host)?.capped;
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

  const active = hosts.filter((h) => !h.skipped && h.pages > 0);
  if (r.delaySeconds === 0) {
    const zero = active.filter((h) => h.intervalSeconds === 0).length;
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
  const withoutPages = hosts.filter((h) => h.pages === 0).length;
  if (withoutPages > 0) {
    warn(
      'hosts-without-pages',
      `${formatNumber(withoutPages)} of ${plural(hosts.length, 'host')} ${withoutPages === 1 ? 'gets' : 'get'} no pages: the page total is smaller than the number of hosts.`,
    );
  }
  if (hosts.length > 0 && hosts.every((h) => h.skipped)) {
    warn('all-hosts-skipped', 'Every host is skipped for its Crawl-delay: nothing is planned. Raise the cap or use the cap policy.');
  }

  // Machines (one without sharding).
  const perMachine: MachinePlan[] = [];
  const spans: Makespan[] = [];
  const sharded = r.machines !== null && machineCount > 1;
  // Details are formatted for the first few machines only: a fleet can have 100,000 of them.
  const SHOWN = 3;
  const ceilingShort: string[] = [];
  const idleShort: string[] = [];
  let ceilingCount = 0;
  let idleCount = 0;
  let byMachine: HostPlan[][] = [hosts];
  if (machineCount > 1) {
    byMachine = Array.from({ length: machineCount }, () => []);
    for (const h of hosts) byMachine[h.machine!]!.push(h);
  }
  for (let m = 0; m < machineCount; m++) {
    const mine = byMachine[m]!;
    const mineActive = mine.filter((h) => !h.skipped && h.pages > 0);
    const span = makespan(mineActive, r);
    spans.push(span);
    perMachine.push({
      machine: m,
      hosts: mine.map((h) => h.host),
      pages: mineActive.reduce((s, h) => s + h.pages, 0),
      seconds: span.seconds,
      bindingConstraint: span.bindingConstraint,
      bindingHost: span.bindingHost?.host ?? null,
      bounds: span.bounds,
    });
    if (mineActive.length === 0) continue;
    const prefix = sharded ? `machine ${m}: ` : '';
    const ceiling = tidy(mineActive.reduce((s, h) => s + h.pagesPerSecond, 0));
    if (r.rate !== null && r.rate > ceiling) {
      if (ceilingCount++ < SHOWN) ceilingShort.push(`${prefix}${formatNumber(ceiling, 3)} req/s over ${plural(mineActive.length, 'host')}`);
    }
    // Only when the worker count was asked for: the default is no claim about the user's set-up.
    const inFlight = mineActive.length * r.perHostConcurrency;
    if (input.workers !== undefined && r.workers > inFlight) {
      if (idleCount++ < SHOWN) idleShort.push(`${prefix}at most ${formatNumber(inFlight)} in flight with ${plural(mineActive.length, 'host')} × ${r.perHostConcurrency} per host, ${formatNumber(r.workers - inFlight)} idle`);
    }
  }
  const listed = (items: string[], count: number) =>
    sharded ? ` on ${count} of ${machineCount} machines (${items.join('; ')}${count > items.length ? '; …' : ''})` : ` (${items[0]})`;
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

  let slowest = 0;
  for (let m = 1; m < machineCount; m++) if (spans[m]!.seconds > spans[slowest]!.seconds) slowest = m;
  const total = spans[slowest]!;
  const totalPages = active.reduce((s, h) => s + h.pages, 0);

  // One host dominating the makespan.
  if (total.bindingHost !== null && active.length >= 2) {
    const byTime = [...active].sort((a, b) => b.seconds - a.seconds);
    const top = byTime[0]!;
    const next = byTime[1]!;
    const sum = active.reduce((s, h) => s + h.seconds, 0);
    if (top === total.bindingHost && top.seconds >= HOST_DOMINATES_SHARE * sum && top.seconds >= HOST_DOMINATES_RATIO * next.seconds) {
      warn(
        'host-dominates',
        `${top.host} takes ${percent(top.seconds / sum)} of all hosts' crawl time and ${formatNumber(top.seconds / next.seconds, 1)}× as long as the next host (${next.host}); the crawl ends when it does. More hosts or fewer pages from this one shorten the crawl.`,
        top.host,
      );
    }
  }

  let sharding: Sharding | null = null;
  if (r.machines !== null) {
    const mean = perMachine.reduce((s, m) => s + m.seconds, 0) / machineCount;
    const meanPages = perMachine.reduce((s, m) => s + m.pages, 0) / machineCount;
    const imbalance = mean > 0 ? tidy(total.seconds / mean) : 1;
    const maxPages = perMachine.reduce((max, m) => Math.max(max, m.pages), 0);
    const pagesImbalance = meanPages > 0 ? tidy(maxPages / meanPages) : 1;
    sharding = { machines: machineCount, hash: 'fnv1a-32', perMachine, imbalance, pagesImbalance };
    if (machineCount > 1 && imbalance >= SHARD_IMBALANCE_THRESHOLD) {
      const idle = perMachine.filter((m) => m.pages === 0).length;
      warn(
        'shard-imbalance',
        `The slowest of ${machineCount} machines takes ${formatNumber(imbalance, 2)}× the mean machine time (hosts are assigned by hash, not by size)` +
          (idle > 0 ? `; ${plural(idle, 'machine')} ${idle === 1 ? 'has' : 'have'} nothing to crawl.` : '.'),
      );
    }
  }

  let deadline: DeadlineCheck | null = null;
  if (r.deadlineSeconds !== null) {
    const margin = tidy(r.deadlineSeconds - total.seconds);
    deadline = { seconds: r.deadlineSeconds, met: margin >= 0, marginSeconds: margin };
    if (margin < 0) {
      warn(
        'deadline-unreachable',
        `The crawl takes ${formatDuration(total.seconds)}, longer than the ${formatDuration(r.deadlineSeconds)} deadline by ${formatDuration(-margin)}.`,
      );
    }
  }

  const machineNote = r.machines !== null && machineCount > 1 ? { index: slowest, of: machineCount } : null;
  return {
    input: r,
    totalSeconds: total.seconds,
    totalPages,
    skippedPages: hosts.filter((h) => h.skipped).reduce((s, h) => s + h.pages, 0),
    bindingConstraint: total.bindingConstraint,
    bindingHost: total.bindingHost?.host ?? null,
    bindingMachine: r.machines !== null ? slowest : null,
    bindingDescription: describe(total, r, notes, machineNote, perMachine[slowest]!.pages),
    perWorkerDelaySeconds: r.rate === null ? null : tidy(r.workers / r.rate),
    bounds: total.bounds,
    hosts,
    warnings,
    deadline,
    sharding,
  };
}
