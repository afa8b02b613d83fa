/**
 * One robots.txt line read on its own: its kind, key and value and their columns, as google/robotstxt reads it.
 * parse.ts reads the lines in order into groups and records.
 *
 * - Lines end at CR, LF or CRLF. A final line terminator does not start another line.
 * - `#` starts a comment anywhere; ASCII whitespace (space, tab, VT, FF) around keys and values is trimmed
 *   (not U+FEFF: a BOM in the middle of the file makes its line unknown, as in Google's parse tests).
 * - `key: value`. A missing colon is accepted for a known directive when the line is exactly two words
 *   (`disallow /`), with a warning (Google's leniency; the RFC's ABNF requires the colon).
 * - Keys are case-insensitive and compared exactly; Google's frequent typos (`useragent`, `user agent`,
 *   `dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`) are accepted with a warning.
 */
import type { ColumnRange, RobotsLine, RobotsLineKind } from './robotsFile';

/** Google's per-line limit (8 × 2083 bytes). We do not cut lines (docs/robots-txt.md#behaviour-decisions); we report them. */
export const GOOGLE_MAX_LINE_BYTES = 16_664;

/** A known key: the line kind it makes and its spelling in messages; `typo` for an accepted misspelling. */
export interface KeyInfo {
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

/** One line read: the line, whether its colon was missing, its key's info when known, and where its content is. */
export interface LineParse {
  line: RobotsLine;
  missingColon: boolean;
  info?: KeyInfo;
  /** Start/end of the trimmed content (comment removed). */
  content: ColumnRange;
}

/** Reads line `n` (1-based) of the file, `raw` without its terminator. */
export function parseLine(raw: string, n: number): LineParse {
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

/** The line's length in UTF-8 bytes, as Google's line limit counts them. */
export function utf8Length(s: string): number {
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
