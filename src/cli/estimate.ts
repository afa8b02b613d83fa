/**
 * `crawl-planner estimate`: how long a crawl takes, per host and in total, and what limits it. A thin
 * adapter: options → PlanInput → plan() → a table or the JSON document (docs/cli.md, docs/formats.md). With
 * `--robots`, each seed origin's robots.txt is fetched first: its Crawl-delay feeds the plan and seeds it
 * disallows are left out (docs/cli.md §crawl-planner estimate --robots).
 */
import { formatNumber, formatSeconds } from '../core/format/duration';
import { jsonPieces } from '../core/format/json';
import { formatPlanText } from '../core/format/planText';
import { renderTable, sanitizeText } from '../core/format/table';
import { realHosts } from '../core/identity';
import {
  applyPlanChange,
  estimateDocument,
  parseDeadlineText,
  plan,
  PLAN_DEFAULTS,
  PLAN_LIMITS,
  PlanInputError,
  type NumberLimit,
  type Plan,
  type PlanInput,
} from '../core/plan';
import { escapeInvisible } from '../core/seedHygiene';
import { parseSeedUrl, validateSeeds, type InvalidSeed, type Seed, type SeedValidation } from '../core/seeds';
import { demoServeHosts } from '../demo/config';
import { inspectRobots, type InspectedOrigin, type RobotsInspection } from '../net/robotsInspect';
import { DEFAULT_PRODUCT_TOKEN, userAgentHeader } from '../net/userAgent';
import {
  EXIT_FAILED,
  EXIT_OK,
  parse,
  parseChoice,
  parseNumber,
  seedLines,
  seedLocation,
  UsageError,
  type Io,
} from './args';
import { checkContact, contactOption } from './contact';
import { seedNoteLines } from './seedNotes';
import {
  checkPagesOptions,
  formatSitemapsSection,
  sitemapsStep,
  type EstimateSitemapsSection,
} from './estimateSitemaps';
import { changedSinceOption } from './sitemaps';
import { createRobotsCache } from '../net/robotsInspect';
import type { RobotsCache } from '../net/robotsCache';
import {
  decidingLine,
  originJson,
  outcomeHeadline,
  productTokenOption,
  ROBOTS_TIMEOUT_DEFAULT_SECONDS,
  ROBOTS_TIMEOUT_LIMIT,
  robotsTimeouts,
  type RobotsOriginJson,
} from './robots';
import { colors } from '../core/format/ansi';
import { formatCalibrationText, formatSimulationText } from '../core/format/calibrationText';
import { REQUEST_OVERHEAD } from '../core/politeness/pacing';
import { SIMULATION_DEFAULTS, SIMULATION_LIMITS } from '../core/simulate/options';
import type { Simulation } from '../core/simulate/types';
import { readCalibration } from './calibrate';

/** The seeds, plan, robots.txt and calibration options, shared with `export` (which exports exactly the plan `estimate` prints). */
export const PLAN_OPTIONS = {
  'seeds-file': { type: 'string' },
  pages: { type: 'string' },
  'pages-per-host': { type: 'string' },
  'pages-for': { type: 'string', multiple: true },
  sitemaps: { type: 'boolean' },
  'changed-since': { type: 'string' },
  rate: { type: 'string' },
  workers: { type: 'string' },
  delay: { type: 'string' },
  'delay-from': { type: 'string' },
  latency: { type: 'string' },
  'latency-for': { type: 'string', multiple: true },
  'crawl-delay': { type: 'string', multiple: true },
  'crawl-delay-policy': { type: 'string' },
  'max-crawl-delay': { type: 'string' },
  adaptive: { type: 'boolean' },
  'per-host-concurrency': { type: 'string' },
  machines: { type: 'string' },
  deadline: { type: 'string' },
  'drop-host': { type: 'string', multiple: true },
  robots: { type: 'boolean' },
  'user-agent': { type: 'string' },
  contact: { type: 'string' },
  'require-contact': { type: 'boolean' },
  timeout: { type: 'string' },
  calibrate: { type: 'string' },
} as const;

const OPTIONS = {
  ...PLAN_OPTIONS,
  simulate: { type: 'boolean' },
  runs: { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const L = PLAN_LIMITS;

export const ESTIMATE_HELP = `Usage: crawl-planner estimate [options] <seed-url>...

How long a polite crawl takes, per host and in total, and what limits it.
Seeds are URLs given as arguments and/or one per line in --seeds-file.

Pages (one of):
  --pages N                 total pages, spread evenly over the seed hosts (remainder to the first hosts)
  --pages-per-host N        pages for every seed host (with --sitemaps: for hosts whose sitemaps could not be read)
  --sitemaps                each host's pages from its sitemaps: the URLs robots.txt allows (robots.txt and
                            the sitemaps are fetched politely, at --delay; see crawl-planner sitemaps)
  --pages-for HOST=N        a typed number for one host (repeatable); overrides its sitemap count
  --changed-since D         with --sitemaps: plan a recrawl of the URLs whose lastmod is on or after D,
                            a date (2024-05-01) or a duration before now (30d, 12h)
Global limits:
  --rate R                  target requests per second (per machine); default: no global rate
  --workers N               requests in flight at once, all hosts together (per machine); default ${PLAN_DEFAULTS.workers}
Per host:
  --delay S                 configured delay between requests to one host, seconds; default ${PLAN_DEFAULTS.delaySeconds}
  --delay-from start|end    measure the delay start-to-start or from the end of a response; default ${PLAN_DEFAULTS.delayFrom}
  --latency S               expected response time, seconds; default ${PLAN_DEFAULTS.latencySeconds}
  --latency-for HOST=S      response time for one host (repeatable)
  --crawl-delay HOST=S      a known Crawl-delay for one host (repeatable)
  --crawl-delay-policy P    cap | skip | obey a Crawl-delay above --max-crawl-delay; default ${PLAN_DEFAULTS.crawlDelayPolicy}
  --max-crawl-delay S       the Crawl-delay cap, seconds; default ${PLAN_DEFAULTS.maxCrawlDelaySeconds}
  --adaptive                floor each host's delay at max(1 s, 10 × latency)
  --per-host-concurrency N  requests in flight per host; default ${PLAN_DEFAULTS.perHostConcurrency} (more is warned about)
Planning:
  --machines M              shard hosts over M machines by FNV-1a hash of the host
  --deadline D              seconds, or a duration such as 90m, 36h, 2d, 1d12h; when missed, says what meets it
  --drop-host HOST          leave HOST out of the plan (repeatable); the other hosts keep their pages
robots.txt:
  --robots                  fetch each seed origin's robots.txt first: its Crawl-delay feeds the plan,
                            seeds it disallows are left out (unreachable: the whole origin is left out);
                            with --sitemaps, one fetch of each robots.txt serves both
  --user-agent TOKEN        product token matched against robots.txt groups, [a-zA-Z_-]+; default ${DEFAULT_PRODUCT_TOKEN}
  --contact URL             who runs the crawl, sent in the User-Agent header of the robots.txt fetches:
                            an http(s) URL or mailto: address; without it, real hosts get a warning line
  --require-contact         refuse to fetch from a real host (not loopback) without --contact
  --timeout S               bound on each robots.txt (and sitemap) fetch, seconds; default ${ROBOTS_TIMEOUT_DEFAULT_SECONDS}
Calibration:
  --calibrate REPORT        plan with what a test crawl measured: the report crawl --report wrote; each host
                            it saw gets its answer times, faults (429, 5xx, timeouts) and Crawl-delay from it
Simulation:
  --simulate                run the crawl engine on virtual time, --runs times, over the measured answer
                            times and faults: a p10-p90 band around the plan
  --runs N                  simulated runs; default ${SIMULATION_DEFAULTS.runs}
  --seed S                  the simulation's random seed (same seed, same band); default ${SIMULATION_DEFAULTS.seed}
Output:
  --json                    the plan as a JSON document (schemaVersion 1)
  -h, --help                this help

Timing: the first request starts at t = 0; the crawl ends when the last response arrives.
A host's robots.txt comes first; its n pages then take n steps of (period + ${formatNumber(REQUEST_OVERHEAD.afterIntervalSeconds * 1000, 2)} ms) + latency.
`;

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
};

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

/** A host (lower-cased), or the host of an http(s) URL. */
function parseHost(name: string, hostText: string): string {
  let host = hostText.toLowerCase();
  if (hostText.includes('://')) {
    const parsed = parseSeedUrl(hostText);
    if ('problem' in parsed)
      throw new UsageError(`--${name}: "${sanitizeText(hostText)}" is not a host or http(s) URL`);
    host = parsed.host;
  } else if (!/^[^\s/?#@]+$/.test(host)) {
    throw new UsageError(`--${name}: "${sanitizeText(hostText)}" is not a host name`);
  }
  return host;
}

/** --drop-host: seed hosts to leave out, checked against the seeds (a typo is an error, not a no-op). */
function dropHostsOption(raws: string[] | undefined, seeds: readonly Seed[]): string[] {
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

type Values = ReturnType<typeof parse<typeof PLAN_OPTIONS>>['values'];

/** The options as a PlanInput without seeds. Throws UsageError with a one-line message. */
export function planInputFromOptions(values: Values): Omit<PlanInput, 'seeds'> {
  const total = parseNumber('pages', values.pages, L.pages);
  const perHost = parseNumber('pages-per-host', values['pages-per-host'], L.pages);
  if (total !== undefined && perHost !== undefined)
    throw new UsageError('--pages and --pages-per-host: give one, not both');
  checkPagesOptions(values);
  if (total === undefined && perHost === undefined && !values.sitemaps)
    throw new UsageError('--pages, --pages-per-host or --sitemaps is required');
  // Typed per-host counts; with --sitemaps the sitemap step adds the other hosts' counts.
  const byHost = parseHostMap('pages-for', values['pages-for'], { ...L.pages, min: 0 }, 'N');
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
  };
  // Leave unset options out so that the plan's defaults (and its "was this asked for?" checks) apply.
  for (const key of Object.keys(input) as Array<keyof typeof input>) if (input[key] === undefined) delete input[key];
  return input;
}

/** A seed that robots.txt disallows, left out of the plan. */
export interface DisallowedSeed {
  url: string;
  host: string;
  origin: string;
  outcome: InspectedOrigin['outcome'];
  /** The deciding robots.txt line and its text; null when the outcome (unreachable) decided. */
  line: number | null;
  rule: string | null;
  reason: string;
  /** Where the seed came from: its line (argument position or file line) and source. */
  seedLine: number;
  seedSource: string;
}

/** A seed host with no allowed seed left: not planned. */
export interface LeftOutHost {
  host: string;
  /** `unreachable`: a robots.txt of this host could not be fetched; `disallowed`: rules disallow every seed. */
  reason: 'unreachable' | 'disallowed';
  seeds: number;
}

/** The `robots` section of the estimate document (null without --robots). */
export interface EstimateRobotsSection {
  productToken: string;
  userAgent: string;
  origins: RobotsOriginJson[];
  disallowedSeeds: DisallowedSeed[];
  leftOutHosts: LeftOutHost[];
  /** Each planned host's robots.txt Crawl-delay (the largest over its origins), before the cap policy. */
  crawlDelayByHost: Record<string, number>;
}

interface RobotsStep {
  inspection: RobotsInspection;
  header: string;
  allowed: Seed[];
  section: EstimateRobotsSection;
}

type RobotsOptions = {
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
function robotsOptions(values: Values, identityAlways = false): RobotsOptions | undefined {
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

/**
 * Fetches robots.txt for every seed origin (concurrently, one fetch per origin) and splits the seeds into
 * allowed and disallowed. Each remaining host's Crawl-delay is the largest of its origins' (http and https
 * of one host are two origins but one politeness unit) and of a --crawl-delay given by hand.
 */
async function robotsStep(
  seeds: readonly Seed[],
  options: Omit<PlanInput, 'seeds'>,
  ro: RobotsOptions,
  cache?: RobotsCache,
): Promise<RobotsStep> {
  const inspection = await inspectRobots(
    seeds.map((s) => s.url),
    {
      productToken: ro.productToken,
      userAgentHeader: ro.header,
      configuredDelaySeconds: options.delaySeconds ?? PLAN_DEFAULTS.delaySeconds,
      crawlDelayPolicy: options.crawlDelayPolicy ?? PLAN_DEFAULTS.crawlDelayPolicy,
      maxCrawlDelaySeconds: options.maxCrawlDelaySeconds ?? PLAN_DEFAULTS.maxCrawlDelaySeconds,
      timeouts: robotsTimeouts(ro.timeoutSeconds),
      ...(cache ? { cache } : {}),
    },
  );
  const byOrigin = new Map(inspection.origins.map((o) => [o.origin, o] as const));
  const byUrl = new Map(inspection.results.map((r) => [r.url, r] as const));
  const allowed: Seed[] = [];
  const disallowedSeeds: DisallowedSeed[] = [];
  const unreachableHosts = new Set<string>();
  for (const seed of seeds) {
    const r = byUrl.get(seed.url);
    const origin = byOrigin.get(seed.origin);
    if (r?.verdict === 'disallowed') {
      const outcome = origin?.outcome ?? 'unreachable';
      if (outcome === 'unreachable') unreachableHosts.add(seed.host);
      disallowedSeeds.push({
        url: seed.url,
        host: seed.host,
        origin: seed.origin,
        outcome,
        line: r.line,
        rule: r.rule,
        reason: r.reason,
        seedLine: seed.line,
        seedSource: seed.source ?? 'argument',
      });
    } else {
      allowed.push(seed);
    }
  }
  const kept = new Set(allowed.map((s) => s.host));
  const leftOutHosts: LeftOutHost[] = [];
  for (const host of new Set(seeds.map((s) => s.host))) {
    if (kept.has(host)) continue;
    leftOutHosts.push({
      host,
      reason: unreachableHosts.has(host) ? 'unreachable' : 'disallowed',
      seeds: seeds.filter((s) => s.host === host).length,
    });
  }
  const crawlDelayByHost: Record<string, number> = {};
  for (const seed of allowed) {
    const seconds = byOrigin.get(seed.origin)?.crawlDelaySeconds;
    if (seconds === null || seconds === undefined) continue;
    crawlDelayByHost[seed.host] = Math.max(crawlDelayByHost[seed.host] ?? 0, seconds);
  }
  return {
    inspection,
    header: ro.header,
    allowed,
    section: {
      productToken: inspection.productToken,
      userAgent: ro.header,
      origins: inspection.origins.map(originJson),
      disallowedSeeds,
      leftOutHosts,
      crawlDelayByHost,
    },
  };
}

/** The robots.txt section printed before the plan table. */
function formatRobotsSection(step: RobotsStep, seeds: readonly Seed[], color: boolean): string {
  const s = colors(color);
  const lines = [
    `${s.bold('robots.txt')} for ${sanitizeText(step.inspection.productToken)} (User-Agent: ${sanitizeText(step.header)})`,
  ];
  const disallowed = new Set(step.section.disallowedSeeds.map((d) => d.url));
  const rows = step.inspection.origins.map((o) => {
    const mine = seeds.filter((seed) => seed.origin === o.origin);
    const ok = mine.filter((seed) => !disallowed.has(seed.url)).length;
    const used = o.outcome === 'ok';
    return [
      sanitizeText(o.origin),
      outcomeHeadline(o, s) + (o.status !== null && o.outcome !== 'unreachable' ? ` (${o.status})` : ''),
      used && o.crawlDelaySeconds !== null
        ? `${formatSeconds(o.crawlDelaySeconds)}${o.crawlDelayLine !== null ? ` (L${o.crawlDelayLine})` : ''}`
        : '—',
      o.outcome === 'unreachable'
        ? '—'
        : o.skipped
          ? 'host skipped'
          : `${formatSeconds(o.effectiveIntervalSeconds)} (${o.intervalSource})`,
      `${formatNumber(ok)} of ${formatNumber(mine.length)} allowed`,
    ];
  });
  lines.push(
    ...renderTable(
      [
        { header: 'Origin', truncate: 'middle', maxWidth: 48 },
        { header: 'robots.txt' },
        { header: 'Crawl-delay' },
        { header: 'Interval' },
        { header: 'Seeds' },
      ],
      rows,
      { indent: '  ', styleHeader: s.bold },
    ),
  );
  for (const o of step.inspection.origins) {
    if (o.outcome === 'unreachable')
      lines.push(`  ${s.bold(s.red('UNREACHABLE'))} ${sanitizeText(o.origin)}: ${sanitizeText(o.reason)}`);
  }
  for (const h of step.section.leftOutHosts) {
    const why =
      h.reason === 'unreachable'
        ? 'robots.txt unreachable, every URL is disallowed'
        : 'robots.txt disallows every seed';
    lines.push(
      `  ${s.bold(h.reason === 'unreachable' ? s.red('LEFT OUT') : s.yellow('LEFT OUT'))} ${sanitizeText(h.host)}: ${why}; not planned`,
    );
  }
  return lines.join('\n') + '\n\n';
}

/** What the seeds and plan options gave: the plan, or (with --robots) no allowed seed at all. */
export type PlanOutcome =
  | {
      kind: 'planned';
      plan: Plan;
      seeds: readonly Seed[];
      invalid: InvalidSeed[];
      /** The seed lines' notes and duplicates (estimate's seedNotes and duplicateSeeds). */
      checked: SeedValidation;
      robots: EstimateRobotsSection | null;
      sitemaps: EstimateSitemapsSection | null;
    }
  | { kind: 'no-allowed-seeds'; invalid: InvalidSeed[]; robots: EstimateRobotsSection };

export interface PlanFromOptions {
  /** The command, for messages: `crawl-planner <command>: …`. */
  command: string;
  /** Print the robots.txt section and the left-out seeds (false for a JSON document on stdout). */
  text: boolean;
  /** --user-agent, --contact and --require-contact without --robots. */
  identityAlways?: boolean;
}

/**
 * The seeds and plan options (PLAN_OPTIONS) → the plan, exactly as `estimate` makes it: invalid seed lines on
 * stderr, robots.txt read first with --robots. Throws UsageError for bad input.
 */
export async function planFromOptions(
  values: Values,
  positionals: string[],
  io: Io,
  how: PlanFromOptions,
): Promise<PlanOutcome> {
  const options = planInputFromOptions(values);
  const calibration = readCalibration(values.calibrate);
  const ro = robotsOptions(values, how.identityAlways);
  const changedSince = changedSinceOption(values['changed-since'], Date.now());
  // Line by line: 100,000 lines held at once would take as much memory as the seeds themselves.
  const checked = validateSeeds(seedLines(positionals, values['seeds-file']), {
    expectedLocalHosts: new Set(demoServeHosts()),
  });
  const { seeds, invalid } = checked;
  if (seeds.length + invalid.length === 0)
    throw new UsageError('no seed URLs: give them as arguments or with --seeds-file');
  for (const bad of invalid) {
    io.err(
      `crawl-planner ${how.command}: ${sanitizeText(seedLocation(bad.line, bad.source))}: ${bad.message}: "${sanitizeText(escapeInvisible(bad.text))}"\n`,
    );
  }
  if (seeds.length === 0) {
    throw new UsageError(
      `no valid seed URL (${formatNumber(invalid.length)} invalid ${invalid.length === 1 ? 'line' : 'lines'})`,
    );
  }

  const dropHosts = dropHostsOption(values['drop-host'], seeds);
  let planSeeds: readonly Seed[] = seeds;
  let planOptions = options;
  let step: RobotsStep | undefined;
  if (ro) checkContact(how.command, ro.contact, realHosts(seeds.map((s) => s.url)), ro.requireContact, io);
  // After the checks that refuse the run: refused, the one line says why and nothing else.
  for (const line of seedNoteLines(how.command, checked)) io.err(line);
  // One robots.txt fetch per origin serves --robots and --sitemaps.
  const cache =
    ro && values.sitemaps
      ? createRobotsCache({ userAgentHeader: ro.header, timeouts: robotsTimeouts(ro.timeoutSeconds) })
      : undefined;
  if (ro && values.robots) {
    step = await robotsStep(seeds, options, ro, cache);
    planSeeds = step.allowed;
    const leftOut = new Set(step.section.leftOutHosts.map((h) => h.host));
    // Overrides for hosts robots.txt left out are dropped, so the plan does not call them typos.
    const keep = (m: Readonly<Record<string, number>> | undefined) =>
      m === undefined ? undefined : Object.fromEntries(Object.entries(m).filter(([host]) => !leftOut.has(host)));
    const latencyByHost = keep(options.latencyByHost);
    // A Crawl-delay from robots.txt and one given by hand: the larger (more polite) one is planned.
    const crawlDelayByHost: Record<string, number> = { ...keep(options.crawlDelayByHost) };
    for (const [host, seconds] of Object.entries(step.section.crawlDelayByHost)) {
      crawlDelayByHost[host] = Math.max(crawlDelayByHost[host] ?? 0, seconds);
    }
    planOptions = {
      ...options,
      ...(latencyByHost !== undefined ? { latencyByHost } : {}),
      ...(Object.keys(crawlDelayByHost).length > 0 ? { crawlDelayByHost } : {}),
    };
    if (how.text) {
      io.out(formatRobotsSection(step, seeds, io.color));
      for (const d of step.section.disallowedSeeds) {
        const why =
          d.outcome === 'unreachable' ? 'robots.txt unreachable' : `disallowed by robots.txt (${decidingLine(d)})`;
        io.err(
          `crawl-planner ${how.command}: ${sanitizeText(seedLocation(d.seedLine, d.seedSource))}: ${why}, left out: ${sanitizeText(d.url)}\n`,
        );
      }
    }
    if (planSeeds.length === 0) return { kind: 'no-allowed-seeds', invalid, robots: step.section };
  }

  if (dropHosts.length > 0) {
    // After robots.txt (a total is then each remaining host's share, as the deadline's options assume),
    // before the sitemaps (a dropped host's are not fetched).
    ({ seeds: planSeeds, ...planOptions } = applyPlanChange({ ...planOptions, seeds: planSeeds }, { dropHosts }));
  }

  let sitemapsSection: EstimateSitemapsSection | undefined;
  if (ro && values.sitemaps) {
    const pages = planOptions.pages as { byHost: Record<string, number>; otherwise?: number };
    sitemapsSection = await sitemapsStep(planSeeds, {
      productToken: ro.productToken,
      userAgentHeader: ro.header,
      delaySeconds: options.delaySeconds,
      crawlDelayPolicy: options.crawlDelayPolicy,
      maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
      timeoutSeconds: values.timeout !== undefined ? ro.timeoutSeconds : undefined,
      changedSince,
      cache,
      typed: pages.byHost,
      fallback: values['pages-per-host'] !== undefined ? pages.otherwise : undefined,
    });
    planOptions = {
      ...planOptions,
      pages: { byHost: Object.fromEntries(sitemapsSection.pages.map((p) => [p.host, p.pages])), otherwise: 0 },
    };
    if (how.text) io.out(formatSitemapsSection(sitemapsSection, io.color));
  }

  let result: Plan;
  try {
    result = plan({ ...planOptions, seeds: planSeeds, ...(calibration ? { calibration } : {}) });
  } catch (err) {
    if (err instanceof PlanInputError) {
      const first = err.problems[0]!;
      const option = FIELD_OPTIONS[first.field];
      throw new UsageError(option ? first.message.replace(`${first.field}:`, `${option}:`) : first.message);
    }
    throw err;
  }
  // What the test crawl measured, before the plan that uses it (estimate's and export's text alike).
  if (how.text && calibration) io.out(formatCalibrationText(result, calibration, io.color) + '\n');
  return {
    kind: 'planned',
    plan: result,
    seeds: planSeeds,
    invalid,
    checked,
    robots: step ? step.section : null,
    sitemaps: sitemapsSection ?? null,
  };
}

export async function runEstimate(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) {
    io.out(ESTIMATE_HELP);
    return EXIT_OK;
  }
  const sim = simulationOptions(values);
  const outcome = await planFromOptions(values, positionals, io, { command: 'estimate', text: !values.json });
  if (outcome.kind === 'no-allowed-seeds') {
    const message = 'nothing to plan: robots.txt disallows every seed';
    if (values.json) {
      const doc = {
        schemaVersion: 1,
        error: { code: 'no-allowed-seeds', message },
        robots: outcome.robots,
        invalidSeeds: outcome.invalid,
      };
      io.out(JSON.stringify(doc, null, 2) + '\n');
    }
    io.err(`crawl-planner estimate: ${message}\n`);
    return EXIT_FAILED;
  }
  const result = outcome.plan;
  // The simulation runs the crawl engine, which loads only when it is asked for (src/cli/main.ts: start-up).
  const simulation: Simulation | null = sim
    ? (await import('../core/simulate/simulate.js')).simulate(result, sim)
    : null;
  if (values.json) {
    const doc = {
      ...estimateDocument(result, outcome.invalid, outcome.checked),
      robots: outcome.robots,
      sitemaps: outcome.sitemaps,
      simulation,
    };
    // In pieces: for 100,000 hosts the text is about 40 MB, too much to hold as one string and its bytes.
    for (const piece of jsonPieces(doc)) if (io.out(piece) === false) await io.drain?.();
    io.out('\n');
  } else {
    io.out(formatPlanText(result, outcome.invalid.length, io.color));
    if (simulation) io.out(formatSimulationText(simulation, result, io.color));
  }
  return EXIT_OK;
}

/** --simulate and its --runs and --seed, checked before anything runs; undefined without --simulate. */
function simulationOptions(values: {
  simulate?: boolean;
  runs?: string;
  seed?: string;
}): { runs: number; seed: number } | undefined {
  if (!values.simulate) {
    for (const name of ['runs', 'seed'] as const)
      if (values[name] !== undefined) throw new UsageError(`--${name}: only with --simulate`);
    return undefined;
  }
  return {
    runs: parseNumber('runs', values.runs, SIMULATION_LIMITS.runs) ?? SIMULATION_DEFAULTS.runs,
    seed: parseNumber('seed', values.seed, SIMULATION_LIMITS.seed) ?? SIMULATION_DEFAULTS.seed,
  };
}
