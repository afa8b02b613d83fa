/**
 * The plan's input: every out-of-range field named (validatePlanInput, over PLAN_LIMITS with the one
 * number checker of core/limits.ts), the defaults filled in (resolvePlanInput, PLAN_DEFAULTS), and the
 * seeds grouped by host.
 */
import { formatNumber } from '../format/duration';
import { numberProblem, numberProblemText } from '../limits';
import { effectiveUnknown } from './pages';
import { canonicalAddress } from '../servers/address';
import { DEFAULT_POLITENESS_BY, isPolitenessBy, POLITENESS_BY } from '../servers/units';
import { calendarProblems } from './calendar';
import {
  PLAN_DEFAULTS,
  PLAN_LIMITS,
  type NumberLimit,
  type PlanInput,
  type PlanProblem,
  type ResolvedPlanInput,
} from './types';

/** The record with its keys trimmed and lower-cased (hosts as the plan keys them). */
export function lowerKeys<T = number>(record: Readonly<Record<string, T>> | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  if (record) for (const key of Object.keys(record)) out[key.trim().toLowerCase()] = record[key]!;
  return out;
}

/** Why `value` is not a PagesUnknown ({ code, reason }, two strings), or undefined. */
function pagesUnknownProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'must be { code, reason }';
  const { code, reason } = value as Record<string, unknown>;
  return typeof code === 'string' && typeof reason === 'string' ? undefined : 'code and reason must be text';
}

/** A problem named by the PlanInput field: `workers: 0 must be at least 1`. */
function checkNumber(problems: PlanProblem[], field: string, value: unknown, limit: NumberLimit): void {
  if (value === undefined) return;
  const problem = numberProblem(value, limit);
  if (problem !== undefined)
    problems.push({ field, message: `${field}: ${numberProblemText(problem, String(value), limit)}` });
}

/** Every out-of-range field of `input`, or [] when `plan(input)` will accept it. */
export function validatePlanInput(input: PlanInput): PlanProblem[] {
  return problemsOf(input, () => groupHosts(input.seeds).size);
}

/** validatePlanInput, with the number of distinct seed hosts counted only when the input is a list. */
export function problemsOf(input: PlanInput, countHosts: () => number): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (!Array.isArray(input.seeds)) return [{ field: 'seeds', message: 'seeds: must be a list' }];
  if (typeof input.pages !== 'object' || input.pages === null) {
    return [{ field: 'pages', message: 'pages: give a total or a number per host' }];
  }
  const hostCount = countHosts();
  if (hostCount === 0) problems.push({ field: 'seeds', message: 'seeds: no seed host to plan' });
  if ('byHost' in input.pages) {
    const byHost = input.pages.byHost;
    const some = { ...PLAN_LIMITS.pages, min: 0 };
    if (typeof byHost !== 'object' || byHost === null)
      problems.push({ field: 'pages.byHost', message: 'pages.byHost: must map hosts to page counts' });
    else
      for (const [host, value] of Object.entries(byHost)) checkNumber(problems, `pages.byHost[${host}]`, value, some);
    checkNumber(problems, 'pages.otherwise', input.pages.otherwise, some);
    const unknown = input.pages.unknown;
    if (unknown !== undefined) {
      if (typeof unknown !== 'object' || unknown === null)
        problems.push({
          field: 'pages.unknown',
          message: 'pages.unknown: must map hosts to why their pages are unknown',
        });
      else
        for (const [host, why] of Object.entries(unknown)) {
          const problem = pagesUnknownProblem(why);
          if (problem !== undefined)
            problems.push({ field: `pages.unknown[${host}]`, message: `pages.unknown[${host}]: ${problem}` });
        }
    }
    if (problems.length === 0) {
      const named = Object.values(byHost).reduce((a, b) => a + b, 0);
      if (named + (input.pages.otherwise ?? 0) * hostCount > PLAN_LIMITS.pages.max) {
        problems.push({
          field: 'pages.byHost',
          message: `pages.byHost: more than ${formatNumber(PLAN_LIMITS.pages.max)} pages in all`,
        });
      }
    }
  } else if ('perHost' in input.pages) {
    checkNumber(problems, 'pages.perHost', input.pages.perHost, PLAN_LIMITS.pages);
    if (problems.length === 0 && input.pages.perHost * hostCount > PLAN_LIMITS.pages.max) {
      problems.push({
        field: 'pages.perHost',
        message: `pages.perHost: ${formatNumber(input.pages.perHost)} × ${formatNumber(hostCount)} hosts is more than ${formatNumber(PLAN_LIMITS.pages.max)} pages`,
      });
    }
  } else {
    checkNumber(problems, 'pages.total', input.pages.total, PLAN_LIMITS.pages);
    if (input.pages.total === undefined)
      problems.push({ field: 'pages.total', message: 'pages: give a total or a number per host' });
  }
  checkNumber(problems, 'rate', input.rate, PLAN_LIMITS.rate);
  checkNumber(problems, 'workers', input.workers, PLAN_LIMITS.workers);
  checkNumber(problems, 'delaySeconds', input.delaySeconds, PLAN_LIMITS.delaySeconds);
  checkNumber(problems, 'latencySeconds', input.latencySeconds, PLAN_LIMITS.latencySeconds);
  checkNumber(problems, 'maxCrawlDelaySeconds', input.maxCrawlDelaySeconds, PLAN_LIMITS.maxCrawlDelaySeconds);
  checkNumber(problems, 'perHostConcurrency', input.perHostConcurrency, PLAN_LIMITS.perHostConcurrency);
  checkNumber(problems, 'machines', input.machines, PLAN_LIMITS.machines);
  checkNumber(problems, 'deadlineSeconds', input.deadlineSeconds, PLAN_LIMITS.deadlineSeconds);
  checkNumber(problems, 'pageSizeBytes', input.pageSizeBytes, PLAN_LIMITS.pageSizeBytes);
  for (const [host, value] of Object.entries(input.latencyByHost ?? {})) {
    checkNumber(problems, `latencyByHost[${host}]`, value, PLAN_LIMITS.latencySeconds);
  }
  for (const [host, value] of Object.entries(input.crawlDelayByHost ?? {})) {
    // Crawl-delay comes from untrusted robots.txt files: anything finite and ≥ 0 is read (above the ceiling, as the ceiling).
    checkNumber(problems, `crawlDelayByHost[${host}]`, value, { min: 0, max: Number.MAX_VALUE });
  }
  for (const [host, addresses] of Object.entries(input.addressesByHost ?? {})) {
    // Canonical texts only, so that one address is one key (docs/planning.md#shared-servers).
    const bad = Array.isArray(addresses)
      ? addresses.find((a) => typeof a !== 'string' || canonicalAddress(a) !== a)
      : addresses;
    if (bad !== undefined || !Array.isArray(addresses))
      problems.push({
        field: `addressesByHost[${host}]`,
        message: `addressesByHost[${host}]: "${String(bad)}" is not an IP address in canonical form`,
      });
  }
  problems.push(...calendarProblems(input.calendar));
  if (input.politenessBy !== undefined && !isPolitenessBy(input.politenessBy)) {
    problems.push({
      field: 'politenessBy',
      message: `politenessBy: "${String(input.politenessBy)}" must be ${POLITENESS_BY.join(', ').replace(/, (?=[^,]*$)/, ' or ')}`,
    });
  }
  if (input.delayFrom !== undefined && input.delayFrom !== 'start' && input.delayFrom !== 'end') {
    problems.push({ field: 'delayFrom', message: `delayFrom: "${String(input.delayFrom)}" must be start or end` });
  }
  const policy = input.crawlDelayPolicy;
  if (policy !== undefined && policy !== 'cap' && policy !== 'skip' && policy !== 'obey') {
    problems.push({
      field: 'crawlDelayPolicy',
      message: `crawlDelayPolicy: "${String(policy)}" must be cap, skip or obey`,
    });
  }
  return problems;
}

/** The input with defaults filled in. Does not validate. */
export function resolvePlanInput(input: PlanInput): ResolvedPlanInput {
  return {
    pages: resolvePages(input.pages),
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
    pageSizeBytes: input.pageSizeBytes ?? null,
    calibration: input.calibration ?? null,
    politenessBy: input.politenessBy ?? DEFAULT_POLITENESS_BY,
  };
}

/** The target as planned: with a number per host, `otherwise` a number and `unknown` only the hosts it decides. */
function resolvePages(pages: PlanInput['pages']): ResolvedPlanInput['pages'] {
  if ('byHost' in pages) {
    const byHost = lowerKeys(pages.byHost);
    const unknown = effectiveUnknown({
      byHost,
      ...(pages.otherwise !== undefined ? { otherwise: pages.otherwise } : {}),
      unknown: lowerKeys(pages.unknown),
    });
    return { byHost, otherwise: pages.otherwise ?? 0, ...(Object.keys(unknown).length > 0 ? { unknown } : {}) };
  }
  return 'perHost' in pages ? { perHost: pages.perHost } : { total: pages.total };
}

/** The seeds' URLs (where given), in order, each once. */
export function seedUrlsOf(seeds: ReadonlyArray<{ url?: string }>): string[] {
  const urls = new Set<string>();
  for (const seed of seeds) if (typeof seed.url === 'string') urls.add(seed.url);
  return [...urls];
}

/** Hosts (lower-cased) in first-seen order, each with how many seeds named it. */
export function groupHosts(seeds: ReadonlyArray<{ host: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { host } of seeds) {
    const key = host.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
