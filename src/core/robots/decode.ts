/**
 * robots.txt body bytes → text, by RFC 9309 §2.5 and Google's reading of byte order marks.
 *
 * - The parsing limit is 500 KiB = 512,000 bytes (§2.5: a crawler MUST accept at least that). Only the first
 *   `maxBytes` bytes are parsed; when the body is longer, the partial last line is dropped (a rule cut in
 *   the middle, `Disallow: /priv` from `Disallow: /private-area`, must not become a different rule), unless
 *   the cut falls exactly on a line end.
 * - A UTF-8 byte order mark at offset 0 is skipped, and so is a partial one (`EF BB` or `EF`), as Google
 *   does (google/robotstxt ID_UTF8ByteOrderMarkIsSkipped). A BOM anywhere else is an ordinary character.
 * - Bytes that are not valid UTF-8 are not replaced by U+FFFD: each one becomes the lone surrogate
 *   U+DC80 + (byte − 0x80) (Python's "surrogateescape"). Rule matching turns it back into `%XX` of the
 *   original byte, so a Latin-1 `Disallow: /caf\xE9` still blocks `/caf%E9` the way Google's byte-level
 *   matcher does, instead of becoming an unmatchable `%EF%BF%BD`. Display code shows these as U+FFFD.
 * - A body that does not look like text (NUL bytes in its first KiB, or a fetched file's Content-Type that
 *   is not `text/*`) is still parsed, since RFC 9309 §2.3.1.5 says to use what parses, but gets a
 *   `not-text` finding: a binary file silently read as "no rules, allowed" hides a server problem.
 */
import { FindingSink, sortFindings, type RobotsFinding } from './findings';

/** RFC 9309 §2.5: the parsing limit MUST be at least 500 kibibytes. */
export const ROBOTS_MAX_BYTES = 512_000;

/**
 * Seconds one robots.txt fetch may take in all, every redirect hop included, unless configured otherwise
 * (`--timeout`, `crawlPlanner.timeouts.robotsTxt`). Nutch's default HTTP timeout is also 10 s; a longer wait
 * freezes the sidebar and the palette, and an unreachable robots.txt only disallows (RFC 9309 §2.3.1.4).
 */
export const ROBOTS_FETCH_TIMEOUT_SECONDS = 10;

export interface DecodedRobots {
  /** The decoded text: no BOM, cut at the limit, invalid bytes kept as U+DC80–U+DCFF (see above). */
  text: string;
  /** Size of the body as given, in bytes. */
  bytes: number;
  /** Bytes actually decoded (BOM included): ≤ `maxBytes`, less when a partial last line was dropped. */
  parsedBytes: number;
  /** True when the body was longer than `maxBytes`. */
  truncated: boolean;
  /** What was skipped at offset 0. */
  bom: 'full' | 'partial' | 'none';
  findings: RobotsFinding[];
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Decodes a robots.txt body. A string is encoded to UTF-8 first, so the byte limit means the same thing
 * for both inputs (lone surrogates in a string become U+FFFD). `contentType`, the header of a fetched
 * file, only feeds the `not-text` finding.
 */
export function decodeRobotsBody(
  input: Uint8Array | string,
  maxBytes: number = ROBOTS_MAX_BYTES,
  contentType?: string,
): DecodedRobots {
  const body = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const sink = new FindingSink();

  let end = body.length;
  const truncated = body.length > maxBytes;
  if (truncated) {
    end = maxBytes;
    const next = body[maxBytes];
    if (next !== LF && next !== CR) {
      // Drop the partial last line: keep everything up to and including the last line terminator.
      let i = end - 1;
      while (i >= 0 && body[i] !== LF && body[i] !== CR) i--;
      end = i + 1;
    }
  }

  let start = 0;
  const BOM = [0xef, 0xbb, 0xbf];
  while (start < 3 && start < end && body[start] === BOM[start]) start++;
  const bom = start === 3 ? 'full' : start > 0 ? 'partial' : 'none';
  if (bom === 'full') {
    sink.add({
      code: 'utf8-bom',
      severity: 'info',
      line: 1,
      message: 'A UTF-8 byte order mark at the start of the file was skipped.',
    });
  } else if (bom === 'partial') {
    const hex = BOM.slice(0, start)
      .map((b) => b.toString(16).toUpperCase())
      .join(' ');
    sink.add({
      code: 'partial-bom',
      severity: 'warning',
      line: 1,
      message: `A partial UTF-8 byte order mark (${hex}) at the start of the file was skipped, as Google does.`,
    });
  }

  const notText = notTextReasons(body, contentType);
  if (notText.length > 0) {
    sink.add({
      code: 'not-text',
      severity: 'warning',
      line: 1,
      message: `This file does not look like text: ${notText.join(', and ')}. It is parsed anyway, line by line (RFC 9309 §2.3.1.5), but it is probably not a robots.txt.`,
    });
  }

  const slice = body.subarray(start, end);
  let text: string;
  let invalid = false;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(slice);
  } catch {
    text = decodeUtf8Escaping(slice);
    invalid = true;
  }

  scanLines(text, invalid, sink);

  if (truncated) {
    const lastLine = countLines(text);
    sink.add({
      code: 'truncated',
      severity: 'warning',
      line: lastLine + 1,
      message:
        `The file is ${body.length.toLocaleString('en-US')} bytes; only the first ${maxBytes.toLocaleString('en-US')} are parsed ` +
        `(RFC 9309 §2.5), up to the last complete line. Rules from this line on are ignored.`,
    });
  }

  return { text, bytes: body.length, parsedBytes: end, truncated, bom, findings: sortFindings(sink.list) };
}

/** The bytes looked at for NUL: a text file has none there, a binary file nearly always does. */
export const NOT_TEXT_SNIFF_BYTES = 1024;

/**
 * Why a body does not look like text (empty when it does): NUL bytes in its first KiB, and, for a fetched
 * file, a Content-Type whose media type is not `text/*`. A missing Content-Type says nothing.
 */
export function notTextReasons(body: Uint8Array, contentType?: string): string[] {
  const reasons: string[] = [];
  if (body.subarray(0, NOT_TEXT_SNIFF_BYTES).includes(0)) {
    reasons.push(`its first ${NOT_TEXT_SNIFF_BYTES.toLocaleString('en-US')} bytes hold NUL bytes`);
  }
  if (contentType !== undefined) {
    const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
    if (!type.startsWith('text/')) {
      reasons.push(
        `the server sent it as ${type === '' ? 'an empty Content-Type' : `Content-Type ${JSON.stringify(type.slice(0, 80))}`}, not text`,
      );
    }
  }
  return reasons;
}

/** Number of lines as the parser counts them (a final line terminator does not start a new line). */
function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) {
      if (c === CR && text.charCodeAt(i + 1) === LF) i++;
      if (i < text.length - 1) n++;
    }
  }
  return n;
}

/** One finding per line holding NUL, and per line holding invalid UTF-8 (only when there was any). */
function scanLines(text: string, invalid: boolean, sink: FindingSink): void {
  if (!invalid && !text.includes('\0')) return;
  let line = 1;
  let nulOnLine = false;
  let badOnLine = false;
  const flush = (): void => {
    if (badOnLine) {
      sink.add({
        code: 'invalid-utf8',
        severity: 'warning',
        line,
        message:
          'This line has bytes that are not valid UTF-8 (robots.txt MUST be UTF-8); they are matched as the raw bytes (%XX).',
      });
    }
    if (nulOnLine) {
      sink.add({
        code: 'nul-byte',
        severity: 'warning',
        line,
        message: 'This line contains a NUL byte; it is not valid robots.txt text.',
      });
    }
    nulOnLine = badOnLine = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) {
      if (c === CR && text.charCodeAt(i + 1) === LF) i++;
      flush();
      line++;
    } else if (c === 0) nulOnLine = true;
    else if (invalid && c >= 0xdc80 && c <= 0xdcff && !isHighSurrogate(text.charCodeAt(i - 1))) badOnLine = true;
  }
  flush();
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** UTF-8 → string; each byte of an invalid sequence becomes U+DC80 + (byte − 0x80). */
function decodeUtf8Escaping(bytes: Uint8Array): string {
  const units: number[] = [];
  const chunks: string[] = [];
  const flushUnits = (): void => {
    chunks.push(String.fromCharCode(...units));
    units.length = 0;
  };
  const cont = (i: number, lo = 0x80, hi = 0xbf): boolean => {
    const b = bytes[i];
    return b !== undefined && b >= lo && b <= hi;
  };
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    let cp = -1;
    let len = 1;
    if (b < 0x80) cp = b;
    else if (b >= 0xc2 && b <= 0xdf && cont(i + 1)) {
      cp = ((b & 0x1f) << 6) | ((bytes[i + 1] as number) & 0x3f);
      len = 2;
    } else if (b >= 0xe0 && b <= 0xef) {
      const lo = b === 0xe0 ? 0xa0 : 0x80;
      const hi = b === 0xed ? 0x9f : 0xbf;
      if (cont(i + 1, lo, hi) && cont(i + 2)) {
        cp = ((b & 0x0f) << 12) | (((bytes[i + 1] as number) & 0x3f) << 6) | ((bytes[i + 2] as number) & 0x3f);
        len = 3;
      }
    } else if (b >= 0xf0 && b <= 0xf4) {
      const lo = b === 0xf0 ? 0x90 : 0x80;
      const hi = b === 0xf4 ? 0x8f : 0xbf;
      if (cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3)) {
        cp =
          ((b & 0x07) << 18) |
          (((bytes[i + 1] as number) & 0x3f) << 12) |
          (((bytes[i + 2] as number) & 0x3f) << 6) |
          ((bytes[i + 3] as number) & 0x3f);
        len = 4;
      }
    }
    if (cp < 0) units.push(0xdc00 + b);
    else if (cp < 0x10000) units.push(cp);
    else {
      const v = cp - 0x10000;
      units.push(0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff));
    }
    i += len;
    if (units.length >= 8192) flushUnits();
  }
  flushUnits();
  return chunks.join('');
}
