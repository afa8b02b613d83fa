/**
 * Rendering decisions for the planner, as pure functions of what the extension posts: seed error lines and
 * notes, the host table's order, robots.txt cards, the last crawl. No DOM, so they are unit-tested in node;
 * `main.ts` only turns these into elements (textContent). The plan's own text (total, rows, chart) is made
 * by the extension (src/core/format/planSummary.ts).
 */
import { END_REASONS, formatNotFollowedReason, notFollowedHeadline } from '../core/format/crawlOutcome';
import { formatDuration, formatNumber, formatSeconds } from '../core/format/duration';
import { intervalSourceLabel } from '../core/format/planSummary';
import type { InvalidSeed, SeedNoteCode } from '../core/seeds';
import { parseChangedSince } from '../core/sitemaps/lastmod';
import { assertNever } from '../shared/messageChecks';
import { PLANNER_SEED_LIMITS, seedLinesText, sizeText } from '../shared/planner/limits';
import {
  simulationRunningText,
  type CalibrationState,
  type CalibrationView,
  type CrawlResultView,
  type DeadlineOptionView,
  type DeadlineView,
  type PlanResultView,
  type RobotsCoverageView,
  type RobotsOriginView,
  type RobotsOutcome,
  type RobotsSeedView,
  type RobotsState,
  type RobotsVerdict,
  type RobotsView,
  type SeedFileView,
  type SitemapHostView,
  type SitemapsState,
  type SitemapsView,
  type SimulationState,
  type SummaryRow,
} from '../shared/planner/viewModel';

/** "1 file", "2 files" (`many` for other plurals). */
const plural = (n: number, one: string, many = `${one}s`) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** Seed error lines shown at most. */
export const MAX_SEED_ERRORS_SHOWN = 20;

// ---------------------------------------------------------------------------------------------
// The host table

/** What the sidebar's host table can be sorted by; `plan` is the extension's order (the binding row first). */
export type SortKey = 'plan' | 'host' | 'pages' | 'interval' | 'duration';

export interface TableSort {
  key: SortKey;
  descending: boolean;
}

/** The order a column sorts in first: numbers largest first, hosts A to Z. */
export function firstDirection(key: SortKey): boolean {
  return key !== 'host' && key !== 'plan';
}

/** The next sort after a click on `key`'s header: that column, or the other direction when it is sorted already. */
export function nextSort(current: TableSort, key: SortKey): TableSort {
  return current.key === key ? { key, descending: !current.descending } : { key, descending: firstDirection(key) };
}

const SORT_VALUES: Readonly<Record<Exclude<SortKey, 'plan'>, (r: SummaryRow) => number | string>> = {
  host: (r) => r.host,
  pages: (r) => r.sort.pages,
  interval: (r) => r.sort.intervalSeconds,
  duration: (r) => r.sort.seconds,
};

/** The rows in `sort`'s order (stable: ties keep the extension's order). */
export function sortRows(rows: readonly SummaryRow[], sort: TableSort): SummaryRow[] {
  if (sort.key === 'plan') return [...rows];
  const value = SORT_VALUES[sort.key];
  const sign = sort.descending ? -1 : 1;
  return rows
    .map((row, i) => ({ row, i, v: value(row) }))
    .sort((a, b) => {
      const c =
        typeof a.v === 'string' && typeof b.v === 'string' ? a.v.localeCompare(b.v) : (a.v as number) - (b.v as number);
      return c === 0 ? a.i - b.i : sign * c;
    })
    .map((x) => x.row);
}

/** `aria-sort` of a column header. */
export function ariaSort(sort: TableSort, key: SortKey): 'ascending' | 'descending' | 'none' {
  return sort.key !== key ? 'none' : sort.descending ? 'descending' : 'ascending';
}

// ---------------------------------------------------------------------------------------------
// Seeds

export interface SeedErrorItem {
  line: number;
  /** "Line 4: not a URL" */
  label: string;
  /** The line as typed (untrusted: rendered as text). */
  text: string;
}

export function seedErrorItems(
  result: Pick<PlanResultView, 'invalidSeeds' | 'invalidSeedCount'>,
  max = MAX_SEED_ERRORS_SHOWN,
): { items: SeedErrorItem[]; more: number } {
  const items = result.invalidSeeds
    .slice(0, max)
    .map((s: InvalidSeed) => ({ line: s.line, label: `Line ${s.line}: ${s.message}`, text: s.text }));
  return { items, more: Math.max(0, result.invalidSeedCount - items.length) };
}

const NOTE_HEADS: Readonly<Record<SeedNoteCode, [string, string]>> = {
  credentials: [
    'seed had a user name or password: removed, never sent',
    'seeds had a user name or password: removed, never sent',
  ],
  'invisible-characters': [
    'line holds invisible characters (shown escaped)',
    'lines hold invisible characters (shown escaped)',
  ],
  'ip-literal': ['seed names an IP address in another form', 'seeds name an IP address in another form'],
  'local-address': ['seed is on this machine or a private network', 'seeds are on this machine or a private network'],
};

export interface SeedNoteItem {
  code: SeedNoteCode;
  /** "2 seeds had a user name or password: removed, never sent" */
  head: string;
  /** "Line 4: user name and password removed from the URL" with the line's text (escaped, without credentials). */
  lines: Array<{ line: number; label: string; text: string }>;
  /** Notes of this kind not listed. */
  more: number;
}

/** What the seeds hide, a group per kind, then the duplicates' count. */
export function seedNoteItems(result: Pick<PlanResultView, 'seedNotes' | 'duplicateSeeds'>): {
  groups: SeedNoteItem[];
  duplicates?: string;
} {
  const groups = result.seedNotes.map((g) => {
    const [one, many] = NOTE_HEADS[g.code];
    return {
      code: g.code,
      head: `${formatNumber(g.count)} ${g.count === 1 ? one : many}`,
      lines: g.notes.map((n) => ({ line: n.line, label: `Line ${n.line}: ${n.message}`, text: n.text })),
      more: g.count - g.notes.length,
    };
  });
  const d = result.duplicateSeeds;
  if (d === 0) return { groups };
  return {
    groups,
    duplicates: `${formatNumber(d)} duplicate ${d === 1 ? 'seed' : 'seeds'} (the same URL as an earlier line; ${d === 1 ? 'it changes' : 'they change'} nothing in the plan)`,
  };
}

/** Under the seeds box: how many seed lines, and past a few thousand, that a file suits a long list better. */
export function seedsCountText(seedLines: number): string {
  if (seedLines === 0) return '';
  const count = seedLinesText(seedLines);
  return seedLines > PLANNER_SEED_LIMITS.suggestFileLines
    ? `${count}. A list this long is better kept in a file: “Load seeds from file…” or “Use seeds.txt” (the file stays the source).`
    : `${count}.`;
}

/** A seeds file as the sidebar describes it: "50,000 seed lines · 1.2 MB", or that it is being read. */
export function seedFileSummary(file: SeedFileView): string {
  if (file.loading) return 'Reading…';
  if (file.problem !== undefined && file.bytes === 0) return '';
  return `${seedLinesText(file.seedLines)} · ${sizeText(file.bytes)}`;
}

// ---------------------------------------------------------------------------------------------
// robots.txt

/** "L3 Disallow: /private": the deciding line as the link-like button shows it. */
export function decidingLineLabel(line: number, rule: string | undefined): string {
  const text = (rule ?? '').replace(/\s+/g, ' ').trim();
  const shown = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return shown === '' ? `L${line}` : `L${line} ${shown}`;
}

export function outcomeLabel(o: Pick<RobotsOriginView, 'outcome' | 'status'>): string {
  const http = o.status === undefined ? '' : ` (HTTP ${o.status})`;
  const outcome: RobotsOutcome = o.outcome;
  switch (outcome) {
    case 'ok':
      return `read${http}`;
    case 'unavailable':
      return `unavailable${http}: everything allowed`;
    case 'unreachable':
      return `unreachable${http}: everything disallowed`;
    default:
      return assertNever(outcome);
  }
}

export function verdictLabel(verdict: RobotsVerdict): string {
  switch (verdict) {
    case 'allowed':
      return 'allowed';
    case 'disallowed':
      return 'disallowed';
    case 'not-applicable':
      return 'not applicable';
    default:
      return assertNever(verdict);
  }
}

export interface RobotsSeedItem {
  url: string;
  verdict: RobotsVerdict;
  verdictText: string;
  /** The deciding line, for a link-like button that opens robots.txt there. */
  deciding?: { line: number; label: string };
  reason: string;
}

export interface RobotsCard {
  origin: string;
  robotsUrl: string;
  outcome: RobotsOutcome;
  outcomeText: string;
  /** "Crawl-delay: 10 s (L3)" or "No Crawl-delay for this user agent". */
  crawlDelayText: string;
  /** The plan's interval for this origin's host: "Interval in the plan: 10 s (Crawl-delay)". */
  intervalText?: string;
  /** "Group at L4: examplebot, *" or "No group applies: everything allowed". */
  groupText?: string;
  sitemaps: string[];
  /** "and 12 more sitemaps" */
  sitemapsMore?: string;
  findingsText?: string;
  /** The file does not look like text: the not-text finding's message. */
  notText?: string;
  reason: string;
  seeds: RobotsSeedItem[];
  /** The origin is no longer among the seeds' (the seeds changed since the check). */
  stale: boolean;
}

export function robotsSeedItem(r: RobotsSeedView): RobotsSeedItem {
  const item: RobotsSeedItem = {
    url: r.url,
    verdict: r.verdict,
    verdictText: verdictLabel(r.verdict),
    reason: r.reason,
  };
  if (r.line !== undefined && r.verdict !== 'not-applicable')
    item.deciding = { line: r.line, label: decidingLineLabel(r.line, r.rule) };
  return item;
}

export function robotsCards(robots: RobotsView, coverage: RobotsCoverageView | null): RobotsCard[] {
  const stale = new Set(coverage?.stale ?? []);
  const intervals = new Map((coverage?.intervals ?? []).map((i) => [i.origin, i] as const));
  return robots.origins.map((o) => {
    const card: RobotsCard = {
      origin: o.origin,
      robotsUrl: o.robotsUrl,
      outcome: o.outcome,
      outcomeText: outcomeLabel(o),
      crawlDelayText:
        o.crawlDelaySeconds === undefined
          ? o.outcome === 'ok'
            ? 'No Crawl-delay for this user agent'
            : 'No Crawl-delay (file not read)'
          : `Crawl-delay: ${formatSeconds(o.crawlDelaySeconds)}${o.crawlDelayLine !== undefined ? ` (L${o.crawlDelayLine})` : ''}`,
      sitemaps: o.sitemaps,
      reason: o.reason,
      seeds: robots.results.filter((r) => r.origin === o.origin).map(robotsSeedItem),
      stale: stale.has(o.origin),
    };
    const interval = intervals.get(o.origin);
    if (interval)
      card.intervalText = `Interval in the plan: ${formatSeconds(interval.intervalSeconds)} (${intervalSourceLabel(interval.source)})`;
    if (o.outcome === 'ok') {
      card.groupText = o.group
        ? `Group at L${o.group.line}: ${o.group.userAgents.join(', ')}`
        : 'No group applies to this user agent: everything allowed';
    }
    if (o.sitemapCount > o.sitemaps.length) {
      const more = o.sitemapCount - o.sitemaps.length;
      card.sitemapsMore = `and ${formatNumber(more)} more ${more === 1 ? 'sitemap' : 'sitemaps'}`;
    }
    if (o.notText !== undefined) card.notText = o.notText;
    if (o.findingCount > 0)
      card.findingsText = `${formatNumber(o.findingCount)} ${o.findingCount === 1 ? 'finding' : 'findings'} (open the file to see them)`;
    return card;
  });
}

/** The line above the robots.txt cards; `unchecked`: seed origins the last check did not cover. */
export function robotsStatusText(state: RobotsState, useRobots: boolean, unchecked: number): string {
  if (!useRobots) return 'Off: robots.txt is not fetched. Turn on “Use robots.txt” to check each seed origin.';
  switch (state.state) {
    case 'off':
      return 'robots.txt not checked yet.';
    case 'loading':
      return `Checking robots.txt for ${formatNumber(state.origins)} ${state.origins === 1 ? 'origin' : 'origins'}…`;
    case 'error':
      return state.message;
    case 'done': {
      const n = state.robots.origins.length;
      let text = `Checked ${formatNumber(n)} ${n === 1 ? 'origin' : 'origins'} for “${state.robots.userAgent}”.`;
      if (state.robots.omittedOrigins > 0)
        text += ` ${formatNumber(state.robots.omittedOrigins)} more origins were not checked (limit per check).`;
      const fresh = Math.max(0, unchecked - state.robots.omittedOrigins);
      if (fresh > 0)
        text += ` ${formatNumber(fresh)} seed ${fresh === 1 ? 'origin is' : 'origins are'} not checked yet: press Check robots.txt.`;
      return text;
    }
    default:
      return assertNever(state);
  }
}

/**
 * The origin "Open robots.txt" uses: the chosen one while it is still a seed origin (or may be: the list
 * posted is only the first of `total`), else the first.
 */
export function chosenOrigin(
  origins: readonly string[],
  chosen: string | undefined,
  total = origins.length,
): string | undefined {
  return chosen !== undefined && (origins.includes(chosen) || total > origins.length) ? chosen : origins[0];
}

// ---------------------------------------------------------------------------------------------
// The last test crawl

export interface CrawlResultModel {
  /** "test crawl: demo hosts: page limit reached · 60 pages · 67 requests · 41 s" */
  headline: string;
  /** "8 URLs not followed:" or "Everything it met was followed." */
  notFollowedHeadline: string;
  /** One item per reason: "other host 8 (b.example 8)". */
  notFollowed: string[];
  /** True when it ran to its end (exit code 0). */
  ok: boolean;
}

export function crawlResultModel(crawl: CrawlResultView): CrawlResultModel {
  const ended = END_REASONS[crawl.endReason] ?? crawl.endReason;
  const left = notFollowedHeadline(crawl.notFollowed);
  return {
    headline: `${crawl.name}: ${ended} · ${plural(crawl.pages, 'page')} · ${plural(crawl.requests, 'request')} · ${formatDuration(crawl.elapsedSeconds)}`,
    notFollowedHeadline:
      left === undefined ? 'Everything it met was followed (within its hosts and limits).' : `${left}:`,
    notFollowed: crawl.notFollowed.map(formatNotFollowedReason),
    ok: crawl.exitCode === 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Pages from sitemaps

/** The choices the "Changed since" field offers (anything parseChangedSince reads may be typed). */
export const CHANGED_SINCE_CHOICES: ReadonlyArray<{ value: string; label: string }> = [
  { value: '7d', label: 'changed in the last 7 days' },
  { value: '30d', label: 'changed in the last 30 days' },
  { value: '365d', label: 'changed in the last 365 days' },
];

/** Why the "Changed since" text cannot be read (as `--changed-since` reads it), or undefined ('' is every URL). */
export function changedSinceProblem(text: string, now: number): string | undefined {
  if (text.trim() === '') return undefined;
  const read = parseChangedSince(text, now);
  return 'problem' in read ? read.problem : undefined;
}

/** The line above the sizing's results: under way, done, failed. */
export function sitemapsStatusText(state: SitemapsState): string {
  switch (state.state) {
    case 'off':
      return '';
    case 'loading':
      return `Reading the sitemaps of ${plural(state.origins, 'origin')}… ${plural(state.files, 'file')}, ${plural(state.urls, 'URL')} so far.`;
    case 'error':
      return state.message;
    case 'done': {
      const s = state.sitemaps;
      const sized = s.hosts.filter((h) => h.pages !== null).length;
      let text = `Sized ${plural(sized, 'host')} of ${formatNumber(s.hosts.length)} from their sitemaps (${plural(s.requests, 'request')}, as “${s.userAgent}”).`;
      if (s.changedSince !== null) text += ` Pages: the URLs changed since ${s.changedSince.slice(0, 10)} (a recrawl).`;
      if (!s.complete) text += ' A cap on the run was reached: the counts are lower bounds.';
      if (s.omittedOrigins > 0)
        text += ` ${plural(s.omittedOrigins, 'more origin was', 'more origins were')} not sized (limit per run).`;
      return text;
    }
    default:
      return assertNever(state);
  }
}

export interface SitemapHostItem {
  host: string;
  /** "Pages: 1,200" or "No sitemap read: its pages are as they were." */
  pagesText: string;
  /** "1,250 URLs · 50 disallowed · 3 on other hosts · 2 files (from robots.txt)" */
  countsText: string;
  /** "lastmod 2023-01-02 to 2024-05-01 · 10 in the last 7 days, 50 in 30, 200 in 365 · 4 undated", or none. */
  lastmodText?: string;
  /** "120 changed since 2024-05-01" */
  changedText?: string;
  /** One line per error (untrusted: rendered as text), and how many are not listed. */
  errors: Array<{ code: string; text: string; url: string | null }>;
  errorsMore?: string;
}

const SOURCE_TEXT: Readonly<Record<SitemapHostView['source'], string>> = {
  'robots.txt': 'named in robots.txt',
  fallback: '/sitemap.xml',
  none: 'no sitemap found',
};

export function sitemapHostItems(view: SitemapsView): SitemapHostItem[] {
  return view.hosts.map((h) => {
    const counts = [
      plural(h.urls, 'URL'),
      `${formatNumber(h.disallowed)} disallowed`,
      `${formatNumber(h.otherHostUrls)} on other hosts`,
      `${plural(h.files, 'file')} (${SOURCE_TEXT[h.source]})`,
    ];
    const item: SitemapHostItem = {
      host: h.host,
      pagesText: h.pages === null ? 'No sitemap read: its pages are as they were.' : `Pages: ${formatNumber(h.pages)}`,
      countsText: counts.join(' · '),
      errors: h.errors.map((e) => ({ code: e.code, text: e.message, url: e.url })),
    };
    const l = h.lastmod;
    if (l.newest !== null && l.oldest !== null) {
      const parts = [
        `lastmod ${l.oldest.slice(0, 10)} to ${l.newest.slice(0, 10)}`,
        `${formatNumber(l.last7d)} in the last 7 days, ${formatNumber(l.last30d)} in 30, ${formatNumber(l.last365d)} in 365`,
      ];
      if (l.undated > 0) parts.push(`${formatNumber(l.undated)} undated`);
      item.lastmodText = parts.join(' · ');
    } else if (h.urls > 0) item.lastmodText = 'No lastmod dates.';
    if (h.changedSince !== null && view.changedSince !== null)
      item.changedText = `${formatNumber(h.changedSince)} changed since ${view.changedSince.slice(0, 10)}`;
    const more = h.errorCount - h.errors.length;
    if (more > 0) item.errorsMore = `and ${plural(more, 'more error')} (in the log)`;
    return item;
  });
}

// ---------------------------------------------------------------------------------------------
// Pages by host, the deadline, dropped hosts

/** The rows of "pages by host": each seed host posted, with its own pages as typed ('' for none). */
export function hostPagesRows(
  result: Pick<PlanResultView, 'seedHosts' | 'seedHostCount'>,
  typed: Readonly<Record<string, string>>,
): { rows: Array<{ host: string; text: string }>; more: string } {
  const rows = result.seedHosts.map((host) => ({ host, text: Object.hasOwn(typed, host) ? typed[host]! : '' }));
  const hidden = result.seedHostCount - rows.length;
  return {
    rows,
    more:
      hidden > 0
        ? `and ${plural(hidden, 'more host')}: sizing from sitemaps fills theirs, or they take the number above.`
        : '',
  };
}

/** The deadline section's heading line: "Deadline 2 d, missed by 3 h 2 m". */
export function deadlineHeadline(view: DeadlineView): string {
  return `Deadline ${view.verdict}`;
}

/** An option's button: what it does in a word or two (the option's text says the rest). */
export function deadlineOptionLabel(option: DeadlineOptionView): string {
  switch (option.kind) {
    case 'cap':
      return option.hostCount === 1 ? 'Cap this host' : `Cap ${formatNumber(option.hostCount)} hosts`;
    case 'drop':
      return option.hostCount === 1 ? 'Drop this host' : `Drop ${formatNumber(option.hostCount)} hosts`;
    case 'workers':
      return 'Set the workers';
    case 'rate':
      return 'Set the rate';
    case 'machines':
      return 'Set the machines';
    default:
      return assertNever(option.kind);
  }
}

/** "2 hosts left out of the plan (a deadline option):" with the hosts named, and how many are not. */
export function droppedText(
  result: Pick<PlanResultView, 'dropped' | 'droppedCount'>,
): { head: string; more: string } | undefined {
  if (result.droppedCount === 0) return undefined;
  const hidden = result.droppedCount - result.dropped.length;
  return {
    head: `${plural(result.droppedCount, 'host')} left out of the plan (a deadline option):`,
    more: hidden > 0 ? `and ${formatNumber(hidden)} more` : '',
  };
}

// ---------------------------------------------------------------------------------------------
// Calibration and simulation

/** "From the test crawl “test crawl: demo hosts”: a test crawl of 12 pages, 15 requests in 9 s" */
export function calibrationHeadline(view: CalibrationView): string {
  const from = view.source === 'crawl' ? `the test crawl “${view.label}”` : view.label;
  return `Planned with what ${view.source === 'crawl' ? '' : 'the report '}${from} measured: ${view.headline}.`;
}

export interface CalibrationItem {
  host: string;
  /** "latency p50 / p90 0.2 s / 0.4 s · 429 10.0% (Retry-After 1 s) · achieved 1 s" */
  measured: string;
  /** "Used: latency, faults" or "Not planned (no seed on this host)". */
  used: string;
  /** Whether the plan took anything from it. */
  planned: boolean;
}

/** Each measured host: what was measured, and which inputs the plan took from it (the CLI's "Used" column). */
export function calibrationItems(view: CalibrationView): { items: CalibrationItem[]; more: string; unseen: string } {
  const items = view.hosts.map((h) => {
    const parts = [`latency p50 / p90 ${h.latency}`];
    if (h.tooManyRequests !== '—') parts.push(`429 ${h.tooManyRequests}`);
    if (h.serverErrors !== '—') parts.push(`5xx ${h.serverErrors}`);
    if (h.errors !== '—') parts.push(`errors ${h.errors}`);
    if (h.crawlDelay !== '—') parts.push(`Crawl-delay ${h.crawlDelay}`);
    if (h.achieved !== '—') parts.push(`achieved ${h.achieved}`);
    const planned = h.used !== null && h.used.length > 0;
    return {
      host: h.host,
      measured: parts.join(' · '),
      used:
        h.used === null
          ? 'Not planned (no seed on this host)'
          : planned
            ? `Used: ${h.used.join(', ')}`
            : 'Used: nothing (typed values)',
      planned,
    };
  });
  const hidden = view.hostCount - view.hosts.length;
  const more =
    hidden > 0
      ? `and ${formatNumber(hidden)} more measured ${hidden === 1 ? 'host' : 'hosts'} (all in Copy plan as JSON: calibration)`
      : '';
  const unseenList =
    view.unseenHosts.join(', ') +
    (view.unseenCount > view.unseenHosts.length
      ? `, +${formatNumber(view.unseenCount - view.unseenHosts.length)} more`
      : '');
  const unseen =
    view.unseenCount === 0
      ? ''
      : `Typed values for ${formatNumber(view.unseenCount)} ${view.unseenCount === 1 ? 'host' : 'hosts'} the report did not measure: ${unseenList}`;
  return { items, more, unseen };
}

/** The line under the calibration choice: what it would use, or why there is nothing yet. */
export function calibrationHelpText(state: CalibrationState): string {
  if (state.crawl === null)
    return 'Run a test crawl (or choose a crawl report) to plan with the answer times, faults and Crawl-delays it measured.';
  const c = state.crawl;
  return `“${c.name}”: ${formatNumber(c.pages)} ${c.pages === 1 ? 'page' : 'pages'}, ${formatNumber(c.requests)} ${c.requests === 1 ? 'request' : 'requests'}. Its hosts take the answer times, faults and interval it measured; other hosts keep the typed values.`;
}

/** The band in the plan's summary, or '' when there is none. */
export function bandSummaryText(state: SimulationState): string {
  switch (state.state) {
    case 'off':
      return '';
    case 'running':
      return simulationRunningText(state.runs, state.seed);
    case 'done': {
      const how =
        state.simulation.method === 'per-host-sums' ? ', per-host sums (too large to run request by request)' : '';
      return `Simulated: ${state.simulation.bandText} (${formatNumber(state.simulation.runs)} runs, seed ${state.simulation.seed}${how})`;
    }
    case 'error':
      return state.message;
    default:
      return assertNever(state);
  }
}

/** The simulation's line in its own section: the CLI's sentence when done. */
export function simulationStatusText(state: SimulationState): string {
  if (state.state === 'off')
    return 'Off: turn on Simulate to see the p10–p90 band (and the per-host timeline in the plan report).';
  return state.state === 'done' ? state.simulation.text : bandSummaryText(state);
}
