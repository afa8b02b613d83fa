/**
 * The seeds and plan options of `estimate` and `export` (PLAN_OPTIONS) and how they are read: the flags → a
 * PlanInput without seeds (planInputFromOptions), the robots.txt fetch options (robotsOptions), and the
 * core's plan input errors in the flags' words. Every reader throws UsageError with a one-line message.
 */
import { sanitizeText } from '../core/format/table';
import {
  parseByteSizeText,
  parseDeadlineText,
  PLAN_LIMITS,
  type NumberLimit,
  type PlanInput,
  type PlanInputError,
} from '../core/plan';
import type { Seed } from '../core/seeds';
import { userAgentHeader } from '../net/userAgent';
import { parse, parseChoice, parseNumber, UsageError } from './args';
import { contactOption } from './contact';
import { checkPagesOptions } from './estimateSitemaps';
import { parseHost } from './hostOption';
import { POLITENESS_BY_OPTIONS, politenessByOption, RESOLVE_HOSTS_OPTIONS } from './resolveOption';
import { calendarOption, WINDOW_OPTIONS } from './windowOptions';
import { FETCH_OPTIONS, productTokenOption, ROBOTS_TIMEOUT_DEFAULT_SECONDS, ROBOTS_TIMEOUT_LIMIT } from './robots';

/** The seeds, plan, robots.txt and calibration options, shared with `export` (which exports exactly the plan `estimate` prints). */
export const PLAN_OPTIONS = {
  // Who fetches robots.txt and the sitemaps (--robots, --sitemaps) and how long each fetch may take; --delay and
  // the Crawl-delay options also set the plan's intervals.
  ...FETCH_OPTIONS,
  'seeds-file': { type: 'string' },
  pages: { type: 'string' },
  'pages-per-host': { type: 'string' },
  'pages-for': { type: 'string', multiple: true },
  sitemaps: { type: 'boolean' },
  'changed-since': { type: 'string' },
  rate: { type: 'string' },
  workers: { type: 'string' },
  'delay-from': { type: 'string' },
  latency: { type: 'string' },
  'latency-for': { type: 'string', multiple: true },
  'crawl-delay': { type: 'string', multiple: true },
  adaptive: { type: 'boolean' },
  'per-host-concurrency': { type: 'string' },
  machines: { type: 'string' },
  deadline: { type: 'string' },
  'page-size': { type: 'string' },
  'drop-host': { type: 'string', multiple: true },
  robots: { type: 'boolean' },
  calibrate: { type: 'string' },
  ...RESOLVE_HOSTS_OPTIONS,
  ...WINDOW_OPTIONS,
  ...POLITENESS_BY_OPTIONS,
} as const;

const L = PLAN_LIMITS;

/** PlanInput fields → the option that sets them, for error messages from the core. */
const FIELD_OPTIONS: Readonly<Record<string, string>> = {
  'pages.total': '--pages',
  'pages.perHost': '--pages-per-host',
  'pages.byHost': '--pages-for',
  'pages.otherwise': '--pages-per-host',
  rate: '--rate',
  workers: '--workers',
  delaySeconds: '--delay',
  latencySeconds: '--latency',
  maxCrawlDelaySeconds: '--max-crawl-delay',
  perHostConcurrency: '--per-host-concurrency',
  machines: '--machines',
  deadlineSeconds: '--deadline',
  pageSizeBytes: '--page-size',
};

/** The core's first input problem, with the option that sets the field named in place of the field. */
export function planInputUsageError(err: PlanInputError): UsageError {
  const first = err.problems[0]!;
  const option = FIELD_OPTIONS[first.field];
  return new UsageError(option ? first.message.replace(`${first.field}:`, `${option}:`) : first.message);
}

/** "HOST=SECONDS" (HOST may also be a URL) → [host, seconds]; `unit` names the value in messages. */
function parseHostSeconds(name: string, raw: string, limit: NumberLimit, unit = 'SECONDS'): [string, number] {
  const eq = raw.lastIndexOf('=');
  const hostText = eq < 0 ? '' : raw.slice(0, eq).trim();
  const valueText = eq < 0 ? '' : raw.slice(eq + 1);
  if (hostText === '' || valueText.trim() === '') {
    throw new UsageError(`--${name}: "${sanitizeText(raw)}" must be HOST=${unit}`);
  }
  const host = parseHost(name, hostText);
  return [host, parseNumber(`${name} ${host}`, valueText, limit)!];
}

/** --drop-host: seed hosts to leave out, checked against the seeds (a typo is an error, not a no-op). */
export function dropHostsOption(raws: string[] | undefined, seeds: readonly Seed[]): string[] {
  if (raws === undefined) return [];
  const known = new Set(seeds.map((s) => s.host));
  const hosts = [...new Set(raws.map((raw) => parseHost('drop-host', raw.trim())))];
  for (const host of hosts)
    if (!known.has(host)) throw new UsageError(`--drop-host: ${sanitizeText(host)} is not the host of any seed`);
  if (hosts.length === known.size) throw new UsageError('--drop-host: every seed host is dropped; nothing to plan');
  return hosts;
}

function parseHostMap(
  name: string,
  raws: string[] | undefined,
  limit: NumberLimit,
  unit?: string,
): Record<string, number> | undefined {
  if (raws === undefined) return undefined;
  const out: Record<string, number> = {};
  for (const raw of raws) {
    const [host, seconds] = parseHostSeconds(name, raw, limit, unit);
    out[host] = seconds;
  }
  return out;
}

/** Seconds, or a duration text ("36h", "2d", "1d12h"), within the deadline limits. */
function parseDeadline(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) || /^[+-]?(inf|infinity|nan)$/i.test(text)) {
    return parseNumber('deadline', raw, L.deadlineSeconds);
  }
  const read = parseDeadlineText(raw);
  if ('problem' in read) throw new UsageError(`--deadline: ${sanitizeText(read.problem)}`);
  return read.seconds;
}

/** --page-size SIZE: bytes per page on the wire for hosts a calibration did not measure ("80KB", "1.5MB", bytes). */
export function pageSizeOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const read = parseByteSizeText(raw);
  if ('problem' in read) throw new UsageError(`--page-size: ${sanitizeText(read.problem)}`);
  return read.bytes;
}

export type PlanValues = ReturnType<typeof parse<typeof PLAN_OPTIONS>>['values'];

/**
 * --pages-per-host N and --pages-for HOST=N (repeatable), read one way for `estimate`, `export` and `crawl` (its
 * page budgets): the limits, the HOST=N form (a host may be a URL; `HOST=0` is allowed) and the error texts.
 */
export function pagesPerHostOption(raw: string | undefined): number | undefined {
  return parseNumber('pages-per-host', raw, L.pages);
}

/** --pages-for HOST=N: see {@link pagesPerHostOption}. */
export function pagesForOption(raws: string[] | undefined): Record<string, number> | undefined {
  return parseHostMap('pages-for', raws, { ...L.pages, min: 0 }, 'N');
}

/** The options as a PlanInput without seeds. Throws UsageError with a one-line message. */
export function planInputFromOptions(values: PlanValues): Omit<PlanInput, 'seeds'> {
  const total = parseNumber('pages', values.pages, L.pages);
  const perHost = pagesPerHostOption(values['pages-per-host']);
  if (total !== undefined && perHost !== undefined)
    throw new UsageError('--pages and --pages-per-host: give one, not both');
  checkPagesOptions(values);
  if (total === undefined && perHost === undefined && !values.sitemaps)
    throw new UsageError('--pages, --pages-per-host or --sitemaps is required');
  const byHost = pagesForOption(values['pages-for']);
  // Typed per-host counts (byHost); with --sitemaps the sitemap step adds the other hosts' counts.
  const input: Omit<PlanInput, 'seeds'> = {
    pages:
      byHost !== undefined || values.sitemaps
        ? { byHost: byHost ?? {}, otherwise: perHost ?? 0 }
        : total !== undefined
          ? { total }
          : { perHost: perHost! },
    rate: parseNumber('rate', values.rate, L.rate),
    workers: parseNumber('workers', values.workers, L.workers),
    delaySeconds: parseNumber('delay', values.delay, L.delaySeconds),
    delayFrom: parseChoice('delay-from', values['delay-from'], ['start', 'end'] as const),
    latencySeconds: parseNumber('latency', values.latency, L.latencySeconds),
    latencyByHost: parseHostMap('latency-for', values['latency-for'], L.latencySeconds),
    crawlDelayByHost: parseHostMap('crawl-delay', values['crawl-delay'], L.crawlDelaySeconds),
    crawlDelayPolicy: parseChoice('crawl-delay-policy', values['crawl-delay-policy'], ['cap', 'skip', 'obey'] as const),
    maxCrawlDelaySeconds: parseNumber('max-crawl-delay', values['max-crawl-delay'], L.maxCrawlDelaySeconds),
    adaptive: values.adaptive,
    perHostConcurrency: parseNumber('per-host-concurrency', values['per-host-concurrency'], L.perHostConcurrency),
    machines: parseNumber('machines', values.machines, L.machines),
    deadlineSeconds: parseDeadline(values.deadline),
    pageSizeBytes: pageSizeOption(values['page-size']),
    calendar: calendarOption(values, Date.now()),
    // docs/planning.md#politeness-units; unset is the default, host.
    politenessBy: values['politeness-by'] === undefined ? undefined : politenessByOption(values['politeness-by']),
  };
  // Leave unset options out so that the plan's defaults (and its "was this asked for?" checks) apply.
  for (const key of Object.keys(input) as Array<keyof typeof input>) if (input[key] === undefined) delete input[key];
  return input;
}

export type RobotsOptions = {
  productToken: string;
  contact: string;
  requireContact: boolean;
  header: string;
  timeoutSeconds: number;
};

/**
 * --robots (or --sitemaps) and their options, checked before anything runs; undefined without either.
 * `identityAlways`: --user-agent, --contact and --require-contact are allowed without them (the caller uses
 * them for more than robots.txt).
 */
export function robotsOptions(values: PlanValues, identityAlways = false): RobotsOptions | undefined {
  if (!values.robots && !values.sitemaps) {
    for (const name of identityAlways
      ? (['timeout'] as const)
      : (['user-agent', 'contact', 'require-contact', 'timeout'] as const)) {
      if (values[name] !== undefined) throw new UsageError(`--${name}: only with --robots or --sitemaps`);
    }
    return undefined;
  }
  const productToken = productTokenOption(values['user-agent']);
  const contact = contactOption(values.contact);
  const timeoutSeconds = parseNumber('timeout', values.timeout, ROBOTS_TIMEOUT_LIMIT) ?? ROBOTS_TIMEOUT_DEFAULT_SECONDS;
  return {
    productToken,
    contact,
    requireContact: Boolean(values['require-contact']),
    header: userAgentHeader(productToken, contact),
    timeoutSeconds,
  };
}
