/**
 * `crawl-planner demo`: the whole product on the built-in loopback demo hosts, with no network. It starts
 * the hosts, runs a short test crawl of a few pages per host, plans the crawl with what it measured (the
 * calibration `estimate --calibrate` reads from a report: calibrationFromReport), runs that crawl with the
 * plan's page budget per host, then prints planned against actual with the plan's band, and checks politeness
 * from the servers' own arrival logs (both crawls). `--serve` only starts the hosts and runs until stopped, for
 * the extension and other crawlers.
 */
import { SAMPLE_CRAWL_DEFAULTS } from '../core/crawl/sampleCrawlOptions';
import type { CrawlSummary } from '../core/crawl/events';
import { formatDuration, formatSeconds } from '../core/format/duration';
import { colors } from '../core/format/ansi';
import { calibrationFromReport } from '../core/calibrate/fromCrawlReport';
import type { CrawlReport } from '../core/crawl/crawlReport';
import type { SampleCrawlOptions } from '../core/crawl/sampleCrawlOptions';
import { bandText, NO_BAND_TEXT } from '../core/format/crawlLines';
import { reportToJson } from '../core/format/safeJson';
import { plural } from '../core/format/text';
import { renderTable } from '../core/format/table';
import type { DemoHosts } from '../demo';
import { DEMO_SERVE_PORT, defaultDemoConfig } from '../demo/config';
import { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../demo/lag';
import { formatDemoHosts } from '../demo/serve';
import { parse, parseNumber, UsageError, type Io } from './args';
import { readCalibration } from './calibrate';
import { checkWritable, crawlOptionsFromFlags, runLiveCrawl } from './crawl';
import { RESOLVE_OPTIONS, resolveHelp, resolveOption } from './resolveOption';

const OPTIONS = {
  ...RESOLVE_OPTIONS,
  serve: { type: 'boolean' },
  port: { type: 'string' },
  'pages-per-host': { type: 'string' },
  'test-pages': { type: 'string' },
  'max-pages': { type: 'string' },
  delay: { type: 'string' },
  'delay-from': { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  report: { type: 'string' },
  log: { type: 'string' },
  calibrate: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The crawl's pages per host (5 hosts: 60 pages), the test crawl's, and the bound on one request. */
export const DEMO_DEFAULTS = { pagesPerHost: 12, testPagesPerHost: 3, timeoutSeconds: 5 };

/** The test crawl's pages per host: 0 (no test crawl: the plan is not calibrated) to the crawl's own. */
const TEST_PAGES_LIMIT = { min: 0, max: 1_000, integer: true } as const;

export const DEMO_HELP = `Usage: crawl-planner demo [options]

Starts the built-in demo hosts on loopback (no network), runs a short test crawl to measure them, plans
the crawl with what it measured, runs that crawl with the plan's pages per host (live output), and prints
planned against actual with the plan's band, and a politeness check from the servers' own arrival logs.
Finishes in about a minute.

Options:
  --serve                 only start the demo hosts, print their URLs, and run until Ctrl+C
  --port N                first port for --serve (default ${DEMO_SERVE_PORT}; 0 picks free ports)
  --pages-per-host N      the crawl's page budget per host (default ${DEMO_DEFAULTS.pagesPerHost})
  --test-pages N          the test crawl's pages per host (default ${DEMO_DEFAULTS.testPagesPerHost}; 0: no test crawl,
                          and the plan has no band)
  --max-pages N           a cap on the crawl's pages (each host then gets a share)
  --delay SECONDS         per-host interval (default ${SAMPLE_CRAWL_DEFAULTS.delaySeconds})
  --delay-from start|end  how the interval is measured (default start)
  --concurrency N         global slots (default ${SAMPLE_CRAWL_DEFAULTS.concurrency})
  --timeout SECONDS       bound on one request (default ${DEMO_DEFAULTS.timeoutSeconds})
${resolveHelp(26)}  --report FILE.json      write the crawl's report (not the test crawl's)
  --log FILE.ndjson       write each event of the crawl as it happens
  --calibrate REPORT      plan with what an earlier crawl measured (e.g. a demo run's --report), with no
                          test crawl
  --json                  events as JSON lines instead of the live view
  -h, --help              this help
`;

/** Per host: the shortest gap between request arrivals at the server (robots.txt included), against the interval kept. */
export interface ServerCheck {
  /** The demo host's name (fast, slow, polite, …). */
  name: string;
  host: string;
  /** Every name the crawl reached this server by (its own and its aliases), when it is more than its own. */
  names?: string[];
  requests: number;
  minGapSeconds: number | null;
  intervalSeconds: number;
  maxInFlight: number;
  ok: boolean;
}

/**
 * Per server (one address: every name the crawl reached it by together, docs/how-it-works.md#politeness-units),
 * the shortest gap between request arrivals against the interval, allowing 2 ms of loopback slack plus
 * `serverLagMs`, the servers' own measured event-loop delay (a late stamp shortens the next gap). robots.txt
 * counts like any other request, as it does for a server's rate limiter: it opens the host's timeline, and the
 * first page must keep the interval (Crawl-delay included) after it. The interval is the host's, or its unit's
 * when the crawl kept the names of one address as one unit.
 */
export function serverChecks(demo: DemoHosts, summary: CrawlSummary, serverLagMs = 0): ServerCheck[] {
  const allowance = LOOPBACK_SLACK_MS + serverLagMs;
  return demo.hosts.map((h) => {
    const host = new URL(h.origin).host;
    const s = summary.hosts.find((x) => x.host === host);
    const unit = summary.units?.find((u) => u.hosts.includes(host));
    const interval = unit?.plannedIntervalSeconds ?? s?.plannedIntervalSeconds ?? SAMPLE_CRAWL_DEFAULTS.delaySeconds;
    const names = (h.aliases ?? [])
      .map((a) => new URL(a.seed).host)
      .filter((a) => summary.hosts.some((x) => x.host === a));
    const starts = demo.arrivals(h.name).map((a) => a.at);
    const g = gaps(starts);
    const min = g.length > 0 ? Math.min(...g) / 1000 : null;
    const maxInFlight = demo.inFlightMax(h.name);
    const ok = (min === null || min * 1000 + allowance >= interval * 1000) && maxInFlight <= 1;
    return {
      name: h.name,
      host,
      ...(names.length > 0 ? { names: [host, ...names] } : {}),
      requests: starts.length,
      minGapSeconds: min,
      intervalSeconds: interval,
      maxInFlight,
      ok,
    };
  });
}

export async function runDemo(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, OPTIONS);
  if (values.help) {
    io.out(DEMO_HELP);
    return 0;
  }
  const port = parseNumber('port', values.port, { min: 0, max: 65_000, integer: true });
  if (values.serve && values.calibrate !== undefined)
    throw new UsageError('--calibrate: not with --serve (nothing is planned)');
  if (values.serve) return serve(io, port ?? DEMO_SERVE_PORT);
  if (port !== undefined) throw new UsageError('--port: only with --serve');

  const reportPath = values.report !== undefined ? checkWritable('report', values.report) : undefined;
  const logPath = values.log !== undefined ? checkWritable('log', values.log) : undefined;
  const testPages = parseNumber('test-pages', values['test-pages'], TEST_PAGES_LIMIT);
  if (values.calibrate !== undefined && testPages !== undefined)
    throw new UsageError('--test-pages: not with --calibrate (the report is what a test crawl measured)');
  const given = readCalibration(values.calibrate);
  resolveOption(values.resolve); // checked before the hosts start
  const testPagesPerHost = given ? 0 : (testPages ?? DEMO_DEFAULTS.testPagesPerHost);
  // The servers load when they are used, the crawl engine in runLiveCrawl (src/cli/main.ts: start-up).
  const { startDemoHosts } = await import('../demo/hosts.js');
  const demo = await startDemoHosts(defaultDemoConfig());
  try {
    // With each host on its own address, its aliases reach it by the demo's own --resolve, and the crawl keeps
    // politeness by address: the plan finds the shared address, the servers see one unit (on one address for
    // all, as on macOS, the aliases are left out: every host would be one unit).
    const aliased = demo.addressing === 'distinct' ? demo.hosts.filter((h) => (h.aliases ?? []).length > 0) : [];
    const resolve = resolveOption([
      ...(values.resolve ?? []),
      ...aliased.flatMap((h) => h.aliases!.map((a) => `${a.name}=${h.address}`)),
    ]);
    const seeds = [...demo.hosts.flatMap((h) => h.seeds), ...aliased.flatMap((h) => h.aliases!.map((a) => a.seed))];
    const flags = (pagesPerHost: string, maxPages?: string) =>
      crawlOptionsFromFlags(
        {
          'pages-per-host': pagesPerHost,
          ...(maxPages !== undefined ? { 'max-pages': maxPages } : {}),
          timeout: values.timeout ?? String(DEMO_DEFAULTS.timeoutSeconds),
          ...(values.delay !== undefined ? { delay: values.delay } : {}),
          ...(values['delay-from'] !== undefined ? { 'delay-from': values['delay-from'] } : {}),
          ...(values.concurrency !== undefined ? { concurrency: values.concurrency } : {}),
          ...(aliased.length > 0 ? { 'politeness-by': 'ip' } : {}),
        },
        seeds,
      );
    const options = flags(values['pages-per-host'] ?? String(DEMO_DEFAULTS.pagesPerHost), values['max-pages']);
    const json = Boolean(values.json);
    const say = (text: string): void => {
      if (!json) io.out(text);
    };
    const width = process.stdout.columns ? { width: process.stdout.columns } : {};
    say(formatDemoHosts(demo) + '\n');
    const lag = measureServerLag();
    let calibration = given;
    if (testPagesPerHost > 0) {
      say(
        `\nStep 1 of 2: a test crawl of ${plural(testPagesPerHost, 'page')} per host, to measure the hosts (answer times, faults, Crawl-delays).\n\n`,
      );
      const test = await runLiveCrawl({ options: flags(String(testPagesPerHost)), json, io, resolve, ...width });
      // What the test crawl measured, read as `estimate --calibrate` reads a report file.
      calibration = calibrationFromReport(JSON.parse(reportToJson(test.report)), 'the test crawl');
      // Politeness holds across the two crawls: each host's next request waits out its interval and any pause.
      await sleep(Math.max(0, politeRestartAt(test.report) - Date.now()));
      say(
        `\nStep 2 of 2: the crawl, ${plural(budgetOf(options), 'page')} per host, planned with what the test crawl measured (it starts again from the seeds).\n\n`,
      );
    }
    const result = await runLiveCrawl({
      options,
      json,
      io,
      resolve,
      ...(calibration ? { calibration } : {}),
      ...(reportPath ? { reportPath } : {}),
      ...(logPath ? { logPath } : {}),
      ...width,
    });
    const serverLagMs = lag.stop();
    const checks = serverChecks(demo, result.summary, serverLagMs);
    if (json) {
      io.out(JSON.stringify({ type: 'server-check', slackMs: LOOPBACK_SLACK_MS, serverLagMs, hosts: checks }) + '\n');
    } else {
      if (result.plan) io.out('\n' + planVsActual(result.plan.totalSeconds, result.summary) + '\n');
      io.out(formatServerChecks(checks, io.color, serverLagMs) + '\n');
    }
    const polite = checks.every((c) => c.ok);
    return polite ? result.exitCode : 1;
  } finally {
    await demo.close();
  }
}

/** The crawl's page budget per host (the demo gives every host the same). */
function budgetOf(options: SampleCrawlOptions): number {
  return options.pageBudgets?.otherwise ?? options.maxPages;
}

/**
 * When a crawl may start again on the same hosts without breaking politeness: for each host, its last
 * request's start plus the interval it was kept to then, and the end of any Retry-After pause.
 */
export function politeRestartAt(report: CrawlReport): number {
  let at = 0;
  for (const r of report.requests) at = Math.max(at, r.startedAt + (r.intervalSeconds ?? 0) * 1000);
  for (const p of report.pauses) at = Math.max(at, p.until);
  return at;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Planned against actual, with the plan's band when it has one (a calibrated plan); an uncalibrated plan has
 * none and says how to get one (NO_BAND_TEXT).
 */
export function planVsActual(plannedSeconds: number, s: CrawlSummary): string {
  const diff = plannedSeconds > 0 ? Math.round(((s.elapsedSeconds - plannedSeconds) / plannedSeconds) * 100) : 0;
  const band = s.plannedBand ? bandText(s.plannedBand, s.elapsedSeconds) : `${NO_BAND_TEXT} (leave out --test-pages 0)`;
  return `Planned ${formatDuration(plannedSeconds)} for ${s.pages} pages; actual ${formatDuration(s.elapsedSeconds)} (${diff >= 0 ? '+' : ''}${diff}%); ${band}.`;
}

function formatServerChecks(checks: ServerCheck[], color: boolean, serverLagMs: number): string {
  const c = colors(color);
  const paint = (ok: boolean, s: string) => (ok ? c.green(s) : c.red(s));
  const rows = checks.map((c) => [
    c.name,
    c.names ? `${c.host} (unit: ${c.names.length} names)` : c.host,
    String(c.requests),
    c.minGapSeconds === null ? '—' : formatSeconds(c.minGapSeconds),
    formatSeconds(c.intervalSeconds),
    String(c.maxInFlight),
    paint(c.ok, c.ok ? 'ok' : 'TOO FAST'),
  ]);
  const table = renderTable(
    [
      { header: 'Demo host' },
      { header: 'Address' },
      { header: 'Requests', align: 'right' },
      { header: 'Min gap', align: 'right' },
      { header: 'Interval', align: 'right' },
      { header: 'Max in flight', align: 'right' },
      { header: 'Politeness' },
    ],
    rows,
    { indent: '  ' },
  );
  const allowance = `${LOOPBACK_SLACK_MS} ms loopback slack + ${serverLagMs.toFixed(1)} ms the servers' own event-loop delay`;
  return [
    `Seen from the servers (every request, robots.txt included; a gap may fall short by ${allowance}):`,
    ...table,
  ].join('\n');
}

async function serve(io: Io, basePort: number): Promise<number> {
  const { startDemoHosts } = await import('../demo/hosts.js');
  const demo = await startDemoHosts({ ...defaultDemoConfig(), basePort });
  // Listen before saying so: a Ctrl+C right after the message must stop the hosts cleanly.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  io.out(formatDemoHosts(demo));
  io.out('\nServing until Ctrl+C.\n');
  await stopped;
  await demo.close();
  io.out('Demo hosts stopped.\n');
  return 0;
}
