/**
 * A fast road past the WHATWG URL parser for text that is already a serialized http(s) URL: when
 * `canonicalHttpHost(text)` answers, `new URL(text)` would give back `text` itself as `href`, and the
 * `host` it returns. It answers only for a plain shape (lower-case scheme and host name, a port that is
 * not the default, a path and query of characters the parser keeps as they are, no dot segment, no
 * fragment, no user info) and leaves everything else to the parser. Parsing a URL costs about 0.4 µs
 * and a new string; a crawl meets a million, and a simulation many more.
 * test/unit/crawl-canonical-url.test.ts holds it equal to `new URL` over random text.
 */

const SLASH = 0x2f;

/** Characters kept as they are in a special URL's path and query (none of the percent-encode sets, no `\`, `#`). */
function pathChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x2d ||
    c === 0x2e ||
    c === 0x5f ||
    c === 0x7e || // - . _ ~
    c === SLASH ||
    c === 0x21 ||
    c === 0x24 ||
    c === 0x26 ||
    c === 0x28 ||
    c === 0x29 || // / ! $ & ( )
    c === 0x2a ||
    c === 0x2b ||
    c === 0x2c ||
    c === 0x3b ||
    c === 0x3d ||
    c === 0x3a ||
    c === 0x40 || // * + , ; = : @
    c === 0x25 // % (kept as is; a "%2e" segment is refused below)
  );
}

/** The host part: lower-case DNS labels whose last one starts with a letter, or a dotted quad, as serialized. */
function plainHost(text: string, from: number, to: number): boolean {
  if (from >= to) return false;
  let labelStart = from;
  let lastLabelStart = from;
  for (let i = from; i <= to; i++) {
    const c = i < to ? text.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      const length = i - labelStart;
      if (length === 0) return false;
      if (text.charCodeAt(labelStart) === 0x2d || text.charCodeAt(i - 1) === 0x2d) return false;
      if (length >= 4 && text.startsWith('xn--', labelStart)) return false;
      lastLabelStart = labelStart;
      labelStart = i + 1;
      continue;
    }
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d)) return false;
  }
  const last = text.charCodeAt(lastLabelStart);
  if (last >= 0x61 && last <= 0x7a) return true;
  return dottedQuad(text.slice(from, to));
}

function dottedQuad(host: string): boolean {
  const parts = host.split('.');
  if (parts.length !== 4) return false;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return false;
  }
  return true;
}

/** `:port`, as serialized: digits without a leading zero, at most 65535, not the scheme's default. */
function plainPort(text: string, from: number, to: number, https: boolean): boolean {
  const digits = text.slice(from, to);
  if (!/^(0|[1-9]\d{0,4})$/.test(digits)) return false;
  const port = Number(digits);
  return port <= 65_535 && port !== (https ? 443 : 80);
}

/** True when a path segment from `from` to `to` is `.` or `..`, which the parser would resolve. */
function dotSegment(text: string, from: number, to: number): boolean {
  const length = to - from;
  return (
    (length === 1 && text.charCodeAt(from) === 0x2e) ||
    (length === 2 && text.charCodeAt(from) === 0x2e && text.charCodeAt(from + 1) === 0x2e)
  );
}

/**
 * The `host` of `text` when `text` is an http(s) URL exactly as WHATWG URL serializes it (its `href` is
 * `text` itself), else undefined: then the parser must decide.
 */
export function canonicalHttpHost(text: string): string | undefined {
  let schemeEnd: number;
  if (text.startsWith('https://')) schemeEnd = 8;
  else if (text.startsWith('http://')) schemeEnd = 7;
  else return undefined;
  const https = schemeEnd === 8;
  const pathStart = text.indexOf('/', schemeEnd);
  if (pathStart < 0) return undefined;
  const colon = text.indexOf(':', schemeEnd);
  const hostEnd = colon >= 0 && colon < pathStart ? colon : pathStart;
  if (!plainHost(text, schemeEnd, hostEnd)) return undefined;
  if (hostEnd !== pathStart && !plainPort(text, hostEnd + 1, pathStart, https)) return undefined;
  let query = false;
  let segmentStart = pathStart + 1;
  for (let i = pathStart; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3f) {
      // The query: '?' is kept, and so is every path character but a single quote (in the path set already not).
      if (!query && dotSegment(text, segmentStart, i)) return undefined;
      query = true;
      continue;
    }
    if (!pathChar(c)) return undefined;
    // "%2e" / "%2E" in the path: a percent-encoded dot, which the parser reads as one in a dot segment.
    if (!query && c === 0x25 && text.charCodeAt(i + 1) === 0x32 && (text.charCodeAt(i + 2) | 0x20) === 0x65)
      return undefined;
    if (!query && c === SLASH && i > pathStart) {
      if (dotSegment(text, segmentStart, i)) return undefined;
      segmentStart = i + 1;
    }
  }
  if (!query && dotSegment(text, segmentStart, text.length)) return undefined;
  return text.slice(schemeEnd, pathStart);
}
