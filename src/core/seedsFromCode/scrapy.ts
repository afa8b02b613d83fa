/**
 * Scrapy spiders read, never run (docs/extension.md §Seeds from code): a spider class's `start_urls` (a list or a
 * tuple as a class attribute), the URLs its `start_requests` (or Scrapy 2.13's `async def start`) passes to
 * `Request(...)` as literals, its `custom_settings`, a project's settings module and the module `scrapy.cfg` names.
 *
 * What counts as written:
 * - an entry is taken when it is a string literal (adjacent literals joined, escapes read as Python reads them)
 *   whose value starts with `http://` or `https://`; an f-string with a replacement field, a bytes string, a name,
 *   a call, `+`, `%` or a comprehension is an expression, counted as not read and never guessed at;
 * - in `start_requests`, a `Request(url)` / `Request(url=...)` (any `…Request`: `scrapy.Request`, `FormRequest`,
 *   `JsonRequest`, `SplashRequest`) whose URL is a literal; or the variable of an enclosing
 *   `for url in [literal list]:`, or of `for url in urls:` when `urls = [...]` is assigned once at the top of the
 *   method and used nowhere else, and `url` is not assigned again in the loop. A URL from `self.start_urls` is
 *   left to that attribute's own block.
 * - a setting is read when its value is one literal number (`2`, `0.5`, `1_000`); anything else is reported as
 *   not read, with its line. In a settings module the last assignment wins; one inside a block (`if`, `try`) is
 *   reported as conditional.
 */
import { pythonLogicalLines, type PyLogicalLine, type PyToken } from './pythonTokens';
import type { CodeUrl, NotReadReason, SettingReads, SkippedEntry, StartUrlsBlock } from './types';

/** The settings read from a spider or its project: the ones the planner's form has a place for. */
export const SCRAPY_SETTING_NAMES = [
  'DOWNLOAD_DELAY',
  'CONCURRENT_REQUESTS',
  'CONCURRENT_REQUESTS_PER_DOMAIN',
  'CLOSESPIDER_PAGECOUNT',
] as const;

/** A spider's `custom_settings`: what it sets, or (`notLiteral`) that it is not a literal dict. */
export interface CustomSettings {
  line: number;
  reads: SettingReads;
  notLiteral?: true;
}

export interface ScrapySpider {
  className: string;
  /** 1-based line of its `class` statement. */
  line: number;
  blocks: StartUrlsBlock[];
  customSettings?: CustomSettings;
}

// ---------------------------------------------------------------------------------------------
// Token helpers

function isOp(token: PyToken | undefined, text: string): boolean {
  return token !== undefined && token.kind === 'op' && token.text === text;
}

function isName(token: PyToken | undefined, text?: string): boolean {
  return token !== undefined && token.kind === 'name' && (text === undefined || token.text === text);
}

const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);

/** The index of the bracket closing the one at `open`, or -1 when it is not closed within `tokens`. */
function closing(tokens: readonly PyToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'op') continue;
    if (OPENERS.has(t.text)) depth++;
    else if (CLOSERS.has(t.text) && --depth === 0) return i;
  }
  return -1;
}

/** Splits `tokens[from, to)` at the commas outside brackets. Empty parts (a trailing comma) are dropped. */
function splitTopLevel(tokens: readonly PyToken[], from: number, to: number, separator = ','): PyToken[][] {
  const parts: PyToken[][] = [];
  let depth = 0;
  let part: PyToken[] = [];
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    if (t.kind === 'op') {
      if (OPENERS.has(t.text)) depth++;
      else if (CLOSERS.has(t.text)) depth = Math.max(0, depth - 1);
      else if (depth === 0 && t.text === separator) {
        if (part.length > 0) parts.push(part);
        part = [];
        continue;
      }
    }
    part.push(t);
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/** The index of the first `=` outside brackets (an assignment's), or -1. */
function assignmentIndex(tokens: readonly PyToken[]): number {
  let depth = 0;
  let found = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'op') continue;
    if (OPENERS.has(t.text)) depth++;
    else if (CLOSERS.has(t.text)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && t.text === '=') found = i;
  }
  return found;
}

/** `NAME = value` or `NAME: type = value` (the last `=` of `a = b = value`): the name and the value's tokens. */
function simpleAssignment(line: PyLogicalLine): { name: string; value: PyToken[]; valueStart: number } | undefined {
  const [first, second] = line.tokens;
  if (!isName(first) || !(isOp(second, '=') || isOp(second, ':'))) return undefined;
  const eq = assignmentIndex(line.tokens);
  if (eq < 0) return undefined;
  return { name: first!.text, value: line.tokens.slice(eq + 1), valueStart: eq + 1 };
}

/** A literal string's value: one or more adjacent literal str tokens joined. Undefined when it is not one. */
function literalString(tokens: readonly PyToken[]): string | undefined {
  if (tokens.length === 0) return undefined;
  let value = '';
  for (const t of tokens) {
    if (t.kind !== 'string' || typeof t.value !== 'string') return undefined;
    value += t.value;
  }
  return value;
}

/** One entry of a list of start URLs: a URL taken, or why not. */
function entryOf(tokens: readonly PyToken[]): { url: CodeUrl } | { skipped: SkippedEntry } {
  const line = tokens[0]!.line;
  if (tokens.some((t) => t.kind === 'bad')) return { skipped: { line, reason: 'unterminated' } };
  const value = literalString(tokens);
  if (value === undefined) return { skipped: { line, reason: 'not-literal' } };
  const url = value.trim();
  return /^https?:\/\//i.test(url) ? { url: { url, line } } : { skipped: { line, reason: 'not-http' } };
}

/**
 * A string cut by its line's end swallows the comma after it: what follows on later lines is read as entries
 * of their own, so one broken line (being typed) costs one entry, not the rest of the list.
 */
function splitAfterBroken(part: PyToken[]): PyToken[][] {
  const parts: PyToken[][] = [];
  let from = 0;
  for (let i = 0; i < part.length; i++) {
    if (part[i]!.kind === 'bad' && part[i + 1] !== undefined && part[i + 1]!.line > part[i]!.line) {
      parts.push(part.slice(from, i + 1));
      from = i + 1;
    }
  }
  parts.push(part.slice(from));
  return parts;
}

interface Entries {
  urls: CodeUrl[];
  skipped: SkippedEntry[];
}

/**
 * The entries of a value that should be a list or a tuple of URLs: `[…]`, `(…,)` or a bare `a, b`. A single
 * string is `not-a-list`; anything else (a name, a call, `[…] + more`, a comprehension) one `not-literal`.
 */
function sequenceEntries(value: readonly PyToken[], open: boolean): Entries {
  const out: Entries = { urls: [], skipped: [] };
  if (value.length === 0) return out;
  const line = value[0]!.line;
  const whole = (reason: SkippedEntry['reason']): Entries => {
    out.skipped.push({ line, reason });
    return out;
  };
  if (open) return whole('unterminated');
  const first = value[0]!;
  let parts: PyToken[][];
  if ((isOp(first, '[') || isOp(first, '(')) && closing(value, 0) === value.length - 1) {
    parts = splitTopLevel(value, 1, value.length - 1);
    // A comprehension is one expression, whatever it yields.
    if (parts.length === 1 && parts[0]!.some((t) => isName(t, 'for'))) return whole('not-literal');
    // `("https://a")` is a parenthesised string: a tuple needs a comma.
    if (isOp(first, '(') && parts.length === 1 && !isOp(value[value.length - 2], ','))
      return whole(literalString(parts[0]!) !== undefined ? 'not-a-list' : 'not-literal');
  } else {
    parts = splitTopLevel(value, 0, value.length);
    if (parts.length === 1 && !isOp(value[value.length - 1], ',')) {
      if (value.some((t) => t.kind === 'bad')) return whole('unterminated');
      return whole(literalString(value) !== undefined ? 'not-a-list' : 'not-literal');
    }
  }
  for (const part of parts.flatMap(splitAfterBroken)) {
    if (isOp(part[0], '*') || isOp(part[0], '**')) {
      out.skipped.push({ line: part[0]!.line, reason: 'not-literal' });
      continue;
    }
    const entry = entryOf(part);
    if ('url' in entry) out.urls.push(entry.url);
    else out.skipped.push(entry.skipped);
  }
  return out;
}

/** A setting's value: one literal number (finite), or why not. */
function settingValue(tokens: readonly PyToken[]): { value: number } | { notRead: NotReadReason } {
  if (
    tokens.length === 1 &&
    tokens[0]!.kind === 'number' &&
    typeof tokens[0]!.value === 'number' &&
    Number.isFinite(tokens[0]!.value)
  )
    return { value: tokens[0]!.value };
  return { notRead: 'expression' };
}

/** The settings a dict display `{ 'NAME': value, **spread }` sets, for the names asked; undefined when it is not one. */
function dictSettings(value: readonly PyToken[], names: ReadonlySet<string>): SettingReads | undefined {
  if (!isOp(value[0], '{') || closing(value, 0) !== value.length - 1) return undefined;
  const reads: SettingReads = {};
  const setAt = new Map<string, number>();
  let spread: { index: number; line: number } | undefined;
  splitTopLevel(value, 1, value.length - 1).forEach((part, index) => {
    if (isOp(part[0], '**')) {
      spread = { index, line: part[0]!.line };
      return;
    }
    const colon = part.findIndex((t) => isOp(t, ':'));
    if (colon < 0) return;
    const key = literalString(part.slice(0, colon));
    if (key === undefined || !names.has(key)) return;
    reads[key] = { name: key, line: part[0]!.line, ...settingValue(part.slice(colon + 1)) };
    setAt.set(key, index);
  });
  // A spread after a name's entry (or with none) may set it: that name is not known.
  if (spread !== undefined) {
    for (const name of names)
      if ((setAt.get(name) ?? -1) < spread.index) reads[name] = { name, line: spread.line, notRead: 'spread' };
  }
  return reads;
}

// ---------------------------------------------------------------------------------------------
// Scopes

type ScopeKind = 'class' | 'def' | 'block';

interface Scope {
  kind: ScopeKind;
  indent: number;
  /** The indentation of the scope's body (its first line's). */
  bodyIndent?: number;
  name?: string;
  /** The logical line of its header. */
  header: number;
}

/** A line that opens an indented block: it ends with `:` outside brackets. */
function opensBlock(line: PyLogicalLine): boolean {
  return line.openBrackets === 0 && isOp(line.tokens[line.tokens.length - 1], ':');
}

function scopeOf(line: PyLogicalLine, index: number): Scope {
  const [a, b, c] = line.tokens;
  if (isName(a, 'class') && isName(b)) return { kind: 'class', indent: line.indent, name: b!.text, header: index };
  if (isName(a, 'def') && isName(b)) return { kind: 'def', indent: line.indent, name: b!.text, header: index };
  if (isName(a, 'async') && isName(b, 'def') && isName(c))
    return { kind: 'def', indent: line.indent, name: c!.text, header: index };
  return { kind: 'block', indent: line.indent, header: index };
}

/**
 * Visits every logical line with the scopes that enclose it (outermost first), and whether it is a statement
 * directly in the innermost scope's body.
 */
function walk(
  lines: readonly PyLogicalLine[],
  visit: (line: PyLogicalLine, index: number, scopes: readonly Scope[]) => void,
): void {
  const scopes: Scope[] = [];
  lines.forEach((line, index) => {
    while (scopes.length > 0 && line.indent <= scopes[scopes.length - 1]!.indent) scopes.pop();
    const top = scopes[scopes.length - 1];
    if (top !== undefined && top.bodyIndent === undefined) top.bodyIndent = line.indent;
    visit(line, index, scopes);
    if (opensBlock(line)) scopes.push(scopeOf(line, index));
  });
}

/** The logical lines of the block opened at `header` (those indented deeper, up to the first that is not). */
function blockBody(lines: readonly PyLogicalLine[], header: number): { from: number; to: number } {
  const indent = lines[header]!.indent;
  let to = header + 1;
  while (to < lines.length && lines[to]!.indent > indent) to++;
  return { from: header + 1, to };
}

// ---------------------------------------------------------------------------------------------
// start_requests

/** A name that calls a Request: `Request`, `FormRequest`, `scrapy.Request`, `SplashRequest`… */
function isRequestName(token: PyToken | undefined): boolean {
  return token !== undefined && token.kind === 'name' && /^(?:[A-Z][A-Za-z0-9_]*)?Request$/.test(token.text);
}

/** The tokens of a call's URL argument (`Request(url, …)` or `Request(…, url=…)`), or undefined without one. */
function urlArgument(tokens: readonly PyToken[], open: number, close: number): PyToken[] | undefined {
  const args = splitTopLevel(tokens, open + 1, close);
  const first = args[0];
  if (
    first !== undefined &&
    !(isName(first[0]) && isOp(first[1], '=')) &&
    !isOp(first[0], '*') &&
    !isOp(first[0], '**')
  )
    return first;
  const keyword = args.find((a) => isName(a[0], 'url') && isOp(a[1], '='));
  return keyword?.slice(2);
}

/** `for TARGET in ITERABLE:`, when TARGET is one name. */
function forHeader(line: PyLogicalLine): { target: string; iterable: PyToken[] } | undefined {
  const t = line.tokens;
  const start = isName(t[0], 'async') ? 1 : 0;
  if (!isName(t[start], 'for') || !isName(t[start + 1]) || !isName(t[start + 2], 'in') || !opensBlock(line))
    return undefined;
  return { target: t[start + 1]!.text, iterable: t.slice(start + 3, t.length - 1) };
}

/** Whether `name` is bound again in the lines (`name =`, `name +=`, `for name`, `as name`, `name :=`). */
function rebinds(lines: readonly PyLogicalLine[], name: string): boolean {
  for (const line of lines) {
    const t = line.tokens;
    let depth = 0;
    for (let i = 0; i < t.length; i++) {
      if (t[i]!.kind === 'op' && OPENERS.has(t[i]!.text)) depth++;
      else if (t[i]!.kind === 'op' && CLOSERS.has(t[i]!.text)) depth = Math.max(0, depth - 1);
      if (!isName(t[i], name) || isOp(t[i - 1], '.')) continue;
      const next = t[i + 1];
      // `Request(url=url)`: inside brackets, `name=` is a keyword argument, not a binding.
      if (depth > 0 && isOp(next, '=')) continue;
      if (next?.kind === 'op' && /^(?:=|:=|[-+*/%@&|^]=|\*\*=|\/\/=|>>=|<<=)$/.test(next.text)) return true;
      if (isName(t[i - 1], 'for') || isName(t[i - 1], 'as')) return true;
    }
  }
  return false;
}

/** How often `name` appears as a name (not an attribute) in the lines. */
function occurrences(lines: readonly PyLogicalLine[], name: string): number {
  let n = 0;
  for (const line of lines)
    line.tokens.forEach((t, i) => (n += isName(t, name) && !isOp(line.tokens[i - 1], '.') ? 1 : 0));
  return n;
}

/** `self.start_urls` */
function isSelfStartUrls(tokens: readonly PyToken[]): boolean {
  return tokens.length === 3 && isName(tokens[0], 'self') && isOp(tokens[1], '.') && isName(tokens[2], 'start_urls');
}

/** The URLs a `start_requests` (or `start`) method passes to Requests as literals. */
function startRequestsEntries(lines: readonly PyLogicalLine[], header: number): Entries {
  const out: Entries = { urls: [], skipped: [] };
  const { from, to } = blockBody(lines, header);
  if (from >= to) return out;
  const body = lines.slice(from, to);
  const bodyIndent = body[0]!.indent;
  // Lists assigned once at the top of the method: `urls = [...]`.
  const lists = new Map<string, { entries: Entries; index: number }>();
  body.forEach((line, index) => {
    if (line.indent !== bodyIndent) return;
    const a = simpleAssignment(line);
    if (a === undefined || a.value.length === 0 || !(isOp(a.value[0], '[') || isOp(a.value[0], '('))) return;
    lists.set(a.name, { entries: sequenceEntries(a.value, line.openBrackets > 0), index });
  });
  const used = new Set<Entries>();
  const loops: Array<{ indent: number; target: string; index: number; iterable: PyToken[]; end: number }> = [];
  body.forEach((line, index) => {
    while (loops.length > 0 && line.indent <= loops[loops.length - 1]!.indent) loops.pop();
    const t = line.tokens;
    for (let i = 0; i < t.length; i++) {
      if (!isRequestName(t[i]) || !isOp(t[i + 1], '(')) continue;
      const close = closing(t, i + 1);
      const line0 = t[i]!.line;
      if (close < 0) {
        out.skipped.push({ line: line0, reason: 'unterminated' });
        continue;
      }
      const arg = urlArgument(t, i + 1, close);
      i = close;
      if (arg === undefined || arg.length === 0) continue;
      if (literalString(arg) !== undefined || arg.some((x) => x.kind === 'bad')) {
        const entry = entryOf(arg);
        if ('url' in entry) out.urls.push(entry.url);
        else out.skipped.push(entry.skipped);
        continue;
      }
      const name = arg.length === 1 && isName(arg[0]) ? arg[0]!.text : undefined;
      // `[Request(u) for u in self.start_urls]`: that attribute has its own block.
      if (
        name !== undefined &&
        t.some(
          (x, k) =>
            isName(x, 'for') &&
            isName(t[k + 1], name) &&
            isName(t[k + 2], 'in') &&
            isSelfStartUrls(t.slice(k + 3, k + 6)),
        )
      )
        continue;
      const loop = name === undefined ? undefined : [...loops].reverse().find((l) => l.target === name);
      if (loop === undefined) {
        out.skipped.push({ line: arg[0]!.line, reason: 'not-literal' });
        continue;
      }
      if (isSelfStartUrls(loop.iterable)) continue;
      let entries: Entries | undefined;
      if (!rebinds(body.slice(loop.index + 1, loop.end), loop.target)) {
        if (isOp(loop.iterable[0], '[') || isOp(loop.iterable[0], '(')) entries = sequenceEntries(loop.iterable, false);
        else if (loop.iterable.length === 1 && isName(loop.iterable[0])) {
          const list = lists.get(loop.iterable[0]!.text);
          // Assigned once, used only by this loop: its literal entries are what the loop yields.
          if (list !== undefined && list.index < loop.index && occurrences(body, loop.iterable[0]!.text) === 2)
            entries = list.entries;
        }
      }
      if (entries === undefined) {
        out.skipped.push({ line: arg[0]!.line, reason: 'not-literal' });
        continue;
      }
      if (used.has(entries)) continue;
      used.add(entries);
      out.urls.push(...entries.urls);
      out.skipped.push(...entries.skipped);
    }
    const loop = forHeader(line);
    if (loop !== undefined) {
      const end = blockBody(body, index).to;
      loops.push({ indent: line.indent, target: loop.target, index, iterable: loop.iterable, end });
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Spiders

/** The spider classes of a Python file: every class with a `start_urls` attribute, a `start_requests` or `start` method, or `custom_settings`. */
export function scrapySpiders(text: string): ScrapySpider[] {
  const lines = pythonLogicalLines(text);
  const names = new Set<string>(SCRAPY_SETTING_NAMES);
  const byHeader = new Map<number, ScrapySpider>();
  const order: ScrapySpider[] = [];
  walk(lines, (line, index, scopes) => {
    const top = scopes[scopes.length - 1];
    if (top === undefined || top.kind !== 'class' || line.indent !== top.bodyIndent) return;
    let spider = byHeader.get(top.header);
    const get = (): ScrapySpider => {
      if (spider === undefined) {
        spider = { className: top.name!, line: lines[top.header]!.line, blocks: [] };
        byHeader.set(top.header, spider);
        order.push(spider);
      }
      return spider;
    };
    const assignment = simpleAssignment(line);
    if (assignment?.name === 'start_urls') {
      const entries = sequenceEntries(assignment.value, line.openBrackets > 0);
      const first = line.tokens[0]!;
      const block: StartUrlsBlock = {
        framework: 'scrapy',
        kind: 'start_urls',
        name: 'start_urls',
        line: first.line,
        column: first.column,
        owner: top.name!,
        ...entries,
      };
      const s = get();
      // Assigned again: the last assignment is the attribute.
      s.blocks = s.blocks.filter((b) => b.kind !== 'start_urls');
      s.blocks.push(block);
      return;
    }
    if (assignment?.name === 'custom_settings') {
      const reads = dictSettings(assignment.value, names);
      const first = line.tokens[0]!;
      get().customSettings =
        reads === undefined ? { line: first.line, reads: {}, notLiteral: true } : { line: first.line, reads };
      return;
    }
    if (opensBlock(line)) {
      const scope = scopeOf(line, index);
      if (
        scope.kind === 'def' &&
        (scope.name === 'start_requests' || (scope.name === 'start' && isName(line.tokens[0], 'async')))
      ) {
        const entries = startRequestsEntries(lines, index);
        if (entries.urls.length === 0 && entries.skipped.length === 0) return;
        const nameToken = line.tokens.find((t) => isName(t, scope.name))!;
        get().blocks.push({
          framework: 'scrapy',
          kind: 'start_requests',
          name: scope.name!,
          line: nameToken.line,
          column: nameToken.column,
          owner: top.name!,
          ...entries,
        });
      }
    }
  });
  for (const spider of order) spider.blocks.sort((a, b) => a.line - b.line);
  return order;
}

// ---------------------------------------------------------------------------------------------
// Project settings

/**
 * The settings a Scrapy settings module sets (`settings.py`): for each name asked, the last assignment in the
 * file, at module level. One inside a block (`if`, `try`, `with`) is `conditional`; assignments inside a function
 * or a class are not settings.
 */
export function scrapySettingsModule(text: string): SettingReads {
  const names = new Set<string>(SCRAPY_SETTING_NAMES);
  const reads: SettingReads = {};
  walk(pythonLogicalLines(text), (line, _index, scopes) => {
    if (scopes.some((s) => s.kind !== 'block')) return;
    const a = simpleAssignment(line);
    if (a === undefined || !names.has(a.name)) return;
    const at = line.tokens[0]!.line;
    if (scopes.length > 0) reads[a.name] = { name: a.name, line: at, notRead: 'conditional' };
    else reads[a.name] = { name: a.name, line: at, ...settingValue(a.value) };
  });
  return reads;
}
