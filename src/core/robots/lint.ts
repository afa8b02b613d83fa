/**
 * The editor's lint: the parse and decode findings (parse.ts, decode.ts), made more helpful, plus the checks
 * that only matter to someone editing a robots.txt:
 *
 * - `unknown-directive` says "did you mean" (`Dissalow` → `Disallow`, `User_agent` → `User-agent`);
 * - `unsupported-directive` says which major crawlers ignore the directive, per their documentation;
 * - `truncated` names the last line that is parsed;
 * - `sitemap-relative` does not quote a made-up origin when the file's origin is unknown;
 * - new: `crawl-delay-ignored-by-google`, `rule-duplicate`, `rule-contradictory`, `bom-in-line`,
 *   `replacement-character` (docs/robots-txt-editor.md §Finding codes).
 *
 * Pure: text in, findings out. Positions follow findings.ts: 1-based lines, 0-based UTF-16 columns.
 */
import { clip } from '../format/text';
import { FindingSink, sortFindings, type RobotsFinding } from './findings';
import { loadRobotsFile } from './load';
import { largestCrawlDelay } from './crawlDelay';
import type { ColumnRange, RobotsFile, RobotsGroup, RobotsLine, RobotsRecord } from './robotsFile';

/**
 * The robots.txt URL used when the file's origin is unknown (a file in a workspace). `.invalid` is reserved
 * (RFC 2606), so it can never be a real origin; relative Sitemap values are not "fixed" against it.
 */
export const UNKNOWN_ORIGIN_ROBOTS_URL = 'https://robots-txt.invalid/robots.txt';
export const UNKNOWN_ORIGIN = new URL(UNKNOWN_ORIGIN_ROBOTS_URL).origin;

/** True when the file was parsed against the placeholder origin. */
export function originUnknown(file: Pick<RobotsFile, 'origin'>): boolean {
  return file.origin === UNKNOWN_ORIGIN;
}

// ---------------------------------------------------------------------------------------------------
// Origin hints: where a file in a workspace probably lives.

export type OriginSource = 'option' | 'comment' | 'folder' | 'sitemap';

export interface OriginHint {
  /** `https://example.com` (no trailing slash). */
  origin: string;
  from: OriginSource;
  /** The line the hint was read from (comment, sitemap). */
  line?: number;
}

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A folder named like a host (`sites/www.example.com/robots.txt`) → `https://www.example.com`. The last
 * label must be letters (a TLD), so `v1.2` or `node_modules` are not taken for hosts.
 */
export function originFromPath(path: string): OriginHint | undefined {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  if (parts.length < 2) return undefined;
  const folder = (parts[parts.length - 2] as string).toLowerCase();
  const labels = folder.split('.');
  if (labels.length < 2 || !labels.every((l) => HOST_LABEL.test(l))) return undefined;
  if (!/^[a-z]{2,63}$/.test(labels[labels.length - 1] as string)) return undefined;
  return { origin: `https://${folder}`, from: 'folder' };
}

/**
 * Where the file says it lives: a comment near the top holding an http(s) URL ending in `/robots.txt`
 * (Crawl Planner's own fetched documents have one on line 2), else the one origin shared by every absolute
 * Sitemap URL. Sitemaps may live on another host (a CDN), so callers show the origin and where it came from.
 */
export function originFromText(file: Pick<RobotsFile, 'lines'>): OriginHint | undefined {
  for (const line of file.lines.slice(0, 20)) {
    const hash = line.raw.indexOf('#');
    if (hash < 0) continue;
    const m = /\bhttps?:\/\/[^\s#<>"']+\/robots\.txt\b/i.exec(line.raw.slice(hash));
    if (!m) continue;
    try {
      return { origin: new URL(m[0]).origin, from: 'comment', line: line.line };
    } catch {
      // not a URL after all
    }
  }
  const origins = new Set<string>();
  let first: number | undefined;
  for (const line of file.lines) {
    if (line.kind !== 'sitemap' || !line.value) continue;
    try {
      const u = new URL(line.value);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
      origins.add(u.origin);
      first ??= line.line;
    } catch {
      // relative or invalid: no hint
    }
  }
  if (origins.size === 1 && first !== undefined)
    return { origin: [...origins][0] as string, from: 'sitemap', line: first };
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Did you mean

/** The directives a typo is corrected to, with their usual spelling. */
const SUGGESTIONS: ReadonlyArray<[normalized: string, canonical: string]> = [
  ['user-agent', 'User-agent'],
  ['allow', 'Allow'],
  ['disallow', 'Disallow'],
  ['sitemap', 'Sitemap'],
  ['crawl-delay', 'Crawl-delay'],
];

/** Invisible characters that sneak into keys: BOM, zero-width space/joiners, soft hyphen. */
const INVISIBLE = /[\uFEFF\u200B-\u200D\u2060\u00AD]/g;
const HAS_INVISIBLE = /[\uFEFF\u200B-\u200D\u2060\u00AD]/;

function normalizeKey(key: string): string {
  return key
    .replace(INVISIBLE, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

/** Optimal string alignment distance (Damerau–Levenshtein with adjacent swaps), capped for speed. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const prev = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The directive an unknown key was probably meant to be: `Dissalow` → `Disallow`, `User_agent` and
 * `useragents` → `User-agent`, `Sitemaps` → `Sitemap`, `crawldelay` → `Crawl-delay`, `\uFEFFAllow` → `Allow`.
 * Undefined when nothing is close enough (at most 1 edit for keys up to 7 characters, else 2) or two
 * directives are equally close.
 */
export function suggestDirective(key: string): string | undefined {
  const k = normalizeKey(key);
  if (k === '' || k.length > 40) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const [normalized, canonical] of SUGGESTIONS) {
    const cap = normalized.length <= 7 ? 1 : 2;
    const d = Math.min(
      editDistance(k, normalized, cap),
      editDistance(k.replace(/-/g, ''), normalized.replace(/-/g, ''), cap),
    );
    if (d > cap) continue;
    if (d < bestDistance) {
      best = canonical;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

// ---------------------------------------------------------------------------------------------------
// What major crawlers do with directives outside RFC 9309 (conservative: what their documentation says)

/** One sentence per non-standard directive, keyed by its lower-case name. Used in messages and hovers. */
export const IGNORED_DIRECTIVE_NOTES: Readonly<Record<string, string>> = {
  'crawl-delay':
    "Google's documentation says Google does not support Crawl-delay; Bing's documentation says Bingbot honours it.",
  host: "Only Yandex used Host (for the preferred mirror), and Yandex's documentation now asks for a 301 redirect instead; Google does not support it.",
  'clean-param': 'Yandex documents Clean-param (URL parameters to ignore); Google does not support it.',
  noindex:
    'Google stopped supporting noindex in robots.txt on 1 September 2019; use a robots meta tag or an X-Robots-Tag header.',
  nofollow: 'Google does not support nofollow in robots.txt; use a robots meta tag or rel="nofollow" links.',
  noarchive: 'Google does not support noarchive in robots.txt; use a robots meta tag.',
  'request-rate': 'Request-rate comes from a 1996 proposal that never became a standard; Google does not support it.',
  'visit-time': 'Visit-time comes from a 1996 proposal that never became a standard; Google does not support it.',
  'content-signal':
    "Content-Signal is Cloudflare's Content Signals Policy (2025): a stated preference about search and AI use, not an access rule.",
  'content-usage':
    'Content-Usage comes from the IETF AI Preferences (aipref) drafts: a stated usage preference, not an access rule.',
};

// ---------------------------------------------------------------------------------------------------
// Lint

export interface LintOptions {
  /**
   * The robots.txt URL the file is served at, when known (a fetched document). Otherwise the origin is
   * taken from a hint (`originHint`, then a comment or the Sitemap lines), or left unknown.
   */
  robotsUrl?: string;
  /** A hint from outside the text, e.g. the folder name (originFromPath). Used when `robotsUrl` is not given. */
  originHint?: OriginHint;
  /** Crawl-delay values above this are reported (`crawl-delay-above-cap`). Default 30 s (the plan's default). */
  maxCrawlDelaySeconds?: number;
  /** The parsing limit in bytes (default 512,000, RFC 9309 §2.5). */
  maxBytes?: number;
  /** The Content-Type it was served with, when known: anything but `text/*` gives `not-text`. */
  contentType?: string;
}

export interface RobotsLint {
  /** The parsed file, parsed against the known origin or UNKNOWN_ORIGIN_ROBOTS_URL. */
  file: RobotsFile;
  /** Every finding, enriched and sorted (the same objects as `file.findings`). */
  findings: readonly RobotsFinding[];
  /** Where the origin came from; undefined when it is unknown. */
  origin?: OriginHint;
}

/**
 * Lints robots.txt as it is in an editor buffer (a string) or as served (bytes): encoded to UTF-8 for the
 * 500 KiB limit, BOM skipped, parsed, then checked by lintFindings(). A BOM character at the very start of
 * a string (VS Code normally strips it) keeps the columns of line 1 aligned with the buffer.
 */
export function lintRobots(body: Uint8Array | string, options: LintOptions = {}): RobotsLint {
  const leadingBom = typeof body === 'string' && body.charCodeAt(0) === 0xfeff;
  const load = (robotsUrl: string): RobotsFile => {
    const args = {
      robotsUrl,
      ...(options.maxCrawlDelaySeconds !== undefined ? { maxCrawlDelaySeconds: options.maxCrawlDelaySeconds } : {}),
      ...(options.contentType !== undefined ? { contentType: options.contentType } : {}),
    };
    const file = loadRobotsFile(body, options.maxBytes !== undefined ? { ...args, maxBytes: options.maxBytes } : args);
    return leadingBom ? shiftFirstLine(file) : file;
  };
  let origin: OriginHint | undefined;
  let file: RobotsFile;
  if (options.robotsUrl !== undefined) {
    file = load(options.robotsUrl);
    origin = { origin: file.origin, from: 'option' };
  } else {
    file = load(UNKNOWN_ORIGIN_ROBOTS_URL);
    origin = options.originHint ?? originFromText(file);
    if (origin) file = load(`${origin.origin}/robots.txt`);
  }
  const findings = lintFindings(file);
  const linted: RobotsFile = { ...file, findings };
  return origin ? { file: linted, findings, origin } : { file: linted, findings };
}

/** lintRobots() for the editor's buffer text. */
export function lintRobotsText(text: string, options: LintOptions = {}): RobotsLint {
  return lintRobots(text, options);
}

/** Line 1 lost its leading BOM in decoding: move its columns back to where they are in the buffer. */
function shiftFirstLine(file: RobotsFile): RobotsFile {
  const shift = (r: ColumnRange | undefined): ColumnRange | undefined =>
    r ? { start: r.start + 1, end: r.end + 1 } : undefined;
  const lines = file.lines.map((l, i): RobotsLine => {
    if (i !== 0) return l;
    const moved: RobotsLine = { ...l, raw: `\uFEFF${l.raw}` };
    const keyRange = shift(l.keyRange);
    const valueRange = shift(l.valueRange);
    if (keyRange) moved.keyRange = keyRange;
    if (valueRange) moved.valueRange = valueRange;
    return moved;
  });
  const findings = file.findings.map((f) =>
    f.line === 1 && f.column !== undefined && f.endColumn !== undefined
      ? { ...f, column: f.column + 1, endColumn: f.endColumn + 1 }
      : f,
  );
  return { ...file, lines, findings };
}

/** Shows invisible characters in messages. */
function visible(s: string): string {
  return s.replace(INVISIBLE, (c) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`);
}

/**
 * The file's findings made more helpful, plus the editor checks. Sorted by line and column; at most
 * MAX_FINDINGS_PER_CODE per code.
 */
export function lintFindings(file: RobotsFile): RobotsFinding[] {
  const out: RobotsFinding[] = file.findings.map((f) => enrich(file, f));
  const sink = new FindingSink();
  const add = sink.addAt.bind(sink);

  // Characters: a BOM anywhere but the very start, and U+FFFD left by a wrong decoding.
  for (const line of file.lines) {
    const raw = line.raw;
    const bom = raw.indexOf('\uFEFF', line.line === 1 ? 1 : 0);
    if (bom >= 0) {
      add(
        'bom-in-line',
        'warning',
        line.line,
        'An invisible byte order mark (U+FEFF) is inside the file; crawlers read it as part of the line, so the directive is not recognised.',
        { start: bom, end: bom + 1 },
      );
    }
    const bad = raw.indexOf('\uFFFD');
    if (bad >= 0) {
      add(
        'replacement-character',
        'warning',
        line.line,
        'This line holds U+FFFD (�), the mark of text that was not valid UTF-8 when it was decoded. robots.txt must be UTF-8 (RFC 9309 §2.3); re-save the file as UTF-8.',
        { start: bad, end: bad + 1 },
      );
    }
  }

  for (const group of file.groups) lintGroupRules(group, add);
  for (const record of file.records) lintRecordCrawlDelay(file, record, add);

  return sortFindings([...out, ...sink.list]);
}

type Add = FindingSink['addAt'];

function lintGroupRules(group: RobotsGroup, add: Add): void {
  const seen = new Map<string, { line: number; text: string }>();
  for (const rule of group.rules) {
    if (rule.value === '') continue;
    const key = `${rule.directive} ${rule.pattern}`;
    const first = seen.get(key);
    if (first) {
      add(
        'rule-duplicate',
        'info',
        rule.line,
        `The same rule is already on line ${first.line} (${clip(first.text, 80)}); this line changes nothing.`,
      );
      continue;
    }
    seen.set(key, { line: rule.line, text: rule.text });
    const other = seen.get(`${rule.directive === 'allow' ? 'disallow' : 'allow'} ${rule.pattern}`);
    if (other) {
      const disallowLine = rule.directive === 'disallow' ? rule.line : other.line;
      const allowLine = rule.directive === 'allow' ? rule.line : other.line;
      add(
        'rule-contradictory',
        'warning',
        rule.line,
        `Allow (line ${allowLine}) and Disallow (line ${disallowLine}) have the same pattern in this group; on a tie Allow wins ` +
          `(RFC 9309 §2.2.2), so the Disallow on line ${disallowLine} never applies.`,
      );
    }
  }
}

/** Once per record (the user-agent lines a Crawl-delay belongs to), on the Crawl-delay line it uses. */
function lintRecordCrawlDelay(file: RobotsFile, record: RobotsRecord, add: Add): void {
  const used = largestCrawlDelay(record.crawlDelays);
  if (!used) return;
  const line = file.lines[used.line - 1];
  const forGoogle = record.userAgents.some((ua) => ua.token === 'googlebot');
  add(
    'crawl-delay-ignored-by-google',
    'info',
    used.line,
    forGoogle
      ? `This group names Googlebot, but Google's documentation says Google does not support Crawl-delay. Bing's documentation says Bingbot honours it.`
      : `${IGNORED_DIRECTIVE_NOTES['crawl-delay']} Crawl Planner honours it, merged with your configured delay.`,
    line?.keyRange,
  );
}

function enrich(file: RobotsFile, f: RobotsFinding): RobotsFinding {
  const line = file.lines[f.line - 1];
  switch (f.code) {
    case 'unknown-directive': {
      const key = line?.key ?? '';
      const suggestion = suggestDirective(key);
      if (!suggestion)
        return HAS_INVISIBLE.test(key)
          ? { ...f, message: `Unknown directive "${clip(visible(key), 80)}"; the line is ignored.` }
          : f;
      const hidden = HAS_INVISIBLE.test(key) ? ' (it holds an invisible character)' : '';
      return {
        ...f,
        message: `Unknown directive "${clip(visible(key), 80)}"${hidden}; did you mean "${suggestion}"? The line is ignored.`,
      };
    }
    case 'unsupported-directive': {
      const note = IGNORED_DIRECTIVE_NOTES[(line?.key ?? '').toLowerCase()];
      return note ? { ...f, message: `"${line?.key}" is not part of RFC 9309. ${note} Crawl Planner ignores it.` } : f;
    }
    case 'truncated': {
      const last = f.line - 1;
      return {
        ...f,
        message: `${f.message} Line ${last.toLocaleString('en-US')} is the last line parsed${last === 0 ? ' (none is)' : ''}.`,
      };
    }
    case 'sitemap-relative': {
      if (!originUnknown(file)) return f;
      return {
        ...f,
        message: `Sitemap URLs must be absolute; "${clip(line?.value ?? '', 80)}" is relative and the file's origin is not known, so write the full URL (https://…).`,
      };
    }
    default:
      return f;
  }
}
