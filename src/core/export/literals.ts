/**
 * Text from the plan (hosts, URLs, the User-Agent header) written into generated Python, JavaScript, XML and
 * YAML as inert data. Every function here returns a literal that reads back as exactly the given string and
 * cannot end early: quotes, backslashes, line breaks, `${`, `</`, `-->` and the like are escaped, and the
 * string literals are pure ASCII, so no encoding or bidi control can change how the code reads.
 */
import { ExportInputError } from './types';

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** A Python 3 string literal, ASCII only: `"a\"b\\c\n\u00e9"`. Lone surrogates become `\udXXX` escapes. */
export function pyString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + '"';
}

/**
 * A JavaScript (and JSON) string literal, ASCII only: JSON.stringify's escapes plus `\uXXXX` for every
 * code unit outside printable ASCII. Double-quoted, so `${…}` and backticks are plain characters in it.
 */
export function jsString(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}

/** A JSON document, ASCII only (the same escapes as {@link jsString}), two-space indented. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[^\x20-\x7e\n]/g, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}

/**
 * A YAML double-quoted scalar, ASCII only. JSON's string escapes are YAML's too (YAML 1.1 and 1.2), so a
 * {@link jsString} is one; a lone surrogate cannot be represented in YAML and is refused.
 */
export function yamlString(text: string): string {
  if (/[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))) {
    throw new ExportInputError(`${jsString(text)} has a lone surrogate, which YAML cannot hold`);
  }
  return jsString(text);
}

/** Characters XML 1.0 cannot hold at all, not even as a character reference. */
const XML_FORBIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** XML character data or attribute text: `& < > " '` as entities, everything outside ASCII as `&#x…;`. */
export function xmlText(text: string): string {
  if (XML_FORBIDDEN.test(text)) throw new ExportInputError(`${jsString(text)} has a character XML 1.0 cannot hold`);
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else out += `&#x${cp.toString(16)};`;
  }
  return out;
}

/** Control, format (bidi, zero-width) and line/paragraph separator characters: never raw in a comment. */
const COMMENT_UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

export type CommentStyle = 'python' | 'js' | 'yaml' | 'xml' | 'text';

/**
 * One line of a comment: characters that could end the comment line or reorder how the code reads (line
 * breaks, NEL, U+2028/9, bidi controls) become visible `\u{…}` text; in XML, `--` (which may not occur in a
 * comment) becomes `-\u{2d}`. Comments are for people; the exported code never reads them.
 */
export function commentLine(text: string, style: CommentStyle): string {
  let safe = text.replace(COMMENT_UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  if (style === 'xml') safe = safe.replace(/--/g, '-\\u{2d}').replace(/-$/, '\\u{2d}');
  return safe;
}

/** Lines as a comment block in the given style (`#`, `//`, or inside one `<!-- … -->`). */
export function commentBlock(lines: readonly string[], style: CommentStyle): string {
  const safe = lines.map((l) => commentLine(l, style));
  switch (style) {
    case 'python':
    case 'yaml':
      return safe.map((l) => (l === '' ? '#' : `# ${l}`)).join('\n') + '\n';
    case 'js':
      return safe.map((l) => (l === '' ? '//' : `// ${l}`)).join('\n') + '\n';
    case 'xml':
      return `<!--\n${safe.map((l) => (l === '' ? '' : `  ${l}`)).join('\n')}\n-->\n`;
    case 'text':
      return safe.join('\n') + '\n';
  }
}
