/**
 * Crawlee scripts (JavaScript and TypeScript) read, never run (docs/extension.md §Seeds from code): the arrays given
 * to `crawler.run([...])` and `crawler.addRequests([...])`, and the crawler's options (`new CheerioCrawler({...})`).
 *
 * What counts as written:
 * - a call `.run(…)` or `.addRequests(…)` on a receiver named like `crawler` (`crawler`, `this.crawler`,
 *   `cheerioCrawler`), or on anything in a file that imports `crawlee` or `@crawlee/…`;
 * - its first argument: an array literal, or the name of an array bound once with `const` in the file and never
 *   changed there (no `push`, `splice`, index assignment…);
 * - an entry is taken when it is a string literal, a template literal without substitutions, or an object
 *   literal whose `url` property is one of those (`{ url: '…', label: 'DETAIL' }`), and its value starts with
 *   `http://` or `https://`; anything else (a template with `${}`, a name, a call, a spread, `{ url }`) is an
 *   expression, counted as not read;
 * - an option is read when its value is one literal number; `...spread` after it makes it unknown.
 */
import { jsTokens, type JsToken } from './jsTokens';
import type { CodeUrl, NotReadReason, SettingReads, SkippedEntry, StartUrlsBlock } from './types';

/** The crawler options read: the ones the planner's form has a place for. */
export const CRAWLEE_OPTION_NAMES = [
  'sameDomainDelaySecs',
  'maxConcurrency',
  'maxRequestsPerMinute',
  'maxRequestsPerCrawl',
] as const;

/** A `new …Crawler(...)` in the script, with what its options object sets. */
export interface CrawleeCrawler {
  /** `CheerioCrawler`, `PlaywrightCrawler`… */
  className: string;
  /** The variable it is assigned to (`const crawler = new …`), when there is one. */
  variable?: string;
  /** 1-based line of `new`. */
  line: number;
  options: SettingReads;
  /** Its options are not an object literal (a variable, a call): none is read. */
  optionsNotLiteral?: true;
}

export interface CrawleeScript {
  /** The file imports `crawlee` or `@crawlee/…` (`import … from`, `require()`, `import()`). */
  importsCrawlee: boolean;
  blocks: StartUrlsBlock[];
  crawlers: CrawleeCrawler[];
}

const CRAWLEE_MODULE = /^(?:crawlee|@crawlee\/[\w.-]+)$/;
const ARRAY_MUTATORS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'length',
]);
const ASSIGNMENT = /^(?:=|[-+*/%&|^]=|\*\*=|<<=|>>=|>>>=|&&=|\|\|=|\?\?=)$/;

function isPunct(token: JsToken | undefined, text: string): boolean {
  return token !== undefined && token.kind === 'punct' && token.text === text;
}

function isName(token: JsToken | undefined, text?: string): boolean {
  return token !== undefined && token.kind === 'name' && (text === undefined || token.text === text);
}

/** For every opening bracket (`(`, `[`, `{`, a template's `${`), the index of its closing one (-1: none). */
function matchBrackets(tokens: readonly JsToken[]): Int32Array {
  const match = new Int32Array(tokens.length).fill(-1);
  const stack: number[] = [];
  tokens.forEach((t, i) => {
    const opens =
      (t.kind === 'punct' && (t.text === '(' || t.text === '[' || t.text === '{')) || t.kind === 'templateHead';
    const closes =
      (t.kind === 'punct' && (t.text === ')' || t.text === ']' || t.text === '}')) || t.kind === 'templateTail';
    if (t.kind === 'templateMiddle') {
      const open = stack.pop();
      if (open !== undefined) match[open] = i;
      stack.push(i);
    } else if (opens) stack.push(i);
    else if (closes) {
      const open = stack.pop();
      if (open !== undefined) match[open] = i;
    }
  });
  return match;
}

class Reader {
  readonly tokens: JsToken[];
  readonly match: Int32Array;

  constructor(text: string) {
    this.tokens = jsTokens(text);
    this.match = matchBrackets(this.tokens);
  }

  /** Splits `tokens(from, to)` at the commas outside brackets; holes and a trailing comma give nothing. */
  split(from: number, to: number): Array<[number, number]> {
    const parts: Array<[number, number]> = [];
    let start = from;
    for (let i = from; i < to; i++) {
      const close = this.match[i]!;
      if (close > i) {
        i = Math.min(close, to);
        continue;
      }
      if (isPunct(this.tokens[i], ',')) {
        if (i > start) parts.push([start, i]);
        start = i + 1;
      }
    }
    if (to > start) parts.push([start, to]);
    return parts;
  }

  /** A literal string: one string token or one substitution-free template with a readable value. */
  literal(from: number, to: number): string | undefined {
    if (to - from !== 1) return undefined;
    const t = this.tokens[from]!;
    return (t.kind === 'string' || t.kind === 'template') && typeof t.value === 'string' ? t.value : undefined;
  }

  /** The properties of an object literal `{ … }` at `open`: key (undefined for a spread or a computed key), value range. */
  properties(
    open: number,
  ): Array<{ key: string | undefined; spread: boolean; line: number; value?: [number, number] }> {
    const close = this.match[open]!;
    return this.split(open + 1, close).map(([from, to]) => {
      const first = this.tokens[from]!;
      if (isPunct(first, '...')) return { key: undefined, spread: true, line: first.line };
      const key =
        first.kind === 'name'
          ? first.text
          : first.kind === 'string' && typeof first.value === 'string'
            ? first.value
            : undefined;
      if (key === undefined) return { key: undefined, spread: false, line: first.line };
      if (to - from === 1) return { key, spread: false, line: first.line };
      if (!isPunct(this.tokens[from + 1], ':')) return { key: undefined, spread: false, line: first.line };
      return { key, spread: false, line: first.line, value: [from + 2, to] };
    });
  }

  /** One entry of an array of requests: a URL taken, or why not. */
  entry(from: number, to: number): { url: CodeUrl } | { skipped: SkippedEntry } {
    const first = this.tokens[from]!;
    const line = first.line;
    if (this.tokens.slice(from, to).some((t) => t.kind === 'bad')) return { skipped: { line, reason: 'unterminated' } };
    let value = this.literal(from, to);
    if (value === undefined && isPunct(first, '{') && this.match[from] === to - 1) {
      const props = this.properties(from);
      const at = props.map((p) => p.key).lastIndexOf('url');
      const url = props[at];
      // A spread after `url` may replace it.
      if (url?.value !== undefined && !props.slice(at + 1).some((p) => p.spread))
        value = this.literal(url.value[0], url.value[1]);
    }
    if (value === undefined) return { skipped: { line, reason: 'not-literal' } };
    const url = value.trim();
    return /^https?:\/\//i.test(url) ? { url: { url, line } } : { skipped: { line, reason: 'not-http' } };
  }

  /**
   * A string cut by its line's end swallows the comma after it: what follows on later lines is read as entries
   * of their own, so one broken line (being typed) costs one entry, not the rest of the array.
   */
  splitAfterBroken(from: number, to: number): Array<[number, number]> {
    const parts: Array<[number, number]> = [];
    let start = from;
    for (let i = from; i + 1 < to; i++) {
      if (this.tokens[i]!.kind === 'bad' && this.tokens[i + 1]!.line > this.tokens[i]!.line) {
        parts.push([start, i + 1]);
        start = i + 1;
      }
    }
    parts.push([start, to]);
    return parts;
  }

  /** The entries of the array literal at `open`. */
  arrayEntries(open: number): { urls: CodeUrl[]; skipped: SkippedEntry[] } {
    const out = { urls: [] as CodeUrl[], skipped: [] as SkippedEntry[] };
    const close = this.match[open]!;
    if (close < 0) {
      out.skipped.push({ line: this.tokens[open]!.line, reason: 'unterminated' });
      return out;
    }
    for (const [from, to] of this.split(open + 1, close).flatMap(([a, b]) => this.splitAfterBroken(a, b))) {
      if (isPunct(this.tokens[from], '...')) {
        out.skipped.push({ line: this.tokens[from]!.line, reason: 'not-literal' });
        continue;
      }
      const e = this.entry(from, to);
      if ('url' in e) out.urls.push(e.url);
      else out.skipped.push(e.skipped);
    }
    return out;
  }

  /** A setting's value: one literal number, or why not. */
  settingValue(range: [number, number] | undefined): { value: number } | { notRead: NotReadReason } {
    if (range === undefined || range[1] - range[0] !== 1) return { notRead: 'expression' };
    const t = this.tokens[range[0]]!;
    return t.kind === 'number' && typeof t.value === 'number' && Number.isFinite(t.value)
      ? { value: t.value }
      : { notRead: 'expression' };
  }
}

/** The names bound to an array literal by one `const NAME = [` (with an optional type) and never changed in the file. */
function constArrays(r: Reader): Map<string, number> {
  const t = r.tokens;
  const declared = new Map<string, number>();
  /** name → the index of its `[` and of the declared name. */
  const bindings = new Map<string, { open: number; at: number }>();
  for (let i = 0; i < t.length; i++) {
    if (
      !(
        isName(t[i], 'const') ||
        isName(t[i], 'let') ||
        isName(t[i], 'var') ||
        isName(t[i], 'function') ||
        isName(t[i], 'class')
      ) ||
      !isName(t[i + 1])
    )
      continue;
    const name = t[i + 1]!.text;
    declared.set(name, (declared.get(name) ?? 0) + 1);
    if (!isName(t[i], 'const')) continue;
    let j = i + 2;
    if (isPunct(t[j], ':')) {
      // A type annotation: up to the `=` outside brackets.
      while (j < t.length && !isPunct(t[j], '=') && !isPunct(t[j], ';')) j = r.match[j]! > j ? r.match[j]! + 1 : j + 1;
    }
    if (isPunct(t[j], '=') && isPunct(t[j + 1], '[')) bindings.set(name, { open: j + 1, at: i + 1 });
  }
  for (const [name, { at }] of [...bindings]) {
    if (declared.get(name) !== 1) {
      bindings.delete(name);
      continue;
    }
    for (let i = 0; i < t.length; i++) {
      if (!isName(t[i], name) || isPunct(t[i - 1], '.') || isPunct(t[i - 1], '?.') || i === at) continue;
      const next = t[i + 1];
      const changed =
        (isPunct(next, '.') && ARRAY_MUTATORS.has(t[i + 2]?.text ?? '')) ||
        (isPunct(next, '[') && r.match[i + 1]! > 0 && ASSIGNMENT.test(t[r.match[i + 1]! + 1]?.text ?? '')) ||
        (next?.kind === 'punct' && (ASSIGNMENT.test(next.text) || next.text === '++' || next.text === '--')) ||
        isPunct(t[i - 1], '++') ||
        isPunct(t[i - 1], '--');
      if (changed) {
        bindings.delete(name);
        break;
      }
    }
  }
  return new Map([...bindings].map(([name, b]) => [name, b.open]));
}

/** The crawlers a script constructs: `new …Crawler(options)` (type arguments allowed). */
function crawlers(r: Reader): CrawleeCrawler[] {
  const t = r.tokens;
  const found: CrawleeCrawler[] = [];
  const names = new Set<string>(CRAWLEE_OPTION_NAMES);
  for (let i = 0; i < t.length; i++) {
    if (!isName(t[i], 'new') || !isName(t[i + 1]) || !/Crawler$/.test(t[i + 1]!.text)) continue;
    let open = i + 2;
    if (isPunct(t[open], '<')) {
      // Type arguments (`new CheerioCrawler<Context>(…)`): to the matching `>`.
      let depth = 0;
      for (; open < t.length; open++) {
        const p = t[open]!;
        if (p.kind !== 'punct') continue;
        if (p.text === '<') depth++;
        else if (p.text === '>' || p.text === '>>' || p.text === '>>>') depth -= p.text.length;
        if (depth <= 0) break;
      }
      open++;
    }
    if (!isPunct(t[open], '(')) continue;
    const crawler: CrawleeCrawler = { className: t[i + 1]!.text, line: t[i]!.line, options: {} };
    if (isPunct(t[i - 1], '=') && isName(t[i - 2])) crawler.variable = t[i - 2]!.text;
    const arg = t[open + 1];
    if (isPunct(arg, '{') && r.match[open + 1]! > 0) {
      const props = r.properties(open + 1);
      props.forEach((p, index) => {
        if (p.key === undefined || !names.has(p.key)) return;
        const spreadAfter = props.slice(index + 1).find((q) => q.spread);
        crawler.options[p.key] = spreadAfter
          ? { name: p.key, line: spreadAfter.line, notRead: 'spread' }
          : { name: p.key, line: p.line, ...r.settingValue(p.value) };
      });
      // A spread with no entry of a name after it may set that name.
      const lastSpread = [...props].reverse().find((p) => p.spread);
      if (lastSpread !== undefined) {
        for (const name of names)
          if (crawler.options[name] === undefined)
            crawler.options[name] = { name, line: lastSpread.line, notRead: 'spread' };
      }
    } else if (arg !== undefined && !isPunct(arg, ')')) {
      crawler.optionsNotLiteral = true;
    }
    found.push(crawler);
  }
  return found;
}

/** Reads a Crawlee script (see the module's comment). */
export function crawleeScript(text: string): CrawleeScript {
  const r = new Reader(text);
  const t = r.tokens;
  const importsCrawlee = t.some(
    (x, i) =>
      x.kind === 'string' &&
      typeof x.value === 'string' &&
      CRAWLEE_MODULE.test(x.value) &&
      (isName(t[i - 1], 'from') ||
        isName(t[i - 1], 'import') ||
        (isPunct(t[i - 1], '(') && (isName(t[i - 2], 'require') || isName(t[i - 2], 'import')))),
  );
  const arrays = constArrays(r);
  const blocks: StartUrlsBlock[] = [];
  for (let i = 0; i < t.length; i++) {
    const method = t[i]!;
    if (
      !(isName(method, 'run') || isName(method, 'addRequests')) ||
      !(isPunct(t[i - 1], '.') || isPunct(t[i - 1], '?.')) ||
      !isPunct(t[i + 1], '(')
    )
      continue;
    const receiver = isName(t[i - 2]) ? t[i - 2]!.text : undefined;
    if (!importsCrawlee && !/crawler$/i.test(receiver ?? '')) continue;
    const arg = t[i + 2];
    let entries: { urls: CodeUrl[]; skipped: SkippedEntry[] };
    if (isPunct(arg, '[')) entries = r.arrayEntries(i + 2);
    else if (isName(arg) && (isPunct(t[i + 3], ')') || isPunct(t[i + 3], ',')) && arrays.has(arg!.text))
      entries = r.arrayEntries(arrays.get(arg!.text)!);
    else if (arg === undefined || isPunct(arg, ')')) continue;
    else
      entries = {
        urls: [],
        skipped: [{ line: arg.line, reason: arg.kind === 'bad' ? 'unterminated' : 'not-literal' }],
      };
    const kind = method.text === 'run' ? 'run' : 'addRequests';
    const block: StartUrlsBlock = {
      framework: 'crawlee',
      kind,
      name: `${receiver ?? 'crawler'}.${method.text}`,
      line: method.line,
      column: method.column,
      ...entries,
    };
    if (receiver !== undefined) block.owner = receiver;
    blocks.push(block);
  }
  return { importsCrawlee, blocks, crawlers: crawlers(r) };
}

/** The crawler a block's call is made on: the one assigned to its receiver, else the only one in the script. */
export function crawlerOf(script: CrawleeScript, block: StartUrlsBlock): CrawleeCrawler | undefined {
  const named = block.owner === undefined ? undefined : script.crawlers.find((c) => c.variable === block.owner);
  return named ?? (script.crawlers.length === 1 ? script.crawlers[0] : undefined);
}
