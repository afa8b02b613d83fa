/**
 * The http(s) URLs in any text: a seeds file, a CSV, a sitemap, an HTML page, JSON, a log, a spider's source
 * (docs/extension.md §Seeds from code). Pure and linear in the text; nothing in it is run or evaluated.
 *
 * The rules, in order:
 * - JSON (a text that starts with `{` or `[` and parses as JSON; `JSON.parse` only reads data): the URLs of its
 *   string values, so JSON's escapes (`\/`, `\u0026`) are read as JSON reads them.
 * - CSV (`format: 'csv'`): the fields of each record (RFC 4180 quoting), each read as text, so a comma ends a URL
 *   outside quotes.
 * - Text: a URL starts at `http://` or `https://` (any case) and runs over the characters a URL may hold. White
 *   space, quotes, backticks, `<`, `>`, `{`, `}`, `|`, `\` and `^` end it; so does a `,` or `;` right before
 *   another `http(s)://`. Trailing punctuation (`.,;:!?*'`) and unbalanced `)` or `]` are not part of it
 *   (a sentence, Markdown, CDATA). `&amp;` (and `&#38;`, `&#x26;`) is read as `&`, as in XML and HTML.
 * - A template is not a URL: one followed at once by `{` or `${`, or holding a `%` that is not a percent escape
 *   (`%s`, `%(page)d`), is left out (`f"https://a.example/{page}"`, `` `https://${host}/` ``).
 * - What remains must parse as an http(s) URL with a host (`parseSeedUrl`); the URLs are kept as written,
 *   without repeats, in the order they first appear.
 */
import { parseSeedUrl } from '../seeds';

export interface TextUrls {
  /** The URLs as written (entities decoded), first-seen order, without repeats. */
  urls: string[];
  /** URLs that repeated an earlier one. */
  repeats: number;
  /** Candidates left out: templates, and text after `http(s)://` that is not a URL with a host. */
  leftOut: number;
}

export interface TextUrlOptions {
  /** `csv`: read the text as CSV records (commas and tabs separate fields outside quotes). Default `text`. */
  format?: 'text' | 'csv';
}

/** Characters that never belong to a URL in running text (besides white space and control characters). */
const STOP = new Set(['"', "'", '`', '<', '>', '{', '}', '|', '\\', '^']);
/** Characters dropped from a URL's end: they end sentences and lists more often than URLs. */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', '*', "'"]);

const SCHEME = /https?:\/\//gi;

function isSpaceOrControl(code: number): boolean {
  // C0, space, DEL, C1, and the Unicode spaces and line separators.
  if (code <= 0x20 || (code >= 0x7f && code <= 0xa0)) return true;
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Collects URLs without repeats. */
class Collector {
  readonly urls: string[] = [];
  private readonly seen = new Set<string>();
  repeats = 0;
  leftOut = 0;

  add(url: string): void {
    if (this.seen.has(url)) {
      this.repeats++;
      return;
    }
    this.seen.add(url);
    this.urls.push(url);
  }

  result(): TextUrls {
    return { urls: this.urls, repeats: this.repeats, leftOut: this.leftOut };
  }
}

/** `%` not followed by two hex digits: a printf-style placeholder, not a percent escape. */
const LONE_PERCENT = /%(?![0-9a-f]{2})/i;
const AMP_ENTITY = /&(?:amp|#38|#x26);/gi;

/** Scans running text (or one CSV field) for URLs. */
function scanText(text: string, out: Collector): void {
  SCHEME.lastIndex = 0;
  // A scheme glued to a word ("git+https://…") is still read: it starts a real URL.
  for (let m = SCHEME.exec(text); m !== null; m = SCHEME.exec(text)) {
    const begin = m.index;
    let end = SCHEME.lastIndex;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (isSpaceOrControl(code) || STOP.has(text[end]!)) break;
      // "https://a/1,https://b/2": a separator right before another URL ends this one.
      if ((code === 0x2c || code === 0x3b) && /^https?:\/\//i.test(text.slice(end + 1, end + 9))) break;
      end++;
    }
    SCHEME.lastIndex = end;
    // A template: "https://a.example/{page}", "https://${host}/" (the `$` runs, the `{` stops).
    if (text[end] === '{') {
      out.leftOut++;
      continue;
    }
    const url = trimEnd(text.slice(begin, end)).replace(AMP_ENTITY, '&');
    if (LONE_PERCENT.test(url) || 'problem' in parseSeedUrl(url)) {
      out.leftOut++;
      continue;
    }
    out.add(url);
  }
}

/** Drops trailing punctuation and unbalanced closing brackets. */
function trimEnd(url: string): string {
  let end = url.length;
  for (;;) {
    const c = url[end - 1];
    if (c === undefined) break;
    if (TRAILING.has(c)) {
      end--;
      continue;
    }
    if (c === ')' || c === ']') {
      const open = c === ')' ? '(' : '[';
      const body = url.slice(0, end);
      if (count(body, c) > count(body, open)) {
        end--;
        continue;
      }
    }
    break;
  }
  return url.slice(0, end);
}

function count(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) n++;
  return n;
}

/** The string values of parsed JSON, depth first, without recursion (a deeply nested document is fine). */
function* jsonStrings(value: unknown): Generator<string> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') yield v;
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push(entries[i]![1]);
        stack.push(entries[i]![0]);
      }
    }
  }
}

function parseJson(text: string): { value: unknown } | undefined {
  const head = text.trimStart()[0];
  if (head !== '{' && head !== '[') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** The fields of CSV text (RFC 4180: quoted fields with `""`; commas, tabs and semicolons separate), one at a time. */
function* csvFields(text: string): Generator<string> {
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (text[i] === '"') {
      let field = '';
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          field += text.slice(i);
          i = n;
          break;
        }
        field += text.slice(i, q);
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      yield field;
      // Whatever follows the closing quote up to the separator is read as a field of its own.
    }
    let j = i;
    while (
      j < n &&
      text[j] !== ',' &&
      text[j] !== '\t' &&
      text[j] !== ';' &&
      text[j] !== '\n' &&
      text[j] !== '\r' &&
      text[j] !== '"'
    )
      j++;
    if (j > i) yield text.slice(i, j);
    i = text[j] === '"' ? j : j + 1;
  }
}

/** The http(s) URLs in `text` (see the module's comment for the rules). */
export function urlsInText(text: string, options: TextUrlOptions = {}): TextUrls {
  const out = new Collector();
  const json = parseJson(text);
  if (json !== undefined) {
    for (const s of jsonStrings(json.value)) scanText(s, out);
  } else if (options.format === 'csv') {
    for (const field of csvFields(text)) scanText(field, out);
  } else {
    scanText(text, out);
  }
  return out.result();
}
