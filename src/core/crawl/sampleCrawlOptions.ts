/**
 * The user-facing options of a test crawl (CLI flags, the VS Code task definition, the sidebar button),
 * their limits and defaults, and one validator that names the field it refused. Pure.
 */
import { contactProblem, DEFAULT_PRODUCT_TOKEN } from '../identity';
import { numberProblem, numberProblemText, type NumberLimit } from '../limits';
import type { CrawlDelayPolicy, DelayFrom } from '../politeness/interval';
import { PACING_DEFAULTS, PACING_LIMITS } from '../politeness/pacing';
import { validateProductToken } from '../robots/token';
import { CRAWL_DEFAULTS } from './engineOptions';
import { BLOCK_REACTIONS, type BlockReaction } from './events';
import { budgetTotal, capBudgets, type PageBudgets } from './pageBudgets';
import { DEFAULT_POLITENESS_BY, POLITENESS_BY, type PolitenessBy } from '../servers/units';

export interface SampleCrawlOptions {
  seeds: string[];
  /**
   * Pages (final responses) after which no new URL starts. With `pageBudgets` and none given: the seed hosts'
   * budgets added up.
   */
  maxPages: number;
  /**
   * Each host's page budget (docs/crawl-engine.md#per-host-page-budgets); none: only `maxPages`. Budgets whose
   * seed hosts add up to more than `maxPages` are cut to fit it (capBudgets): the crawl and its plan then agree.
   */
  pageBudgets?: PageBudgets;
  /** Link depth from the seeds (seeds are 0). */
  maxDepth: number;
  /** The configured per-host delay in seconds. */
  delaySeconds: number;
  delayFrom: DelayFrom;
  /** Global slots: requests in flight over all hosts. */
  concurrency: number;
  /** Requests in flight per host (more than 1 is an instantaneous burst; the CLI warns). */
  perHostConcurrency: number;
  /** The bound on one request, from connect to the end of the body, in seconds. */
  timeoutSeconds: number;
  /** The bound on opening a connection (TCP + TLS), in seconds; never more than `timeoutSeconds`. */
  connectTimeoutSeconds: number;
  /** Retries per URL after the first attempt. */
  maxRetries: number;
  /** The robots.txt product token ([a-zA-Z_-]+), sent in the User-Agent header. */
  userAgent: string;
  /** Who runs the crawl, for site operators: an http(s) URL or a mailto: address, sent in the User-Agent header. */
  contactUrl?: string;
  crawlDelayPolicy: CrawlDelayPolicy;
  maxCrawlDelaySeconds: number;
  /** Obey robots.txt (default true). */
  respectRobots: boolean;
  /** The adaptive rule max(1 s, 10 × latency). */
  adaptive: boolean;
  /** Follow links to hosts other than the seeds'. */
  allowOtherHosts: boolean;
  /** Follow redirects to hosts other than the seeds' (not the links found there). */
  followOtherHostRedirects: boolean;
  /** When a host looks like it is blocking the crawl: warn, slow (×2, then drop) or stop (drop at once). */
  onBlock: BlockReaction;
  /** An optional per-host token bucket on top of the interval: at most `ratePerSecond` on average, bursts of `burst`. */
  tokenBucket?: { ratePerSecond: number; burst: number };
  /** Crawl-delays known before the crawl (a plan's, `crawl --plan`), merged by max with robots.txt's. */
  crawlDelayByHost?: Record<string, number>;
  /**
   * The politeness unit (docs/how-it-works.md#politeness-units): `host` (the default, left out), or `ip` (the
   * seed hosts are resolved when the crawl starts) or `domain`, which keep the hosts of one address or one
   * registered domain polite together.
   */
  politenessBy?: PolitenessBy;
}

export const SAMPLE_CRAWL_LIMITS = {
  maxPages: { min: 1, max: 100_000, integer: true },
  maxDepth: { min: 0, max: 100, integer: true },
  delaySeconds: PACING_LIMITS.delaySeconds,
  concurrency: { min: 1, max: 512, integer: true },
  perHostConcurrency: { min: 1, max: 64, integer: true },
  timeoutSeconds: { min: 0, max: 3_600, minExclusive: true },
  connectTimeoutSeconds: { min: 0, max: 600, minExclusive: true },
  maxRetries: { min: 0, max: 20, integer: true },
  maxCrawlDelaySeconds: PACING_LIMITS.maxCrawlDelaySeconds,
  hostRatePerSecond: { min: 0, max: 1_000, minExclusive: true },
  hostBurst: { min: 1, max: 1_000, integer: true },
  /** A host's page budget: as many as a plan may give it (PLAN_LIMITS.pages, 0 allowed: `--pages-for HOST=0`). */
  pageBudget: { min: 0, max: 1e12, integer: true },
  /** A Crawl-delay known before the crawl: as a plan takes it (PLAN_LIMITS.crawlDelaySeconds). */
  crawlDelay: { min: 0, max: 1e7 },
} as const satisfies Record<string, NumberLimit>;

/**
 * A test crawl's defaults: the pacing every crawl shares (PACING_DEFAULTS), the engine's for what it
 * reads (pages, depth, retries, other hosts: CRAWL_DEFAULTS), and the ones only a test crawl has (the
 * timeouts, the product token, obeying robots.txt).
 */
export const SAMPLE_CRAWL_DEFAULTS = {
  maxPages: CRAWL_DEFAULTS.maxPages,
  maxDepth: CRAWL_DEFAULTS.maxDepth,
  delaySeconds: PACING_DEFAULTS.delaySeconds,
  delayFrom: PACING_DEFAULTS.delayFrom,
  concurrency: PACING_DEFAULTS.concurrency,
  perHostConcurrency: PACING_DEFAULTS.perHostConcurrency,
  /** One request, connect to the end of the body. */
  timeoutSeconds: 15,
  /** Opening a connection (TCP + TLS). */
  connectTimeoutSeconds: 10,
  maxRetries: CRAWL_DEFAULTS.maxRetries,
  userAgent: DEFAULT_PRODUCT_TOKEN,
  crawlDelayPolicy: PACING_DEFAULTS.crawlDelayPolicy,
  maxCrawlDelaySeconds: PACING_DEFAULTS.maxCrawlDelaySeconds,
  respectRobots: true,
  adaptive: PACING_DEFAULTS.adaptive,
  allowOtherHosts: CRAWL_DEFAULTS.allowOtherHosts,
  followOtherHostRedirects: CRAWL_DEFAULTS.followOtherHostRedirects,
  onBlock: CRAWL_DEFAULTS.onBlock,
} as const satisfies Omit<
  SampleCrawlOptions,
  'seeds' | 'contactUrl' | 'tokenBucket' | 'pageBudgets' | 'crawlDelayByHost' | 'politenessBy'
>;

/** A refused option; `field` is the option's name as the caller knows it. */
export class CrawlOptionsError extends Error {
  override readonly name = 'CrawlOptionsError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

export const MAX_SEEDS = 10_000;

function num(field: keyof typeof SAMPLE_CRAWL_LIMITS, value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  const limit: NumberLimit = SAMPLE_CRAWL_LIMITS[field];
  const problem = numberProblem(n, limit);
  if (problem !== undefined)
    throw new CrawlOptionsError(
      field,
      numberProblemText(problem, problem === 'not-finite' ? JSON.stringify(value) : String(n), limit),
    );
  return n as number;
}

function choice<T extends string>(field: string, value: unknown, choices: readonly T[], fallback: T): T {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw new CrawlOptionsError(field, `${JSON.stringify(value)} must be one of ${choices.join(', ')}`);
}

function bool(field: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  throw new CrawlOptionsError(field, `${JSON.stringify(value)} must be true or false`);
}

function tokenBucket(o: Record<string, unknown>): Pick<SampleCrawlOptions, 'tokenBucket'> {
  if (o.hostRatePerSecond === undefined || o.hostRatePerSecond === null) {
    if (o.hostBurst !== undefined && o.hostBurst !== null)
      throw new CrawlOptionsError('hostBurst', 'only with hostRatePerSecond');
    return {};
  }
  const ratePerSecond = num('hostRatePerSecond', o.hostRatePerSecond, 1);
  const burst = num('hostBurst', o.hostBurst, 1);
  return { tokenBucket: { ratePerSecond, burst } };
}

/** One budget (0 when not given), refused as `pageBudgets: WHAT: …`. */
function budget(value: unknown, what: string): number {
  try {
    return num('pageBudget', value, 0);
  } catch (err) {
    if (err instanceof CrawlOptionsError)
      throw new CrawlOptionsError('pageBudgets', `${what}: ${err.message.slice(err.field.length + 2)}`);
    throw err;
  }
}

/** The budgets as given ({ byHost, otherwise }), checked; undefined when none. */
function pageBudgets(value: unknown): PageBudgets | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new CrawlOptionsError('pageBudgets', 'must be { byHost, otherwise }');
  const v = value as Record<string, unknown>;
  const byHostRaw = v.byHost ?? {};
  if (typeof byHostRaw !== 'object' || byHostRaw === null || Array.isArray(byHostRaw))
    throw new CrawlOptionsError('pageBudgets', 'byHost must be an object of host: pages');
  const entries = Object.entries(byHostRaw);
  if (entries.length > MAX_SEEDS) throw new CrawlOptionsError('pageBudgets', `at most ${MAX_SEEDS} hosts`);
  const byHost: Record<string, number> = {};
  for (const [host, n] of entries) {
    if (!/^[^\s/?#@]+$/.test(host)) throw new CrawlOptionsError('pageBudgets', `${JSON.stringify(host)} is not a host`);
    byHost[host.toLowerCase()] = budget(n, host);
  }
  return { byHost, otherwise: budget(v.otherwise, 'otherwise') };
}

/** Crawl-delays by host as given, checked; {} when none. */
function crawlDelayByHost(value: unknown): Pick<SampleCrawlOptions, 'crawlDelayByHost'> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new CrawlOptionsError('crawlDelayByHost', 'must be an object of host: seconds');
  const entries = Object.entries(value);
  if (entries.length > MAX_SEEDS) throw new CrawlOptionsError('crawlDelayByHost', `at most ${MAX_SEEDS} hosts`);
  const out: Record<string, number> = {};
  for (const [host, n] of entries) {
    if (!/^[^\s/?#@]+$/.test(host))
      throw new CrawlOptionsError('crawlDelayByHost', `${JSON.stringify(host)} is not a host`);
    const limit: NumberLimit = SAMPLE_CRAWL_LIMITS.crawlDelay;
    const problem = numberProblem(n, limit);
    if (problem !== undefined)
      throw new CrawlOptionsError('crawlDelayByHost', `${host}: ${numberProblemText(problem, String(n), limit)}`);
    out[host.toLowerCase()] = n as number;
  }
  return Object.keys(out).length > 0 ? { crawlDelayByHost: out } : {};
}

/** The politeness unit as given, checked; {} for the default (`host`). */
function politenessBy(value: unknown): Pick<SampleCrawlOptions, 'politenessBy'> {
  const by = choice('politenessBy', value, POLITENESS_BY, DEFAULT_POLITENESS_BY);
  return by === DEFAULT_POLITENESS_BY ? {} : { politenessBy: by };
}

/** `maxPages` and the budgets together: the budgets' total by default, and budgets cut to fit a smaller cap. */
function pagesAndBudgets(
  o: Record<string, unknown>,
  seeds: readonly string[],
): Pick<SampleCrawlOptions, 'maxPages' | 'pageBudgets'> {
  const budgets = pageBudgets(o.pageBudgets);
  if (budgets === undefined) return { maxPages: num('maxPages', o.maxPages, SAMPLE_CRAWL_DEFAULTS.maxPages) };
  const hosts = seeds.map((s) => new URL(s).host);
  const total = budgetTotal(budgets, hosts);
  const limit = SAMPLE_CRAWL_LIMITS.maxPages;
  if (o.maxPages === undefined || o.maxPages === null) {
    if (total === 0)
      throw new CrawlOptionsError('pageBudgets', "every seed host's budget is 0 pages: nothing to crawl");
    if (total > limit.max)
      throw new CrawlOptionsError(
        'maxPages',
        `the seed hosts' page budgets add up to ${total} pages, above the ${limit.max} a crawl fetches: give maxPages`,
      );
    return { maxPages: total, pageBudgets: budgets };
  }
  const maxPages = num('maxPages', o.maxPages, SAMPLE_CRAWL_DEFAULTS.maxPages);
  return { maxPages, pageBudgets: capBudgets(budgets, hosts, maxPages) };
}

/**
 * Validates untrusted options (a tasks.json entry, a webview message, parsed flags) into SampleCrawlOptions.
 * Seeds must be absolute http(s) URLs; the first bad one is named with its position.
 */
export function validateSampleCrawlOptions(raw: unknown): SampleCrawlOptions {
  if (typeof raw !== 'object' || raw === null) throw new CrawlOptionsError('options', 'must be an object');
  const o = raw as Record<string, unknown>;
  if (!Array.isArray(o.seeds) || o.seeds.length === 0)
    throw new CrawlOptionsError('seeds', 'give at least one seed URL');
  if (o.seeds.length > MAX_SEEDS) throw new CrawlOptionsError('seeds', `at most ${MAX_SEEDS} seeds`);
  const seeds = o.seeds.map((s, i) => {
    if (typeof s !== 'string') throw new CrawlOptionsError('seeds', `item ${i + 1} is not a string`);
    let u: URL;
    try {
      u = new URL(s.trim());
    } catch {
      throw new CrawlOptionsError('seeds', `item ${i + 1} is not a URL: ${JSON.stringify(s.slice(0, 200))}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new CrawlOptionsError('seeds', `item ${i + 1} is not http or https: ${u.protocol}`);
    u.hash = '';
    return u.href;
  });
  const d = SAMPLE_CRAWL_DEFAULTS;
  const userAgent = o.userAgent === undefined || o.userAgent === null ? d.userAgent : o.userAgent;
  if (typeof userAgent !== 'string') throw new CrawlOptionsError('userAgent', 'must be a string');
  const tokenProblem = validateProductToken(userAgent);
  if (tokenProblem !== undefined) throw new CrawlOptionsError('userAgent', tokenProblem);
  if (o.contactUrl !== undefined && o.contactUrl !== null && typeof o.contactUrl !== 'string')
    throw new CrawlOptionsError('contactUrl', 'must be a string');
  const contactBad =
    typeof o.contactUrl === 'string' && o.contactUrl.trim() !== '' ? contactProblem(o.contactUrl) : undefined;
  if (contactBad !== undefined) throw new CrawlOptionsError('contactUrl', contactBad);
  return {
    seeds,
    ...pagesAndBudgets(o, seeds),
    maxDepth: num('maxDepth', o.maxDepth, d.maxDepth),
    delaySeconds: num('delaySeconds', o.delaySeconds, d.delaySeconds),
    delayFrom: choice('delayFrom', o.delayFrom, ['start', 'end'] as const, d.delayFrom),
    concurrency: num('concurrency', o.concurrency, d.concurrency),
    perHostConcurrency: num('perHostConcurrency', o.perHostConcurrency, d.perHostConcurrency),
    timeoutSeconds: num('timeoutSeconds', o.timeoutSeconds, d.timeoutSeconds),
    connectTimeoutSeconds: num('connectTimeoutSeconds', o.connectTimeoutSeconds, d.connectTimeoutSeconds),
    maxRetries: num('maxRetries', o.maxRetries, d.maxRetries),
    userAgent,
    ...(typeof o.contactUrl === 'string' && o.contactUrl.trim() !== '' ? { contactUrl: o.contactUrl.trim() } : {}),
    crawlDelayPolicy: choice(
      'crawlDelayPolicy',
      o.crawlDelayPolicy,
      ['cap', 'skip', 'obey'] as const,
      d.crawlDelayPolicy,
    ),
    maxCrawlDelaySeconds: num('maxCrawlDelaySeconds', o.maxCrawlDelaySeconds, d.maxCrawlDelaySeconds),
    respectRobots: bool('respectRobots', o.respectRobots, d.respectRobots),
    adaptive: bool('adaptive', o.adaptive, d.adaptive),
    allowOtherHosts: bool('allowOtherHosts', o.allowOtherHosts, d.allowOtherHosts),
    followOtherHostRedirects: bool('followOtherHostRedirects', o.followOtherHostRedirects, d.followOtherHostRedirects),
    onBlock: choice('onBlock', o.onBlock, BLOCK_REACTIONS, d.onBlock),
    ...tokenBucket(o),
    ...crawlDelayByHost(o.crawlDelayByHost),
    ...politenessBy(o.politenessBy),
  };
}
