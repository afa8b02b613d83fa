/**
 * The planner's host-side computation: the seeds (the box's text or a seeds file's), the form and the settings
 * (and robots.txt Crawl-delays) in; the plan, and what the sidebar is sent of it, out. Pure (no vscode, no I/O)
 * so it is tested in node; the plan itself is `src/core/plan`'s, this only wires the form to `PlanInput` and
 * trims what is posted to the webview (a plan of 100,000 hosts is posted as a summary of a few KB).
 */
import type { Calibration } from '../../core/calibrate/types';
import { escapeInvisible } from '../../core/seedHygiene';
import {
  applyPlanChange,
  plan as makePlan,
  validatePlanInput,
  type PagesTarget,
  type PagesUnknown,
  type Plan,
  type PlanInput,
  type PlanProblem,
} from '../../core/plan';
import { DEFAULT_POLITENESS_BY } from '../../core/servers/units';
import { seedLines, seedNotesByCode, validateSeeds, type InvalidSeed, type SeedValidation } from '../../core/seeds';
import type { PlannerForm } from '../../shared/planner/form';
import type {
  PlannerViewSettings,
  PlanResultView,
  RobotsCoverageView,
  RobotsView,
} from '../../shared/planner/viewModel';
import { calibrationView, type HeldCalibration } from './estimates';
import { deadlineView, planSummaryView } from './summary';

/** Invalid seed lines posted to the webview (the JSON copy has them all). */
export const MAX_SEED_ERRORS_POSTED = 100;
/** An invalid line's text is cut to this many characters in the webview (it is shown, not used). */
export const MAX_SEED_ERROR_TEXT = 200;
/** Seed notes posted per kind (the JSON copy has them all). */
export const MAX_SEED_NOTES_POSTED = 5;
/** Seed origins posted with a plan; the origin picker asks for the rest (`findOrigins`). */
export const MAX_ORIGINS_POSTED = 50;
/** Seed hosts posted with a plan (the rows of "pages by host"), and hosts named in a list (dropped, blocking, stale). */
export const MAX_HOSTS_POSTED = 50;

/** The seeds to plan, checked once per text (100,000 lines take about 0.2 s), and why none can be, if so. */
export interface SeedsCheck {
  validation: SeedValidation;
  /** The distinct origins of the valid seeds, first-seen order. */
  origins: string[];
  /** The distinct hosts of the valid seeds, first-seen order. */
  hosts: string[];
  /** Why the seeds cannot be planned at all (over the box's limits, a file being read or unreadable). */
  problem?: string;
}

const EMPTY: SeedValidation = { seeds: [], invalid: [], notes: [], duplicates: 0 };

/** Seeds that cannot be planned, and why. */
export function unplannableSeeds(problem: string): SeedsCheck {
  return { validation: EMPTY, origins: [], hosts: [], problem };
}

/**
 * Checks seed text (the box's, or a file's, `source` naming the file) the way the CLI reads `--seeds-file`:
 * `#` comments and blank lines skipped, line numbers positions in the text, every line's hygiene noted.
 */
export function checkSeedText(text: string, expectedLocalHosts?: ReadonlySet<string>, source?: string): SeedsCheck {
  const validation = validateSeeds(seedLines(text, source), expectedLocalHosts ? { expectedLocalHosts } : {});
  const origins = new Set<string>();
  const hosts = new Set<string>();
  for (const s of validation.seeds) {
    origins.add(s.origin);
    hosts.add(s.host);
  }
  return { validation, origins: [...origins], hosts: [...hosts] };
}

export interface PlanComputation {
  plan: Plan | null;
  /** Why there is no plan. */
  problems: PlanProblem[];
  /** The seeds it was made from (every usable seed, every invalid line, the notes). */
  seeds: SeedsCheck;
  /** The Crawl-delays from robots.txt that fed it (the seeds' hosts only). */
  crawlDelays: Record<string, number>;
  /** The PlanInput the plan was made from (also when it was refused): dropped hosts are not in it. */
  input: PlanInput | null;
  /** The seed hosts left out of the plan (a deadline's "drop" option), first-seen order. */
  dropped: string[];
}

/**
 * The form's pages as the plan's target: in `byHost` mode only the seed hosts' own numbers (others are stale),
 * the number for the other hosts when the form has one, and the seed hosts a sizing could not count (`unknown`,
 * the sitemaps step's): the plan decides which of those are unknown (a number in the form wins).
 */
export function pagesTarget(
  form: PlannerForm,
  seedHosts: ReadonlySet<string>,
  unknown: Readonly<Record<string, PagesUnknown>> = {},
): PagesTarget {
  if (form.pagesMode === 'total') return { total: form.pages! };
  if (form.pagesMode === 'perHost') return { perHost: form.pages! };
  const seedUnknown = Object.entries(unknown).filter(([host]) => seedHosts.has(host));
  return {
    byHost: Object.fromEntries(Object.entries(form.pagesByHost).filter(([host]) => seedHosts.has(host))),
    ...(form.pages !== null ? { otherwise: form.pages } : {}),
    ...(seedUnknown.length > 0 ? { unknown: Object.fromEntries(seedUnknown) } : {}),
  };
}

/** The user agent in effect: the form's override, else the setting. */
export function effectiveUserAgent(form: PlannerForm, settings: PlannerViewSettings): string {
  return form.userAgent.trim() !== '' ? form.userAgent.trim() : settings.userAgent;
}

/** The per-host delay in effect: the form's, else the `crawlPlanner.defaultDelay` setting. */
export function effectiveDelay(form: PlannerForm, settings: PlannerViewSettings): number {
  return form.delaySeconds ?? settings.defaultDelaySeconds;
}

/**
 * Plans the form over checked seeds. `crawlDelayByHost` (from robots.txt) is narrowed to the seeds' hosts, so
 * a Crawl-delay for a host that is no longer a seed never turns into an `override-for-unknown-host` warning;
 * so are the form's own page counts. `dropHosts` (a deadline's "drop" option) leaves those seed hosts out as
 * `crawl-planner estimate --drop-host` does: the other hosts keep their pages (applyPlanChange).
 * With `calibration` (what a test crawl measured), the hosts it saw take their answer times, faults and
 * Crawl-delay from it, as `estimate --calibrate` does. `pagesUnknown` (the hosts the last sitemap sizing could not
 * count) makes a host the form gives no number a host whose pages are unknown, as `estimate --sitemaps` does.
 * `addresses` ("Check shared servers": the seed hosts looked up) lets the plan find hosts on one address, as
 * `estimate --resolve-hosts` does; the form's politeness unit is `--politeness-by`.
 */
export function computePlan(
  form: PlannerForm,
  seeds: SeedsCheck,
  settings: PlannerViewSettings,
  crawlDelayByHost: Readonly<Record<string, number>> = {},
  dropHosts: readonly string[] = [],
  calibration?: Calibration,
  pagesUnknown: Readonly<Record<string, PagesUnknown>> = {},
  addresses?: Pick<PlanInput, 'addressesByHost' | 'unresolvedHosts'>,
): PlanComputation {
  const { seeds: valid, invalid } = seeds.validation;
  const seedHosts = new Set(seeds.hosts);
  const crawlDelays: Record<string, number> = {};
  for (const [host, seconds] of Object.entries(crawlDelayByHost))
    if (seedHosts.has(host) && Number.isFinite(seconds) && seconds >= 0) crawlDelays[host] = seconds;
  const dropped = [...new Set(dropHosts)].filter((h) => seedHosts.has(h));
  const problems: PlanProblem[] = [];
  if (seeds.problem !== undefined) problems.push({ field: 'seeds', message: seeds.problem });
  else if (valid.length === 0) {
    problems.push({
      field: 'seeds',
      message:
        invalid.length > 0
          ? 'No valid seed URL: fix the lines marked above.'
          : 'Enter at least one seed URL (http or https).',
    });
  } else if (dropped.length === seedHosts.size)
    problems.push({ field: 'seeds', message: 'Every seed host is dropped from the plan: plan one of them again.' });
  if (form.pages === null && form.pagesMode !== 'byHost')
    problems.push({ field: 'pages', message: 'Enter the number of pages to plan.' });
  const none = (p: PlanProblem[], input: PlanInput | null): PlanComputation => ({
    plan: null,
    problems: p,
    seeds,
    crawlDelays,
    input,
    dropped,
  });
  if (problems.length > 0) return none(problems, null);

  let input: PlanInput = {
    seeds: valid,
    pages: pagesTarget(form, seedHosts, pagesUnknown),
    ...(form.rate === null ? {} : { rate: form.rate }),
    ...(form.workers === null ? {} : { workers: form.workers }),
    ...(form.machines === null ? {} : { machines: form.machines }),
    ...(form.deadlineSeconds === null ? {} : { deadlineSeconds: form.deadlineSeconds }),
    delaySeconds: effectiveDelay(form, settings),
    delayFrom: form.delayFrom,
    ...(form.latencySeconds === null ? {} : { latencySeconds: form.latencySeconds }),
    crawlDelayByHost: crawlDelays,
    crawlDelayPolicy: settings.crawlDelayPolicy,
    maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
    ...(calibration === undefined ? {} : { calibration }),
    ...(addresses === undefined ? {} : addresses),
    ...(form.politenessBy === DEFAULT_POLITENESS_BY ? {} : { politenessBy: form.politenessBy }),
  };
  // Settings come from the user's configuration and are checked here like everything else.
  const refused = validatePlanInput(input);
  if (refused.length > 0) return none(refused, input);
  if (dropped.length > 0) input = applyPlanChange(input, { dropHosts: dropped });
  return { plan: makePlan(input), problems: [], seeds, crawlDelays, input, dropped };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** An invalid line as the webview shows it: its text cut, invisible characters escaped. */
function shownInvalid(s: InvalidSeed): InvalidSeed {
  return { ...s, text: escapeInvisible(cut(s.text, MAX_SEED_ERROR_TEXT)) };
}

/** The seeds against the last robots.txt check: origins not checked, checked ones no longer seeds, their intervals. */
export function robotsCoverage(c: PlanComputation, robots: RobotsView): RobotsCoverageView {
  const current = new Set(c.seeds.origins);
  const checked = new Set(robots.origins.map((o) => o.origin));
  let unchecked = 0;
  for (const o of c.seeds.origins) if (!checked.has(o)) unchecked++;
  const byHost = new Map(c.plan?.hosts.map((h) => [h.host, h] as const) ?? []);
  const intervals: RobotsCoverageView['intervals'] = [];
  for (const o of robots.origins) {
    let host: string;
    try {
      host = new URL(o.origin).host.toLowerCase();
    } catch {
      continue;
    }
    const h = byHost.get(host);
    if (h) intervals.push({ origin: o.origin, intervalSeconds: h.intervalSeconds, source: h.politenessSource });
  }
  return { unchecked, stale: robots.origins.map((o) => o.origin).filter((o) => !current.has(o)), intervals };
}

/**
 * What the webview is sent of a computation (and of the last robots.txt check, when there is one). `form` is
 * the form it was made from (its hosts' own pages), `planNumber` numbers the plan (the deadline's options name it),
 * `calibration` what a test crawl measured when the plan uses it.
 */
export function planResultView(
  c: PlanComputation,
  robots: RobotsView | undefined,
  form: PlannerForm,
  planNumber: number,
  calibration?: HeldCalibration,
): PlanResultView {
  const v = c.seeds.validation;
  const seedHosts = new Set(c.seeds.hosts);
  const pagesForOtherHosts: string[] = [];
  for (const host of Object.keys(form.pagesByHost)) {
    if (!seedHosts.has(host)) pagesForOtherHosts.push(host);
    if (pagesForOtherHosts.length >= MAX_HOSTS_POSTED) break;
  }
  return {
    summary: c.plan === null ? null : planSummaryView(c.plan),
    problems: c.problems,
    validSeeds: v.seeds.length,
    invalidSeeds: v.invalid.slice(0, MAX_SEED_ERRORS_POSTED).map(shownInvalid),
    invalidSeedCount: v.invalid.length,
    seedNotes: seedNotesByCode(v.notes, MAX_SEED_NOTES_POSTED),
    duplicateSeeds: v.duplicates,
    origins: c.seeds.origins.slice(0, MAX_ORIGINS_POSTED),
    originCount: c.seeds.origins.length,
    crawlDelayHosts: Object.keys(c.crawlDelays),
    robots: robots === undefined ? null : robotsCoverage(c, robots),
    seedHosts: c.seeds.hosts.slice(0, MAX_HOSTS_POSTED),
    seedHostCount: c.seeds.hosts.length,
    pagesForOtherHosts: form.pagesMode === 'byHost' ? pagesForOtherHosts : [],
    dropped: c.dropped.slice(0, MAX_HOSTS_POSTED),
    droppedCount: c.dropped.length,
    deadline: c.plan?.deadline ? deadlineView(c.plan, planNumber, MAX_HOSTS_POSTED) : null,
    calibration: calibration === undefined ? null : calibrationView(c.plan ?? { hosts: [] }, calibration),
  };
}

/** The seed origins containing `query` (case-insensitive), the first `max`, and how many in all. */
export function findOrigins(
  origins: readonly string[],
  query: string,
  max = MAX_ORIGINS_POSTED,
): { origins: string[]; total: number } {
  const q = query.trim().toLowerCase();
  if (q === '') return { origins: origins.slice(0, max), total: origins.length };
  const found: string[] = [];
  let total = 0;
  for (const o of origins) {
    if (!o.toLowerCase().includes(q)) continue;
    if (found.length < max) found.push(o);
    total++;
  }
  return { origins: found, total };
}
