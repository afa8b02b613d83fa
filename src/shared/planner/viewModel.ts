/**
 * What the planner webview shows, as the extension sends it: the settings, the plan in a few lines, robots.txt,
 * sitemaps, seeds files, a finished crawl, calibration and simulation (docs/extension.md). Plain data.
 */
import type { ChartModel, HostRowText } from '../../core/format/planSummary';
import {
  type DelayFrom,
  type CrawlDelayPolicy,
  type IntervalSource,
  type BindingConstraint,
  type PlanProblem,
  type PlanWarningCode,
} from '../../core/plan';
import type { CrawlSummary, NotFollowed } from '../../core/crawl/events';
import type { RobotsOutcome, RobotsVerdict } from '../../core/robots/explain';
import type { SitemapErrorCode, SitemapHostReport } from '../../core/sitemaps/sizing';
import type { DeadlineOptionKind } from '../../core/plan/types';
import type { InvalidSeed, SeedNote, SeedNoteCode } from '../../core/seeds';
import { formatNumber } from '../../core/format/duration';
import { numberProblem, rangeText } from '../../core/limits';
import { SIMULATION_DEFAULTS, SIMULATION_LIMITS } from '../../core/simulate/options';
import type { Simulation } from '../../core/simulate/types';
import type { CalibrationRowText } from '../../core/format/calibrationText';
import { isRecord, unknownKeys } from '../messageChecks';

/**
 * The settings the planner view reads (part of `crawlPlanner.*`, with the names the extension's settings
 * object gives them), shown as placeholders and used for empty fields.
 */
export interface PlannerViewSettings {
  /** The crawler's product token ([a-zA-Z_-]+). */
  userAgent: string;
  /** `crawlPlanner.defaultDelay`. */
  defaultDelaySeconds: number;
  delayFrom: DelayFrom;
  /** `crawlPlanner.maxCrawlDelay`. */
  maxCrawlDelaySeconds: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  /** The page cap of a test crawl. */
  maxPages: number;
}

/** The plan in a few lines (src/core/format/planSummary.ts): what the sidebar shows of it. */
export interface PlanSummaryView {
  /** "11 d 13 h 47 m for 1,000,000 pages over 2 hosts" */
  totalText: string;
  totalSeconds: number;
  totalPages: number;
  hostCount: number;
  bindingConstraint: BindingConstraint;
  /** What limits the crawl, in words. */
  bindingDescription: string;
  /** The first warnings; `warningCount` has them all. */
  warnings: Array<{ code: PlanWarningCode; host?: string; text: string }>;
  warningCount: number;
  chart: ChartModel;
  /** The first rows of the host table: hosts alike grouped, the binding row first; `groupCount` has them all. */
  groups: SummaryRow[];
  groupCount: number;
  /** Hosts that share a server (the plan's sharedServers, with the findings' words). */
  sharedServers: SharedServersView;
}

/** One group of seed hosts on one address or in one registered domain, as the sidebar shows it. */
export interface SharedGroupView {
  kind: 'address' | 'domain';
  /** The shared addresses, or the registered domain. */
  key: string;
  /** "3 hosts on 127.0.0.5 (loopback)" */
  heading: string;
  /** The first member hosts; `hostCount` has them all. */
  hosts: string[];
  hostCount: number;
  /** The finding's sentence (shared-address or shared-domain). */
  text: string;
  /** Every shared address is a CDN edge: the finding says grouping there would be too cautious. */
  cdn: boolean;
}

/** What the sidebar shows of the plan's sharedServers. */
export interface SharedServersView {
  /** Whether the seed hosts' addresses were looked up ("Check shared servers"); else only domains were grouped. */
  addressesChecked: boolean;
  /** The first groups, largest first (address groups, then domain groups); `groupCount` has them all. */
  groups: SharedGroupView[];
  groupCount: number;
  /** The first hosts whose addresses could not be found, with why; `unresolvedCount` has them all. */
  unresolved: Array<{ host: string; reason: string }>;
  unresolvedCount: number;
}

/** Where "Check shared servers" stands: off, looking the seed hosts up, done, or failed. */
export type ServersState =
  | { state: 'off' }
  | { state: 'loading'; hosts: number; done: number }
  | {
      state: 'done';
      /** Seed hosts looked up (or given by crawlPlanner.resolve), and how many of them have addresses. */
      hosts: number;
      resolved: number;
      /** `crawlPlanner.resolve` entries that were ignored, each naming the entry. */
      settingProblems: string[];
    }
  | { state: 'error'; message: string };

/** A row of the sidebar's host table: the text, and the numbers it sorts by. */
export interface SummaryRow extends HostRowText {
  sort: { pages: number; intervalSeconds: number; pagesPerHour: number; seconds: number };
}

/** Seed notes of one kind: how many, and the first few. */
export interface SeedNoteGroupView {
  code: SeedNoteCode;
  count: number;
  notes: SeedNote[];
}

/** Where the current seeds stand against the last robots.txt check (for its cards and status line). */
export interface RobotsCoverageView {
  /** Seed origins the check did not cover (new seeds, or origins over the per-check limit). */
  unchecked: number;
  /** Checked origins that are no longer seed origins. */
  stale: string[];
  /** The plan's interval for each checked origin's host, and what set it. */
  intervals: Array<{ origin: string; intervalSeconds: number; source: IntervalSource }>;
}

/** The plan for the current form and seeds, computed by the extension from `src/core/plan`. */
export interface PlanResultView {
  /** The plan in a few lines, or null when there is nothing to plan (no valid seed, no pages, a value out of range). */
  summary: PlanSummaryView | null;
  /** Why there is no plan (field + message), from `validatePlanInput`, the seeds and the form. */
  problems: PlanProblem[];
  /** Usable seed URLs. */
  validSeeds: number;
  /** The first invalid seed lines (line, text, reason, message); `invalidSeedCount` has them all. */
  invalidSeeds: InvalidSeed[];
  invalidSeedCount: number;
  /** What the seed lines hide, by kind (credentials, IP literals, local addresses, invisible characters). */
  seedNotes: SeedNoteGroupView[];
  /** Seeds that repeat an earlier seed's URL. */
  duplicateSeeds: number;
  /** The first distinct origins of the valid seeds, first-seen order; `originCount` has them all (`findOrigins` searches them). */
  origins: string[];
  originCount: number;
  /** Hosts whose interval was fed a Crawl-delay from robots.txt. */
  crawlDelayHosts: string[];
  /** The seeds against the last robots.txt check; null without one. */
  robots: RobotsCoverageView | null;
  /** What the plan took from a test crawl; null: typed values only. */
  calibration: CalibrationView | null;
  /** The first distinct seed hosts (the rows of the pages by host), first-seen order; `seedHostCount` has them all. */
  seedHosts: string[];
  seedHostCount: number;
  /** Hosts of the form's `pagesByHost` that are not seed hosts (left out of the plan), the first few. */
  pagesForOtherHosts: string[];
  /** Seed hosts left out of the plan (a deadline's drop option; `restoreHosts` plans them again), the first few; `droppedCount` has them all. */
  dropped: string[];
  droppedCount: number;
  /** The deadline and what meets it, when the form has a deadline and there is a plan. */
  deadline: DeadlineView | null;
}

/** One way to meet a missed deadline (the plan's `deadline.options[i]`), for a button that applies it. */
export interface DeadlineOptionView {
  kind: DeadlineOptionKind;
  /** "Drop a.example (4,000 pages): 6,000 pages in 1 h 40 m." */
  text: string;
  pages: number;
  totalSeconds: number;
  /** The hosts it caps or drops, the first few; `hostCount` has them all. */
  hosts: string[];
  hostCount: number;
}

/** The plan's deadline (`plan.deadline`) in words, and its options. */
export interface DeadlineView {
  /** Numbers the plan the options belong to: `applyDeadlineOption` names it, and an older plan's option is refused. */
  plan: number;
  seconds: number;
  met: boolean;
  /** "2 d, missed by 3 h 2 m" or "2 d, met with 5 h to spare". */
  verdict: string;
  /** "Earliest finish possible: 1 d 2 h, a.example alone at its own interval (the politeness bound)." */
  earliest: string;
  /** What can help, in a sentence (only when missed). */
  blocking?: string;
  /** The hosts too slow alone, the first few; `blockingCount` has them all. */
  blockingHosts: string[];
  blockingCount: number;
  /** Empty when met, or when nothing within the plan's limits meets it. */
  options: DeadlineOptionView[];
}

/** What the sidebar shows of a sitemap sizing (src/core/sitemaps/sizing.ts: SitemapSizing), per host. */
export interface SitemapHostView {
  host: string;
  /** Distinct URLs on this host that robots.txt allows. */
  urls: number;
  disallowed: number;
  /** URLs on other hosts (not counted). */
  otherHostUrls: number;
  /** Sitemap files read. */
  files: number;
  source: SitemapHostReport['source'];
  intervalSeconds: number;
  lastmod: {
    newest: string | null;
    oldest: string | null;
    last7d: number;
    last30d: number;
    last365d: number;
    undated: number;
  };
  /** URLs whose lastmod is on or after the sizing's `changedSince`; null without it. */
  changedSince: number | null;
  /**
   * The pages the form gives this host after the sizing: its URLs (or those changed since), or, when its sitemaps
   * could not be read, a number it already had (its own, or the one for the other hosts); null: none, so its
   * pages are unknown and the plan leaves it out.
   */
  pages: number | null;
  /** Why the sizing gave no count for this host (`PagesUnknown` of src/core/plan/types.ts); null: it was counted. */
  unknown: { code: string; reason: string } | null;
  /** The first errors (code, the sitemap's URL, one line); `errorCount` has them all. */
  errors: Array<{ code: SitemapErrorCode; url: string | null; message: string }>;
  errorCount: number;
}

export interface SitemapsView {
  /** The product token robots.txt was read for. */
  userAgent: string;
  /** ISO 8601 of "changed since" (a recrawl), or null. */
  changedSince: string | null;
  /** False when a cap on the run was reached: the counts are lower bounds. */
  complete: boolean;
  requests: number;
  hosts: SitemapHostView[];
  /** Seed origins left out (more than the planner sizes at once). */
  omittedOrigins: number;
}

/** Where the sitemap sizing stands. */
export type SitemapsState =
  | { state: 'off' }
  | { state: 'loading'; origins: number; files: number; urls: number }
  | { state: 'done'; sitemaps: SitemapsView }
  | { state: 'error'; message: string };

/** A seeds file the planner reads (the seeds' source instead of the box). */
export interface SeedFileView {
  /** The file for people: its path in the workspace, or its full path. */
  label: string;
  bytes: number;
  /** Seed lines (blank and comment lines not counted). */
  seedLines: number;
  /** The first seed lines as written (invisible characters escaped, long lines cut). */
  firstLines: string[];
  /** Why it cannot be planned now (being read, gone, unreadable, too long); the file stays the source. */
  problem?: string;
  /** True while it is read. */
  loading?: boolean;
}

/** Where the seeds come from: the box (its text, kept by the extension) or a file. */
export type SeedsView = { source: 'text'; text: string } | { source: 'file'; file: SeedFileView };

export type { RobotsOutcome, RobotsVerdict };

export interface RobotsOriginView {
  origin: string;
  robotsUrl: string;
  outcome: RobotsOutcome;
  /** The HTTP status of the last response, when there was one. */
  status?: number;
  /** The Crawl-delay that applies to our user agent, as declared, and the robots.txt line it came from. */
  crawlDelaySeconds?: number;
  crawlDelayLine?: number;
  effectiveIntervalSeconds: number;
  intervalSource: IntervalSource | string;
  /** The first sitemaps; `sitemapCount` has them all. */
  sitemaps: string[];
  sitemapCount: number;
  /** The group that applies to our user agent: its first line and user agents. */
  group?: { line: number; userAgents: string[] };
  findingCount: number;
  /** The `not-text` finding's message, when the file does not look like text (a binary file, a non-text Content-Type). */
  notText?: string;
  /** One line for people: what happened. */
  reason: string;
}

export interface RobotsSeedView {
  url: string;
  origin: string;
  verdict: RobotsVerdict;
  /** The deciding line (1-based) and its text as written, e.g. 3 and "Disallow: /private". */
  line?: number;
  rule?: string;
  reason: string;
}

export interface RobotsView {
  /** The user agent the files were read for. */
  userAgent: string;
  origins: RobotsOriginView[];
  results: RobotsSeedView[];
  /** Origins left out because there were more than the planner checks at once. */
  omittedOrigins: number;
}

/** Where the robots.txt step stands. */
export type RobotsState =
  | { state: 'off' }
  | { state: 'loading'; origins: number }
  | { state: 'done'; robots: RobotsView }
  | { state: 'error'; message: string };

/** The last test crawl's outcome, for the sidebar: how it ended and what it did not follow. */
export interface CrawlResultView {
  /** The run's name ("test crawl: demo hosts"). */
  name: string;
  endReason: CrawlSummary['endReason'];
  exitCode: number;
  pages: number;
  /** Requests, robots.txt included. */
  requests: number;
  elapsedSeconds: number;
  /** URLs met and not requested, by reason, with their hosts (see CrawlSummary.notFollowed). */
  notFollowed: NotFollowed[];
}

/** The view of a finished crawl's summary. */
export function toCrawlResultView(name: string, exitCode: number, summary: CrawlSummary): CrawlResultView {
  return {
    name,
    endReason: summary.endReason,
    exitCode,
    pages: summary.pages,
    requests: summary.requests,
    elapsedSeconds: summary.elapsedSeconds,
    notFollowed: summary.notFollowed.map((r) => ({ ...r, hosts: r.hosts.map((h) => ({ ...h })) })),
  };
}

// ---------------------------------------------------------------------------------------------
// Calibration and simulation (docs/extension.md §Calibration and simulation)

/** Measured hosts posted with a calibration at most (the plan report and Copy plan as JSON have them all). */
export const MAX_CALIBRATION_HOSTS_POSTED = 50;

/** One host a test crawl measured, as text: the CLI's table's cells and what the plan took (src/core/format/calibrationText.ts). */
export type CalibrationHostView = CalibrationRowText;

/** What the plan takes from a test crawl, when it does. */
export interface CalibrationView {
  /** `crawl`: the last test crawl in this window; `file`: a report file chosen. */
  source: 'crawl' | 'file';
  /** The crawl's name ("test crawl: demo hosts") or the file's path. */
  label: string;
  /** "a test crawl of 60 pages, 67 requests in 41 s" */
  headline: string;
  /** The first measured hosts; `hostCount` has them all. */
  hosts: CalibrationHostView[];
  hostCount: number;
  /** Planned hosts that keep the typed values (the report did not measure them): the first few, and how many. */
  unseenHosts: string[];
  unseenCount: number;
}

/** Where calibration stands: the test crawl the planner can use, and where the plan's measurements come from now. */
export interface CalibrationState {
  /** The last test crawl in this window with something to calibrate from, or null. */
  crawl: { name: string; pages: number; requests: number } | null;
  /** The last test crawl, a report file, or nothing (the typed values only). What the plan took is in `PlanResultView.calibration`. */
  using: CalibrationView['source'] | null;
}

/** The Simulate choice: on or off, how many runs, which seed. */
export interface SimulationSettings {
  enabled: boolean;
  runs: number;
  seed: number;
}

/** The simulation's runs and seed when the user gives none: the CLI's (SIMULATION_DEFAULTS, declared once in the core). */
export const DEFAULT_SIMULATION_SETTINGS: SimulationSettings = {
  enabled: false,
  runs: SIMULATION_DEFAULTS.runs,
  seed: SIMULATION_DEFAULTS.seed,
};

/** The band of a simulation of the current plan, as the sidebar shows it. */
export interface SimulationView {
  method: Simulation['method'];
  runs: number;
  seed: number;
  p10Seconds: number;
  p50Seconds: number;
  p90Seconds: number;
  /** The plan's own total, for comparison. */
  planSeconds: number;
  /** "p10 28.1 s · p50 29.0 s · p90 31.2 s" (one number when the ends print alike). */
  bandText: string;
  /** The CLI's line: "Simulated: p10 …, p50 …, p90 … over 200 runs of the crawl engine on virtual time, seed 1; the plan says …". */
  text: string;
  /** Hosts in the timeline (the plan report draws them). */
  timelineHosts: number;
}

/** "Simulating 200 runs (seed 1)…": what the sidebar and the plan report say while a simulation runs. */
export function simulationRunningText(runs: number, seed: number): string {
  return `Simulating ${formatNumber(runs)} ${runs === 1 ? 'run' : 'runs'} (seed ${seed})…`;
}

export type SimulationState =
  | { state: 'off' }
  | { state: 'running'; runs: number; seed: number }
  | { state: 'done'; simulation: SimulationView }
  | { state: 'error'; message: string };

/** Why a number of runs or a seed is refused, or undefined (the CLI's --runs and --seed limits). */
export function simulationNumberProblem(field: 'runs' | 'seed', value: unknown): string | undefined {
  const problem = numberProblem(value, SIMULATION_LIMITS[field]);
  return problem === undefined ? undefined : `must be ${rangeText(SIMULATION_LIMITS[field])}`;
}

/** Checks the Simulate settings; a fresh object or why not. */
export function parseSimulationSettings(raw: unknown): SimulationSettings | { error: string } {
  if (!isRecord(raw)) return { error: 'simulation: not an object' };
  const extra = unknownKeys(raw, ['enabled', 'runs', 'seed']);
  if (extra !== undefined) return { error: `simulation: unknown field ${JSON.stringify(extra.slice(0, 40))}` };
  if (typeof raw.enabled !== 'boolean') return { error: 'simulation.enabled: not a boolean' };
  for (const field of ['runs', 'seed'] as const) {
    const problem = simulationNumberProblem(field, raw[field]);
    if (problem !== undefined) return { error: `simulation.${field}: ${problem}` };
  }
  return { enabled: raw.enabled, runs: raw.runs as number, seed: raw.seed as number };
}

export type NoticeLevel = 'info' | 'error';
