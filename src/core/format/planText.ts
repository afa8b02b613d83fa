/**
 * The plan as terminal text, shared by `estimate`, `crawl`, `demo` and the extension's readable result.
 */
import { colors } from './ansi';
import { formatByteRate, formatBytes } from './bytes';
import { formatDuration, formatNumber, formatSeconds } from './duration';
import { renderTable, sanitizeText } from './table';
import { plural } from './text';
import type { BindingConstraint, DeadlineCheck, Plan } from '../plan/types';
import { calendarSummary, type PlanCalendar } from '../plan/calendar';

const CONSTRAINT_WORDS: Readonly<Record<BindingConstraint, string>> = {
  'host-interval': 'per-host interval',
  'crawl-delay': 'Crawl-delay',
  adaptive: 'adaptive delay',
  latency: 'response time (latency)',
  'global-rate': 'global rate',
  workers: 'worker slots',
  none: 'nothing to crawl',
};

/** Hosts whose pages are unknown listed with why, at most (the warning and --json have them all). */
const UNKNOWN_SHOWN = 10;

/** "2 hosts' pages unknown" */
function unknownCount(p: Plan): string {
  const n = p.unknownHosts.length;
  return n === 1 ? "1 host's pages unknown" : `${formatNumber(n)} hosts' pages unknown`;
}

/**
 * The hosts whose pages are unknown, each with why, and what to set (docs/cli.md §Pages unknown): the total covers
 * the other hosts only.
 */
function unknownSection(p: Plan, bold: (s: string) => string, yellow: (s: string) => string): string[] {
  const unknown = new Set(p.unknownHosts);
  const hosts = p.hosts.filter((h) => unknown.has(h.host));
  const lines = [
    `${bold('Pages unknown:')} ${yellow(unknownCount(p))}; the total covers the other hosts only (${plural(p.hosts.filter((h) => !h.skipped).length - hosts.length, 'host')}):`,
  ];
  for (const h of hosts.slice(0, UNKNOWN_SHOWN))
    lines.push(`  ${sanitizeText(h.host)}: ${sanitizeText(h.pagesUnknown?.reason ?? 'pages unknown')}`);
  if (hosts.length > UNKNOWN_SHOWN)
    lines.push(`  and ${formatNumber(hosts.length - UNKNOWN_SHOWN)} more (all in --json's unknownHosts)`);
  const flags = hosts
    .slice(0, 3)
    .map((h) => `--pages-for ${shellWord(sanitizeText(h.host))}=N`)
    .join(' ');
  lines.push(
    `  Set them with ${flags}${hosts.length > 3 ? ' …' : ''}, or --pages-per-host N for every host without a count.`,
  );
  return lines;
}

/** "127.0.0.5 (3 hosts)" for a unit of several, else the host. */
function bindingWho(p: Plan, host: string, unit: string | null): string {
  const u = unit === null ? undefined : p.units.find((x) => x.unit === unit);
  return u === undefined ? sanitizeText(host) : `${sanitizeText(u.unit)} (${plural(u.hosts.length, 'host')})`;
}

/** Units listed in the text; the JSON's `units` has them all. */
const UNITS_SHOWN = 10;

/**
 * The units of several hosts (docs/planning.md#politeness-units), grouped: "3 hosts on 127.0.0.5: a, b and c,
 * one request every 2 s (b's), 300 pages, 10 m 5 s".
 */
function unitsSection(p: Plan, bold: (s: string) => string): string[] {
  const by = p.input.politenessBy;
  const lines = [
    `${bold('Politeness units:')} ${plural(p.units.length, 'unit')} of several hosts (--politeness-by ${by}), each one queue with ${plural(p.input.perHostConcurrency, 'request')} in flight at the largest of its members' intervals:`,
  ];
  for (const u of p.units.slice(0, UNITS_SHOWN)) {
    const where = by === 'ip' ? 'on' : 'in';
    const shown = u.hosts.slice(0, 3).map(sanitizeText);
    const members =
      u.hosts.length > 3 ? `${shown.join(', ')} and ${formatNumber(u.hosts.length - 3)} more` : shown.join(', ');
    const interval =
      u.intervalHost === null
        ? 'no pages'
        : `one request every ${formatSeconds(u.periodSeconds)} (${u.intervalSource} of ${sanitizeText(u.intervalHost)}), ${plural(u.pages, 'page')}, ${formatDuration(u.seconds)}`;
    lines.push(`  ${plural(u.hosts.length, 'host')} ${where} ${sanitizeText(u.unit)} (${members}): ${interval}`);
  }
  if (p.units.length > UNITS_SHOWN)
    lines.push(`  and ${formatNumber(p.units.length - UNITS_SHOWN)} more (all in --json's units)`);
  return lines;
}

/** The plan as text: a per-host table, the total with the binding constraint in words, sharding, warnings. */
export function formatPlanText(p: Plan, invalidCount: number, color: boolean): string {
  const { bold, yellow } = colors(color);
  const sharded = p.sharding !== null;
  const unknown = new Set(p.unknownHosts);
  const lines: string[] = [];
  // Units of several hosts (docs/planning.md#politeness-units): each member's unit in a column of its own.
  const grouped = p.units.length > 0;
  // Bytes per host only when some host's page size is known (docs/cli.md#transfer).
  const sized = p.transfer.bytes !== null;
  const columns = [
    { header: 'Host', truncate: 'middle' as const, maxWidth: 48 },
    ...(grouped ? [{ header: 'Unit', truncate: 'middle' as const, maxWidth: 40 }] : []),
    { header: 'Pages', align: 'right' as const },
    { header: 'Interval' },
    { header: 'Period', align: 'right' as const },
    { header: 'Pages/h', align: 'right' as const },
    { header: 'Duration', align: 'right' as const },
    ...(sized ? [{ header: 'Bytes', align: 'right' as const }] : []),
    ...(p.deadline ? [{ header: 'By deadline', align: 'right' as const }] : []),
    ...(sharded ? [{ header: 'Machine', align: 'right' as const }] : []),
  ];
  const rows = p.hosts.map((h) => [
    sanitizeText(h.host),
    ...(grouped ? [sanitizeText(h.unit ?? h.host)] : []),
    h.pagesUnknown !== undefined ? 'unknown' : formatNumber(h.pages),
    `${formatSeconds(h.intervalSeconds)} (${h.intervalSource})`,
    formatSeconds(h.periodSeconds),
    formatNumber(h.pagesPerHour, 1),
    h.skipped ? 'skipped' : h.pagesUnknown !== undefined ? '—' : formatDuration(h.seconds),
    ...(sized ? [h.skipped || h.bytes === null ? '—' : formatBytes(h.bytes)] : []),
    ...(p.deadline ? [h.skipped ? '—' : formatNumber(p.deadline.pagesByHost[h.host] ?? 0)] : []),
    ...(sharded ? [String(h.machine)] : []),
  ]);
  lines.push(...renderTable(columns, rows, { styleHeader: bold }), '');

  const t = p.totalSeconds;
  const hostCount = p.hosts.filter((h) => !h.skipped).length - p.unknownHosts.length;
  // The same total in seconds, hours and days says something only from an hour up ("9.5 s (9.5 s = 0 h)" did not).
  const units =
    t >= 3600
      ? ` (${formatNumber(t, 1)} s = ${formatNumber(t / 3600, 1)} h = ${formatNumber(t / 86_400, 1)} days)`
      : '';
  lines.push(
    `${bold('Total:')} ${formatDuration(t)}${units} ` +
      `for ${formatNumber(p.totalPages)} ${p.totalPages === 1 ? 'page' : 'pages'} on ${formatNumber(hostCount)} ${hostCount === 1 ? 'host' : 'hosts'}` +
      (p.skippedPages > 0 ? ` (${formatNumber(p.skippedPages)} pages of skipped hosts not counted)` : '') +
      (p.complete ? '' : `; ${yellow('a lower bound')}: ${unknownCount(p)} (below)`),
  );
  lines.push(`${bold('Transfer:')} ${transferText(p)}`);
  const who = p.bindingHost !== null ? ` at ${bindingWho(p, p.bindingHost, p.bindingUnit)}` : '';
  lines.push(`${bold('Limited by:')} ${CONSTRAINT_WORDS[p.bindingConstraint]}${who}`);
  lines.push(`  ${sanitizeText(p.bindingDescription)}`);
  const b = p.bounds;
  lines.push(
    `${bold('Lower bounds:')} slowest ${grouped ? 'unit' : 'host'} ${formatDuration(b.hostSeconds)}, ` +
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
  lines.push(
    `${bold('Delay:')} ${formatSeconds(r.delaySeconds)} measured ${r.delayFrom === 'start' ? 'start to start' : 'from the end of each response'}`,
  );
  const o = p.overhead;
  lines.push(
    `${bold('Per request:')} each host's robots.txt comes first; the crawl's own time is ${formatNumber(o.afterIntervalSeconds * 1000, 2)} ms after an interval, ` +
      `${formatNumber(o.afterResponseSeconds * 1000, 2)} ms after an answer (${o.measured ? 'measured by the test crawl' : 'measured on loopback'})`,
  );
  if (grouped) lines.push(...unitsSection(p, bold));
  if (!p.complete) lines.push(...unknownSection(p, bold, yellow));
  if (p.calendar) lines.push(...calendarLines(p.calendar, p.totalSeconds, bold));
  if (p.deadline) {
    const d = p.deadline;
    lines.push(`${bold('Deadline:')} ${deadlineFacts(p, d).verdict}`);
    if (!d.met) lines.push(...deadlineSection(p, d, bold));
  }
  if (p.sharding) {
    const s = p.sharding;
    const of = p.units.length > 0 ? 'its politeness unit' : 'the host';
    lines.push('', bold(`Machines (${s.machines}, hosts assigned by FNV-1a-32 of ${of} mod ${s.machines}):`));
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
          CONSTRAINT_WORDS[m.bindingConstraint] +
            (m.bindingHost !== null ? ` at ${bindingWho(p, m.bindingHost, m.bindingUnit)}` : ''),
        ]),
        { indent: '  ', styleHeader: bold },
      ),
    );
    lines.push(
      `  Imbalance: ${formatNumber(s.imbalance, 2)}× (slowest machine / mean), pages ${formatNumber(s.pagesImbalance, 2)}×`,
    );
    if (!p.complete) {
      const on = s.perMachine.filter((m) => m.hosts.some((h) => unknown.has(h)));
      const named = on.slice(0, UNKNOWN_SHOWN).map((m) => String(m.machine));
      const more = on.length > named.length ? ` and ${formatNumber(on.length - named.length)} more` : '';
      lines.push(
        `  ${yellow('Hosts whose pages are unknown')} are assigned (by the hash) to machine${on.length === 1 ? '' : 's'} ${named.join(', ')}${more}, whose pages and time leave them out.`,
      );
    }
  }
  if (p.warnings.length > 0) {
    lines.push('', bold(`Warnings (${p.warnings.length}):`));
    for (const w of p.warnings) {
      lines.push(
        `  ${yellow(w.code)}${w.host !== undefined ? ` ${sanitizeText(w.host)}` : ''}: ${sanitizeText(w.message)}`,
      );
    }
  }
  lines.push(...sharedServersLines(p));
  if (invalidCount > 0) {
    lines.push(
      '',
      `${formatNumber(invalidCount)} invalid seed ${invalidCount === 1 ? 'line was' : 'lines were'} left out (listed on stderr).`,
    );
  }
  return lines.join('\n') + '\n';
}

/** What the crawl sends over the wire (docs/cli.md#transfer): its bytes and peak rate, or why they are unknown. */
export function transferText(p: Plan): string {
  const t = p.transfer;
  const ask = "plan with a test crawl's report, --calibrate REPORT, or give --page-size";
  if (t.bytes === null || t.peakBytesPerSecond === null)
    return t.unknownHosts.length === 0 ? 'nothing to fetch' : `unknown: page size not measured (${ask})`;
  const sources = new Set(p.hosts.filter((h) => h.bytes !== null && !h.skipped).map((h) => h.bytesSource));
  const from =
    sources.size > 1 ? 'test crawl and --page-size' : sources.has('calibrated') ? 'the test crawl' : '--page-size';
  const unknown = t.unknownHosts.length;
  return (
    `${unknown > 0 ? 'at least ' : ''}${formatBytes(t.bytes)} of response bodies on the wire, ` +
    `peak ${formatByteRate(t.peakBytesPerSecond)} with every host at its own rate (page size from ${from})` +
    (unknown > 0
      ? `; ${unknown === 1 ? "1 host's" : `${formatNumber(unknown)} hosts'`} page size unknown, not counted (${ask})`
      : '')
  );
}

/** Unresolved hosts named in the text; the JSON has them all. */
const UNRESOLVED_SHOWN = 5;

/**
 * Whether shared servers were checked (docs/planning.md#shared-servers): with two hosts or more and no
 * addresses looked up, a line says so (the groups themselves are findings); hosts that did not resolve.
 */
/** Crawl windows (docs/planning.md#crawl-windows): the calendar finish, a host's own windows, what a deadline leaves. */
function calendarLines(c: PlanCalendar, totalSeconds: number, bold: (s: string) => string): string[] {
  const lines = [`${bold('Calendar:')} ${sanitizeText(calendarSummary(c, totalSeconds))}`];
  if (c.firstOpenAt !== null && c.firstOpenAt !== c.startAt) lines.push(`  The first window opens ${c.firstOpenAt}.`);
  for (const h of c.hosts)
    lines.push(
      `  ${sanitizeText(h.host)} only in ${sanitizeText(h.windowsText.join(', '))}: ` +
        (h.calendarFinishText === null ? 'does not finish within ten years' : `finishes ${h.calendarFinishText}`),
    );
  if (c.deadlineAt !== null && c.deadlineOpenSeconds !== null)
    lines.push(
      `  The deadline ${c.deadlineAt} leaves ${formatDuration(c.deadlineOpenSeconds)} of crawl time in the windows.`,
    );
  return lines;
}

function sharedServersLines(p: Plan): string[] {
  const s = p.sharedServers;
  if (!s.addressesChecked) {
    return p.hosts.length > 1
      ? [
          '',
          'Shared servers: addresses not looked up, so hosts on one server were not checked (only registered domains were).',
        ]
      : [];
  }
  if (s.unresolved.length === 0) return [];
  const shown = s.unresolved
    .slice(0, UNRESOLVED_SHOWN)
    .map((u) => `${sanitizeText(u.host)} (${sanitizeText(u.reason)})`);
  const more = s.unresolved.length - shown.length;
  return [
    '',
    `Shared servers: ${plural(s.unresolved.length, 'host')} did not resolve and ${s.unresolved.length === 1 ? 'is' : 'are'} planned as given: ${shown.join(', ')}${more > 0 ? ` and ${formatNumber(more)} more` : ''}.`,
  ];
}

/** Flag pairs shown per option; the JSON's `cli.add` has them all. */
const FLAGS_SHOWN = 8;

/** A command-line word, quoted for a POSIX shell when it needs to be (an IPv6 host's brackets). */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A deadline in three sentences, for the CLI's text and the sidebar: the verdict ("2 d, missed by 3 h"), the
 * earliest finish possible and which host sets it, and what can help (only fewer pages from the hosts too
 * slow alone, or else more workers, rate or machines).
 */
export function deadlineFacts(p: Plan, d: DeadlineCheck): { verdict: string; earliest: string; blocking: string } {
  const grouped = new Set(p.units.map((u) => u.unit));
  const slowest = p.hosts.filter(
    (h) =>
      !h.skipped && h.pages > 0 && h.seconds === d.earliestSeconds && !(h.unit !== undefined && grouped.has(h.unit)),
  )[0];
  const slowestUnit = p.units.find((u) => u.pages > 0 && u.seconds === d.earliestSeconds);
  const n = d.blockingHosts.length;
  const who = n === 1 ? sanitizeText(d.blockingHosts[0]!) : `the ${formatNumber(n)} hosts that alone take longer`;
  return {
    verdict:
      `${formatDuration(d.seconds)}, ` +
      (d.met
        ? `met with ${formatDuration(d.marginSeconds)} to spare`
        : `missed by ${formatDuration(-d.marginSeconds)}`) +
      (p.complete ? '' : unknownDeadlineText(p, d)),
    earliest:
      `Earliest finish possible: ${formatDuration(d.earliestSeconds)}` +
      (slowestUnit
        ? `, ${bindingWho(p, slowestUnit.unit, slowestUnit.unit)} as one unit at its interval (the politeness bound)`
        : slowest
          ? `, ${sanitizeText(slowest.host)} alone at its own interval (the politeness bound)`
          : '') +
      '.',
    blocking:
      n > 0
        ? `No number of workers or machines, and no higher rate, helps ${who}: only fewer pages from ${n === 1 ? 'it' : 'them'}.`
        : 'Every host fits in it alone: what is short is the worker slots or the global rate.',
  };
}

/**
 * What a deadline's verdict means when some hosts' pages are unknown: it is the other hosts' (a miss stays a
 * miss; a deadline met may not be), and each unknown host fits alone up to its pages by the deadline.
 */
function unknownDeadlineText(p: Plan, d: DeadlineCheck): string {
  const shown = p.unknownHosts.slice(0, 3).map((h) => `${sanitizeText(h)} ${formatNumber(d.pagesByHost[h] ?? 0)}`);
  const more = p.unknownHosts.length > 3 ? `, and ${formatNumber(p.unknownHosts.length - 3)} more` : '';
  return d.met
    ? ` by the hosts whose pages are known; ${unknownCount(p)}, so it may not be: each fits alone only with at most the pages it gives by the deadline at its own interval (${shown.join(', ')}${more})`
    : ` by the hosts whose pages are known alone (${unknownCount(p)})`;
}

/** "What meets the deadline" (docs/cli.md §What meets the deadline): a missed deadline's options. */
function deadlineSection(p: Plan, d: DeadlineCheck, bold: (s: string) => string): string[] {
  const lines = ['', bold('What meets the deadline:')];
  const facts = deadlineFacts(p, d);
  lines.push(
    `  ${facts.earliest}`,
    `  By deadline (in the table): the most pages each host gives in ${formatDuration(d.seconds)} at its own interval` +
      (p.units.length > 0 ? "; in a unit of several, its share of the unit's pages by then." : '.'),
    `  ${facts.blocking}`,
  );
  if (d.options.length === 0) lines.push("  Nothing within the plan's limits meets it.");
  d.options.forEach((o, i) => {
    lines.push(`  ${i + 1}. ${sanitizeText(o.text)}`);
    const words = o.cli.add.map((w) => shellWord(sanitizeText(w)));
    const shown = words.slice(0, FLAGS_SHOWN * 2).join(' ');
    const more =
      words.length > FLAGS_SHOWN * 2
        ? ` … (${formatNumber((words.length - FLAGS_SHOWN * 2) / 2)} more, all in --json's cli.add)`
        : '';
    const instead = o.cli.remove.length > 0 ? ` (in place of ${o.cli.remove.join(', ')})` : '';
    lines.push(`     add: ${shown}${more}${instead}`);
  });
  return lines;
}
