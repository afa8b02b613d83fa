/**
 * One percent-encoding normalisation for both sides of a robots.txt comparison (RFC 9309 §2.2.2): rule
 * paths and URL path+query go through the same function, so they can only differ where the protocol says
 * they differ (`*` and a final `$` are special in rules).
 *
 * robots-parser normalises rules with `encodeURI` and URLs with the WHATWG URL serialiser; the two disagree on
 * `| [ ] ^ \` and (in the query) `'`, so `Disallow: /a|b` never blocked `/a|b` (gap G3), and it never
 * decoded `%7E` (gap G4). The canonical form produced here is also a fixed point of both of robots-parser's
 * normalisers, so the tests can feed it to robots-parser, as an oracle, without it changing again.
 *
 * The canonical form:
 * - `%XX` of an unreserved character (`A-Z a-z 0-9 - . _ ~`) is decoded (§2.2.2 MUST; Fig. 4);
 *   every other `%XX` stays encoded, with upper-case hex. A `%` not followed by two hex digits is `%25`.
 * - Unreserved characters and `! & ( ) + , / : ; = ? @` stay as they are (encodeURI and the WHATWG URL
 *   serialiser both keep them).
 * - Everything else is percent-encoded as UTF-8 with upper-case hex: controls, space, `" # % ' < > [ \ ] ^
 *   ` { | }`, DEL and all non-ASCII. `'` is included because the URL serialiser writes it as `%27` in a
 *   query; so `'` and `%27` compare equal everywhere.
 * - `*`: in a rule it is the wildcard; in a URL it is written `%2A`, so a rule matches a literal `*` with
 *   `%2A` (§2.2.3, Fig. 6; gap G5) and a rule's wildcard can never be confused with URL text.
 * - `$`: at the end of a rule it is the end anchor; anywhere else, and in URLs, it is `%24`.
 * - A lone surrogate U+DC80–U+DCFF (an invalid byte kept by decodeRobotsBody) becomes `%XX` of that byte;
 *   any other lone surrogate becomes `%EF%BF%BD` (U+FFFD), as the URL serialiser does.
 */

export type MatchSide = 'pattern' | 'url';

const HEX = '0123456789ABCDEF';

/** ASCII code points kept as they are (besides `*`/`$` in patterns). */
const KEEP = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!&()+,/:;=?@') {
  KEEP[ch.charCodeAt(0)] = 1;
}

function isUnreservedByte(b: number): boolean {
  return (
    (b >= 0x41 && b <= 0x5a) ||
    (b >= 0x61 && b <= 0x7a) ||
    (b >= 0x30 && b <= 0x39) ||
    b === 0x2d ||
    b === 0x2e ||
    b === 0x5f ||
    b === 0x7e
  );
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function pct(b: number): string {
  return '%' + HEX[b >> 4] + HEX[b & 15];
}

function utf8(cp: number): string {
  if (cp < 0x800) return pct(0xc0 | (cp >> 6)) + pct(0x80 | (cp & 63));
  if (cp < 0x10000) return pct(0xe0 | (cp >> 12)) + pct(0x80 | ((cp >> 6) & 63)) + pct(0x80 | (cp & 63));
  return pct(0xf0 | (cp >> 18)) + pct(0x80 | ((cp >> 12) & 63)) + pct(0x80 | ((cp >> 6) & 63)) + pct(0x80 | (cp & 63));
}

/**
 * The canonical form of a rule value (`side = 'pattern'`) or of a URL's path+query (`side = 'url'`; pass
 * `url.pathname + url.search` of a WHATWG URL, so that dot segments and `\` are already resolved the way the
 * request will be sent). Linear in the input length.
 */
export function normalizeForMatch(input: string, side: MatchSide): string {
  let out = '';
  const n = input.length;
  for (let i = 0; i < n; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x25) {
      const h1 = hexValue(input.charCodeAt(i + 1));
      const h2 = hexValue(input.charCodeAt(i + 2));
      if (h1 >= 0 && h2 >= 0) {
        const b = h1 * 16 + h2;
        out += isUnreservedByte(b) ? String.fromCharCode(b) : pct(b);
        i += 2;
      } else {
        out += '%25';
      }
      continue;
    }
    if (c < 0x80) {
      if (KEEP[c]) out += input[i];
      else if (c === 0x2a && side === 'pattern') out += '*';
      else if (c === 0x24 && side === 'pattern' && i === n - 1) out += '$';
      else out += pct(c);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = input.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += utf8(0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00));
        i++;
      } else {
        out += '%EF%BF%BD';
      }
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) {
      out += c >= 0xdc80 && c <= 0xdcff ? pct(c - 0xdc00) : '%EF%BF%BD';
      continue;
    }
    out += utf8(c);
  }
  return out;
}

/**
 * The path and query of a WHATWG URL as written for matching, before normalisation: `pathname + search`,
 * except that an empty query keeps its `?`. The URL serialiser drops it from `search` (`new URL('/a?').search`
 * is `''`), but `/a?` and `/a` are different URIs (RFC 3986 §6.2.3) and RFC 9309 §2.2.2 matches from the
 * first octet of the path, query included, so `Disallow: /*?` must block `/page?` (Google keeps the `?`
 * too). The fragment is never part of it.
 */
export function pathAndQuery(url: URL): string {
  if (url.search !== '') return url.pathname + url.search;
  const href = url.href;
  const hash = href.indexOf('#');
  const end = hash < 0 ? href.length : hash;
  return href.charCodeAt(end - 1) === 0x3f ? `${url.pathname}?` : url.pathname;
}

/** The canonical path and query of `url` that rules are matched against: normalizeForMatch(pathAndQuery(url)). */
export function matchablePath(url: URL): string {
  return normalizeForMatch(pathAndQuery(url), 'url');
}
