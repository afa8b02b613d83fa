/**
 * The typed messages between the extension and the planner webview (ARCHITECTURE.md §The webview protocol;
 * the messages are listed in docs/extension.md §Protocol). String-literal
 * `type` unions, no numeric enums; both sides switch exhaustively. The extension trusts nothing that
 * comes from the webview: `parseWebviewMessage` checks every field before any work is done.
 *
 * Pure: no vscode, no DOM, no I/O. Bundled into both the extension and the webview.
 */
import type { ChartModel, HostRowText } from '../core/format/planSummary';
import {
  validatePlanInput,
  type DelayFrom,
  type CrawlDelayPolicy,
  type IntervalSource,
  type BindingConstraint,
  type PlanInput,
  type PlanProblem,
  type PlanWarningCode,
} from '../core/plan';
import type { CrawlSummary, NotFollowed } from '../core/crawl/events';
import type { RobotsOutcome, RobotsVerdict } from '../core/robots/explain';
import type { SitemapErrorCode, SitemapHostReport } from '../core/sitemaps/sizing';
import type { DeadlineOptionKind } from '../core/plan/types';
import { countSeedLines, type InvalidSeed, type SeedNote, type SeedNoteCode } from '../core/seeds';
import { formatNumber } from '../core/format/duration';
import { numberProblem, rangeText, type NumberLimit } from '../core/limits';
import { SIMULATION_DEFAULTS, SIMULATION_LIMITS } from '../core/simulate/options';
import type { Simulation } from '../core/simulate/types';
import type { CalibrationRowText } from '../core/format/calibrationText';

// ---------------------------------------------------------------------------------------------
// Limits

/**
 * How many seeds the planner takes, and in which form (docs/extension.md §Seeds). The seeds box is for lists
 * a person reads; a longer list is a file the planner reads and keeps as the source.
 */
export const PLANNER_SEED_LIMITS = {
  /** Seed lines the seeds box plans (blank and comment lines are not counted). */
  textLines: 5_000,
  /** UTF-8 bytes the seeds box plans (512 KiB). */
  textBytes: 512 * 1024,
  /** From this many seed lines the box suggests a file instead. */
  suggestFileLines: 2_000,
  /**
   * UTF-8 bytes of seeds box text the extension keeps (4 MiB): what is typed past the planning limits is
   * kept and restored, just not planned. A paste over the limits is refused before it reaches the box.
   */
  storedTextBytes: 4 * 1024 * 1024,
  /** Seed lines a seeds file may have. */
  fileLines: 100_000,
  /** Bytes a seeds file may have (32 MiB). */
  fileBytes: 32 * 1024 * 1024,
} as const;

/** A user agent override in the form (the header value; control characters refused). */
export const MAX_USER_AGENT_CHARS = 256;
/** An origin posted by `openRobots`. */
export const MAX_ORIGIN_CHARS = 2048;
/** A robots.txt line number posted by `openRobots` (or passed to the Open robots.txt command). */
export const MAX_ROBOTS_LINE = 1_000_000;
export const ROBOTS_LINE_LIMIT: NumberLimit = { min: 1, max: MAX_ROBOTS_LINE, integer: true };
/** A seeds file line posted by `openSeedsFile`. */
export const SEEDS_FILE_LINE_LIMIT: NumberLimit = { min: 1, max: 100_000_000, integer: true };
/** The origin picker's search text posted by `findOrigins`. */
export const MAX_ORIGIN_QUERY_CHARS = 256;
/** Hosts with their own page count in the form (`pagesByHost`): sitemap sizing and a deadline's caps fill it. */
export const MAX_PAGES_BY_HOST = 1_000;
/** A host as the form names it: `host[:port]`, lower-case (a DNS name is at most 253 characters). */
export const MAX_HOST_CHARS = 260;
/** The "changed since" text posted by `sizeFromSitemaps` (a date-time or a duration). */
export const MAX_CHANGED_SINCE_CHARS = 64;
/** Deadline options a plan offers at most (the solver gives two: cap and drop, or capacity and machines). */
export const MAX_DEADLINE_OPTIONS = 10;
export const DEADLINE_OPTION_LIMIT: NumberLimit = { min: 0, max: MAX_DEADLINE_OPTIONS - 1, integer: true };
/** The number of a plan (DeadlineView.plan), counted from 1 in each window. */
export const PLAN_NUMBER_LIMIT: NumberLimit = { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true };

// ---------------------------------------------------------------------------------------------
// The form

/** Pages in total (spread over the hosts), the same number per host, or each host its own (`pagesByHost`). */
export type PagesMode = 'total' | 'perHost' | 'byHost';
export const PAGES_MODES: readonly PagesMode[] = ['total', 'perHost', 'byHost'];

/**
 * The planner form as the extension sees it: every number already parsed and in range. `null` means
 * "left empty": the setting or the plan's default applies (docs/extension.md §What it shows). The webview keeps the
 * raw text of each field itself (getState/setState), so a half-typed value is never lost. The seeds are not
 * part of it: the extension keeps them (`seedsChanged`, a seeds file), so a list of any length survives.
 */
export interface PlannerForm {
  pagesMode: PagesMode;
  /**
   * Pages in total or per host (by `pagesMode`); null: none given, nothing is planned. In `byHost` mode, the
   * pages of every host without a number of its own (null: 0).
   */
  pages: number | null;
  /**
   * Each host's own pages in `byHost` mode (lower-case `host[:port]` → pages, 0 allowed), as sitemap sizing,
   * a deadline's caps or the user set them; kept, unused, in the other modes. At most {@link MAX_PAGES_BY_HOST}.
   */
  pagesByHost: Record<string, number>;
  /** Target requests per second; null: no global rate. */
  rate: number | null;
  /** Global slots; null: PLAN_DEFAULTS.workers. */
  workers: number | null;
  /** Shard the hosts over this many machines; null: one machine, no sharding. */
  machines: number | null;
  /** The deadline in seconds (typed as a duration: 36h, 2d); null: none. */
  deadlineSeconds: number | null;
  /** The per-host delay in seconds; null: the `crawlPlanner.defaultDelay` setting. */
  delaySeconds: number | null;
  delayFrom: DelayFrom;
  /** Expected response time in seconds; null: PLAN_DEFAULTS.latencySeconds. */
  latencySeconds: number | null;
  /** The User-Agent for robots.txt and the test crawl; '': the `crawlPlanner.userAgent` setting. */
  userAgent: string;
  /** Fetch each seed origin's robots.txt and plan with its Crawl-delay. Off: no network at all. */
  useRobots: boolean;
}

/**
 * The form's fields exactly as the inputs hold them: numbers as typed (a half-typed "1,0" too). The webview
 * sends them on every edit (`fieldsEdited`) and the extension keeps them, so a reload shows the screen as it
 * was; `formFields.ts` reads them into a PlannerForm with the same rules on both sides.
 */
export interface RawForm {
  pagesMode: PagesMode;
  pages: string;
  /** Each host's own pages as typed (host → text); an empty text is no number of its own. */
  pagesByHost: Record<string, string>;
  rate: string;
  workers: string;
  machines: string;
  /** Seconds or a duration ("36h", "2d"). */
  deadline: string;
  delay: string;
  delayFrom: DelayFrom;
  latency: string;
  userAgent: string;
  useRobots: boolean;
  /** "Changed since" for sitemap sizing (a date or 7d/30d/365d; '': every URL): not part of the plan. */
  changedSince: string;
}

/** A number field's text at most (what is typed is kept, not what is valid). */
export const MAX_FIELD_CHARS = 256;
/** The user agent field's text at most (typed; a valid one is at most {@link MAX_USER_AGENT_CHARS}). */
export const MAX_USER_AGENT_FIELD_CHARS = 4096;

/** Why `key` cannot name a host in the form, or undefined: lower-case `host[:port]` as URL.host writes it. */
export function hostKeyProblem(key: string): string | undefined {
  if (key.length === 0 || key.length > MAX_HOST_CHARS) return `a host is 1 to ${MAX_HOST_CHARS} characters`;
  if (key === '__proto__' || !/^[a-z0-9._~%!$&'()*+,;=:[\]-]+$/.test(key))
    return `${JSON.stringify(key.slice(0, 40))} is not a lower-case host[:port]`;
  return undefined;
}

/** A host → value record with at most {@link MAX_PAGES_BY_HOST} valid host keys, each value passing `ok`; a fresh object or undefined. */
function parseHostRecord<T>(value: unknown, ok: (v: unknown) => v is T): Record<string, T> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length > MAX_PAGES_BY_HOST) return undefined;
  if (entries.some(([host, v]) => hostKeyProblem(host) !== undefined || !ok(v))) return undefined;
  return Object.fromEntries(entries) as Record<string, T>;
}

const isFieldText = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_FIELD_CHARS;

/** The fields an earlier version did not have, as an empty form holds them (a saved state from it still reads). */
const RAW_FIELDS_ADDED: Pick<RawForm, 'pagesByHost' | 'machines' | 'deadline' | 'changedSince'> = {
  pagesByHost: {},
  machines: '',
  deadline: '',
  changedSince: '',
};

/** Checks raw fields: strings within their lengths, the choices among theirs; a fresh object or undefined. */
export function parseRawForm(input: unknown): RawForm | undefined {
  if (!isRecord(input)) return undefined;
  const value: Record<string, unknown> = { ...RAW_FIELDS_ADDED, ...input };
  if (
    unknownKeys(value, [
      'pagesMode',
      'pages',
      'pagesByHost',
      'rate',
      'workers',
      'machines',
      'deadline',
      'delay',
      'delayFrom',
      'latency',
      'userAgent',
      'useRobots',
      'changedSince',
    ]) !== undefined
  )
    return undefined;
  const str = (key: string, max = MAX_FIELD_CHARS) =>
    typeof value[key] === 'string' && (value[key] as string).length <= max ? (value[key] as string) : undefined;
  const pages = str('pages');
  const rate = str('rate');
  const workers = str('workers');
  const machines = str('machines');
  const deadline = str('deadline');
  const delay = str('delay');
  const latency = str('latency');
  const userAgent = str('userAgent', MAX_USER_AGENT_FIELD_CHARS);
  const changedSince = str('changedSince', MAX_CHANGED_SINCE_CHARS);
  const pagesByHost = parseHostRecord(value.pagesByHost, isFieldText);
  const { pagesMode, delayFrom, useRobots } = value;
  if (
    pages === undefined ||
    pagesByHost === undefined ||
    rate === undefined ||
    workers === undefined ||
    machines === undefined ||
    deadline === undefined ||
    delay === undefined ||
    latency === undefined ||
    userAgent === undefined ||
    changedSince === undefined ||
    !PAGES_MODES.includes(pagesMode as PagesMode) ||
    (delayFrom !== 'start' && delayFrom !== 'end') ||
    typeof useRobots !== 'boolean'
  ) {
    return undefined;
  }
  return {
    pagesMode: pagesMode as PagesMode,
    pages,
    pagesByHost,
    rate,
    workers,
    machines,
    deadline,
    delay,
    delayFrom,
    latency,
    userAgent,
    useRobots,
    changedSince,
  };
}

/** The numeric fields of the form. */
export const FORM_NUMBER_FIELDS = [
  'pages',
  'rate',
  'workers',
  'machines',
  'deadlineSeconds',
  'delaySeconds',
  'latencySeconds',
] as const;
export type FormNumberField = (typeof FORM_NUMBER_FIELDS)[number];

const FORM_KEYS: ReadonlyArray<keyof PlannerForm> = [
  'pagesMode',
  'pages',
  'pagesByHost',
  'rate',
  'workers',
  'machines',
  'deadlineSeconds',
  'delaySeconds',
  'delayFrom',
  'latencySeconds',
  'userAgent',
  'useRobots',
];

/**
 * Why `value` is not acceptable for `field`, or undefined. The ranges are the plan's own
 * (`validatePlanInput` over PLAN_LIMITS), so the form, the protocol and the CLI refuse the same values.
 */
export function formNumberProblem(
  field: FormNumberField,
  value: number,
  pagesMode: PagesMode = 'total',
): string | undefined {
  const seeds = [{ host: 'placeholder.invalid' }];
  let input: PlanInput;
  switch (field) {
    case 'pages':
      input = {
        seeds,
        pages:
          pagesMode === 'total'
            ? { total: value }
            : pagesMode === 'perHost'
              ? { perHost: value }
              : { byHost: {}, otherwise: value },
      };
      break;
    case 'rate':
      input = { seeds, pages: { total: 1 }, rate: value };
      break;
    case 'workers':
      input = { seeds, pages: { total: 1 }, workers: value };
      break;
    case 'machines':
      input = { seeds, pages: { total: 1 }, machines: value };
      break;
    case 'deadlineSeconds':
      input = { seeds, pages: { total: 1 }, deadlineSeconds: value };
      break;
    case 'delaySeconds':
      input = { seeds, pages: { total: 1 }, delaySeconds: value };
      break;
    case 'latencySeconds':
      input = { seeds, pages: { total: 1 }, latencySeconds: value };
      break;
    default:
      return assertNever(field);
  }
  const problem = validatePlanInput(input)[0];
  // "workers: 0 must be at least 1" → "0 must be at least 1": the form labels the field itself.
  return problem === undefined ? undefined : problem.message.replace(/^[^:]*: /, '');
}

/** Why `value` cannot be one host's own pages (0 allowed: the host is planned with none), or undefined. */
export function hostPagesProblem(value: number): string | undefined {
  const problem = validatePlanInput({
    seeds: [{ host: 'placeholder.invalid' }],
    pages: { byHost: { 'placeholder.invalid': value } },
  })[0];
  return problem === undefined ? undefined : problem.message.replace(/^[^:]*: /, '');
}

/** UTF-8 length of `text`, counted without encoding it. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** "1.2 MB", "230 KB", "512 bytes": a size for messages (1 KB = 1,024 bytes). */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${formatNumber(bytes / (1024 * 1024), 1)} MB`;
}

/** "1 seed line", "50,000 seed lines". */
export function seedLinesText(n: number): string {
  return `${formatNumber(n)} seed ${n === 1 ? 'line' : 'lines'}`;
}

/** What to do with a list too long for the box (the two buttons beside it). */
export const SEEDS_FILE_ADVICE =
  'Save the list as a file and use “Load seeds from file…”, or save it as seeds.txt in the workspace and use “Use seeds.txt”.';

const L = PLANNER_SEED_LIMITS;

/** "5,000 seed lines (512 KB)": the box's limits. */
export const SEEDS_BOX_LIMIT_TEXT = `${seedLinesText(L.textLines)} (${sizeText(L.textBytes)})`;

/**
 * Why the seeds box text cannot be planned, or undefined: its size and seed lines (blank and comment lines
 * not counted), the limit, and what to do instead.
 */
export function seedsTextProblem(text: string): string | undefined {
  const bytes = utf8Length(text);
  const lines = countSeedLines(text);
  if (bytes <= L.textBytes && lines <= L.textLines) return undefined;
  const has = `${seedLinesText(lines)} (${sizeText(bytes)})`;
  return `${has}: the box plans at most ${SEEDS_BOX_LIMIT_TEXT}. ${SEEDS_FILE_ADVICE}`;
}

/**
 * Why a paste (or a drop) of `pasted` into a box holding `before` (minus the selection it replaces) is refused,
 * or undefined. Refused: a result over the box's limits; it never reaches the box, and the message says its
 * size, the limit and what to do instead.
 */
export function seedsPasteProblem(pasted: string, resultText: string): string | undefined {
  if (seedsTextProblem(resultText) === undefined) return undefined;
  const bytes = utf8Length(pasted);
  return `Not pasted: ${seedLinesText(countSeedLines(pasted))} (${sizeText(bytes)}). The box plans at most ${SEEDS_BOX_LIMIT_TEXT}. ${SEEDS_FILE_ADVICE}`;
}

/** Why a seeds box text cannot even be kept (over {@link PLANNER_SEED_LIMITS}.storedTextBytes), or undefined. */
export function seedsStoreProblem(text: string): string | undefined {
  if (text.length <= L.storedTextBytes / 3 || utf8Length(text) <= L.storedTextBytes) return undefined;
  return `Not kept: ${sizeText(utf8Length(text))} of seeds; the box keeps at most ${sizeText(L.storedTextBytes)}. ${SEEDS_FILE_ADVICE}`;
}

/** Why a user agent override cannot be used, or undefined. */
export function userAgentProblem(text: string): string | undefined {
  if (text.length > MAX_USER_AGENT_CHARS) return `at most ${MAX_USER_AGENT_CHARS} characters`;
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'no control characters (line breaks, tabs)';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// What the extension sends

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
}

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
  /** The pages the form was given for this host (its URLs, or those changed since); null: no sitemap read, none given. */
  pages: number | null;
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

export type HostToWebview =
  /** Everything, after `ready` and whenever the view becomes visible again. */
  /**
   * Everything, after `ready` and whenever the view becomes visible again. `fields`: the fields as last typed
   * (null before anything was typed; `form` is then what they show).
   */
  | {
      type: 'state';
      form: PlannerForm;
      fields: RawForm | null;
      seeds: SeedsView;
      settings: PlannerViewSettings;
      trusted: boolean;
      result: PlanResultView;
      robots: RobotsState;
      calibration: CalibrationState;
      simulationSettings: SimulationSettings;
      simulation: SimulationState;
      sitemaps: SitemapsState;
    }
  /** The seeds' source changed on the extension's side (a file loaded, changed on disk or gone; back to the box). */
  | { type: 'seeds'; seeds: SeedsView }
  /** A long list is being planned (posted before the work, so the view can say so); a `planResult` follows. */
  | { type: 'planning'; seeds: number }
  /** The plan for the latest form and seeds (after `formChanged`, `seedsChanged`, a file, robots results or a settings change). */
  | { type: 'planResult'; result: PlanResultView }
  /** The seed origins that contain `query` (the answer to `findOrigins`): the first ones, and how many in all. */
  | { type: 'origins'; query: string; origins: string[]; total: number }
  | { type: 'robotsPending'; origins: number }
  | { type: 'robotsResult'; robots: RobotsView }
  | { type: 'robotsError'; message: string }
  | { type: 'settings'; settings: PlannerViewSettings; trusted: boolean }
  /**
   * The extension changed the form (sitemap sizing filled each host's pages, a deadline option was applied,
   * seeds from code took a spider's delay and workers):
   * the webview shows these fields, as typed where a value did not change.
   */
  | { type: 'formSet'; form: PlannerForm; fields: RawForm }
  /** Sitemap sizing started, is under way (files read, URLs counted so far), ended, or failed. */
  | { type: 'sitemapsState'; sitemaps: SitemapsState }
  /** A short line for the status area (aria-live): "Plan copied", "No valid seed to crawl". */
  | { type: 'notice'; level: NoticeLevel; message: string }
  /** The last test crawl in this window ended (also re-posted after `state`). */
  | { type: 'crawlResult'; crawl: CrawlResultView }
  /** Calibration changed: a test crawl ended, a report was chosen, or it was turned on or off. */
  | { type: 'calibration'; calibration: CalibrationState }
  /** The simulation of the current plan: started, done, failed, or off (turned off, or the plan changed). */
  | { type: 'simulation'; simulation: SimulationState };

// ---------------------------------------------------------------------------------------------
// What the webview sends

export type WebviewToHost =
  /** The webview is loaded: the extension answers with `state` (the form, the fields and the seeds it keeps). */
  | { type: 'ready' }
  /** A field was edited: every field as typed, sent at once (the extension keeps them; nothing is planned). */
  | { type: 'fieldsEdited'; fields: RawForm }
  /** The form changed (debounced ~250 ms in the webview). Sent only when every field is valid. */
  | { type: 'formChanged'; form: PlannerForm }
  /**
   * The seeds box changed: its whole text, sent at once (a long text: after a short pause and when the box loses
   * focus), whatever the other fields hold, so the extension always has what is typed. Up to
   * {@link PLANNER_SEED_LIMITS}.storedTextBytes; past the planning limits it is kept, not planned.
   */
  | { type: 'seedsChanged'; text: string }
  /** "Load seeds from file…": the extension asks for a file, which becomes the source. */
  | { type: 'loadSeedsFile' }
  /** "Use seeds.txt": the workspace's seeds.txt becomes the source (a pick when there are several). */
  | { type: 'useWorkspaceSeeds' }
  /** "Use the box": the seeds file is no longer the source; the box's text is again. */
  | { type: 'useSeedsText' }
  /** Open the seeds file in an editor, at a line when given. */
  | { type: 'openSeedsFile'; line?: number }
  /** The origin picker's search: the seed origins containing `query` (answered by `origins`). */
  | { type: 'findOrigins'; query: string }
  /** "Open Plan Report": every host of the plan in an editor tab. */
  | { type: 'openReport' }
  /** Fetch robots.txt for the current seeds again (the Check button, or leaving the seeds field). */
  | { type: 'requestRobots' }
  /** Run a test crawl of the current valid seeds with the current delay and pages. */
  | { type: 'runTestCrawl' }
  /** Copy the current plan (the `estimate --json` document) to the clipboard. */
  | { type: 'copyPlan' }
  /** Open an origin's robots.txt, optionally at a line. The origin must be one of the current seeds'. */
  | { type: 'openRobots'; origin: string; line?: number }
  /** "Plan with what the test crawl measured" on (`crawl`) or off: the typed values again. */
  | { type: 'useCalibration'; source: 'crawl' | 'off' }
  /** "Choose a crawl report…": the extension asks for a report file and plans with what it measured. */
  | { type: 'chooseCalibrationReport' }
  /** The Simulate choice changed (on: the current plan is simulated now and after every change). */
  | { type: 'simulate'; settings: SimulationSettings }

  /**
   * "Size from sitemaps": count each seed host's sitemap URLs and make them its pages (`byHost`); with
   * `changedSince` (a date or a duration back from now, '' for none) only the URLs changed since (a recrawl).
   */
  | { type: 'sizeFromSitemaps'; changedSince: string }
  /** Stop the sizing under way (the form stays as it was). */
  | { type: 'cancelSitemaps' }
  /** Apply option `index` of the deadline of plan `plan` (DeadlineView.plan) to the form and the plan. */
  | { type: 'applyDeadlineOption'; plan: number; index: number }
  /** Plan dropped hosts again: `host`, or every one. */
  | { type: 'restoreHosts'; host?: string }
  /** "Export plan…": runs the Export Plan command on this plan (it asks for the format and the folder). */
  | { type: 'exportPlan' };

export type WebviewMessageType = WebviewToHost['type'];
export type HostMessageType = HostToWebview['type'];

/** For the `default:` of an exhaustive switch. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

type Invalid = { error: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownKeys(record: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  return Object.keys(record).find((key) => !allowed.includes(key));
}

/** The form's fields an earlier version did not have, as an empty form holds them (a saved form from it still reads). */
const FORM_FIELDS_ADDED: Pick<PlannerForm, 'pagesByHost' | 'machines' | 'deadlineSeconds'> = {
  pagesByHost: {},
  machines: null,
  deadlineSeconds: null,
};

/** Checks a form field by field; returns the form (a fresh object with only known keys) or why not. */
export function parsePlannerForm(input: unknown): PlannerForm | Invalid {
  if (!isRecord(input)) return { error: 'form: not an object' };
  const raw: Record<string, unknown> = { ...FORM_FIELDS_ADDED, ...input };
  const extra = unknownKeys(raw, FORM_KEYS);
  if (extra !== undefined) return { error: `form: unknown field ${JSON.stringify(extra.slice(0, 40))}` };

  const { pagesMode, delayFrom, userAgent, useRobots } = raw;
  if (!PAGES_MODES.includes(pagesMode as PagesMode))
    return { error: `form.pagesMode: must be ${PAGES_MODES.join(', ')}` };
  if (delayFrom !== 'start' && delayFrom !== 'end') return { error: 'form.delayFrom: must be start or end' };
  if (typeof userAgent !== 'string') return { error: 'form.userAgent: not a string' };
  const uaProblem = userAgentProblem(userAgent);
  if (uaProblem !== undefined) return { error: `form.userAgent: ${uaProblem}` };
  if (typeof useRobots !== 'boolean') return { error: 'form.useRobots: not a boolean' };
  const pagesByHost = parseHostRecord(
    raw.pagesByHost,
    (v): v is number => typeof v === 'number' && hostPagesProblem(v) === undefined,
  );
  if (pagesByHost === undefined)
    return {
      error: `form.pagesByHost: at most ${MAX_PAGES_BY_HOST} lower-case hosts, each with a whole number of pages from 0`,
    };

  const numbers = {} as Record<FormNumberField, number | null>;
  for (const field of FORM_NUMBER_FIELDS) {
    if (!Object.hasOwn(raw, field)) return { error: `form.${field}: missing` };
    const value = raw[field];
    if (value === null) {
      numbers[field] = null;
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) return { error: `form.${field}: not a finite number` };
    const problem = formNumberProblem(field, value, pagesMode as PagesMode);
    if (problem !== undefined) return { error: `form.${field}: ${problem}` };
    numbers[field] = value;
  }
  return { pagesMode: pagesMode as PagesMode, pagesByHost, delayFrom, userAgent, useRobots, ...numbers };
}

/** An origin the webview may ask to open: `http(s)://host[:port]` exactly, nothing else. */
export function parseOrigin(raw: unknown): string | Invalid {
  if (typeof raw !== 'string') return { error: 'origin: not a string' };
  if (raw.length === 0 || raw.length > MAX_ORIGIN_CHARS) return { error: 'origin: empty or too long' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: 'origin: not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: 'origin: only http and https' };
  if (url.origin !== raw) return { error: 'origin: must be scheme://host[:port] only' };
  return raw;
}

/**
 * Validates a message from the webview. Every field is checked (types, sizes, ranges, URL schemes);
 * anything unknown or extra is refused. The host logs and ignores what comes back as `{ error }`.
 */
/**
 * The start of every message check (this protocol's and the plan report's): an object with a string `type`,
 * and `only(...keys)`, which says which field is not one of `keys` (and `type`), if any.
 */
export function messageHead(
  raw: unknown,
): { raw: Record<string, unknown>; type: string; only: (...keys: string[]) => string | undefined } | Invalid {
  if (!isRecord(raw)) return { error: 'message: not an object' };
  const type = raw.type;
  if (typeof type !== 'string') return { error: 'message: no type' };
  const only = (...keys: string[]): string | undefined => {
    const extra = unknownKeys(raw, ['type', ...keys]);
    return extra === undefined ? undefined : `${type}: unknown field ${JSON.stringify(extra.slice(0, 40))}`;
  };
  return { raw, type, only };
}

export function parseWebviewMessage(input: unknown): WebviewToHost | Invalid {
  const head = messageHead(input);
  if ('error' in head) return head;
  const { raw, type, only } = head;
  const known = type as WebviewMessageType;
  switch (known) {
    case 'ready': {
      const extra = only();
      return extra ? { error: extra } : { type: 'ready' };
    }
    case 'fieldsEdited': {
      const extra = only('fields');
      if (extra) return { error: extra };
      const fields = parseRawForm(raw.fields);
      return fields === undefined
        ? { error: "fieldsEdited: fields are not the form's fields" }
        : { type: 'fieldsEdited', fields };
    }
    case 'formChanged': {
      const extra = only('form');
      if (extra) return { error: extra };
      const form = parsePlannerForm(raw.form);
      return 'error' in form ? { error: `formChanged: ${form.error}` } : { type: 'formChanged', form };
    }
    case 'seedsChanged': {
      const extra = only('text');
      if (extra) return { error: extra };
      if (typeof raw.text !== 'string') return { error: 'seedsChanged: text is not a string' };
      const problem = seedsStoreProblem(raw.text);
      return problem !== undefined ? { error: `seedsChanged: ${problem}` } : { type: 'seedsChanged', text: raw.text };
    }
    case 'openSeedsFile': {
      const extra = only('line');
      if (extra) return { error: extra };
      if (raw.line === undefined) return { type: 'openSeedsFile' };
      if (numberProblem(raw.line, SEEDS_FILE_LINE_LIMIT) !== undefined)
        return { error: `openSeedsFile: line must be ${rangeText(SEEDS_FILE_LINE_LIMIT)}` };
      return { type: 'openSeedsFile', line: raw.line as number };
    }
    case 'findOrigins': {
      const extra = only('query');
      if (extra) return { error: extra };
      if (typeof raw.query !== 'string' || raw.query.length > MAX_ORIGIN_QUERY_CHARS)
        return { error: `findOrigins: query must be a string of at most ${MAX_ORIGIN_QUERY_CHARS} characters` };
      return { type: 'findOrigins', query: raw.query };
    }
    case 'sizeFromSitemaps': {
      const extra = only('changedSince');
      if (extra) return { error: extra };
      if (typeof raw.changedSince !== 'string' || raw.changedSince.length > MAX_CHANGED_SINCE_CHARS) {
        return {
          error: `sizeFromSitemaps: changedSince must be a string of at most ${MAX_CHANGED_SINCE_CHARS} characters`,
        };
      }
      return { type: 'sizeFromSitemaps', changedSince: raw.changedSince };
    }
    case 'applyDeadlineOption': {
      const extra = only('plan', 'index');
      if (extra) return { error: extra };
      if (numberProblem(raw.plan, PLAN_NUMBER_LIMIT) !== undefined)
        return { error: `applyDeadlineOption: plan must be ${rangeText(PLAN_NUMBER_LIMIT)}` };
      if (numberProblem(raw.index, DEADLINE_OPTION_LIMIT) !== undefined)
        return { error: `applyDeadlineOption: index must be ${rangeText(DEADLINE_OPTION_LIMIT)}` };
      return { type: 'applyDeadlineOption', plan: raw.plan as number, index: raw.index as number };
    }
    case 'restoreHosts': {
      const extra = only('host');
      if (extra) return { error: extra };
      if (raw.host === undefined) return { type: 'restoreHosts' };
      if (typeof raw.host !== 'string' || hostKeyProblem(raw.host) !== undefined)
        return { error: 'restoreHosts: host must be a lower-case host[:port]' };
      return { type: 'restoreHosts', host: raw.host };
    }
    case 'cancelSitemaps':
    case 'exportPlan':
    case 'loadSeedsFile':
    case 'useWorkspaceSeeds':
    case 'useSeedsText':
    case 'openReport':
    case 'requestRobots':
    case 'runTestCrawl':
    case 'chooseCalibrationReport':
    case 'copyPlan': {
      const extra = only();
      return extra ? { error: extra } : { type: known };
    }
    case 'useCalibration': {
      const extra = only('source');
      if (extra) return { error: extra };
      if (raw.source !== 'crawl' && raw.source !== 'off')
        return { error: 'useCalibration: source must be crawl or off' };
      return { type: 'useCalibration', source: raw.source };
    }
    case 'simulate': {
      const extra = only('settings');
      if (extra) return { error: extra };
      const settings = parseSimulationSettings(raw.settings);
      return 'error' in settings ? { error: `simulate: ${settings.error}` } : { type: 'simulate', settings };
    }
    case 'openRobots': {
      const extra = only('origin', 'line');
      if (extra) return { error: extra };
      const origin = parseOrigin(raw.origin);
      if (typeof origin !== 'string') return { error: `openRobots: ${origin.error}` };
      if (raw.line === undefined) return { type: 'openRobots', origin };
      const line = raw.line;
      if (numberProblem(line, ROBOTS_LINE_LIMIT) !== undefined)
        return { error: `openRobots: line must be ${rangeText(ROBOTS_LINE_LIMIT)}` };
      return { type: 'openRobots', origin, line: line as number };
    }
    default: {
      // Compile time: every WebviewMessageType has a case above. Run time: `type` may be any string.
      const _unhandled: never = known;
      return { error: `message: unknown type ${JSON.stringify(String(_unhandled).slice(0, 40))}` };
    }
  }
}

const HOST_MESSAGE_TYPE_SET = {
  state: true,
  formSet: true,
  sitemapsState: true,
  seeds: true,
  planning: true,
  planResult: true,
  origins: true,
  robotsPending: true,
  robotsResult: true,
  robotsError: true,
  settings: true,
  notice: true,
  crawlResult: true,
  calibration: true,
  simulation: true,
} as const satisfies Record<HostMessageType, true>;

/** The message types the webview understands (every one, checked at compile time). */
export const HOST_MESSAGE_TYPES = Object.keys(HOST_MESSAGE_TYPE_SET) as HostMessageType[];

/** The webview's guard on incoming messages: an object with a known `type`. The host is trusted; this catches bugs. */
export function isHostMessage(raw: unknown): raw is HostToWebview {
  return isRecord(raw) && typeof raw.type === 'string' && Object.hasOwn(HOST_MESSAGE_TYPE_SET, raw.type);
}
