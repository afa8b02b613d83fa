/**
 * The crawl plan's data: what goes in (targets and per-host facts) and what comes out (per-host
 * intervals and durations, the makespan, the binding constraint, warnings, sharding). Plain data with
 * string-literal codes so that the CLI, the webview and the JSON document all read the same thing.
 */
import type { Calibration } from '../calibrate/types';
import type { NumberLimit } from '../limits';
import type { CrawlDelayPolicy, DelayFrom, IntervalSource } from '../politeness/interval';
import { PACING_DEFAULTS, PACING_LIMITS } from '../politeness/pacing';
import type { SharedServers } from './sharedServers';
import type { PolitenessBy } from '../servers/units';
import type { CalendarInput, PlanCalendar } from './calendar';

export type { CrawlDelayPolicy, DelayFrom, IntervalSource, NumberLimit };

/**
 * Why a host's pages are not known: its sitemaps could not be read (every one failed after its retries, its
 * robots.txt was unreachable, it asked to wait longer than the cap, it has none) and no number was given for it.
 * Such a host is planned with no pages and left out of every total, which then covers the other hosts only
 * (`Plan.complete` is false).
 */
export interface PagesUnknown {
  /**
   * Why, as a stable code: the sitemaps error that decided it (`http-status`, `fetch-failed`, `retry-after`,
   * `robots-unreachable`, `no-sitemap`, `disallowed`, …; docs/formats.md §The sitemaps document), or `not-read`.
   */
  code: string;
  /** Why, in one line for people: "429: the sitemap was not served; 3 attempts". */
  reason: string;
}

/**
 * How many pages: a total spread evenly over the hosts, the same number for every host, or a number per
 * host (keyed by host, e.g. counted from its sitemaps). A host `byHost` does not name gets `otherwise` when it
 * is given; else, when `unknown` names it, its pages are unknown (its sizing failed: see {@link PagesUnknown});
 * else 0. `hostPages` (pages.ts) is that rule.
 */
export type PagesTarget =
  | { total: number }
  | { perHost: number }
  | {
      byHost: Readonly<Record<string, number>>;
      otherwise?: number;
      unknown?: Readonly<Record<string, PagesUnknown>>;
    };

export interface PlanInput {
  /**
   * The seeds (e.g. `validateSeeds(...).seeds`): `host` is planned (hosts keep first-seen order), and `url`,
   * when given, is kept as the plan's `seedUrls`.
   */
  seeds: ReadonlyArray<{ host: string; url?: string }>;
  pages: PagesTarget;
  /** Target request rate in requests per second, per machine. Undefined: no global rate limit. */
  rate?: number;
  /** Global slots (requests in flight at once), per machine. Default {@link PLAN_DEFAULTS}.workers. */
  workers?: number;
  /** The configured per-host delay in seconds. Default {@link PLAN_DEFAULTS}.delaySeconds. */
  delaySeconds?: number;
  /** How the delay is measured: `start` (start to start, default) or `end` (end of response to next start). */
  delayFrom?: DelayFrom;
  /** Expected response time in seconds for every host. Default {@link PLAN_DEFAULTS}.latencySeconds. */
  latencySeconds?: number;
  /** Per-host response time overrides, keyed by host (lower-case, with a non-default port). */
  latencyByHost?: Readonly<Record<string, number>>;
  /**
   * Known Crawl-delay per host in seconds (from robots.txt or given by hand). Any finite value ≥ 0 is
   * accepted; values above {@link CRAWL_DELAY_CEILING_SECONDS} are read as that ceiling.
   */
  crawlDelayByHost?: Readonly<Record<string, number>>;
  /** What to do with a Crawl-delay above `maxCrawlDelaySeconds`. Default `cap`. */
  crawlDelayPolicy?: CrawlDelayPolicy;
  /** The Crawl-delay cap for the `cap` and `skip` policies. Default {@link PLAN_DEFAULTS}.maxCrawlDelaySeconds. */
  maxCrawlDelaySeconds?: number;
  /** Apply the adaptive rule max(1 s, 10 × latency) as a floor on each host's interval. Default false. */
  adaptive?: boolean;
  /** Requests in flight per host. Default 1; more is allowed and warned about (`per-host-burst`). */
  perHostConcurrency?: number;
  /** Shard the hosts over this many machines by FNV-1a of the host. Undefined: no sharding section. */
  machines?: number;
  /** A deadline for the whole crawl in seconds; a plan over it warns `deadline-unreachable`. */
  deadlineSeconds?: number;
  /** Body bytes per page on the wire for hosts a calibration did not measure (`--page-size`); absent: unknown. */
  pageSizeBytes?: number;
  /**
   * What a test crawl measured (calibrationFromReport, src/core/calibrate): for each host it saw, the plan
   * takes its answer times, its faults and its Crawl-delay from here instead of the typed values (a
   * `latencyByHost` given for the host still wins; Crawl-delays are merged by max). Hosts it did not see
   * keep the typed values.
   */
  calibration?: Calibration;
  /**
   * Each seed host's addresses (canonical IP texts), when they were looked up or given by `--resolve`
   * (docs/planning.md#shared-servers): hosts on one address get a `shared-address` finding. Undefined: the
   * addresses were not checked. A host left out (or with none) did not resolve; IP-literal seeds are their own.
   */
  addressesByHost?: Readonly<Record<string, readonly string[]>>;
  /** Why a host did not resolve (the lookup's error), for hosts left out of `addressesByHost`. */
  unresolvedHosts?: Readonly<Record<string, string>>;
  /**
   * The politeness unit (docs/how-it-works.md#politeness-units): `host` (the default) plans each host apart;
   * `ip` and `domain` make each group of `addressesByHost` or of one registered domain one unit, with one
   * request in flight and the largest of its members' intervals.
   */
  politenessBy?: PolitenessBy;
  /**
   * Crawl windows, their time zone and the plan's start (docs/planning.md#crawl-windows): the plan then gives
   * the calendar finish, and a deadline is calendar time (the solver plans against the crawl time it leaves).
   */
  calendar?: CalendarInput;
}

/** The input with every default filled in, as the plan used it. */
export interface ResolvedPlanInput {
  /**
   * The target as planned: with `byHost`, `otherwise` is a number, and `unknown` holds only the hosts whose
   * pages are unknown by `hostPages` (absent when none is).
   */
  pages: PagesTarget;
  rate: number | null;
  workers: number;
  delaySeconds: number;
  delayFrom: DelayFrom;
  latencySeconds: number;
  latencyByHost: Record<string, number>;
  crawlDelayByHost: Record<string, number>;
  crawlDelayPolicy: CrawlDelayPolicy;
  maxCrawlDelaySeconds: number;
  adaptive: boolean;
  perHostConcurrency: number;
  machines: number | null;
  deadlineSeconds: number | null;
  /** Body bytes per page for hosts the calibration did not measure; null: none given. */
  pageSizeBytes: number | null;
  /** The calibration, or null (it is not part of the estimate document's `settings`: see `calibration` there). */
  calibration: Calibration | null;
  /** The politeness unit the plan kept (docs/planning.md#politeness-units); `host` by default. */
  politenessBy: PolitenessBy;
}

/**
 * What the plan assumes for what the input leaves out: the pacing defaults every crawl shares
 * (PACING_DEFAULTS; `workers` is its `concurrency`) and the one number only a plan needs, the response time.
 */
export const PLAN_DEFAULTS = {
  workers: PACING_DEFAULTS.concurrency,
  delaySeconds: PACING_DEFAULTS.delaySeconds,
  delayFrom: PACING_DEFAULTS.delayFrom,
  latencySeconds: 0.5,
  crawlDelayPolicy: PACING_DEFAULTS.crawlDelayPolicy,
  maxCrawlDelaySeconds: PACING_DEFAULTS.maxCrawlDelaySeconds,
  adaptive: PACING_DEFAULTS.adaptive,
  perHostConcurrency: PACING_DEFAULTS.perHostConcurrency,
} as const;

/** The sane range of every number the plan takes. Outside it the input is refused. */
export const PLAN_LIMITS = {
  pages: { min: 1, max: 1e12, integer: true },
  rate: { min: 0, minExclusive: true, max: 1e6 },
  workers: { min: 1, max: 1e6, integer: true },
  delaySeconds: PACING_LIMITS.delaySeconds,
  latencySeconds: { min: 0, minExclusive: true, max: 3_600 },
  crawlDelaySeconds: { min: 0, max: 1e7 },
  maxCrawlDelaySeconds: PACING_LIMITS.maxCrawlDelaySeconds,
  perHostConcurrency: { min: 1, max: 1_000, integer: true },
  machines: { min: 1, max: 100_000, integer: true },
  deadlineSeconds: { min: 0, minExclusive: true, max: 1e10 },
  /** 1 byte to 10 GB per page. */
  pageSizeBytes: { min: 1, max: 1e10 },
} as const satisfies Record<string, NumberLimit>;

/** Crawl-delay values above this (about 116 days) are read as this. */
export const CRAWL_DELAY_CEILING_SECONDS = PLAN_LIMITS.crawlDelaySeconds.max;

/** Where a host's bytes per page came from. */
export type BytesSource = 'calibrated' | 'page-size';

/** What the plan transfers (transfer.ts): body bytes on the wire, headers excluded. */
export interface PlanTransfer {
  /** Σ hosts' bytes over the planned hosts whose page size is known; null when none is. */
  bytes: number | null;
  /** Σ bytesPerPage × pagesPerSecond over those hosts: every host at its own rate at once; null when none is known. */
  peakBytesPerSecond: number | null;
  /** Planned hosts (with pages, not skipped) whose page size is unknown: not in `bytes`. */
  unknownHosts: string[];
}

export interface HostPlan {
  host: string;
  /** How many seed URLs named this host. */
  seeds: number;
  pages: number;
  latencySeconds: number;
  /** The Crawl-delay known for this host (after the ceiling), or null. */
  crawlDelaySeconds: number | null;
  /** The politeness interval: max(configured delay, Crawl-delay under the policy, adaptive). */
  intervalSeconds: number;
  /** What sets the period: where the interval came from, or `latency` when the response time is longer. */
  intervalSource: IntervalSource;
  /** Where the interval number itself came from (never `latency`). */
  politenessSource: Exclude<IntervalSource, 'latency'>;
  /** Seconds between request starts on one lane: max(interval, latency) for `start`, latency + interval for `end`. */
  periodSeconds: number;
  /** The host's ceiling: 1 / period × per-host concurrency. */
  pagesPerSecond: number;
  pagesPerHour: number;
  pagesPerDay: number;
  /**
   * Time for this host alone, from its robots.txt request (t = 0) to its last answer:
   * firstPageSeconds + (⌈pages / concurrency⌉ − 1) × stepSeconds + latency + the overhead after an answer,
   * plus faultSeconds; 0 for no pages.
   */
  seconds: number;
  /** When its first page starts: the gap after its robots.txt request (docs/planning.md#per-host). */
  firstPageSeconds: number;
  /** The mean gap between two page starts on one lane: the period plus the per-request overhead, over the measured answer times when calibrated. */
  stepSeconds: number;
  /** What the faults add (429 and 503 pauses, raised intervals, retries); 0 without a calibration or faults. */
  faultSeconds: number;
  /** Requests the host gets: its robots.txt, its pages, the retries the faults cost and nonPageRequests. */
  requests: number;
  /** Requests that fetch no page (redirects, at the share per page a test crawl met); 0 without a calibration. */
  nonPageRequests: number;
  /** The answer time's 50th and 90th percentiles when a test crawl measured them, else null. */
  latencyP50Seconds: number | null;
  latencyP90Seconds: number | null;
  /** Which inputs came from the calibration: `latency`, `faults`, `crawl-delay` (empty when none). */
  calibrated: readonly CalibratedInput[];
  /** Body bytes per page on the wire (transfer.ts): the test crawl's mean, else `pageSizeBytes`; null: unknown. */
  bytesPerPage: number | null;
  /** Where `bytesPerPage` came from: `calibrated` (a test crawl measured it), `page-size` (typed); null: unknown. */
  bytesSource: BytesSource | null;
  /** pages × bytesPerPage, rounded; null when either is unknown. */
  bytes: number | null;
  /**
   * True when the host's Crawl-delay is above the cap under the `skip` policy. Its numbers then show
   * what obeying the Crawl-delay would cost; it is left out of every total.
   */
  skipped: boolean;
  /** The machine this host is sharded to (only when sharding). */
  machine?: number;
  /**
   * Only when the host's pages are unknown (a sizing could not read them and none was given): why. Its `pages`
   * is then 0 in the plan (it is in no total) and `null` in the estimate document.
   */
  pagesUnknown?: PagesUnknown;
  /**
   * The politeness unit the host is in (docs/planning.md#politeness-units): set on every host under
   * `politenessBy` `ip` or `domain` (the host itself for a unit of one), absent under `host`, where each host is
   * its own unit. The host's other figures are its own, as if alone; a unit of two or more hosts is planned in
   * `Plan.units`.
   */
  unit?: string;
}

/**
 * A politeness unit of two or more hosts (docs/planning.md#politeness-units): one queue, `perHostConcurrency`
 * requests in flight for the whole unit, at the largest of its members' intervals, its members' requests one
 * after another.
 */
export interface UnitPlan {
  /** The unit's name: the shared address(es) joined by "+", or the registered domain. */
  unit: string;
  /** Its members, in host order. */
  hosts: string[];
  /** Its members' pages (skipped members not counted). */
  pages: number;
  /** Its members' requests at the unit's interval: each one's robots.txt, its pages and its retries. */
  requests: number;
  /** The largest of its active members' intervals (each its own Crawl-delay, adaptive, the configured delay). */
  intervalSeconds: number;
  /** The member whose interval that is (the first on a tie); null when no member has pages. */
  intervalHost: string | null;
  /** What sets that member's period (its `intervalSource`). */
  intervalSource: IntervalSource;
  /** Seconds between request starts on one of the unit's lanes (that member's period). */
  periodSeconds: number;
  /** The unit's ceiling: perHostConcurrency / period, per hour. */
  pagesPerHour: number;
  /** The unit's time: its members' requests one after another at its interval, from t = 0 to the last answer. */
  seconds: number;
  /** What the members' faults add at the unit's interval (0 without a calibration). */
  faultSeconds: number;
  /** The machine the unit is sharded to (only when sharding): every member's. */
  machine?: number;
}

/** An input of a host's plan that came from a test crawl's report. */
export type CalibratedInput = 'latency' | 'faults' | 'crawl-delay';

/** What limits the crawl. Host-level constraints name the host that sets the makespan. */
export type BindingConstraint =
  'host-interval' | 'crawl-delay' | 'adaptive' | 'latency' | 'global-rate' | 'workers' | 'none';

/** Stable warning codes. */
export type PlanWarningCode =
  | 'rate-exceeds-host-ceilings'
  | 'per-host-burst'
  | 'crawl-delay-capped'
  | 'crawl-delay-host-skipped'
  | 'host-dominates'
  | 'zero-delay'
  | 'deadline-unreachable'
  | 'latency-exceeds-interval'
  | 'workers-exceed-hosts'
  | 'hosts-without-pages'
  | 'all-hosts-skipped'
  | 'shard-imbalance'
  | 'override-for-unknown-host'
  | 'pages-unknown'
  | 'shared-address'
  | 'shared-domain';

export interface PlanWarning {
  code: PlanWarningCode;
  message: string;
  /** The host it is about, when it is about one. */
  host?: string;
}

/** The three lower bounds on one machine's makespan; the makespan is their maximum. */
export interface Bounds {
  /** The slowest host alone. */
  hostSeconds: number;
  /** (N − 1) / rate + the shortest latency, N the requests (robots.txt and retries included), or null without a rate. */
  globalRateSeconds: number | null;
  /** Σ requests × latency / workers: every request (robots.txt included) holds a slot for its latency. */
  workersSeconds: number;
}

export interface MachinePlan {
  /** fnv1a32(host) mod machines; 0-based. */
  machine: number;
  hosts: string[];
  /** Pages planned on this machine (skipped hosts not counted). */
  pages: number;
  seconds: number;
  bindingConstraint: BindingConstraint;
  bindingHost: string | null;
  /** The politeness unit that sets the machine's makespan (`bindingHost` for a unit of one), or null. */
  bindingUnit: string | null;
  bounds: Bounds;
}

export interface Sharding {
  machines: number;
  /** The hash that assigns hosts: always `fnv1a-32` (of the host's UTF-8 bytes) mod machines. */
  hash: 'fnv1a-32';
  perMachine: MachinePlan[];
  /** Slowest machine's makespan / mean makespan over all machines (1 when perfectly even, or nothing to do). */
  imbalance: number;
  /** Most pages on one machine / mean pages per machine. */
  pagesImbalance: number;
}

/** Whether the plan meets its deadline: what plan() decides before it looks for options. */
export interface DeadlineVerdict {
  seconds: number;
  met: boolean;
  /** deadline − total: negative when the deadline is missed. */
  marginSeconds: number;
}

/**
 * A change to the plan's input that a deadline option stands for. `applyPlanChange(input, change)`
 * (deadline.ts) applies it; re-planning the result gives the option's plan. Every host the change does
 * not name keeps the pages it had.
 */
export interface PlanChange {
  /** Pages for these hosts (a cap), keyed by host. */
  pagesByHost?: Record<string, number>;
  /** Hosts left out of the plan: their seeds are removed. */
  dropHosts?: string[];
  workers?: number;
  rate?: number;
  machines?: number;
}

/** `cap` and `drop` cut the hosts that make the deadline impossible; the others add capacity. */
export type DeadlineOptionKind = 'cap' | 'drop' | 'workers' | 'rate' | 'machines';

/** One way to meet the deadline, checked by re-planning with its change. */
export interface DeadlineOption {
  kind: DeadlineOptionKind;
  /** The hosts it caps or drops; empty for workers, rate and machines. */
  hosts: string[];
  /** Pages planned with the change. */
  pages: number;
  /** The plan's total with the change: never more than the deadline. */
  totalSeconds: number;
  /** The option in words. */
  text: string;
  /** What to apply to the plan's input. */
  change: PlanChange;
  /** The same change as `crawl-planner estimate` options: remove the options in `remove`, then add `add`. */
  cli: { add: string[]; remove: string[] };
}

export interface DeadlineCheck extends DeadlineVerdict {
  /** The earliest finish possible at all: the slowest host alone at its own interval (the politeness bound). */
  earliestSeconds: number;
  /** The hosts that alone take longer than the deadline: no workers, machines or rate help them. */
  blockingHosts: string[];
  /** The most pages each host (not skipped) can give by the deadline at its own interval. */
  pagesByHost: Record<string, number>;
  /** What meets the deadline; empty when it is met (nothing to change) or when nothing can. */
  options: DeadlineOption[];
}

export interface Plan {
  input: ResolvedPlanInput;
  /**
   * The seed URLs planned, in input order, each once (the seeds' `url`s; empty when the input gave hosts
   * only): what `crawl --plan` crawls (docs/formats.md#the-estimate-document-estimate---json).
   */
  seedUrls: string[];
  /** The makespan: first request at t = 0, done when the last response has arrived. */
  totalSeconds: number;
  /** Pages planned (skipped hosts not counted). */
  totalPages: number;
  /** Pages of skipped hosts. */
  skippedPages: number;
  /**
   * False when some planned (not skipped) host's pages are unknown (`unknownHosts`): every total, the time, the
   * pages, the bounds, the machines and the deadline's verdict, then covers the other hosts only, a lower bound.
   */
  complete: boolean;
  /** The planned (not skipped) hosts whose pages are unknown (`HostPlan.pagesUnknown`), in host order. */
  unknownHosts: string[];
  bindingConstraint: BindingConstraint;
  /** The host that sets the makespan; in a unit of several hosts, the member whose interval the unit keeps. */
  bindingHost: string | null;
  /** The politeness unit that sets the makespan (the host itself under `host`), or null. */
  bindingUnit: string | null;
  /** The slowest machine when sharding, else null. */
  bindingMachine: number | null;
  /** One or two sentences saying what limits the crawl. */
  bindingDescription: string;
  /** workers / rate: the pause each worker keeps between its own requests to hold the global rate; null without a rate. */
  perWorkerDelaySeconds: number | null;
  /** The bounds of the machine that sets the total (the only machine without sharding). */
  bounds: Bounds;
  /**
   * The crawl's own time per request the plan counted (docs/planning.md#per-host): REQUEST_OVERHEAD, or
   * (`measured`) the means a calibration's test crawl measured.
   */
  overhead: { afterIntervalSeconds: number; afterResponseSeconds: number; measured: boolean };
  hosts: HostPlan[];
  warnings: PlanWarning[];
  deadline: DeadlineCheck | null;
  sharding: Sharding | null;
  /** Hosts on one address or in one registered domain (docs/planning.md#shared-servers). */
  sharedServers: SharedServers;
  /** With crawl windows: the finish on the calendar (calendar.ts); null without them. */
  calendar: PlanCalendar | null;
  /** The politeness units of two or more hosts, in host order (empty under `host`: docs/planning.md#politeness-units). */
  units: UnitPlan[];
  /** What the crawl transfers: bytes on the wire and the peak rate (transfer.ts). */
  transfer: PlanTransfer;
}

/** A field of the input that is out of range; `field` names the PlanInput property. */
export interface PlanProblem {
  field: string;
  message: string;
}

/** Thrown by `plan()` for input outside {@link PLAN_LIMITS}; `validatePlanInput` returns the same problems. */
export class PlanInputError extends Error {
  override readonly name = 'PlanInputError';
  constructor(readonly problems: PlanProblem[]) {
    super(problems.map((p) => p.message).join('; '));
  }
}
