/**
 * A Python tokenizer for reading spiders (docs/extension.md §Seeds from code): names, numbers, strings, operators
 * and brackets, grouped into logical lines with their indentation, as Python's own tokenizer groups them
 * (comments and blank lines dropped, newlines inside brackets and after `\` joined, `;` splitting statements).
 *
 * Strings are read to their end by the language's rules, so a quote or a `#` inside one never confuses what
 * follows: prefixes (`r`, `b`, `u`, `f`, `t` and pairs), triple quotes, escapes, and f-strings with replacement
 * fields, nested quotes and format specs (PEP 701). A string's value is known only when it is a literal `str`:
 * an f-string with a replacement field, a bytes or a template string has none. Unterminated strings are
 * `bad` tokens that end at the line's end (or, triple-quoted, at the text's end).
 *
 * Pure and linear in the text, without recursion: any nesting depth is a counter or an array. Nothing is run.
 */
import { afterLineBreak, isLineBreak, LineCursor, operatorReader, type SourceToken } from './lines';

export type PyTokenKind = 'name' | 'number' | 'string' | 'op' | 'bad';

export type PyToken = SourceToken<PyTokenKind>;

export interface PyLogicalLine {
  /** The indentation of its first physical line, in columns (a tab to the next multiple of 8). */
  indent: number;
  /** 1-based line of its first token. */
  line: number;
  tokens: PyToken[];
  /** Its bracket depth at its end: more than 0 when a bracket was left open (the text ended). */
  openBrackets: number;
}

const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '!=',
  '%=',
  '&=',
  '**',
  '*=',
  '+=',
  '-=',
  '->',
  '//',
  '/=',
  ':=',
  '<<',
  '<=',
  '==',
  '>=',
  '>>',
  '@=',
  '^=',
  '|=',
  '!',
  '%',
  '&',
  '(',
  ')',
  '*',
  '+',
  ',',
  '-',
  '.',
  '/',
  ':',
  ';',
  '<',
  '=',
  '>',
  '@',
  '[',
  ']',
  '^',
  '{',
  '|',
  '}',
  '~',
];
const operatorAt = operatorReader(OPERATORS);
const NAME = /[\p{ID_Start}_][\p{ID_Continue}]*/uy;
const NUMBER =
  /(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?)[jJ]?/y;
const STRING_PREFIX = /^(?:[rRbBuUfFtT]|[rR][bBfFtT]|[bBfFtT][rR])$/;

/** A string being read: the outer one, or one nested in an f-string's replacement field. */
interface StrFrame {
  kind: 'str';
  quote: string;
  triple: boolean;
  raw: boolean;
  /** An f- or t-string: `{` opens a replacement field. */
  fields: boolean;
}
/** An f-string's replacement field: an expression, with its own bracket depth (it may span lines and hold comments). */
interface FieldFrame {
  kind: 'field';
  depth: number;
}
/** A replacement field's format spec (after `:`): text with nested fields, ended by `}`. */
interface SpecFrame {
  kind: 'spec';
}
type Frame = StrFrame | FieldFrame | SpecFrame;

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/**
 * Reads one escape of a non-raw str at `i` (the backslash). Returns the characters it stands for (null: not
 * readable here, `\N{…}`) and where it ends.
 */
function pythonEscape(text: string, i: number): { value: string | null; end: number } {
  const c = text[i + 1];
  if (c === undefined) return { value: '\\', end: i + 1 };
  if (isLineBreak(text, i + 1)) return { value: '', end: afterLineBreak(text, i + 1) };
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) return { value: simple, end: i + 2 };
  const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4));
  if (octal) return { value: String.fromCharCode(parseInt(octal[0], 8)), end: i + 1 + octal[0].length };
  const hexLength = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : 0;
  if (hexLength > 0) {
    const hex = text.slice(i + 2, i + 2 + hexLength);
    if (hex.length === hexLength && /^[0-9a-fA-F]+$/.test(hex)) {
      const code = parseInt(hex, 16);
      if (code <= 0x10ffff) return { value: String.fromCodePoint(code), end: i + 2 + hexLength };
    }
    return { value: null, end: i + 2 };
  }
  if (c === 'N' && text[i + 2] === '{') {
    const close = text.indexOf('}', i + 3);
    return { value: null, end: close < 0 ? i + 3 : close + 1 };
  }
  // An unknown escape keeps its backslash, as Python does.
  return { value: `\\${c}`, end: i + 2 };
}

/** Whether `text[i]` can continue an identifier (so a quote after it is not a string prefix's). */
function isNameChar(text: string, i: number): boolean {
  return i >= 0 && /[\p{ID_Continue}]/u.test(text[i]!);
}

/**
 * Reads a string whose opening quote is at `quoteAt`, with `prefix` (its letters, possibly ''). Returns where it
 * ends, its value when it is a literal str, and whether it was terminated.
 */
function readString(
  text: string,
  quoteAt: number,
  prefix: string,
): { end: number; value: string | null; terminated: boolean } {
  const p = prefix.toLowerCase();
  const quote = text[quoteAt]!;
  const triple = text.startsWith(quote.repeat(3), quoteAt);
  const outer: StrFrame = {
    kind: 'str',
    quote,
    triple,
    raw: p.includes('r'),
    fields: p.includes('f') || p.includes('t'),
  };
  // A bytes or a template string never has a str value; an f-string has one only without replacement fields.
  let readable = !p.includes('b') && !p.includes('t');
  let value = '';
  const stack: Frame[] = [outer];
  let i = quoteAt + (triple ? 3 : 1);
  const n = text.length;
  while (stack.length > 0) {
    if (i >= n) return { end: n, value: null, terminated: false };
    const top = stack[stack.length - 1]!;
    const c = text[i]!;
    const atOuter = stack.length === 1;
    if (top.kind === 'field') {
      if (c === '"' || c === "'") {
        // A string inside the expression (PEP 701 allows the same quote): its prefix is the letters before it.
        let s = i;
        while (s > 0 && /[rRbBuUfFtT]/.test(text[s - 1]!) && i - s < 2) s--;
        const nested =
          s < i && !isNameChar(text, s - 1) && STRING_PREFIX.test(text.slice(s, i))
            ? text.slice(s, i).toLowerCase()
            : '';
        const tripleNested = text.startsWith(c.repeat(3), i);
        stack.push({
          kind: 'str',
          quote: c,
          triple: tripleNested,
          raw: nested.includes('r'),
          fields: nested.includes('f') || nested.includes('t'),
        });
        i += tripleNested ? 3 : 1;
      } else if (c === '(' || c === '[' || c === '{') {
        top.depth++;
        i++;
      } else if (c === ')' || c === ']') {
        top.depth = Math.max(0, top.depth - 1);
        i++;
      } else if (c === '}') {
        if (top.depth === 0) stack.pop();
        else top.depth--;
        i++;
      } else if (c === ':' && top.depth === 0) {
        stack.push({ kind: 'spec' });
        i++;
      } else if (c === '#') {
        // A comment (PEP 701: to the line's end, closing braces and quotes included); the field goes on below.
        while (i < n && !isLineBreak(text, i)) i++;
      } else {
        i++;
      }
      continue;
    }
    // In a string's text, or a format spec's (which belongs to the nearest string below it).
    let str: StrFrame | undefined;
    for (let k = stack.length - 1; k >= 0 && str === undefined; k--)
      if (stack[k]!.kind === 'str') str = stack[k] as StrFrame;
    if (isLineBreak(text, i) && !str!.triple) return { end: i, value: null, terminated: false };
    if (c === '\\') {
      if (str!.raw) {
        // In a raw string a backslash stays, and the character after it cannot end the string.
        const next = isLineBreak(text, i + 1) ? afterLineBreak(text, i + 1) : Math.min(n, i + 2);
        if (atOuter) value += text.slice(i, next);
        i = next;
      } else {
        const escape = pythonEscape(text, i);
        if (atOuter) {
          if (escape.value === null) readable = false;
          else value += escape.value;
        }
        i = escape.end;
      }
      continue;
    }
    if (c === str!.quote && (!str!.triple || text.startsWith(c.repeat(3), i))) {
      // The string ends (in a format spec too: the spec and its field end with it, as the string is malformed).
      while (stack.length > 0 && stack.pop() !== str);
      i += str!.triple ? 3 : 1;
      continue;
    }
    if (top.kind === 'str' && top.fields && (c === '{' || c === '}')) {
      if (text[i + 1] === c) {
        if (atOuter) value += c;
        i += 2;
      } else {
        if (c === '{') {
          stack.push({ kind: 'field', depth: 0 });
          if (atOuter) readable = false;
        }
        i++;
      }
      continue;
    }
    if (top.kind === 'spec') {
      if (c === '{') stack.push({ kind: 'field', depth: 0 });
      else if (c === '}') {
        stack.pop();
        stack.pop();
      }
      i++;
      continue;
    }
    if (atOuter) value += c;
    i++;
  }
  return { end: i, value: readable ? value : null, terminated: true };
}

/** The logical lines of Python source `text` (see the module's comment). */
export function pythonLogicalLines(text: string): PyLogicalLine[] {
  const lines: PyLogicalLine[] = [];
  const cursor = new LineCursor(text);
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let depth = 0;
  let tokens: PyToken[] = [];
  let indent = 0;
  let atLineStart = true;
  const endLine = (): void => {
    if (tokens.length > 0) lines.push({ indent, line: tokens[0]!.line, tokens, openBrackets: depth });
    tokens = [];
  };
  const push = (
    kind: PyTokenKind,
    start: number,
    end: number,
    textOf: string,
    value?: string | number | null,
  ): void => {
    tokens.push(cursor.token(kind, start, end, textOf, value));
  };
  while (i < n) {
    if (atLineStart) {
      atLineStart = false;
      if (depth === 0 && tokens.length === 0) {
        let col = 0;
        while (i < n) {
          const c = text[i];
          if (c === ' ') col++;
          else if (c === '\t') col = Math.floor(col / 8) * 8 + 8;
          else if (c === '\f') col = 0;
          else break;
          i++;
        }
        indent = col;
        continue;
      }
    }
    const c = text[i]!;
    if (isLineBreak(text, i)) {
      i = afterLineBreak(text, i);
      if (depth === 0) endLine();
      atLineStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\f') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && !isLineBreak(text, i)) i++;
      continue;
    }
    if (c === '\\' && isLineBreak(text, i + 1)) {
      // An explicit line joining: the next physical line continues this logical line.
      i = afterLineBreak(text, i + 1);
      continue;
    }
    if (c === '"' || c === "'") {
      const s = readString(text, i, '');
      if (s.terminated) push('string', i, s.end, '', s.value);
      else push('bad', i, s.end, 'unterminated string', null);
      i = s.end;
      continue;
    }
    NAME.lastIndex = i;
    const name = NAME.exec(text);
    if (name !== null) {
      const word = name[0];
      const after = i + word.length;
      if ((text[after] === '"' || text[after] === "'") && STRING_PREFIX.test(word)) {
        const s = readString(text, after, word);
        if (s.terminated) push('string', i, s.end, '', s.value);
        else push('bad', i, s.end, 'unterminated string', null);
        i = s.end;
        continue;
      }
      push('name', i, after, word);
      i = after;
      continue;
    }
    if (
      (c >= '0' && c <= '9') ||
      (c === '.' && text[i + 1] !== undefined && text[i + 1]! >= '0' && text[i + 1]! <= '9')
    ) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text)!;
      const written = m[0];
      const value = /[jJ]$/.test(written) ? Number.NaN : Number(written.replace(/_/g, ''));
      push('number', i, i + written.length, written, value);
      i += written.length;
      continue;
    }
    const op = operatorAt(text, i);
    if (op !== undefined) {
      if (op === '(' || op === '[' || op === '{') depth++;
      else if (op === ')' || op === ']' || op === '}') depth = Math.max(0, depth - 1);
      if (op === ';' && depth === 0) {
        // Statements on one line: each a logical line of its own, at the same indentation.
        endLine();
        i++;
        continue;
      }
      push('op', i, i + op.length, op);
      i += op.length;
      continue;
    }
    // Anything else ($, ?, a stray character): an operator of its own, so nothing is lost.
    push('op', i, i + 1, c);
    i++;
  }
  endLine();
  return lines;
}
