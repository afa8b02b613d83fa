/**
 * `crawl-planner crawl`: a small, polite test crawl with live output, a JSON report and an NDJSON log.
 * Exit code 0 when the crawl ran to its end, 1 when it ended early or hosts were dropped, 2 for bad input.
 */
import { closeSync, constants, accessSync, createWriteStream, openSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BLOCK_REACTIONS, type CrawlEvent } from '../core/crawl/events';
import {
  CrawlOptionsError,
  SAMPLE_CRAWL_DEFAULTS,
  SAMPLE_CRAWL_LIMITS,
  validateSampleCrawlOptions,
  type SampleCrawlOptions,
} from '../core/crawl/sampleCrawlOptions';
import { createCrawlFormatter } from '../core/format/crawlLines';
import type { Calibration } from '../core/calibrate/types';
import { formatCalibrationText } from '../core/format/calibrationText';
import { holdLinesUntilPlan } from '../core/format/heldLines';
import { formatPlanText } from '../core/format/planText';
import { eventToJsonLine, reportToJson } from '../core/format/safeJson';
import { sanitizeText } from '../core/format/table';
import { realHosts } from '../core/identity';
import { validateSeeds } from '../core/seeds';
import type { CrawlSessionResult } from '../net/crawlSession';
import type { CrawlUnits } from '../net/crawlUnits';
import type { RobotsCache } from '../net/robotsCache';
import { budgetTotal, type PageBudgets } from '../core/crawl/pageBudgets';
import { formatHostComparison } from '../core/format/hostComparisonText';
import { parse, parseChoice, parseNumber, readSeedLines, seedLocation, UsageError, type Io } from './args';
import { pagesForOption, pagesPerHostOption } from './planOptions';
import { readCalibration } from './calibrate';
import { checkContact } from './contact';
import { readPlanToRun } from './crawlPlan';
import {
  POLITENESS_BY_OPTIONS,
  politenessByHelp,
  politenessByOption,
  RESOLVE_OPTIONS,
  resolveHelp,
  resolveHttp,
  resolveOption,
} from './resolveOption';
import type { AddressOverrides } from '../core/servers/overrides';
import type { PlanToRun } from '../core/plan/planToRun';

export const CRAWL_OPTIONS = {
  ...RESOLVE_OPTIONS,
  ...POLITENESS_BY_OPTIONS,
  'seeds-file': { type: 'string' },
  plan: { type: 'string' },
  'max-pages': { type: 'string' },
  'pages-per-host': { type: 'string' },
  'pages-for': { type: 'string', multiple: true },
  'max-depth': { type: 'string' },
  delay: { type: 'string' },
  'delay-from': { type: 'string' },
  concurrency: { type: 'string' },
  'per-host-concurrency': { type: 'string' },
  timeout: { type: 'string' },
  'max-retries': { type: 'string' },
  'user-agent': { type: 'string' },
  contact: { type: 'string' },
  'require-contact': { type: 'boolean' },
  'crawl-delay-policy': { type: 'string' },
  'max-crawl-delay': { type: 'string' },
  'ignore-robots': { type: 'boolean' },
  'allow-other-hosts': { type: 'boolean' },
  'follow-other-host-redirects': { type: 'boolean' },
  adaptive: { type: 'boolean' },
  'host-rate': { type: 'string' },
  'host-burst': { type: 'string' },
  'on-block': { type: 'string' },
  report: { type: 'string' },
  log: { type: 'string' },
  calibrate: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const D = SAMPLE_CRAWL_DEFAULTS;

export const CRAWL_HELP = `Usage: crawl-planner crawl [options] <seed-url>...

Runs a small, polite test crawl with live output: one line per request, a progress line, and a summary
with each host's achieved intervals against the plan. robots.txt is obeyed (RFC 9309).

Options:
  --seeds-file FILE          seed URLs, one per line (# comments)
  --plan ESTIMATE.json       run the plan estimate --json wrote: its seeds, each host's planned pages as its
                             budget, its delay, workers and per-host settings (hosts whose pages are unknown
                             are not crawled: the line says which --pages-for to plan them with)
  --max-pages N              pages (final responses) to fetch (default ${D.maxPages}; with page budgets, their
                             total); below the budgets' total, each host gets a share (a sample of the plan)
  --pages-per-host N         each host's page budget: it stops at N pages (404s and redirect chains count)
  --pages-for HOST=N         one host's budget (repeatable; needs --pages-per-host for any seed host it
                             does not name)
  --max-depth N              link depth from the seeds (default ${D.maxDepth})
  --delay SECONDS            per-host interval (default ${D.delaySeconds}); Crawl-delay raises it
  --delay-from start|end     start-to-start (default) or end-of-response-to-start
  --concurrency N            global slots: requests in flight over all hosts (default ${D.concurrency})
  --per-host-concurrency N   requests in flight per host (default 1; more is a burst)
  --timeout SECONDS          bound on one request, connect to end of body (default ${D.timeoutSeconds})
  --max-retries N            retries per URL for errors, 429 and 5xx (default ${D.maxRetries})
  --user-agent TOKEN         robots.txt product token, [a-zA-Z_-]+ (default ${D.userAgent})
  --contact URL              who runs the crawl, sent in the User-Agent header: an http(s) URL or mailto:
                             address; without it, a crawl of real hosts warns that operators cannot reach you
  --require-contact          refuse to crawl a real host (not loopback) without --contact
${resolveHelp(29)}${politenessByHelp(29)}  --crawl-delay-policy P     cap | skip | obey a Crawl-delay above --max-crawl-delay (default cap)
  --max-crawl-delay SECONDS  Crawl-delay cap (default ${D.maxCrawlDelaySeconds})
  --ignore-robots            do not fetch or obey robots.txt (only for your own sites)
  --allow-other-hosts        follow links to hosts other than the seeds'
  --follow-other-host-redirects
                             follow redirects to hosts other than the seeds' (not their links)
  --adaptive                 interval at least max(1 s, 10 × latency)
  --host-rate R              also a per-host token bucket: at most R requests/s on average
  --host-burst N             the bucket's burst size (default 1; needs --host-rate)
  --on-block warn|slow|stop  when a host looks like it is blocking the crawl (a rising share of 401/403/429/503,
                             pages shrinking or losing their links, block pages): warn only, slow (its interval
                             ×2, the host dropped on a second signal), or stop (dropped at once) (default ${D.onBlock})
  --report FILE.json         write the report (summary, per-host figures, one record per request)
  --log FILE.ndjson          write each event as it happens
  --calibrate REPORT         plan this crawl with what an earlier test crawl measured (its --report):
                             answer times, faults and Crawl-delays; the summary gives the simulated band
  --json                     events as JSON lines on stdout instead of the live view
  -h, --help                 this help

Exit code: 0 the crawl ran to its end, 1 it ended early or hosts were dropped, 2 bad input.
`;

/** SampleCrawlOptions field → the CLI flag that sets it, for error messages. */
const FLAG_FOR_FIELD: Record<string, string> = {
  maxPages: 'max-pages',
  pageBudgets: 'pages-for',
  userAgent: 'user-agent',
  contactUrl: 'contact',
  hostRatePerSecond: 'host-rate',
  hostBurst: 'host-burst',
  seeds: 'seeds',
};

type Values = ReturnType<typeof parse<typeof CRAWL_OPTIONS>>['values'];

/**
 * --pages-per-host and --pages-for (read as estimate reads them: planOptions.ts) → page budgets, or undefined.
 * --pages-for alone is enough when it names every seed host (there is no other host to give a number).
 */
export function pageBudgetsFromFlags(
  values: { 'pages-per-host'?: string | undefined; 'pages-for'?: string[] | undefined },
  seeds: readonly string[],
): PageBudgets | undefined {
  const perHost = pagesPerHostOption(values['pages-per-host']);
  const byHost = pagesForOption(values['pages-for']);
  if (byHost !== undefined && perHost === undefined) {
    const unnamed = [...new Set(seeds.map((s) => new URL(s).host))].filter((h) => !Object.hasOwn(byHost, h));
    if (unnamed.length > 0)
      throw new UsageError(
        `--pages-for: needs --pages-per-host for the other hosts (${unnamed.slice(0, 3).map(sanitizeText).join(', ')}${unnamed.length > 3 ? ', …' : ''})`,
      );
  }
  if (perHost === undefined && byHost === undefined) return undefined;
  return { byHost: byHost ?? {}, otherwise: perHost ?? 0 };
}

/**
 * Flags → SampleCrawlOptions, with the CLI's option names in every error. `plan` (from `--plan`) stands for
 * --pages-per-host and --pages-for, and adds the plan's Crawl-delays.
 */
export function crawlOptionsFromFlags(
  values: Values,
  seeds: string[],
  plan?: Pick<PlanToRun, 'pageBudgets' | 'crawlDelayByHost'>,
): SampleCrawlOptions {
  const L = SAMPLE_CRAWL_LIMITS;
  const raw = {
    seeds,
    maxPages: parseNumber('max-pages', values['max-pages'], L.maxPages),
    pageBudgets: plan ? plan.pageBudgets : pageBudgetsFromFlags(values, seeds),
    ...(plan ? { crawlDelayByHost: plan.crawlDelayByHost } : {}),
    maxDepth: parseNumber('max-depth', values['max-depth'], L.maxDepth),
    delaySeconds: parseNumber('delay', values.delay, L.delaySeconds),
    delayFrom: parseChoice('delay-from', values['delay-from'], ['start', 'end'] as const),
    concurrency: parseNumber('concurrency', values.concurrency, L.concurrency),
    perHostConcurrency: parseNumber('per-host-concurrency', values['per-host-concurrency'], L.perHostConcurrency),
    timeoutSeconds: parseNumber('timeout', values.timeout, L.timeoutSeconds),
    maxRetries: parseNumber('max-retries', values['max-retries'], L.maxRetries),
    userAgent: values['user-agent'],
    contactUrl: values.contact,
    crawlDelayPolicy: parseChoice('crawl-delay-policy', values['crawl-delay-policy'], ['cap', 'skip', 'obey'] as const),
    maxCrawlDelaySeconds: parseNumber('max-crawl-delay', values['max-crawl-delay'], L.maxCrawlDelaySeconds),
    respectRobots: !values['ignore-robots'],
    adaptive: Boolean(values.adaptive),
    allowOtherHosts: Boolean(values['allow-other-hosts']),
    followOtherHostRedirects: Boolean(values['follow-other-host-redirects']),
    hostRatePerSecond: parseNumber('host-rate', values['host-rate'], L.hostRatePerSecond),
    hostBurst: parseNumber('host-burst', values['host-burst'], L.hostBurst),
    politenessBy: politenessByOption(values['politeness-by']),
    onBlock: parseChoice('on-block', values['on-block'], BLOCK_REACTIONS),
  };
  try {
    return validateSampleCrawlOptions(raw);
  } catch (err) {
    if (err instanceof CrawlOptionsError) {
      const flag = FLAG_FOR_FIELD[err.field] ?? err.field;
      throw new UsageError(`--${flag}: ${err.message.slice(err.field.length + 2)}`);
    }
    throw err;
  }
}

/** Refuses a path that cannot be written before anything runs (the crawl's work is never lost at the end). */
export function checkWritable(flag: string, path: string): string {
  const full = resolve(path);
  try {
    if (statSync(full, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`--${flag}: ${path} is a directory`);
    accessSync(dirname(full), constants.W_OK);
    closeSync(openSync(full, 'a'));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(
      `--${flag}: cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  return full;
}

export interface LiveCrawlSetup {
  options: SampleCrawlOptions;
  /** What an earlier test crawl measured (`--calibrate`): the crawl's plan uses it. */
  calibration?: Calibration;
  /** The expected response time for the crawl's plan (`--plan`: the plan's); the plan's default without it. */
  latencySeconds?: number;
  robotsCache?: RobotsCache;
  /** `--resolve`: every connection to a host it names goes to its address. */
  resolve?: AddressOverrides;
  reportPath?: string;
  logPath?: string;
  json: boolean;
  io: Io;
  width?: number;
}

/**
 * Runs the crawl with the live view (or JSON lines), the NDJSON log and the report; Ctrl+C stops new
 * requests and still writes the report. The plan is printed first, once every seed's robots.txt is in;
 * the crawl does not wait for it (its live lines are held until then). Returns the session result.
 */
export async function runLiveCrawl(setup: LiveCrawlSetup): Promise<CrawlSessionResult> {
  const { io, options } = setup;
  const hosts = [...new Set(options.seeds.map((s) => new URL(s).host))];
  const formatter = createCrawlFormatter({
    color: io.color,
    startedAt: Date.now(),
    hosts,
    ...(setup.width !== undefined ? { width: setup.width } : {}),
  });
  // Output goes out in batches, a few times a second at most, not one system call per event: the
  // crawl's own work stays small next to a fast host's responses.
  const out = batched((text) => io.out(text));
  const logStream = setup.logPath ? createWriteStream(setup.logPath, { flags: 'w' }) : undefined;
  const log = logStream ? batched((text) => logStream.write(text)) : undefined;
  // The live lines wait for the plan (JSON lines do not: there is no plan text to come first).
  const live = holdLinesUntilPlan((text: string) => out.write(text));
  const onEvent = (event: CrawlEvent) => {
    log?.write(eventToJsonLine(event) + '\n');
    if (setup.json) {
      out.write(eventToJsonLine(event) + '\n');
      return;
    }
    for (const line of formatter.format(event)) live.write(line + '\n');
  };
  // The engine and the network layer load when a crawl starts (src/cli/main.ts: start-up).
  const { startPlannedCrawl } = await import('../net/crawlSession.js');
  const session = startPlannedCrawl(options, {
    onEvent,
    onUnits: (made) => {
      if (!setup.json) for (const line of unitLines(made)) io.err(`crawl-planner crawl: ${line}\n`);
    },
    ...(setup.robotsCache ? { robotsCache: setup.robotsCache } : {}),
    ...(setup.resolve ? { http: resolveHttp(setup.resolve) } : {}),
    ...(setup.calibration ? { calibration: setup.calibration } : {}),
    ...(setup.latencySeconds !== undefined ? { latencySeconds: setup.latencySeconds } : {}),
  });
  const planPrinted = live.printPlan(session.plan, (plan) => {
    if (setup.json) return;
    if (setup.calibration) out.write(formatCalibrationText(plan, setup.calibration, io.color) + '\n');
    out.write(formatPlanText(plan, 0, io.color) + '\n');
  });
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      out.flush();
      io.err(
        `\nStopping: no new requests; in-flight ones end within ${options.timeoutSeconds} s. Ctrl+C again to quit at once.\n`,
      );
      session.stop();
    } else {
      out.flush();
      process.exit(130);
    }
  };
  process.on('SIGINT', onSigint);
  try {
    const result = await session.done;
    await planPrinted;
    const perHost = result.report.comparison.hosts;
    if (perHost && !setup.json) {
      out.flush();
      out.write('\n' + formatHostComparison(perHost).join('\n') + '\n');
    }
    if (setup.reportPath) {
      writeFileSync(setup.reportPath, reportToJson(result.report));
      if (!setup.json) out.write(`Report: ${setup.reportPath}\n`);
    }
    return result;
  } finally {
    process.off('SIGINT', onSigint);
    out.flush();
    log?.flush();
    if (logStream) await new Promise<void>((resolve) => logStream.end(resolve));
  }
}

/** The units of two or more hosts, and the hosts that did not resolve (`--politeness-by ip`), one line each. */
export function unitLines(made: CrawlUnits): string[] {
  const lines = made.units.units
    .filter((u) => u.hosts.length > 1)
    .map(
      (u) =>
        `unit ${sanitizeText(u.name)}: ${u.hosts.length} hosts kept polite as one (${u.hosts.slice(0, 3).map(sanitizeText).join(', ')}${u.hosts.length > 3 ? ', …' : ''})`,
    );
  for (const [host, why] of Object.entries(made.unresolvedHosts ?? {}))
    lines.push(`${sanitizeText(host)}: no address (${sanitizeText(why)}): its own unit; its requests will fail`);
  return lines;
}

/** How long output may wait to be written with what follows it. */
const OUTPUT_BATCH_MS = 25;

/** Text written in one piece at most every OUTPUT_BATCH_MS (and at `flush`), rather than a call per line. */
function batched(write: (text: string) => void): { write(text: string): void; flush(): void } {
  let pending: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    write(text);
  };
  return {
    write(text) {
      pending.push(text);
      timer ??= setTimeout(flush, OUTPUT_BATCH_MS);
    },
    flush,
  };
}

export async function runCrawlCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, CRAWL_OPTIONS);
  if (values.help) {
    io.out(CRAWL_HELP);
    return 0;
  }
  // --plan: the seeds, budgets and settings come from the estimate document (crawlPlan.ts).
  const planned = values.plan !== undefined ? readPlanToRun(values.plan, values, positionals, io) : undefined;
  let seedUrls: string[];
  if (planned) seedUrls = planned.run.seeds;
  else {
    const lines = readSeedLines(positionals, values['seeds-file']);
    if (lines.length === 0) throw new UsageError('no seed URLs: give them as arguments, with --seeds-file or --plan');
    const { seeds, invalid } = validateSeeds(lines);
    for (const bad of invalid) {
      io.err(
        `crawl-planner crawl: ${sanitizeText(seedLocation(bad.line, bad.source))}: ${bad.message}: "${sanitizeText(bad.text)}"\n`,
      );
    }
    if (invalid.length > 0)
      throw new UsageError(
        `${invalid.length} invalid seed ${invalid.length === 1 ? 'line' : 'lines'}; nothing was crawled`,
      );
    seedUrls = seeds.map((s) => s.url);
  }
  const options = crawlOptionsFromFlags(planned ? planned.values : values, seedUrls, planned?.run);
  const resolve = resolveOption(values.resolve);
  noteCappedBudgets(options, planned?.run.pageBudgets ?? pageBudgetsFromFlags(values, seedUrls), io);
  const reportPath = values.report !== undefined ? checkWritable('report', values.report) : undefined;
  const logPath = values.log !== undefined ? checkWritable('log', values.log) : undefined;
  const calibration = readCalibration(values.calibrate);
  if (planned?.run.calibrated && !calibration)
    io.err(
      'crawl-planner crawl: note: the plan was calibrated from a test crawl; give that report with --calibrate to compare this crawl against the same plan\n',
    );
  if (options.perHostConcurrency > 1) {
    io.err(
      `crawl-planner crawl: warning: ${options.perHostConcurrency} requests in flight per host make bursts of ${options.perHostConcurrency}× the configured rate\n`,
    );
  }

  // robots.txt fetches are the crawl's first requests: the contact check comes before them.
  const anyHost = options.allowOtherHosts || options.followOtherHostRedirects;
  checkContact(
    'crawl',
    options.contactUrl ?? '',
    anyHost ? 'any' : realHosts(options.seeds),
    Boolean(values['require-contact']),
    io,
  );
  const result = await runLiveCrawl({
    options,
    json: Boolean(values.json),
    io,
    resolve,
    ...(calibration ? { calibration } : {}),
    ...(planned ? { latencySeconds: planned.run.settings.latencySeconds } : {}),
    ...(reportPath ? { reportPath } : {}),
    ...(logPath ? { logPath } : {}),
    ...(process.stdout.columns ? { width: process.stdout.columns } : {}),
  });
  return result.exitCode;
}

/** Says so when --max-pages cut the hosts' budgets to a share each (SampleCrawlOptions.pageBudgets). */
function noteCappedBudgets(options: SampleCrawlOptions, asked: PageBudgets | undefined, io: Io): void {
  if (!asked || !options.pageBudgets) return;
  const total = budgetTotal(
    asked,
    options.seeds.map((s) => new URL(s).host),
  );
  if (total <= options.maxPages) return;
  io.err(
    `crawl-planner crawl: --max-pages ${options.maxPages} is below the hosts' page budgets (${total} pages): each host gets a share of ${options.maxPages}, and the plan counts the same\n`,
  );
}
