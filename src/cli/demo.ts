/**
 * `crawl-planner demo`: the whole product on the built-in loopback demo hosts, with no network. It starts
 * the hosts, prints the plan for them (robots.txt and Crawl-delay included), runs the polite crawl with
 * live output, then prints planned against actual and checks politeness from the servers' own arrival
 * logs. `--serve` only starts the hosts and runs until stopped, for the extension and other crawlers.
 */
import { SAMPLE_CRAWL_DEFAULTS } from '../core/crawl/sampleCrawlOptions';
import type { CrawlSummary } from '../core/crawl/events';
import { formatDuration, formatSeconds } from '../core/format/duration';
import { colors } from '../core/format/ansi';
import { bandText } from '../core/format/crawlLines';
import { renderTable } from '../core/format/table';
import type { DemoHosts } from '../demo';
import { DEMO_SERVE_PORT, defaultDemoConfig } from '../demo/config';
import { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../demo/lag';
import { formatDemoHosts } from '../demo/serve';
import { parse, parseNumber, UsageError, type Io } from './args';
import { readCalibration } from './calibrate';
import { checkWritable, crawlOptionsFromFlags, runLiveCrawl } from './crawl';

const OPTIONS = {
  serve: { type: 'boolean' },
  port: { type: 'string' },
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

export const DEMO_DEFAULTS = { maxPages: 60, timeoutSeconds: 5 };

export const DEMO_HELP = `Usage: crawl-planner demo [options]

Starts the built-in demo hosts on loopback (no network), prints the plan for them, runs a polite test
crawl with live output, and prints planned against actual, with a politeness check from the servers'
own arrival logs. Finishes in under a minute.

Options:
  --serve                 only start the demo hosts, print their URLs, and run until Ctrl+C
  --port N                first port for --serve (default ${DEMO_SERVE_PORT}; 0 picks free ports)
  --max-pages N           pages to crawl (default ${DEMO_DEFAULTS.maxPages})
  --delay SECONDS         per-host interval (default ${SAMPLE_CRAWL_DEFAULTS.delaySeconds})
  --delay-from start|end  how the interval is measured (default start)
  --concurrency N         global slots (default ${SAMPLE_CRAWL_DEFAULTS.concurrency})
  --timeout SECONDS       bound on one request (default ${DEMO_DEFAULTS.timeoutSeconds})
  --report FILE.json      write the crawl report
  --log FILE.ndjson       write each event as it happens
  --calibrate REPORT      plan with what an earlier crawl measured (e.g. a demo run's --report)
  --json                  events as JSON lines instead of the live view
  -h, --help              this help
`;

/** Per host: the shortest gap between request arrivals at the server (robots.txt included), against the interval kept. */
export interface ServerCheck {
  /** The demo host's name (fast, slow, polite, …). */
  name: string;
  host: string;
  requests: number;
  minGapSeconds: number | null;
  intervalSeconds: number;
  maxInFlight: number;
  ok: boolean;
}

/**
 * Per host, the shortest gap between request arrivals against the interval, allowing 2 ms of loopback
 * slack plus `serverLagMs`, the servers' own measured event-loop delay (a late stamp shortens the next gap).
 * robots.txt counts like any other request, as it does for a server's rate limiter: it opens the host's
 * timeline, and the first page must keep the interval (Crawl-delay included) after it.
 */
export function serverChecks(demo: DemoHosts, summary: CrawlSummary, serverLagMs = 0): ServerCheck[] {
  const allowance = LOOPBACK_SLACK_MS + serverLagMs;
  return demo.hosts.map((h) => {
    const host = new URL(h.origin).host;
    const s = summary.hosts.find((x) => x.host === host);
    const interval = s?.plannedIntervalSeconds ?? SAMPLE_CRAWL_DEFAULTS.delaySeconds;
    const starts = demo.arrivals(h.name).map((a) => a.at);
    const g = gaps(starts);
    const min = g.length > 0 ? Math.min(...g) / 1000 : null;
    const maxInFlight = demo.inFlightMax(h.name);
    const ok = (min === null || min * 1000 + allowance >= interval * 1000) && maxInFlight <= 1;
    return {
      name: h.name,
      host,
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
  const calibration = readCalibration(values.calibrate);
  // The servers load when they are used, the crawl engine in runLiveCrawl (src/cli/main.ts: start-up).
  const { startDemoHosts } = await import('../demo/hosts.js');
  const demo = await startDemoHosts(defaultDemoConfig());
  try {
    const seeds = demo.hosts.flatMap((h) => h.seeds);
    const options = crawlOptionsFromFlags(
      {
        'max-pages': values['max-pages'] ?? String(DEMO_DEFAULTS.maxPages),
        timeout: values.timeout ?? String(DEMO_DEFAULTS.timeoutSeconds),
        ...(values.delay !== undefined ? { delay: values.delay } : {}),
        ...(values['delay-from'] !== undefined ? { 'delay-from': values['delay-from'] } : {}),
        ...(values.concurrency !== undefined ? { concurrency: values.concurrency } : {}),
      },
      seeds,
    );
    const json = Boolean(values.json);
    if (!json) io.out(formatDemoHosts(demo) + '\n');
    const lag = measureServerLag();
    const result = await runLiveCrawl({
      options,
      json,
      io,
      ...(calibration ? { calibration } : {}),
      ...(reportPath ? { reportPath } : {}),
      ...(logPath ? { logPath } : {}),
      ...(process.stdout.columns ? { width: process.stdout.columns } : {}),
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

function planVsActual(plannedSeconds: number, s: CrawlSummary): string {
  const diff = plannedSeconds > 0 ? Math.round(((s.elapsedSeconds - plannedSeconds) / plannedSeconds) * 100) : 0;
  const band = s.plannedBand ? `; ${bandText(s.plannedBand, s.elapsedSeconds)}` : '';
  return `Planned ${formatDuration(plannedSeconds)} for ${s.pages} pages; actual ${formatDuration(s.elapsedSeconds)} (${diff >= 0 ? '+' : ''}${diff}%)${band}.`;
}

function formatServerChecks(checks: ServerCheck[], color: boolean, serverLagMs: number): string {
  const c = colors(color);
  const paint = (ok: boolean, s: string) => (ok ? c.green(s) : c.red(s));
  const rows = checks.map((c) => [
    c.name,
    c.host,
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
