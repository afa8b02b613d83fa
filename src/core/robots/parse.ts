/**
 * Our own line-level parse of robots.txt: every line with its kind, key and value; the groups; the Crawl-delay
 * records; sitemaps; and a finding for every line that was ignored or read leniently. The rules of each
 * group carry canonical patterns (percentEncoding.ts), which explain.ts compiles for matching (match.ts), so the
 * group structure and the encoding are ours (robots-parser's gaps G2, G3/G4, G7, G8 cannot arise).
 *
 * Line syntax, as google/robotstxt reads it:
 * - Lines end at CR, LF or CRLF. A final line terminator does not start another line.
 * - `#` starts a comment anywhere; ASCII whitespace (space, tab, VT, FF) around keys and values is trimmed
 *   (not U+FEFF: a BOM in the middle of the file makes its line unknown, as in Google's parse tests).
 * - `key: value`. A missing colon is accepted for a known directive when the line is exactly two words
 *   (`disallow /`), with a warning (Google's leniency; the RFC's ABNF requires the colon).
 * - Keys are case-insensitive and compared exactly; Google's frequent typos (`useragent`, `user agent`,
 *   `dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`) are accepted with a warning.
 *
 * Groups (RFC 9309 §2.1, §2.2.4): a group is one or more `user-agent` lines followed by rules; only an
 * `allow`/`disallow` line ends the run of user-agent lines. Sitemap, Crawl-delay, Host, unknown and invalid
 * lines never split a group (gap G2; robots-parser split on all of them).
 *
 * Records (Crawl-delay only): a record is a run of user-agent lines plus the lines after it, up to the next
 * user-agent line that follows a `key: value` line of another kind. A Crawl-delay belongs to the record it
 * is in, that is to the user-agent lines just before it, as robots-parser, Python's urllib.robotparser,
 * crawler-commons (Nutch, Heritrix), temoto/robotstxt and texting_robots read it. Every group boundary is a
 * record boundary, so a record lies inside one group; a group may hold several records.
 */
import { clip } from '../format/text';
import { FindingSink, sortFindings, type RobotsFinding } from './findings';
import { normalizeForMatch } from './percentEncoding';
import { readUserAgentValue } from './token';
import type { SelectionCache } from './explain';
import { PACING_DEFAULTS } from '../politeness/pacing';

export type RobotsLineKind =
  | 'blank'
  | 'comment'
  | 'user-agent'
  | 'allow'
  | 'disallow'
  | 'crawl-delay'
  | 'sitemap'
  /** A known non-standard directive that we ignore (Host, Clean-param, Noindex, Request-rate, …). */
  | 'unsupported'
  /** `key: value` with a key we do not know. */
  | 'unknown'
  /** Not `key: value` at all (prose, HTML, `:::`, a lone word). */
  | 'invalid';

/** Columns are 0-based UTF-16 offsets within the line; `end` is exclusive. */
export interface ColumnRange {
  start: number;
  end: number;
}

export interface RobotsLine {
  /** 1-based. */
  line: number;
  /** The line without its terminator. */
  raw: string;
  kind: RobotsLineKind;
  /** The key as written (trimmed), for every kind but blank/comment/invalid. */
  key?: string;
  /** The value as written (comment removed, trimmed). */
  value?: string;
  keyRange?: ColumnRange;
  valueRange?: ColumnRange;
}

export interface RobotsUserAgent {
  line: number;
  /** The value as written. */
  value: string;
  /** Lower-case product token read from the value (`''`: matches no crawler; `'*'` when global). */
  token: string;
  global: boolean;
}

export type RuleDirective = 'allow' | 'disallow';

export interface RobotsRule {
  line: number;
  directive: RuleDirective;
  /** The path pattern as written (may be empty: `Disallow:` allows everything). */
  value: string;
  /** The canonical pattern both matchers compare (see percentEncoding.ts). */
  pattern: string;
  /** The line as a reader would quote it: comment removed, trimmed, e.g. `Disallow: /private`. */
  text: string;
}

export interface RobotsCrawlDelay {
  seconds: number;
  line: number;
}

export interface RobotsGroup {
  /** 0-based position among the file's groups. */
  index: number;
  /** Line of the group's first user-agent line. */
  line: number;
  /** Last line before the next group starts (or the file's last line). */
  endLine: number;
  userAgents: RobotsUserAgent[];
  /** Allow/disallow rules in file order, including empty ones. */
  rules: RobotsRule[];
}

/**
 * The unit a Crawl-delay belongs to: a run of user-agent lines and the lines after it, up to the next
 * user-agent line that follows a `key: value` line of another kind (see the top of this file).
 */
export interface RobotsRecord {
  /** 0-based position among the file's records. */
  index: number;
  /** Line of the record's first user-agent line. */
  line: number;
  /** Last line before the next record starts (or the file's last line). */
  endLine: number;
  userAgents: RobotsUserAgent[];
  /** The valid Crawl-delay lines of the record, in file order. */
  crawlDelays: RobotsCrawlDelay[];
  /** The RFC 9309 group the record lies in (its index). */
  group: number;
}

export interface RobotsSitemap {
  /** Absolute http(s) URL, resolved against the robots.txt URL. */
  url: string;
  /** The value as written. */
  value: string;
  line: number;
}

/** What decodeRobotsBody reported, when the file came from bytes (loadRobotsFile). */
export interface RobotsBodyInfo {
  bytes: number;
  parsedBytes: number;
  truncated: boolean;
  bom: 'full' | 'partial' | 'none';
}

export interface RobotsFile {
  /** The ORIGINAL robots.txt URL (before redirects, RFC 9309 §2.3.1.2), normalised href. */
  robotsUrl: string;
  /** Its origin: the only scheme/host/port these rules apply to. */
  origin: string;
  lines: readonly RobotsLine[];
  groups: readonly RobotsGroup[];
  /** Crawl-delay records (see RobotsRecord), in file order. */
  records: readonly RobotsRecord[];
  sitemaps: readonly RobotsSitemap[];
  /** Sorted by line, then column. */
  findings: readonly RobotsFinding[];
  /** The cap used for `crawl-delay-above-cap` findings (the cap itself is applied by effectiveInterval). */
  maxCrawlDelaySeconds: number;
  /** Present when the file was decoded from bytes by loadRobotsFile. */
  body?: RobotsBodyInfo;
  /**
   * What verdicts need per crawler, built on first use by explain.ts and kept with the file: the group
   * selection and its rules compiled for matching, keyed by the product-token argument as given. At most
   * 16 are kept. Copies of the file (`{ ...file }`) share it, which is right: they have the same groups.
   */
  readonly selections: Map<string, SelectionCache>;
}

export interface ParseOptions {
  /** The original robots.txt URL (http or https). */
  robotsUrl: string;
  /** Crawl-delay values above this are reported (`crawl-delay-above-cap`). Default: PACING_DEFAULTS.maxCrawlDelaySeconds. */
  maxCrawlDelaySeconds?: number;
}

/** Google's per-line limit (8 × 2083 bytes). We do not cut lines (docs/how-it-works.md §Behaviour decisions); we report them. */
export const GOOGLE_MAX_LINE_BYTES = 16_664;

interface KeyInfo {
  kind: RobotsLineKind;
  canonical: string;
  typo?: boolean;
}

const KEYS = new Map<string, KeyInfo>([
  ['user-agent', { kind: 'user-agent', canonical: 'User-agent' }],
  ['useragent', { kind: 'user-agent', canonical: 'User-agent', typo: true }],
  ['user agent', { kind: 'user-agent', canonical: 'User-agent', typo: true }],
  ['allow', { kind: 'allow', canonical: 'Allow' }],
  ['disallow', { kind: 'disallow', canonical: 'Disallow' }],
  ['dissallow', { kind: 'disallow', canonical: 'Disallow', typo: true }],
  ['dissalow', { kind: 'disallow', canonical: 'Disallow', typo: true }],
  ['disalow', { kind: 'disallow', canonical: 'Disallow', typo: true }],
  ['diasllow', { kind: 'disallow', canonical: 'Disallow', typo: true }],
  ['disallaw', { kind: 'disallow', canonical: 'Disallow', typo: true }],
  ['sitemap', { kind: 'sitemap', canonical: 'Sitemap' }],
  ['site-map', { kind: 'sitemap', canonical: 'Sitemap', typo: true }],
  ['crawl-delay', { kind: 'crawl-delay', canonical: 'Crawl-delay' }],
  ...[
    'host',
    'clean-param',
    'noindex',
    'nofollow',
    'noarchive',
    'request-rate',
    'visit-time',
    'content-signal',
    'content-usage',
  ].map((k): [string, KeyInfo] => [k, { kind: 'unsupported', canonical: k }]),
]);

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c;
}

/** Splits at CR, LF and CRLF; a final terminator does not start an extra (empty) line. */
export function splitRobotsLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

interface LineParse {
  line: RobotsLine;
  missingColon: boolean;
  info?: KeyInfo;
  /** Start/end of the trimmed content (comment removed). */
  content: ColumnRange;
}

function parseLine(raw: string, n: number): LineParse {
  const hash = raw.indexOf('#');
  let s = 0;
  let e = hash < 0 ? raw.length : hash;
  while (s < e && isWs(raw.charCodeAt(s))) s++;
  while (e > s && isWs(raw.charCodeAt(e - 1))) e--;
  const content = { start: s, end: e };
  if (s === e) return { line: { line: n, raw, kind: hash >= 0 ? 'comment' : 'blank' }, missingColon: false, content };

  const invalid: LineParse = { line: { line: n, raw, kind: 'invalid' }, missingColon: false, content };
  let ke: number;
  let vs: number;
  let missingColon = false;
  const colon = raw.indexOf(':', s);
  if (colon >= 0 && colon < e) {
    ke = colon;
    vs = colon + 1;
  } else {
    // Google: without a colon, whitespace separates key and value if the line is exactly two words.
    ke = s;
    while (ke < e && !isWs(raw.charCodeAt(ke))) ke++;
    if (ke === e) return invalid;
    vs = ke;
    for (let i = ke; i < e; i++) {
      if (!isWs(raw.charCodeAt(i))) {
        if (vs === ke) vs = i;
      } else if (vs !== ke) return invalid;
    }
    missingColon = true;
  }
  let keyEnd = ke;
  while (keyEnd > s && isWs(raw.charCodeAt(keyEnd - 1))) keyEnd--;
  while (vs < e && isWs(raw.charCodeAt(vs))) vs++;
  if (keyEnd === s) return invalid;
  const key = raw.slice(s, keyEnd);
  const info = KEYS.get(key.toLowerCase());
  if (missingColon && (!info || info.kind === 'unsupported')) return invalid;
  return {
    line: {
      line: n,
      raw,
      kind: info ? info.kind : 'unknown',
      key,
      value: raw.slice(vs, e),
      keyRange: { start: s, end: keyEnd },
      valueRange: { start: vs, end: e },
    },
    missingColon,
    info,
    content,
  };
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else if (c >= 0xdc80 && c <= 0xdcff)
      n += 1; // an invalid byte kept by decodeRobotsBody
    else n += 3;
  }
  return n;
}

/** Result of reading a Crawl-delay value (decision G17, docs/how-it-works.md §Behaviour decisions). */
export interface CrawlDelayReading {
  seconds?: number;
  /** Set when the value is not used. */
  problem?: string;
  /** True for exponent notation (`1e3`), which is used but reported. */
  exponent?: boolean;
}

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const EXPONENT = /^(?:\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+$/;

/**
 * A Crawl-delay value in seconds: a non-negative decimal number (`10`, `0.5`, `.5`, `2.`). Exponent notation
 * (`1e3`) is read as the number it denotes (1000) and reported. Everything else is ignored with a reason:
 * empty, signs (`-5`, `+5`), hex (`0x10`), `Infinity`/`NaN`, units (`10s`), `1.2.1`, and values that
 * overflow to infinity.
 */
export function readCrawlDelay(value: string): CrawlDelayReading {
  if (value === '') return { problem: 'The Crawl-delay value is empty.' };
  const exponent = EXPONENT.test(value);
  if (DECIMAL.test(value) || exponent) {
    const seconds = Number(value);
    if (!Number.isFinite(seconds)) return { problem: `The Crawl-delay value "${value}" is not a finite number.` };
    return exponent ? { seconds, exponent } : { seconds };
  }
  if (/^-/.test(value))
    return { problem: `The Crawl-delay value "${value}" is negative; a delay must be at least 0 seconds.` };
  if (/^[+-]?0[xXoObB]/.test(value)) return { problem: `The Crawl-delay value "${value}" is not a decimal number.` };
  if (/^[+-]?(?:infinity|nan)$/i.test(value))
    return { problem: `The Crawl-delay value "${value}" is not a finite number.` };
  if (/^\+/.test(value))
    return { problem: `The Crawl-delay value "${value}" has a sign; write the number of seconds only.` };
  if (/^\d+(?:\.\d+)?\s*[a-zA-Z]+$/.test(value)) {
    return { problem: `The Crawl-delay value "${value}" has a unit; Crawl-delay is a plain number of seconds.` };
  }
  return { problem: `The Crawl-delay value "${value}" is not a number of seconds.` };
}

function checkRobotsUrl(robotsUrl: string): URL {
  let u: URL;
  try {
    u = new URL(robotsUrl);
  } catch {
    throw new TypeError(`robotsUrl "${robotsUrl}" is not an absolute URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new TypeError(`robotsUrl "${robotsUrl}" is not an http(s) URL`);
  return u;
}

interface MutableGroup extends RobotsGroup {
  /** An allow/disallow line was seen: the next user-agent line starts a new group. */
  closed: boolean;
}

interface MutableRecord extends RobotsRecord {
  /** A `key: value` line of another kind was seen: the next user-agent line starts a new record. */
  closed: boolean;
}

/**
 * Of several Crawl-delay lines that apply to one crawler, the one used: the largest (the earliest of equal
 * ones). A Crawl-delay is a minimum wait between requests, so the largest one respects every line; it is
 * also the politeness rule for merging delays (a floor merged by max). robots-parser and urllib.robotparser
 * keep the last or the first line instead, which is never more polite than this.
 */
export function largestCrawlDelay(delays: readonly RobotsCrawlDelay[]): RobotsCrawlDelay | undefined {
  let best: RobotsCrawlDelay | undefined;
  for (const d of delays) if (!best || d.seconds > best.seconds) best = d;
  return best;
}

/**
 * Parses robots.txt text (already decoded; see decodeRobotsBody / loadRobotsFile). Never throws for any
 * text; throws TypeError only for a `robotsUrl` that is not an absolute http(s) URL.
 */
export function parseRobots(text: string, options: ParseOptions): RobotsFile {
  const base = checkRobotsUrl(options.robotsUrl);
  const maxCrawlDelaySeconds = options.maxCrawlDelaySeconds ?? PACING_DEFAULTS.maxCrawlDelaySeconds;
  const sink = new FindingSink();
  const add = sink.addAt.bind(sink);

  const lines: RobotsLine[] = [];
  const groups: MutableGroup[] = [];
  const sitemaps: RobotsSitemap[] = [];
  const seenSitemaps = new Map<string, number>();
  let current: MutableGroup | undefined;
  const records: MutableRecord[] = [];
  let record: MutableRecord | undefined;

  const raws = splitRobotsLines(text);
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i] as string;
    const n = i + 1;
    const { line, missingColon, info, content } = parseLine(raw, n);
    lines.push(line);

    if (raw.length * 3 > GOOGLE_MAX_LINE_BYTES && utf8Length(raw) > GOOGLE_MAX_LINE_BYTES) {
      add(
        'line-too-long',
        'warning',
        n,
        `This line is ${utf8Length(raw).toLocaleString('en-US')} bytes. Crawl Planner reads it whole, but Google reads only the first ` +
          `${GOOGLE_MAX_LINE_BYTES.toLocaleString('en-US')} bytes of a line, so other crawlers may see a different rule.`,
      );
    }

    const key = line.key ?? '';
    const value = line.value ?? '';
    const keyRange = line.keyRange;
    const valueRange = line.valueRange;
    if (line.kind === 'invalid') {
      add(
        'invalid-line',
        'warning',
        n,
        `Ignored: "${clip(raw.slice(content.start, content.end), 80)}" is not a "key: value" line.`,
        content,
      );
      continue;
    }
    // Any `key: value` line but a user-agent line ends the record's run of user-agent lines (as in
    // robots-parser); blank lines, comments and lines that are not `key: value` do not.
    if (record && line.kind !== 'user-agent' && line.kind !== 'blank' && line.kind !== 'comment') record.closed = true;
    if (missingColon && info) {
      add(
        'missing-colon',
        'warning',
        n,
        `The colon after "${key}" is missing; read as "${info.canonical}: ${clip(value, 80)}", as Google does.`,
        keyRange,
      );
    } else if (info?.typo) {
      add(
        'directive-typo',
        'warning',
        n,
        `"${key}" is read as "${info.canonical}" (a frequent typo Google also accepts).`,
        keyRange,
      );
    }

    switch (line.kind) {
      case 'blank':
      case 'comment':
        break;
      case 'unknown':
        add('unknown-directive', 'warning', n, `Unknown directive "${clip(key, 80)}"; the line is ignored.`, keyRange);
        break;
      case 'unsupported':
        add(
          'unsupported-directive',
          'info',
          n,
          `"${key}" is not part of RFC 9309; Crawl Planner ignores it.`,
          keyRange,
        );
        break;
      case 'user-agent': {
        if (!current || current.closed) {
          current = { index: groups.length, line: n, endLine: n, userAgents: [], rules: [], closed: false };
          groups.push(current);
        }
        if (!record || record.closed) {
          record = {
            index: records.length,
            line: n,
            endLine: n,
            userAgents: [],
            crawlDelays: [],
            group: current.index,
            closed: false,
          };
          records.push(record);
        }
        const ua = readUserAgentValue(value);
        const agent: RobotsUserAgent = { line: n, value, token: ua.token, global: ua.global };
        current.userAgents.push(agent);
        record.userAgents.push(agent);
        if (value === '') {
          add('empty-user-agent', 'warning', n, 'This user-agent line has no value; it matches no crawler.', keyRange);
        } else if (ua.token === '') {
          add(
            'user-agent-not-a-token',
            'warning',
            n,
            `"${clip(value, 80)}" does not start with a product token ([a-zA-Z_-]+); it matches no crawler.`,
            valueRange,
          );
        } else if (ua.rest !== '') {
          const versionOnly = !ua.global && /^\/\S*$/.test(ua.rest);
          add(
            'user-agent-not-a-token',
            versionOnly ? 'info' : 'warning',
            n,
            versionOnly
              ? `The version "${clip(ua.rest, 80)}" is ignored; this line matches the product token "${value.slice(0, value.length - ua.rest.length)}".`
              : `"${clip(value, 80)}" is not a product token; it is read as "${ua.global ? '*' : value.slice(0, value.length - ua.rest.length)}", as Google does.`,
            valueRange,
          );
        }
        break;
      }
      case 'allow':
      case 'disallow': {
        const directive = line.kind;
        if (!current) {
          add(
            'rule-outside-group',
            'warning',
            n,
            `This ${info?.canonical ?? key} line comes before any user-agent line; it is ignored.`,
            keyRange,
          );
          break;
        }
        current.closed = true;
        const ruleText = raw.slice(content.start, content.end);
        current.rules.push({ line: n, directive, value, pattern: normalizeForMatch(value, 'pattern'), text: ruleText });
        if (value === '') {
          if (directive === 'allow') add('empty-allow', 'info', n, 'An empty Allow has no effect.', keyRange);
        } else if (value[0] !== '/' && value[0] !== '*') {
          add(
            'rule-path-not-absolute',
            'warning',
            n,
            `The path "${clip(value, 80)}" does not start with "/" or "*", so it never matches a URL.`,
            valueRange,
          );
        }
        break;
      }
      case 'crawl-delay': {
        const reading = readCrawlDelay(value);
        if (!current) {
          add(
            'crawl-delay-outside-group',
            'warning',
            n,
            'This Crawl-delay line comes before any user-agent line; it is ignored.',
            keyRange,
          );
          break;
        }
        if (reading.seconds === undefined) {
          add('crawl-delay-invalid', 'error', n, `${reading.problem} The line is ignored.`, valueRange ?? keyRange);
          break;
        }
        if (reading.exponent) {
          add(
            'crawl-delay-exponent',
            'warning',
            n,
            `"${value}" is read as ${fmtSeconds(reading.seconds)}; write the number of seconds in plain digits.`,
            valueRange,
          );
        }
        if (reading.seconds > maxCrawlDelaySeconds) {
          add(
            'crawl-delay-above-cap',
            'warning',
            n,
            `Crawl-delay ${fmtSeconds(reading.seconds)} is above the cap of ${fmtSeconds(maxCrawlDelaySeconds)}; the Crawl-delay policy (cap, skip or obey) decides what happens.`,
            valueRange,
          );
        }
        (record as MutableRecord).crawlDelays.push({ seconds: reading.seconds, line: n });
        break;
      }
      case 'sitemap': {
        let url: URL | undefined;
        let relative = false;
        try {
          url = new URL(value);
        } catch {
          try {
            if (value !== '') {
              url = new URL(value, base);
              relative = true;
            }
          } catch {
            url = undefined;
          }
        }
        if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
          const why =
            value === ''
              ? 'The Sitemap value is empty'
              : url
                ? `"${clip(value, 80)}" is not an http(s) URL`
                : `"${clip(value, 80)}" is not a URL`;
          add('sitemap-invalid', 'error', n, `${why}; it is ignored.`, valueRange ?? keyRange);
          break;
        }
        if (relative)
          add(
            'sitemap-relative',
            'warning',
            n,
            `Sitemap URLs should be absolute; "${clip(value, 80)}" is read as ${url.href}.`,
            valueRange,
          );
        const seen = seenSitemaps.get(url.href);
        if (seen !== undefined) {
          add('sitemap-duplicate', 'info', n, `The sitemap ${url.href} is already listed on line ${seen}.`, valueRange);
          break;
        }
        seenSitemaps.set(url.href, n);
        sitemaps.push({ url: url.href, value, line: n });
        break;
      }
    }
  }

  const finished: RobotsGroup[] = groups.map((g, i) => {
    const next = groups[i + 1];
    if (g.rules.length === 0) {
      add(
        'empty-group',
        'info',
        g.line,
        `The group for ${g.userAgents.map((u) => u.value || '""').join(', ')} has no rules, so these crawlers may fetch everything (RFC 9309 §2.1).`,
      );
    }
    return {
      index: g.index,
      line: g.line,
      endLine: next ? next.line - 1 : lines.length,
      userAgents: g.userAgents,
      rules: g.rules,
    };
  });

  const finishedRecords: RobotsRecord[] = records.map((r, i) => {
    const next = records[i + 1];
    const used = largestCrawlDelay(r.crawlDelays);
    if (used && r.crawlDelays.length > 1) {
      for (const d of r.crawlDelays) {
        if (d === used) continue;
        add(
          'crawl-delay-duplicate',
          'warning',
          d.line,
          `Several Crawl-delay lines apply to the same user agents; the largest, ${fmtSeconds(used.seconds)} on line ${used.line}, is used (a Crawl-delay is a minimum wait, so the largest respects them all).`,
        );
      }
    }
    const group = finished[r.group] as RobotsGroup;
    // Reported only where the two readings differ: some record of the group ends with another Crawl-delay
    // (or none), so reading the whole group as one unit would give its agents a different one.
    const siblings = records.filter((o) => o.group === r.group);
    const disagree = siblings.some((o) => largestCrawlDelay(o.crawlDelays)?.seconds !== used?.seconds);
    if (used && disagree) {
      const others = group.userAgents.filter((ua) => !r.userAgents.includes(ua));
      for (const d of r.crawlDelays) {
        const l = lines[d.line - 1] as RobotsLine;
        add(
          'crawl-delay-scope',
          'warning',
          d.line,
          `This Crawl-delay belongs to the user-agent lines just before it, ${agentList(r.userAgents)}, not to ${agentList(others)}, ` +
            'although RFC 9309 puts them in one group; robots-parser, urllib.robotparser and crawler-commons read it this way too. ' +
            'To give every agent of the group a Crawl-delay, put one after each run of user-agent lines.',
          l.keyRange,
        );
      }
    }
    return {
      index: r.index,
      line: r.line,
      endLine: next ? next.line - 1 : lines.length,
      userAgents: r.userAgents,
      crawlDelays: r.crawlDelays,
      group: r.group,
    };
  });

  return {
    robotsUrl: base.href,
    origin: base.origin,
    lines,
    groups: finished,
    records: finishedRecords,
    sitemaps,
    findings: sortFindings(sink.list),
    maxCrawlDelaySeconds,
    selections: new Map(),
  };
}

/** `A, B (lines 3, 5)`: agents as written, for messages. */
function agentList(agents: readonly RobotsUserAgent[]): string {
  const names = [...new Set(agents.map((a) => a.value || '""'))];
  const shown =
    names.length > 4
      ? [...names.slice(0, 4).map((v) => clip(v, 40)), `${names.length - 4} more`]
      : names.map((v) => clip(v, 40));
  const at = agents.map((a) => a.line);
  return `${shown.join(', ')} (line${at.length > 1 ? 's' : ''} ${at.length > 4 ? `${at.slice(0, 4).join(', ')}, …` : at.join(', ')})`;
}

function fmtSeconds(s: number): string {
  return `${s} s`;
}
