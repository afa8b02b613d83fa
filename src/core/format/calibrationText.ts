/**
 * What `estimate --calibrate` and `--simulate` add to the plan's text: what the test crawl measured per host
 * and which inputs the plan took from it, and the simulation's band. Shared by the CLI (estimate, crawl,
 * demo) and the extension's readable result.
 */
import type { Calibration, HostCalibration, LimiterModel } from '../calibrate/types';
import { calibrationMatcher } from '../calibrate/match';
import type { HostPlan, Plan } from '../plan/types';
import type { Simulation } from '../simulate/types';
import { colors } from './ansi';
import { formatBytes } from './bytes';
import { NO_BAND_TEXT } from './crawlLines';
import { formatDuration, formatNumber, formatSeconds } from './duration';
import { renderTable, sanitizeText } from './table';
import { plural } from './text';

function percentText(rate: number): string {
  return `${formatNumber(rate * 100, 1)}%`;
}

/** "10.0% (Retry-After 1 s)", or "—" when none. */
function faultCell(count: number, rate: number, pauses: readonly number[]): string {
  if (count === 0) return '—';
  if (pauses.length === 0) return percentText(rate);
  const lo = pauses[0]!;
  const hi = pauses[pauses.length - 1]!;
  return `${percentText(rate)} (Retry-After ${lo === hi ? formatSeconds(lo) : `${formatSeconds(lo)}–${formatSeconds(hi)}`})`;
}

/** A host's page size on the wire, p50 / p90 (decoded when the report has no wire sizes), or "—". */
function pageBytesCell(c: HostCalibration): string {
  const b = c.pageBytes === undefined ? undefined : (c.pageBytes.wire ?? c.pageBytes.decoded);
  return b === undefined ? '—' : `${formatBytes(b.p50)} / ${formatBytes(b.p90)}`;
}

/** One host the report measured, as text: its cells in the calibration table and the inputs the plan took from it. */
export interface CalibrationRowText {
  host: string;
  requests: string;
  /** "0.2 s / 0.4 s" (p50 / p90), or "—". */
  latency: string;
  /** A page's body on the wire, "10 KB / 18 KB" (p50 / p90; decoded for a report without wire sizes), or "—". */
  pageBytes: string;
  /** "10.0% (Retry-After 1 s)", or "—". */
  tooManyRequests: string;
  serverErrors: string;
  /** Timeouts and other transport errors. */
  errors: string;
  crawlDelay: string;
  /** The mean gap between its request starts. */
  achieved: string;
  /** The inputs the plan took from it (`latency`, `faults`, `crawl-delay`); null when no planned host matches it. */
  used: string[] | null;
}

/** "a test crawl of 60 pages, 67 requests in 41 s" */
export function calibrationSourceText(calibration: Calibration): string {
  const s = calibration.source;
  return `a test crawl of ${plural(s.pages, 'page')}, ${plural(s.requests, 'request')} in ${formatDuration(s.elapsedSeconds)}`;
}

/** The calibration's hosts as text, in the report's order, each with what the plan took from it. */
export function calibrationRows(plan: Pick<Plan, 'hosts'>, calibration: Calibration): CalibrationRowText[] {
  // Which planned host each measured one stands for (the same host, or the same name on another port).
  const calibrationOf = calibrationMatcher(calibration);
  const planned = new Map<HostCalibration, HostPlan>();
  for (const h of plan.hosts) {
    const c = calibrationOf(h.host);
    if (c !== undefined) planned.set(c, h);
  }
  return calibration.hosts.map((c) => {
    const f = c.faults;
    return {
      host: sanitizeText(c.host),
      requests: formatNumber(c.requests),
      latency:
        c.latency.count === 0 ? '—' : `${formatSeconds(c.latency.p50Seconds)} / ${formatSeconds(c.latency.p90Seconds)}`,
      pageBytes: pageBytesCell(c),
      tooManyRequests: faultCell(f.tooManyRequests.count, f.tooManyRequests.rate, f.tooManyRequests.retryAfterSeconds),
      serverErrors: faultCell(f.serverErrors.count, f.serverErrors.rate, f.serverErrors.retryAfterSeconds),
      errors: faultCell(f.timeouts.count + f.otherErrors.count, f.timeouts.rate + f.otherErrors.rate, []),
      crawlDelay: c.interval.crawlDelaySeconds === null ? '—' : formatSeconds(c.interval.crawlDelaySeconds),
      achieved:
        c.interval.achievedMeanSeconds === null
          ? '—'
          : formatSeconds(Number(c.interval.achievedMeanSeconds.toFixed(3))),
      used: planned.get(c)?.calibrated.slice() ?? null,
    };
  });
}

/** The calibration section: one row per host the report saw, then which inputs the plan took from it. */
export function formatCalibrationText(plan: Plan, calibration: Calibration, color: boolean): string {
  const { bold } = colors(color);
  const s = calibration.source;
  const lines: string[] = [];
  const from = s.file === null ? 'a test crawl' : sanitizeText(s.file);
  lines.push(`${bold('Calibrated from')} ${from}: ${calibrationSourceText(calibration)}`);
  const row = (r: CalibrationRowText) => [
    r.host,
    r.requests,
    r.latency,
    r.pageBytes,
    r.tooManyRequests,
    r.serverErrors,
    r.errors,
    r.crawlDelay,
    r.achieved,
    r.used?.join(', ') || 'not planned',
  ];
  lines.push(
    ...renderTable(
      [
        { header: 'Host', truncate: 'middle', maxWidth: 40 },
        { header: 'Requests', align: 'right' },
        { header: 'Latency p50 / p90' },
        { header: 'Page p50 / p90' },
        { header: '429' },
        { header: '5xx' },
        { header: 'Errors' },
        { header: 'Crawl-delay' },
        { header: 'Achieved' },
        { header: 'Used' },
      ],
      calibrationRows(plan, calibration).map(row),
      { indent: '  ', styleHeader: bold },
    ),
  );
  lines.push(...modelLines(calibration));
  const planned = plan.hosts.filter((h) => !h.skipped);
  const pages = planned.reduce((n, h) => n + h.pages, 0);
  const requests = planned.reduce((n, h) => n + h.requests, 0);
  const nonPage = planned.reduce((n, h) => n + h.nonPageRequests, 0);
  if (pages > 0)
    lines.push(
      `  Requests: ${formatNumber(requests)} for ${plural(pages, 'page')} (robots.txt, retries${nonPage > 0 ? ` and ${plural(nonPage, 'redirect')}` : ''})`,
    );
  // A host that blocked the test crawl: said so, and planned with the typed values.
  const blocked = calibration.blocked ?? [];
  const blockedOf = calibrationMatcher({ ...calibration, hosts: blocked as unknown as HostCalibration[] });
  for (const b of blocked)
    lines.push(
      `  ${sanitizeText(b.host)} blocked the test crawl (${sanitizeText(b.text)}): the plan does not use its numbers (typed values)`,
    );
  const unseen = plan.hosts
    .filter((h) => h.calibrated.length === 0 && blockedOf(h.host) === undefined)
    .map((h) => sanitizeText(h.host));
  if (unseen.length > 0) {
    const shown =
      unseen.slice(0, 5).join(', ') + (unseen.length > 5 ? `, +${formatNumber(unseen.length - 5)} more` : '');
    lines.push(`  Typed values for ${plural(unseen.length, 'host')} the report did not measure: ${shown}`);
  }
  return lines.join('\n') + '\n';
}

/** "min-interval limiter: 429 under 0.5 s (0.48–0.53 s), Retry-After" and the like, or null for none. */
export function limiterText(l: LimiterModel): string {
  const range = `${formatSeconds(l.intervalRangeSeconds[0])}–${formatSeconds(l.intervalRangeSeconds[1])}`;
  const what =
    l.kind === 'min-interval'
      ? `${l.status} under ${formatSeconds(l.intervalSeconds)} (${range}) since the last ${l.since === 'accepted' ? 'accepted request' : 'request'}`
      : `${l.status} once a bucket of ${l.burst} is spent, one back every ${formatSeconds(l.intervalSeconds)} (${range})`;
  return `${l.kind} limiter: ${what}${l.retryAfterShare > 0 ? ', Retry-After' : ''}`;
}

/** One line per host with a fitted limiter or an undetermined model. */
function modelLines(calibration: Calibration): string[] {
  const out: string[] = [];
  for (const c of calibration.hosts) {
    const m = c.model;
    if (m === undefined || m.limiter === null) continue;
    const note = m.note === null ? '' : `; ${m.note}`;
    out.push(`  ${sanitizeText(c.host)}: ${limiterText(m.limiter)}${note}`);
  }
  return out;
}

/** The simulation in one line: the band, how many runs and how, and where the plan falls in it. */
export function formatSimulationText(sim: Simulation, plan: Plan, color: boolean): string {
  const { bold } = colors(color);
  const how =
    sim.method === 'engine'
      ? 'of the crawl engine on virtual time'
      : 'of per-host sums (too large to run request by request)';
  // An uncalibrated plan has nothing measured to draw from: no band, and how to get one (NO_BAND_TEXT).
  if (plan.input.calibration === null)
    return `${bold('Simulated:')} ${NO_BAND_TEXT} (--calibrate REPORT): the plan is not calibrated, so the simulation has nothing measured to draw from (p50 ${formatDuration(sim.p50Seconds)} over ${plural(sim.runs, 'run')}; the plan says ${formatDuration(plan.totalSeconds)})\n`;
  const band =
    sim.p10Seconds === sim.p90Seconds
      ? `${formatDuration(sim.p50Seconds)} in every run (nothing measured to draw from)`
      : `p10 ${formatDuration(sim.p10Seconds)}, p50 ${formatDuration(sim.p50Seconds)}, p90 ${formatDuration(sim.p90Seconds)}`;
  // A host whose pages are unknown has none to run: the band, like the plan's total, covers the other hosts only.
  const unknown = plan.unknownHosts.length;
  const without =
    unknown === 0
      ? ''
      : `; like the plan, the band leaves out the ${unknown === 1 ? 'host' : `${formatNumber(unknown)} hosts`} whose pages are unknown`;
  return `${bold('Simulated:')} ${band} over ${plural(sim.runs, 'run')} ${how}, seed ${sim.seed}; the plan says ${formatDuration(plan.totalSeconds)}${without}\n`;
}
