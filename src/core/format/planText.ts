/**
 * The plan as terminal text, shared by `estimate`, `crawl`, `demo` and the extension's readable result.
 */
import { colors } from './ansi';
import { formatDuration, formatNumber, formatSeconds } from './duration';
import { renderTable, sanitizeText } from './table';
import type { BindingConstraint, Plan } from '../plan/types';

const CONSTRAINT_WORDS: Readonly<Record<BindingConstraint, string>> = {
  'host-interval': 'per-host interval',
  'crawl-delay': 'Crawl-delay',
  adaptive: 'adaptive delay',
  latency: 'response time (latency)',
  'global-rate': 'global rate',
  workers: 'worker slots',
  none: 'nothing to crawl',
};

/** The plan as text: a per-host table, the total with the binding constraint in words, sharding, warnings. */
export function formatPlanText(p: Plan, invalidCount: number, color: boolean): string {
  const { bold, yellow } = colors(color);
  const sharded = p.sharding !== null;
  const lines: string[] = [];
  const columns = [
    { header: 'Host', truncate: 'middle' as const, maxWidth: 48 },
    { header: 'Pages', align: 'right' as const },
    { header: 'Interval' },
    { header: 'Period', align: 'right' as const },
    { header: 'Pages/h', align: 'right' as const },
    { header: 'Duration', align: 'right' as const },
    ...(sharded ? [{ header: 'Machine', align: 'right' as const }] : []),
  ];
  const rows = p.hosts.map((h) => [
    sanitizeText(h.host),
    formatNumber(h.pages),
    `${formatSeconds(h.intervalSeconds)} (${h.intervalSource})`,
    formatSeconds(h.periodSeconds),
    formatNumber(h.pagesPerHour, 1),
    h.skipped ? 'skipped' : formatDuration(h.seconds),
    ...(sharded ? [String(h.machine)] : []),
  ]);
  lines.push(...renderTable(columns, rows, { styleHeader: bold }), '');

  const t = p.totalSeconds;
  const hostCount = p.hosts.filter((h) => !h.skipped).length;
  lines.push(
    `${bold('Total:')} ${formatDuration(t)} (${formatNumber(t, 1)} s = ${formatNumber(t / 3600, 1)} h = ${formatNumber(t / 86_400, 1)} days) ` +
      `for ${formatNumber(p.totalPages)} ${p.totalPages === 1 ? 'page' : 'pages'} on ${formatNumber(hostCount)} ${hostCount === 1 ? 'host' : 'hosts'}` +
      (p.skippedPages > 0 ? ` (${formatNumber(p.skippedPages)} pages of skipped hosts not counted)` : ''),
  );
  const who = p.bindingHost !== null ? ` at ${sanitizeText(p.bindingHost)}` : '';
  lines.push(`${bold('Limited by:')} ${CONSTRAINT_WORDS[p.bindingConstraint]}${who}`);
  lines.push(`  ${sanitizeText(p.bindingDescription)}`);
  const b = p.bounds;
  lines.push(
    `${bold('Lower bounds:')} slowest host ${formatDuration(b.hostSeconds)}, ` +
      `global rate ${b.globalRateSeconds === null ? 'none (no --rate)' : formatDuration(b.globalRateSeconds)}, ` +
      `workers ${formatDuration(b.workersSeconds)}`,
  );
  const r = p.input;
  lines.push(
    `${bold('Per-worker delay:')} ` +
      (p.perWorkerDelaySeconds === null
        ? 'none (no --rate: workers are not paced globally)'
        : `${formatSeconds(p.perWorkerDelaySeconds)} (${formatNumber(r.workers)} workers / ${formatNumber(r.rate ?? 0, 3)} req/s)`),
  );
  lines.push(`${bold('Delay:')} ${formatSeconds(r.delaySeconds)} measured ${r.delayFrom === 'start' ? 'start to start' : 'from the end of each response'}`);
  const o = p.overhead;
  lines.push(
    `${bold('Per request:')} each host's robots.txt comes first; the crawl's own time is ${formatNumber(o.afterIntervalSeconds * 1000, 2)} ms after an interval, ` +
      `${formatNumber(o.afterResponseSeconds * 1000, 2)} ms after an answer (${o.measured ? 'measured by the test crawl' : 'measured on loopback'})`,
  );
  if (p.deadline) {
    const d = p.deadline;
    lines.push(
      `${bold('Deadline:')} ${formatDuration(d.seconds)}, ` +
        (d.met ? `met with ${formatDuration(d.marginSeconds)} to spare` : `missed by ${formatDuration(-d.marginSeconds)}`),
    );
  }
  if (p.sharding) {
    const s = p.sharding;
    lines.push('', bold(`Machines (${s.machines}, hosts assigned by FNV-1a-32 of the host mod ${s.machines}):`));
    lines.push(
      ...renderTable(
        [
          { header: 'Machine', align: 'right' },
          { header: 'Hosts', align: 'right' },
          { header: 'Pages', align: 'right' },
          { header: 'Duration', align: 'right' },
          { header: 'Limited by' },
        ],
        s.perMachine.map((m) => [
          String(m.machine),
          formatNumber(m.hosts.length),
          formatNumber(m.pages),
          formatDuration(m.seconds),
          CONSTRAINT_WORDS[m.bindingConstraint] + (m.bindingHost !== null ? ` at ${sanitizeText(m.bindingHost)}` : ''),
        ]),
        { indent: '  ', styleHeader: bold },
      ),
    );
    lines.push(`  Imbalance: ${formatNumber(s.imbalance, 2)}× (slowest machine / mean), pages ${formatNumber(s.pagesImbalance, 2)}×`);
  }
  if (p.warnings.length > 0) {
    lines.push('', bold(`Warnings (${p.warnings.length}):`));
    for (const w of p.warnings) {
      lines.push(`  ${yellow(w.code)}${w.host !== undefined ? ` ${sanitizeText(w.host)}` : ''}: ${sanitizeText(w.message)}`);
    }
  }
  if (invalidCount > 0) {
    lines.push('', `${formatNumber(invalidCount)} invalid seed ${invalidCount === 1 ? 'line was' : 'lines were'} left out (listed on stderr).`);
  }
  return lines.join('\n') + '\n';
}

