/**
 * `crawl-planner estimate`: how long a crawl takes, per host and in total, and what limits it. A thin
 * adapter: options → PlanInput → plan() → a table or the JSON document (docs/estimate.md).
 */
import { formatNumber } from '../core/format/duration';
import { formatPlanText } from '../core/format/planText';
import { sanitizeText } from '../core/format/table';
import {
  estimateDocument,
  parseDurationText,
  plan,
  PLAN_DEFAULTS,
  PLAN_LIMITS,
  PlanInputError,
  type NumberLimit,
  type Plan,
  type PlanInput,
} from '../core/plan';
import { parseSeedUrl, validateSeeds, type InvalidSeed } from '../core/seeds';
import { EXIT_OK, parse, parseChoice, parseNumber, readSeedLines, UsageError, type Io } from './args';

const OPTIONS = {
  'seeds-file': { type: 'string' },
  pages: { type: 'string' },
  'pages-per-host': { type: 'string' },
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
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const L = PLAN_LIMITS;

export const ESTIMATE_HELP = `Usage: crawl-planner estimate [options] <seed-url>...

How long a polite crawl takes, per host and in total, and what limits it.
Seeds are URLs given as arguments and/or one per line in --seeds-file.

Pages (one of):
  --pages N                 total pages, spread evenly over the seed hosts (remainder to the first hosts)
  --pages-per-host N        pages for every seed host
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
  --deadline D              seconds, or a duration such as 90m, 36h, 2d, 1d12h
Output:
  --json                    the plan as a JSON document (schemaVersion 1)
  -h, --help                this help

Timing: the first request starts at t = 0; the crawl ends when the last response arrives.
A host with n pages and period p takes (n - 1) x p + latency.
`;

/** PlanInput fields → the option that sets them, for error messages from the core. */
const FIELD_OPTIONS: Readonly<Record<string, string>> = {
  'pages.total': '--pages',
  'pages.perHost': '--pages-per-host',
  rate: '--rate',
  workers: '--workers',
  delaySeconds: '--delay',
  latencySeconds: '--latency',
  maxCrawlDelaySeconds: '--max-crawl-delay',
  perHostConcurrency: '--per-host-concurrency',
  machines: '--machines',
  deadlineSeconds: '--deadline',
};

/** "HOST=SECONDS" (HOST may also be a URL) → [host, seconds]. */
function parseHostSeconds(name: string, raw: string, limit: NumberLimit): [string, number] {
  const eq = raw.lastIndexOf('=');
  const hostText = eq < 0 ? '' : raw.slice(0, eq).trim();
  const valueText = eq < 0 ? '' : raw.slice(eq + 1);
  if (hostText === '' || valueText.trim() === '') {
    throw new UsageError(`--${name}: "${sanitizeText(raw)}" must be HOST=SECONDS`);
  }
  let host = hostText.toLowerCase();
  if (hostText.includes('://')) {
    const parsed = parseSeedUrl(hostText);
    if ('problem' in parsed) throw new UsageError(`--${name}: "${sanitizeText(hostText)}" is not a host or http(s) URL`);
    host = parsed.host;
  } else if (!/^[^\s/?#@]+$/.test(host)) {
    throw new UsageError(`--${name}: "${sanitizeText(hostText)}" is not a host name`);
  }
  return [host, parseNumber(`${name} ${host}`, valueText, limit)!];
}

function parseHostMap(name: string, raws: string[] | undefined, limit: NumberLimit): Record<string, number> | undefined {
  if (raws === undefined) return undefined;
  const out: Record<string, number> = {};
  for (const raw of raws) {
    const [host, seconds] = parseHostSeconds(name, raw, limit);
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
  const seconds = parseDurationText(text);
  if (seconds === undefined) {
    throw new UsageError(`--deadline: "${sanitizeText(raw)}" is not a duration (seconds, or e.g. 90m, 36h, 2d, 1d12h)`);
  }
  if (seconds <= 0) throw new UsageError(`--deadline: ${sanitizeText(raw)} must be greater than 0`);
  if (seconds > L.deadlineSeconds.max) {
    throw new UsageError(`--deadline: ${sanitizeText(raw)} is too large (at most ${formatNumber(L.deadlineSeconds.max)} s)`);
  }
  return seconds;
}

type Values = ReturnType<typeof parse<typeof OPTIONS>>['values'];

/** The options as a PlanInput without seeds. Throws UsageError with a one-line message. */
export function planInputFromOptions(values: Values): Omit<PlanInput, 'seeds'> {
  const total = parseNumber('pages', values.pages, L.pages);
  const perHost = parseNumber('pages-per-host', values['pages-per-host'], L.pages);
  if (total !== undefined && perHost !== undefined) throw new UsageError('--pages and --pages-per-host: give one, not both');
  if (total === undefined && perHost === undefined) throw new UsageError('--pages or --pages-per-host is required');
  const input: Omit<PlanInput, 'seeds'> = {
    pages: total !== undefined ? { total } : { perHost: perHost! },
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

function where(seed: InvalidSeed): string {
  return seed.source === undefined || seed.source === 'argument' ? `argument ${seed.line}` : `${seed.source} line ${seed.line}`;
}

export async function runEstimate(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) {
    io.out(ESTIMATE_HELP);
    return EXIT_OK;
  }
  const options = planInputFromOptions(values);
  const lines = readSeedLines(positionals, values['seeds-file']);
  if (lines.length === 0) throw new UsageError('no seed URLs: give them as arguments or with --seeds-file');
  const { seeds, invalid } = validateSeeds(lines);
  for (const bad of invalid) {
    io.err(`crawl-planner estimate: ${sanitizeText(where(bad))}: ${bad.message}: "${sanitizeText(bad.text)}"\n`);
  }
  if (seeds.length === 0) {
    throw new UsageError(`no valid seed URL (${formatNumber(invalid.length)} invalid ${invalid.length === 1 ? 'line' : 'lines'})`);
  }
  let result: Plan;
  try {
    result = plan({ ...options, seeds });
  } catch (err) {
    if (err instanceof PlanInputError) {
      const first = err.problems[0]!;
      const option = FIELD_OPTIONS[first.field];
      throw new UsageError(option ? first.message.replace(`${first.field}:`, `${option}:`) : first.message);
    }
    throw err;
  }
  if (values.json) {
    io.out(JSON.stringify(estimateDocument(result, invalid), null, 2) + '\n');
  } else {
    io.out(formatPlanText(result, invalid.length, io.color));
  }
  return EXIT_OK;
}
