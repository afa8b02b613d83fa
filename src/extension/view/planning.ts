/**
 * The planner's host-side computation: the form and the settings (and robots.txt Crawl-delays) in, the
 * plan out. Pure (no vscode, no I/O) so it is tested in node; the plan itself is `src/core/plan`'s, this
 * only wires the form to `PlanInput` and trims what is posted to the webview.
 */
import { plan as makePlan, validatePlanInput, type Plan, type PlanInput, type PlanProblem } from '../../core/plan';
import { validateSeeds, type InvalidSeed, type Seed, type SeedLineInput } from '../../core/seeds';
import type { PlannerForm, PlannerViewSettings, PlanResultView } from '../../shared/protocol';

/** Invalid seed lines posted to the webview (the JSON copy has them all). */
export const MAX_SEED_ERRORS_POSTED = 100;
/** An invalid line's text is cut to this many characters in the webview (it is shown, not used). */
export const MAX_SEED_ERROR_TEXT = 200;

/**
 * The seed lines of the text area, read as the CLI reads `--seeds-file`: `#` starts a comment (at the
 * start of a line or after whitespace), lines are trimmed, blank lines are skipped, line numbers are
 * 1-based positions in the text area.
 */
export function seedLinesFromText(text: string): SeedLineInput[] {
  const lines: SeedLineInput[] = [];
  text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).forEach((raw, i) => {
    const stripped = raw.replace(/(^|\s)#.*$/, '').trim();
    if (stripped !== '') lines.push({ text: stripped, line: i + 1 });
  });
  return lines;
}

export interface PlanComputation {
  /** What the webview is sent. */
  view: PlanResultView;
  plan: Plan | null;
  /** Every usable seed, in order. */
  seeds: Seed[];
  /** Every invalid line, uncut (for the JSON document). */
  invalid: InvalidSeed[];
  /** The PlanInput the plan was made from (also when it was refused). */
  input: PlanInput | null;
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
 * Plans the form. `crawlDelayByHost` (from robots.txt) is narrowed to the seeds' hosts, so a Crawl-delay
 * for a host that is no longer a seed never turns into an `override-for-unknown-host` warning.
 */
export function computePlan(
  form: PlannerForm,
  settings: PlannerViewSettings,
  crawlDelayByHost: Readonly<Record<string, number>> = {},
): PlanComputation {
  const { seeds, invalid } = validateSeeds(seedLinesFromText(form.seeds));
  const origins = [...new Set(seeds.map((s) => s.origin))];
  const hosts = new Set(seeds.map((s) => s.host));
  const crawlDelays: Record<string, number> = {};
  for (const [host, seconds] of Object.entries(crawlDelayByHost)) {
    if (hosts.has(host) && Number.isFinite(seconds) && seconds >= 0) crawlDelays[host] = seconds;
  }
  const base = {
    validSeeds: seeds.length,
    invalidSeeds: invalid.slice(0, MAX_SEED_ERRORS_POSTED).map((s) => ({
      ...s,
      text: s.text.length > MAX_SEED_ERROR_TEXT ? `${s.text.slice(0, MAX_SEED_ERROR_TEXT)}…` : s.text,
    })),
    invalidSeedCount: invalid.length,
    origins,
    crawlDelayHosts: Object.keys(crawlDelays),
  };

  const problems: PlanProblem[] = [];
  if (seeds.length === 0) {
    problems.push({
      field: 'seeds',
      message: invalid.length > 0 ? 'No valid seed URL: fix the lines marked above.' : 'Enter at least one seed URL (http or https).',
    });
  }
  if (form.pages === null) problems.push({ field: 'pages', message: 'Enter the number of pages to plan.' });
  if (problems.length > 0) return { view: { ...base, plan: null, problems }, plan: null, seeds, invalid, input: null };

  const input: PlanInput = {
    seeds,
    pages: form.pagesMode === 'total' ? { total: form.pages! } : { perHost: form.pages! },
    ...(form.rate === null ? {} : { rate: form.rate }),
    ...(form.workers === null ? {} : { workers: form.workers }),
    delaySeconds: effectiveDelay(form, settings),
    delayFrom: form.delayFrom,
    ...(form.latencySeconds === null ? {} : { latencySeconds: form.latencySeconds }),
    crawlDelayByHost: crawlDelays,
    crawlDelayPolicy: settings.crawlDelayPolicy,
    maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
  };
  // Settings come from the user's configuration and are checked here like everything else.
  const refused = validatePlanInput(input);
  if (refused.length > 0) return { view: { ...base, plan: null, problems: refused }, plan: null, seeds, invalid, input };
  const result = makePlan(input);
  return { view: { ...base, plan: result, problems: [] }, plan: result, seeds, invalid, input };
}
