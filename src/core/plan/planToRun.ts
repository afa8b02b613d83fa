/**
 * An estimate document (`estimate --json`, src/core/plan/document.ts) read back as the crawl it plans, for
 * `crawl --plan` (docs/cli.md#crawl-planner-crawl): its seed URLs, each host's page budget (its planned pages:
 * the one rule, src/core/crawl/pageBudgets.ts), its Crawl-delays and the settings a crawl keeps. A host the plan cannot give a
 * budget (its pages unknown, skipped for its Crawl-delay, no pages) is left out, with why. The document is
 * untrusted input (a file): every field read is checked, and anything else is a PlanDocumentError saying why.
 */
import { plannedHostBudget, type PageBudgets } from '../crawl/pageBudgets';
import { SAMPLE_CRAWL_LIMITS } from '../crawl/sampleCrawlOptions';
import { numberProblem, numberProblemText, type NumberLimit } from '../limits';
import type { CrawlDelayPolicy, DelayFrom } from '../politeness/interval';
import { parseSeedUrl } from '../seeds';
import { DEFAULT_POLITENESS_BY, POLITENESS_BY, type PolitenessBy } from '../servers/units';
import { ESTIMATE_SCHEMA_VERSION } from './document';
import { PLAN_LIMITS } from './types';

/** A file that is not an estimate document a crawl can run; the message says why, in one line. */
export class PlanDocumentError extends Error {
  override readonly name = 'PlanDocumentError';
}

/** A host of the plan that the crawl leaves out, and why. */
export interface HostLeftOut {
  host: string;
  why: 'pages-unknown' | 'skipped' | 'no-pages';
  /** For `pages-unknown`: the plan's reason (its sizing could not read the host's sitemaps, …). */
  reason?: string;
}

/** The crawl an estimate document plans. */
export interface PlanToRun {
  /** The plan's seed URLs of the hosts it runs, in order. */
  seeds: string[];
  /** Each host run has its planned pages; every other host 0. */
  pageBudgets: PageBudgets;
  /** The plan's Crawl-delays of the hosts it runs (typed, or from robots.txt with --robots): the crawl keeps them. */
  crawlDelayByHost: Record<string, number>;
  /** The hosts run, with their planned figures (for the report's planned-against-actual). */
  hosts: Array<{ host: string; pages: number; requests: number; seconds: number }>;
  leftOut: HostLeftOut[];
  settings: {
    delaySeconds: number;
    delayFrom: DelayFrom;
    /** The plan's workers: the crawl's global slots. */
    concurrency: number;
    perHostConcurrency: number;
    crawlDelayPolicy: CrawlDelayPolicy;
    maxCrawlDelaySeconds: number;
    adaptive: boolean;
    latencySeconds: number;
  };
  /**
   * The politeness unit the plan kept (`settings.politenessBy`, docs/planning.md#politeness-units): the crawl
   * keys its queues the same way. A document from before the setting existed reads as `host`.
   */
  politenessBy: PolitenessBy;
  /** What a crawl does not keep, for a warning: a global rate (null: none), machines (null: none). */
  rate: number | null;
  machines: number | null;
  /** The plan used a test crawl's calibration. */
  calibrated: boolean;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function number(where: string, value: unknown, limit: NumberLimit): number {
  const problem = numberProblem(value, limit);
  if (problem !== undefined)
    throw new PlanDocumentError(`${where}: ${numberProblemText(problem, JSON.stringify(value) ?? 'nothing', limit)}`);
  return value as number;
}

function choice<T extends string>(where: string, value: unknown, choices: readonly T[]): T {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw new PlanDocumentError(`${where}: ${JSON.stringify(value) ?? 'nothing'} is not one of ${choices.join(', ')}`);
}

/** The document's top level: an estimate document of the schema this version reads, or why not. */
function checkShape(doc: unknown): Json {
  if (!isObject(doc)) throw new PlanDocumentError('not an estimate document (estimate --json): not a JSON object');
  if (doc.schemaVersion === undefined) {
    const report = 'requests' in doc && 'summary' in doc;
    throw new PlanDocumentError(
      report
        ? 'a crawl report, not an estimate document: give what estimate --json wrote'
        : 'not an estimate document (estimate --json): it has no schemaVersion',
    );
  }
  if (doc.schemaVersion !== ESTIMATE_SCHEMA_VERSION)
    throw new PlanDocumentError(
      `schemaVersion ${JSON.stringify(doc.schemaVersion)}: this crawl-planner reads estimate documents of schemaVersion ${ESTIMATE_SCHEMA_VERSION}`,
    );
  if (!Array.isArray(doc.hosts) || !isObject(doc.settings) || !('totalSeconds' in doc))
    throw new PlanDocumentError('not an estimate document (estimate --json): no hosts, settings or totalSeconds');
  if (!Array.isArray(doc.seedUrls))
    throw new PlanDocumentError(
      'it has no seedUrls (an estimate document from before crawl --plan): make it again with estimate --json',
    );
  return doc;
}

/** Reads an estimate document as the crawl it plans. Throws PlanDocumentError. */
export function planToRun(doc: unknown): PlanToRun {
  const d = checkShape(doc);
  const s = d.settings as Json;
  const L = SAMPLE_CRAWL_LIMITS;
  const settings: PlanToRun['settings'] = {
    delaySeconds: number('settings.delaySeconds', s.delaySeconds, L.delaySeconds),
    delayFrom: choice('settings.delayFrom', s.delayFrom, ['start', 'end'] as const),
    concurrency: number('settings.workers', s.workers, L.concurrency),
    perHostConcurrency: number('settings.perHostConcurrency', s.perHostConcurrency, L.perHostConcurrency),
    crawlDelayPolicy: choice('settings.crawlDelayPolicy', s.crawlDelayPolicy, ['cap', 'skip', 'obey'] as const),
    maxCrawlDelaySeconds: number('settings.maxCrawlDelaySeconds', s.maxCrawlDelaySeconds, L.maxCrawlDelaySeconds),
    adaptive: s.adaptive === true,
    latencySeconds: number('settings.latencySeconds', s.latencySeconds, PLAN_LIMITS.latencySeconds),
  };
  const politenessBy =
    s.politenessBy === undefined
      ? DEFAULT_POLITENESS_BY
      : choice('settings.politenessBy', s.politenessBy, POLITENESS_BY);
  if (typeof s.adaptive !== 'boolean') throw new PlanDocumentError('settings.adaptive: must be true or false');
  const rate = s.rate === null || s.rate === undefined ? null : number('settings.rate', s.rate, PLAN_LIMITS.rate);
  const machines =
    s.machines === null || s.machines === undefined
      ? null
      : number('settings.machines', s.machines, PLAN_LIMITS.machines);

  const budgets: Record<string, number> = {};
  const hosts: PlanToRun['hosts'] = [];
  const leftOut: HostLeftOut[] = [];
  const known = new Set<string>();
  const pagesLimit: NumberLimit = { ...PLAN_LIMITS.pages, min: 0 };
  (d.hosts as unknown[]).forEach((raw, i) => {
    const where = `hosts[${i}]`;
    if (!isObject(raw) || typeof raw.host !== 'string' || !/^[^\s/?#@]+$/.test(raw.host))
      throw new PlanDocumentError(`${where}: not a host of a plan`);
    const host = raw.host.toLowerCase();
    if (known.has(host)) throw new PlanDocumentError(`${where}: ${host} is listed twice`);
    known.add(host);
    const skipped = raw.skipped === true;
    const pages = raw.pages === null ? null : number(`${where}.pages`, raw.pages, pagesLimit);
    // The host's budget by the one rule (src/core/crawl/pageBudgets.ts); a host without one is left out, with why.
    const budget = plannedHostBudget({
      host,
      pages,
      skipped,
      ...(pages === null ? { pagesUnknown: raw.pagesUnknown ?? null } : {}),
    });
    if (budget === 0) {
      if (skipped) leftOut.push({ host, why: 'skipped' });
      else if (pages === null) {
        const why =
          isObject(raw.pagesUnknown) && typeof raw.pagesUnknown.reason === 'string' ? raw.pagesUnknown.reason : '';
        leftOut.push({ host, why: 'pages-unknown', ...(why !== '' ? { reason: why } : {}) });
      } else leftOut.push({ host, why: 'no-pages' });
      return;
    }
    budgets[host] = budget;
    hosts.push({
      host,
      pages: budget,
      requests: number(`${where}.requests`, raw.requests, { min: 0, max: Infinity, integer: true }),
      seconds: number(`${where}.seconds`, raw.seconds, { min: 0, max: Infinity }),
    });
  });

  const crawlDelayByHost: Record<string, number> = {};
  if (s.crawlDelayByHost !== undefined) {
    if (!isObject(s.crawlDelayByHost)) throw new PlanDocumentError('settings.crawlDelayByHost: must be an object');
    for (const [host, n] of Object.entries(s.crawlDelayByHost)) {
      const seconds = number(`settings.crawlDelayByHost ${host}`, n, PLAN_LIMITS.crawlDelaySeconds);
      if (Object.hasOwn(budgets, host.toLowerCase())) crawlDelayByHost[host.toLowerCase()] = seconds;
    }
  }
  const seeds: string[] = [];
  (d.seedUrls as unknown[]).forEach((raw, i) => {
    const parsed = typeof raw === 'string' ? parseSeedUrl(raw) : undefined;
    if (parsed === undefined || 'problem' in parsed) throw new PlanDocumentError(`seedUrls[${i}]: not an http(s) URL`);
    if (!known.has(parsed.host))
      throw new PlanDocumentError(`seedUrls[${i}]: ${parsed.host} is not a host of the plan`);
    if (Object.hasOwn(budgets, parsed.host)) seeds.push(parsed.url);
  });
  if (seeds.length === 0) {
    throw new PlanDocumentError(
      hosts.length === 0 ? 'no host of the plan has pages to crawl' : 'no seed URL of a host the plan gives pages',
    );
  }
  return {
    seeds,
    pageBudgets: { byHost: budgets, otherwise: 0 },
    crawlDelayByHost,
    hosts,
    leftOut,
    settings,
    politenessBy,
    rate,
    machines,
    calibrated: d.calibration !== null && d.calibration !== undefined,
  };
}
