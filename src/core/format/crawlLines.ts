/**
 * CrawlEvent → terminal lines, shared by the CLI (`\n`) and the VS Code task Pseudoterminal (`\r\n`).
 * Pure: the formatter keeps only layout state (the host column's width); time comes from the events.
 *
 * One line per request outcome (on `response` and `error`; `request-start` and `queued` only with
 * `verbose`), one line for each retry, pause, drop, blocking signal and robots.txt skip, one progress line per
 * `progress`, and a summary block on `done`. Lines carry no terminators; every piece of text that came
 * from the network or a server is passed through `sanitizeText`, so a hostile server cannot write
 * escape sequences to the terminal. With `color: false` no escape sequence is ever produced.
 */
import type {
  BlockingSuspectedEvent,
  CrawlEvent,
  CrawlSummary,
  ErrorEvent,
  HostDroppedEvent,
  HostPausedEvent,
  HostSummary,
  LiveIntervalSource,
  PlannedBand,
  ProgressEvent,
  QueuedEvent,
  RequestStartEvent,
  ResponseEvent,
  RetryScheduledEvent,
  RobotsSkipEvent,
  TransferTotals,
  UnitSummary,
} from '../crawl/events';
import { isThrottledIntervalSource } from '../crawl/events';
import { bandPlace } from '../crawl/crawlReport';
import { formatBytes } from './bytes';
import { formatDuration, formatNumber, formatSeconds } from './duration';
import { END_REASONS, formatNotFollowed, notFollowedHeadline } from './crawlOutcome';
import { displayWidth, fit, pad, renderTable, sanitizeText, truncate, type TableColumn } from './table';

export { sanitizeText } from './table';

export interface CrawlFormatterOptions {
  /** Emit ANSI SGR colour. When false, no escape sequence is ever produced. */
  color: boolean;
  /** Terminal columns: request lines are fitted to it (the path is cut with "…"). No limit when undefined. */
  width?: number;
  /** Epoch ms the crawl started; line times are shown as elapsed since then. */
  startedAt: number;
  /** The plan's crawl duration in SECONDS; used in the summary when the `done` summary has no `plannedSeconds`. */
  planned?: number;
  /** Hosts known in advance (the seeds' hosts): sizes the host column from the first line. */
  hosts?: readonly string[];
  /** Also print a line for `queued` and `request-start` (default false). */
  verbose?: boolean;
}

export interface CrawlFormatter {
  /** Zero or more lines for one event, without line terminators. */
  format(event: CrawlEvent): string[];
}

/** The lines joined with `\r\n` and ended with one, as a VS Code Pseudoterminal needs ('' for none). */
export function toTerminal(lines: readonly string[]): string {
  return joinLines(lines, '\r\n');
}

/** Every line followed by `eol` (default `\n`, for stdout); '' for no lines. */
export function joinLines(lines: readonly string[], eol = '\n'): string {
  return lines.map((line) => line + eol).join('');
}

// ---------------------------------------------------------------------------------------------------
// Colour

export type Style = 'dim' | 'bold' | 'red' | 'green' | 'yellow' | 'cyan' | 'magenta' | 'boldRed';
const SGR_CODES: Record<Style, string> = {
  dim: '2',
  bold: '1',
  red: '31',
  green: '32',
  yellow: '33',
  cyan: '36',
  magenta: '35',
  boldRed: '1;31',
};

type Paint = (style: Style | undefined, text: string) => string;

function painter(color: boolean): Paint {
  return (style, text) => (color && style && text !== '' ? `\x1b[${SGR_CODES[style]}m${text}\x1b[0m` : text);
}

/** 2xx green, 3xx cyan, 4xx yellow, 5xx and errors red. */
export function statusStyle(status: number | 'error'): Style | undefined {
  if (status === 'error') return 'red';
  if (status >= 200 && status < 300) return 'green';
  if (status >= 300 && status < 400) return 'cyan';
  if (status >= 400 && status < 500) return 'yellow';
  if (status >= 500) return 'red';
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Small text pieces (exported for the CLI's other commands and for tests)

/**
 * Time since the crawl started, at most 9 columns: "+12.3s", "+4m05.2s", "+1h04m05s", "+2d01h04m".
 */
export function formatElapsed(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  const t = Math.abs(ms) / 1000;
  const two = (n: number) => String(n).padStart(2, '0');
  // Each branch tests the value after its own rounding, so 59.96 s is "+1m00.0s", not "+60.0s".
  const tenths = Math.round(t * 10);
  if (tenths < 600) return `${sign}${(tenths / 10).toFixed(1)}s`;
  if (tenths < 36000) {
    const s = (tenths % 600) / 10;
    return `${sign}${Math.floor(tenths / 600)}m${s < 10 ? '0' : ''}${s.toFixed(1)}s`;
  }
  const whole = Math.round(t);
  if (whole < 86400) {
    return `${sign}${Math.floor(whole / 3600)}h${two(Math.floor((whole % 3600) / 60))}m${two(whole % 60)}s`;
  }
  const minutes = Math.round(t / 60);
  return `${sign}${Math.floor(minutes / 1440)}d${two(Math.floor((minutes % 1440) / 60))}h${two(minutes % 60)}m`;
}

/** The path and query of a URL ("/a/b?q=1"), or the whole text when it does not parse. Sanitised. */
export function displayPath(url: string): string {
  let text = url;
  try {
    const parsed = new URL(url);
    text = parsed.pathname + parsed.search;
  } catch {
    // Not a URL: show it as it is (sanitised below).
  }
  return sanitizeText(text);
}

/** Whether two URLs share scheme, host and port (false when either does not parse). */
function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** "int 2 s crawl-delay". */
export function formatInterval(seconds: number, source: LiveIntervalSource | string): string {
  return `int ${formatSeconds(seconds)} ${sanitizeText(source)}`;
}

/** "+10%", "-5%", "+0%": how far `elapsed` is from `planned`; undefined without a usable plan. */
export function planDeviation(elapsedSeconds: number, plannedSeconds: number | undefined): string | undefined {
  if (plannedSeconds === undefined || !(plannedSeconds > 0) || !Number.isFinite(elapsedSeconds)) return undefined;
  const pct = Math.round((elapsedSeconds / plannedSeconds - 1) * 100);
  return `${pct < 0 ? '-' : '+'}${Math.abs(pct)}%`;
}

/** What stands for the band of a plan that was not calibrated (it has none). */
export const NO_BAND_TEXT = 'no band: run a test crawl to get a band';

/** "band 24.8–27.1 s (p10–p90 of 200 simulated runs): inside", or "band 25.5 s (…)" when it has no width. */
export function bandText(band: PlannedBand, elapsedSeconds: number): string {
  const low = formatDuration(band.p10Seconds);
  const high = formatDuration(band.p90Seconds);
  const range = low === high ? low : `${low}–${high}`;
  return `band ${range} (p10–p90 of ${formatNumber(band.runs)} simulated runs): ${bandPlace(band, elapsedSeconds)}`;
}

/** "robots.txt L3 Disallow: /private" from the deciding line and rule. */
function robotsRule(line: number | undefined, rule: string | undefined): string {
  const parts: string[] = [];
  if (line !== undefined) parts.push(`L${line}`);
  if (rule !== undefined && rule !== '') {
    const text = sanitizeText(rule).trim();
    parts.push(/^(dis)?allow\s*:/i.test(text) ? text : `Disallow: ${text}`);
  }
  return parts.join(' ');
}

/** Counts repeated values: ["120", "5", "120"] → "120 ×2, 5". */
function countedList(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) {
    const key = sanitizeText(v).trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([v, n]) => (n > 1 ? `${v} ×${n}` : v)).join(', ');
}

// ---------------------------------------------------------------------------------------------------
// The formatter

const ELAPSED_WIDTH = 9;
const GAP = '  ';
/** Without a width, request paths are padded to this so later columns mostly line up. */
const PATH_SOFT_WIDTH = 32;
const PATH_MIN = 16;
const STATUS_WIDTH = 3;
const LATENCY_WIDTH = 9;
const INTERVAL_WIDTH = 22;
const TRY_WIDTH = 5;
/**
 * Columns right of the path on a request line: status, latency, interval, with their gaps. A `try N`
 * cell, when there is one, takes its room from the path column of that line only.
 */
const REQUEST_RIGHT = GAP.length * 3 + STATUS_WIDTH + LATENCY_WIDTH + INTERVAL_WIDTH;
const TAG_WIDTH = 7;
/** The path is cut so that this much of a line's free text (message, reason, redirect) still shows. */
const TAIL_KEEP = 40;

/** The host column's cap: a fifth of the width, between 12 and 28 columns. */
function hostMax(width: number | undefined): number {
  return width === undefined ? 28 : Math.min(28, Math.max(12, Math.floor(width / 5)));
}

export function createCrawlFormatter(options: CrawlFormatterOptions): CrawlFormatter {
  const paint = painter(options.color);
  const width = options.width !== undefined && options.width > 0 ? Math.floor(options.width) : undefined;
  let hostWidth = 0;
  for (const h of options.hosts ?? []) hostWidth = Math.max(hostWidth, displayWidth(sanitizeText(h)));
  const maxHost = hostMax(width);
  hostWidth = Math.min(hostWidth, maxHost);

  const fitWidth = (line: string) => (width === undefined ? line : truncate(line, width, 'end'));
  const elapsed = (at: number) => paint('dim', pad(formatElapsed(at - options.startedAt), ELAPSED_WIDTH, 'right'));
  const hostCell = (host: string) => {
    const clean = sanitizeText(host);
    hostWidth = Math.min(maxHost, Math.max(hostWidth, displayWidth(clean)));
    return fit(clean, hostWidth, 'left', 'middle');
  };
  /** `elapsed  host  ` prefix shared by every per-host line. */
  const head = (at: number, host: string) => elapsed(at) + GAP + hostCell(host) + GAP;

  /**
   * A request line: `prefix`, "GET /path" in a column of one width for every request line (cut with
   * "…" to fit `width`), the `right` cells, then an optional free-text `tail` (error message, redirect
   * target). When the tail would not fit, the path column gives up room for it (down to PATH_MIN).
   * Finally the line is cut to `width` as a whole.
   */
  const requestLine = (prefix: string, url: string, right: string[], tail?: string): string => {
    const path = `GET ${displayPath(url)}`;
    const rightText = right.filter((c) => c !== '').join(GAP);
    let column: number;
    if (width === undefined) {
      column = Math.max(PATH_SOFT_WIDTH, displayWidth(path));
    } else {
      const prefixWidth = displayWidth(prefix);
      // The usual room for the right cells, or more when this line's are wider (a `try N` cell).
      column = Math.max(PATH_MIN, width - prefixWidth - Math.max(REQUEST_RIGHT, GAP.length + displayWidth(rightText)));
      if (tail) {
        const keep = Math.min(displayWidth(tail), TAIL_KEEP);
        const room = width - prefixWidth - GAP.length - displayWidth(rightText) - GAP.length - keep;
        column = Math.max(PATH_MIN, Math.min(column, room));
      }
    }
    let line = prefix + fit(path, column, 'left', 'end') + GAP + rightText;
    if (tail) line += GAP + tail;
    return fitWidth(line.trimEnd());
  };

  /** A tagged event line: `prefix`, the tag, the path (cut so the tail keeps some room), the tail. */
  const tagLine = (prefix: string, tag: string, url: string, tail: string): string => {
    const start = prefix + tag;
    let path = displayPath(url);
    if (width !== undefined) {
      const room = width - displayWidth(start) - GAP.length - Math.min(displayWidth(tail), TAIL_KEEP);
      path = truncate(path, Math.max(PATH_MIN, room), 'end');
    }
    return fitWidth(start + path + GAP + tail);
  };

  const tag = (style: Style, text: string) => paint(style, pad(text, TAG_WIDTH));
  const tryCell = (attempt: number) => (attempt > 1 ? paint('yellow', pad(`try ${attempt}`, TRY_WIDTH)) : '');
  /** Padded to its column only when another column follows it. */
  const intervalCell = (seconds: number, source: LiveIntervalSource, padded: boolean) => {
    const text = formatInterval(seconds, source);
    return paint(isThrottledIntervalSource(source) ? 'yellow' : 'dim', padded ? pad(text, INTERVAL_WIDTH) : text);
  };
  const latencyCell = (ms: number) => pad(`${formatNumber(Math.max(0, Math.round(ms)))} ms`, LATENCY_WIDTH, 'right');

  const onResponse = (e: ResponseEvent): string[] => {
    const notes: string[] = [];
    if (e.location !== undefined)
      notes.push(`→ ${sameOrigin(e.location, e.url) ? displayPath(e.location) : sanitizeText(e.location)}`);
    if (e.truncated) notes.push('(body truncated)');
    const right = [
      paint(statusStyle(e.status), pad(String(e.status), STATUS_WIDTH)),
      latencyCell(e.latencyMs),
      intervalCell(e.intervalSeconds, e.intervalSource, e.attempt > 1),
      tryCell(e.attempt),
    ];
    return [requestLine(head(e.at, e.host), e.url, right, notes.join(' ') || undefined)];
  };

  const onError = (e: ErrorEvent): string[] => {
    // Error events carry no interval; the retry-scheduled line that may follow says when it runs again.
    const what = paint('red', sanitizeText(e.kind)) + (e.message ? `: ${sanitizeText(e.message)}` : '');
    const right = [paint('red', 'ERR'), latencyCell(e.at - e.startedAt), tryCell(e.attempt)];
    return [requestLine(head(e.at, e.host), e.url, right, what)];
  };

  const onStart = (e: RequestStartEvent): string[] => {
    const of = e.unit !== undefined ? ` of unit ${sanitizeText(e.unit)}` : '';
    const since =
      e.sinceLastStartSeconds !== undefined
        ? `${formatSeconds(e.sinceLastStartSeconds)} since last start${of}`
        : `first start${of}`;
    const right = [
      paint('dim', '···'),
      ' '.repeat(LATENCY_WIDTH),
      intervalCell(e.intervalSeconds, e.intervalSource, e.attempt > 1),
      tryCell(e.attempt),
    ];
    return [requestLine(head(e.at, e.host), e.url, right, paint('dim', since))];
  };

  const onRetry = (e: RetryScheduledEvent): string[] => {
    const wait = Math.max(0, (e.notBefore - e.at) / 1000);
    const tail = `try ${e.attempt} in ${formatDuration(wait)}` + (e.reason ? ` · ${sanitizeText(e.reason)}` : '');
    return [tagLine(head(e.at, e.host), tag('yellow', 'retry'), e.url, tail)];
  };

  const onRobots = (e: RobotsSkipEvent): string[] => {
    const rule = robotsRule(e.line, e.rule);
    const why = e.reason === 'unreachable' ? 'robots.txt unreachable' : `disallowed${rule ? ` by ${rule}` : ''}`;
    return [tagLine(head(e.at, e.host), tag('magenta', 'robots'), e.url, why)];
  };

  const onQueued = (e: QueuedEvent): string[] => {
    const from = e.from !== undefined ? `from ${displayPath(e.from)}` : 'seed';
    return [tagLine(head(e.at, e.host), tag('dim', 'queue'), e.url, paint('dim', `depth ${e.depth} · ${from}`))];
  };

  const onPaused = (e: HostPausedEvent): string[] => {
    const parts: string[] = [];
    if (e.retryAfter !== undefined) parts.push(paint('yellow', `Retry-After: ${sanitizeText(e.retryAfter).trim()}`));
    if (e.status !== undefined) parts.push(`(${paint(statusStyle(e.status), String(e.status))})`);
    parts.push(
      `until ${formatElapsed(e.until - options.startedAt)} (${formatDuration(Math.max(0, (e.until - e.at) / 1000))})`,
    );
    // Every host of the unit waits (docs/how-it-works.md#politeness-units).
    if (e.unit !== undefined) parts.push(`· unit ${sanitizeText(e.unit)}`);
    return [fitWidth(head(e.at, e.host) + tag('yellow', 'pause') + parts.join(' '))];
  };

  const onDropped = (e: HostDroppedEvent): string[] => {
    const left = `${formatNumber(e.urlsLeft)} URL${e.urlsLeft === 1 ? '' : 's'} left`;
    const detail = e.detail ? `: ${sanitizeText(e.detail)}` : '';
    return [
      fitWidth(
        head(e.at, e.host) + tag('boldRed', 'drop') + `${paint('red', sanitizeText(e.reason))}${detail} · ${left}`,
      ),
    ];
  };

  const onBlocking = (e: BlockingSuspectedEvent): string[] => {
    const unit = e.unit !== undefined ? ` · unit ${sanitizeText(e.unit)}` : '';
    return [
      fitWidth(
        head(e.at, e.host) +
          tag(e.action === 'dropped' ? 'boldRed' : 'yellow', 'block') +
          `${paint('yellow', `blocking suspected (${sanitizeText(e.kind)})`)}: ${sanitizeText(e.text)} · ` +
          `${blockActionText(e.action, e.intervalSeconds)}${unit}`,
      ),
    ];
  };

  const onProgress = (e: ProgressEvent): string[] => {
    const pages =
      e.planned > 0
        ? `${formatNumber(e.done)}/${formatNumber(e.planned)} pages (${Math.floor((e.done / e.planned) * 100)}%)`
        : `${formatNumber(e.done)} pages`;
    const rate = `${formatNumber(e.ratePerSecond, e.ratePerSecond < 10 ? 2 : 1)} pages/s`;
    const eta = `ETA ${e.etaSeconds !== undefined ? formatDuration(e.etaSeconds) : '—'}`;
    const rest = `${formatNumber(e.queued)} queued · ${formatNumber(e.inFlight)} in flight`;
    return [fitWidth(`${elapsed(e.at)}${GAP}${paint('bold', 'progress')}  ${pages} · ${rate} · ${eta} · ${rest}`)];
  };

  const onDone = (summary: CrawlSummary): string[] =>
    formatSummary(summary, { color: options.color, width, planned: options.planned });

  return {
    format(event: CrawlEvent): string[] {
      switch (event.type) {
        case 'response':
          return onResponse(event);
        case 'error':
          return onError(event);
        case 'retry-scheduled':
          return onRetry(event);
        case 'host-paused':
          return onPaused(event);
        case 'host-dropped':
          return onDropped(event);
        case 'blocking-suspected':
          return onBlocking(event);
        case 'robots-skip':
          return onRobots(event);
        case 'progress':
          return onProgress(event);
        case 'done':
          return onDone(event.summary);
        case 'queued':
          return options.verbose ? onQueued(event) : [];
        case 'request-start':
          return options.verbose ? onStart(event) : [];
        default: {
          const unknown: never = event;
          void unknown;
          return [];
        }
      }
    },
  };
}

/** What the engine did about a blocking signal, in words. */
export function blockActionText(action: BlockingSuspectedEvent['action'], intervalSeconds: number): string {
  if (action === 'slowed') return `slowed: interval doubled to ${formatSeconds(intervalSeconds)}`;
  if (action === 'dropped') return 'host dropped';
  return 'warned only (--on-block warn)';
}

/** The summary table's mark on a host the detector signalled on, explained by a line under the table. */
export const BLOCKING_MARK = '!';

// ---------------------------------------------------------------------------------------------------
// The summary block

export interface SummaryFormatOptions {
  color: boolean;
  width?: number;
  /** Planned seconds, used when `summary.plannedSeconds` is undefined. */
  planned?: number;
}

/** Sorts status-count keys numerically ("200" < "404"); non-numeric keys (e.g. "error") last. */
function statusKeys(counts: Record<string, number>): string[] {
  return Object.keys(counts).sort((a, b) => {
    const na = Number(a);
    const nb = Number(b);
    const fa = Number.isFinite(na);
    const fb = Number.isFinite(nb);
    if (fa && fb) return na - nb;
    if (fa !== fb) return fa ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

const HOST_COLUMNS: TableColumn[] = [
  { header: 'host', shrink: true, minWidth: 10, truncate: 'middle' },
  { header: 'req', align: 'right' },
  { header: 'pages', align: 'right' },
  { header: 'min int', align: 'right' },
  { header: 'mean int', align: 'right' },
  { header: 'planned int', shrink: true, minWidth: 8 },
  { header: 'retries', align: 'right' },
  { header: 'Retry-After', shrink: true, minWidth: 9 },
  { header: 'robots', align: 'right' },
  { header: 'errors', align: 'right' },
  { header: 'dropped', shrink: true, minWidth: 8 },
];

function hostRow(h: HostSummary, paint: Paint): string[] {
  const interval = (s: number | undefined) => (s === undefined ? '—' : formatSeconds(s));
  // A minimum gap below the planned interval is a politeness slip worth seeing: show it in red.
  const below = h.minIntervalSeconds !== undefined && h.minIntervalSeconds < h.plannedIntervalSeconds * 0.99;
  return [
    sanitizeText(h.host) + (h.blocking !== undefined ? ` ${paint('yellow', BLOCKING_MARK)}` : ''),
    formatNumber(h.requests),
    formatNumber(h.pages),
    below ? paint('red', interval(h.minIntervalSeconds)) : interval(h.minIntervalSeconds),
    interval(h.meanIntervalSeconds),
    `${formatSeconds(h.plannedIntervalSeconds)} ${sanitizeText(h.intervalSource)}`,
    h.retries ? paint('yellow', formatNumber(h.retries)) : '0',
    h.retryAfterSeen.length ? countedList(h.retryAfterSeen) : '—',
    formatNumber(h.robotsSkips),
    h.errors ? paint('red', formatNumber(h.errors)) : '0',
    h.dropped !== undefined ? paint('red', sanitizeText(h.dropped)) : '—',
  ];
}

/**
 * The end-of-crawl block: headline (with how many URLs were not followed), elapsed against the plan,
 * counts, what was not followed by reason and host, status counts, Retry-After values seen, and the
 * per-host table.
 */
export function formatSummary(summary: CrawlSummary, options: SummaryFormatOptions): string[] {
  const paint = painter(options.color);
  const fitWidth = (line: string) => (options.width === undefined ? line : truncate(line, options.width, 'end'));
  const lines: string[] = [];
  const reason = END_REASONS[summary.endReason] ?? sanitizeText(String(summary.endReason));
  const headStyle = summary.endReason === 'complete' || summary.endReason === 'max-pages' ? 'green' : 'yellow';
  lines.push('');
  const notFollowed = summary.notFollowed ?? [];
  const left = notFollowedHeadline(notFollowed);
  lines.push(
    fitWidth(
      `${paint('bold', 'Crawl finished:')} ${paint(headStyle, reason)}${left ? ` · ${paint('yellow', left)}` : ''}`,
    ),
  );

  const planned = summary.plannedSeconds ?? options.planned;
  let timing = `elapsed ${formatDuration(summary.elapsedSeconds)}`;
  if (planned !== undefined) {
    const dev = planDeviation(summary.elapsedSeconds, planned);
    timing += ` · planned ${formatDuration(planned)}${dev ? ` (${dev})` : ''}`;
    // Only a calibrated plan has a band (src/net/crawlSession.ts); an uncalibrated one says how to get one.
    timing += ` · ${summary.plannedBand ? bandText(summary.plannedBand, summary.elapsedSeconds) : NO_BAND_TEXT}`;
  }
  lines.push(fitWidth(timing));

  lines.push(
    fitWidth(
      `pages ${formatNumber(summary.pages)} · requests ${formatNumber(summary.requests)} · retries ${formatNumber(summary.retries)}` +
        ` · robots skips ${formatNumber(summary.robotsSkips)} · errors ${formatNumber(summary.errors)}`,
    ),
  );

  if (summary.transferred) lines.push(fitWidth(transferLine(summary.transferred)));
  if (notFollowed.length > 0) lines.push(fitWidth(`not followed: ${formatNotFollowed(notFollowed)}`));

  const keys = statusKeys(summary.statusCounts);
  if (keys.length) {
    const counts = keys.map((k) => {
      const n = Number(k);
      const style = Number.isFinite(n) ? statusStyle(n) : statusStyle('error');
      return `${paint(style, sanitizeText(k))} ×${formatNumber(summary.statusCounts[k] ?? 0)}`;
    });
    lines.push(fitWidth(`status ${counts.join(' · ')}`));
  }
  lines.push(
    fitWidth(`Retry-After seen: ${summary.retryAfterSeen.length ? countedList(summary.retryAfterSeen) : 'none'}`),
  );

  if (summary.hosts.length) {
    lines.push('');
    const table = renderTable(
      HOST_COLUMNS,
      summary.hosts.map((h) => hostRow(h, paint)),
      { width: options.width, styleHeader: (t) => paint('bold', t) },
    );
    // When even the narrowest table is too wide, the right-most columns are cut.
    lines.push(...table.map(fitWidth));
  }
  for (const u of summary.units ?? []) lines.push(fitWidth(unitLine(u)));
  for (const h of summary.hosts) if (h.blocking !== undefined) lines.push(fitWidth(blockingLine(h, paint)));
  return lines;
}

/** "transferred 1.2 MB on the wire (3.4 MB decoded), response bodies": what a metered link pays for. */
export function transferLine(t: TransferTotals): string {
  const decoded = `${formatBytes(t.bytes)} decoded`;
  if (t.wireBytesUnknown > 0 && t.wireBytes === 0)
    return `transferred ${decoded} (on the wire: unknown), response bodies`;
  const part = t.wireBytesUnknown > 0 ? ` (${formatNumber(t.wireBytesUnknown)} responses' wire size unknown)` : '';
  // Where the bytes went, when one response is a large part of them (a big page a test crawl did not meet).
  const l = t.largest;
  const largest =
    l !== undefined && t.wireBytes > 0 && l.wireBytes >= LARGEST_SHARE * t.wireBytes && l.wireBytes < t.wireBytes
      ? ` · ${formatBytes(l.wireBytes)} of it one response, ${sanitizeText(l.url)}`
      : '';
  return `transferred ${formatBytes(t.wireBytes)} on the wire${part} (${decoded}), response bodies${largest}`;
}

/** A response this large a share of the crawl's bytes on the wire is named in the transfer line. */
const LARGEST_SHARE = 0.25;

/** A host the detector signalled on: the mark, the last signal in words and what the engine did. */
function blockingLine(h: HostSummary, paint: Paint): string {
  const b = h.blocking!;
  const action = b.action === 'dropped' ? 'dropped' : b.action === 'slowed' ? 'slowed ×2' : 'warned only';
  const signals = b.signals === 1 ? '1 signal' : `${formatNumber(b.signals)} signals`;
  return (
    `${paint('yellow', BLOCKING_MARK)} blocking suspected on ${sanitizeText(h.host)}: ${sanitizeText(b.text)}` +
    ` (${sanitizeText(b.kind)}; ${signals}; ${action})`
  );
}

/** A unit of several hosts: its members and the gaps between starts over all of them (what its interval keeps). */
function unitLine(u: UnitSummary): string {
  const names = u.hosts.slice(0, 3).map(sanitizeText).join(', ') + (u.hosts.length > 3 ? ', …' : '');
  const interval = (s: number | undefined) => (s === undefined ? '—' : formatSeconds(s));
  return (
    `unit ${sanitizeText(u.unit)} (${formatNumber(u.hosts.length)} hosts: ${names}): ${formatNumber(u.requests)} requests,` +
    ` min ${interval(u.minIntervalSeconds)}, mean ${interval(u.meanIntervalSeconds)} between starts` +
    ` · planned ${formatSeconds(u.plannedIntervalSeconds)} ${sanitizeText(u.intervalSource)}`
  );
}
