/**
 * `crawl-planner estimate`: how long a crawl takes, per host and in total, and what limits it. A thin
 * adapter: options → PlanInput → plan() → a table or the JSON document (docs/cli.md, docs/formats.md). With
 * `--robots`, each seed origin's robots.txt is fetched first: its Crawl-delay feeds the plan and seeds it
 * disallows are left out (docs/cli.md §crawl-planner estimate --robots).
 *
 * This is the command (its help, --simulate and the output); the options are read in planOptions.ts and the
 * plan is made in planFromOptions.ts, which `export` shares.
 */
import { formatSimulationText } from '../core/format/calibrationText';
import { formatNumber } from '../core/format/duration';
import { jsonPieces } from '../core/format/json';
import { formatPlanText } from '../core/format/planText';
import { estimateDocument, PLAN_DEFAULTS } from '../core/plan';
import { REQUEST_OVERHEAD } from '../core/politeness/pacing';
import { SIMULATION_DEFAULTS, SIMULATION_LIMITS } from '../core/simulate/options';
import type { Simulation } from '../core/simulate/types';
import { DEFAULT_PRODUCT_TOKEN } from '../net/userAgent';
import { EXIT_FAILED, EXIT_OK, parse, parseNumber, UsageError, type Io } from './args';
import { planFromOptions } from './planFromOptions';
import { PLAN_OPTIONS } from './planOptions';
import { politenessByHelp, resolveHelp, resolveHostsHelp } from './resolveOption';
import { windowHelp } from './windowOptions';
import { ROBOTS_TIMEOUT_DEFAULT_SECONDS } from './robots';

const OPTIONS = {
  ...PLAN_OPTIONS,
  simulate: { type: 'boolean' },
  runs: { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

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
  --page-size SIZE          bytes per page on the wire (80KB, 1.5MB, or bytes) for hosts a test crawl did not
                            measure: the plan's transfer and peak rate; without it or --calibrate they are unknown
Crawl windows (the total is crawl time inside them; the plan gives the calendar finish):
${windowHelp(28)}robots.txt:
  --robots                  fetch each seed origin's robots.txt first: its Crawl-delay feeds the plan,
                            seeds it disallows are left out (unreachable: the whole origin is left out);
                            with --sitemaps, one fetch of each robots.txt serves both
  --user-agent TOKEN        product token matched against robots.txt groups, [a-zA-Z_-]+; default ${DEFAULT_PRODUCT_TOKEN}
  --contact URL             who runs the crawl, sent in the User-Agent header of the robots.txt fetches:
                            an http(s) URL or mailto: address; without it, real hosts get a warning line
  --require-contact         refuse to fetch from a real host (not loopback) without --contact
  --timeout S               bound on each robots.txt (and sitemap) fetch, seconds; default ${ROBOTS_TIMEOUT_DEFAULT_SECONDS}
Shared servers (hosts on one address; the domains are always checked):
${resolveHelp(28)}${resolveHostsHelp(28)}${politenessByHelp(28)}Calibration:
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
