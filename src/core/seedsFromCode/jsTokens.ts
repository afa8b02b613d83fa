/**
 * A JavaScript and TypeScript tokenizer for reading Crawlee scripts (docs/extension.md §Seeds from code): names,
 * numbers, strings, template literals, regular expressions and punctuators, with comments dropped.
 *
 * Strings and templates are read to their end by the language's rules, so a quote, a bracket or `//` inside one
 * never confuses what follows. A template with substitutions is a `templateHead`, then the tokens of each `${…}`
 * (any depth: a stack, not recursion), `templateMiddle` between them and `templateTail` at the end; one without
 * is a `template` with its value. A `/` starts a regular expression where an expression may start (after an
 * operator, an opening bracket, a keyword such as `return`), else it divides. A string cut by a line break is a
 * `bad` token that ends there (JSX text such as `<p>Don't</p>` costs one line, not the file).
 *
 * Pure and linear in the text. Nothing is run.
 */
import { afterLineBreak, isLineBreak, LineCursor, operatorReader, type SourceToken } from './lines';

export type JsTokenKind =
  | 'name'
  | 'number'
  | 'string'
  | 'template'
  | 'templateHead'
  | 'templateMiddle'
  | 'templateTail'
  | 'regex'
  | 'punct'
  | 'bad';

export type JsToken = SourceToken<JsTokenKind>;

const PUNCTUATORS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '!',
  '~',
  '?',
  ':',
  '=',
  '.',
  '@',
  '#',
];
const punctuatorAt = operatorReader(PUNCTUATORS);

const NAME = /[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*/uy;
const NUMBER =
  /(?:0[xX][0-9a-fA-F](?:_?[0-9a-fA-F])*|0[oO][0-7](?:_?[0-7])*|0[bB][01](?:_?[01])*|(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?)n?/y;
const REGEX_FLAGS = /[\p{ID_Continue}$]*/uy;

/** After these names an expression (and so a regular expression) may start. */
const EXPRESSION_KEYWORDS = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/** One escape at `i` (the backslash) in a string or a template: its characters (null: not readable) and its end. */
function jsEscape(text: string, i: number): { value: string | null; end: number } {
  const c = text[i + 1];
  if (c === undefined) return { value: null, end: i + 1 };
  if (isLineBreak(text, i + 1)) return { value: '', end: afterLineBreak(text, i + 1) };
  if (c === '\u2028' || c === '\u2029') return { value: '', end: i + 2 };
  if (c === '0' && /[0-9]/.test(text[i + 2] ?? '')) return { value: null, end: i + 2 };
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) return { value: simple, end: i + 2 };
  if (c === 'x') {
    const hex = text.slice(i + 2, i + 4);
    return /^[0-9a-fA-F]{2}$/.test(hex)
      ? { value: String.fromCharCode(parseInt(hex, 16)), end: i + 4 }
      : { value: null, end: i + 2 };
  }
  if (c === 'u') {
    if (text[i + 2] === '{') {
      const close = text.indexOf('}', i + 3);
      const hex = close < 0 ? '' : text.slice(i + 3, close);
      if (/^[0-9a-fA-F]{1,6}$/.test(hex) && parseInt(hex, 16) <= 0x10ffff)
        return { value: String.fromCodePoint(parseInt(hex, 16)), end: close + 1 };
      return { value: null, end: i + 2 };
    }
    const hex = text.slice(i + 2, i + 6);
    return /^[0-9a-fA-F]{4}$/.test(hex)
      ? { value: String.fromCharCode(parseInt(hex, 16)), end: i + 6 }
      : { value: null, end: i + 2 };
  }
  if (/[1-7]/.test(c)) return { value: null, end: i + 2 };
  // Any other character stands for itself.
  return { value: c, end: i + 2 };
}

/** Whether a `/` at this point starts a regular expression (the previous token decides). */
function regexAllowed(previous: JsToken | undefined): boolean {
  if (previous === undefined) return true;
  switch (previous.kind) {
    case 'punct':
      return previous.text !== ')' && previous.text !== ']';
    case 'name':
      return EXPRESSION_KEYWORDS.has(previous.text);
    case 'templateHead':
    case 'templateMiddle':
      return true;
    default:
      return false;
  }
}

/** The end of a regular expression whose `/` is at `i`, or -1 when a line ends first (then it is a division). */
function regexEnd(text: string, i: number): number {
  let inClass = false;
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (isLineBreak(text, j)) return -1;
    if (c === '\\') j++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      REGEX_FLAGS.lastIndex = j + 1;
      REGEX_FLAGS.exec(text);
      return REGEX_FLAGS.lastIndex;
    }
  }
  return -1;
}

/** The tokens of JavaScript or TypeScript source `text` (see the module's comment). */
export function jsTokens(text: string): JsToken[] {
  const tokens: JsToken[] = [];
  const cursor = new LineCursor(text);
  const n = text.length;
  /** What each open `{` is: a brace, or a template substitution `${` (its `}` resumes the template). */
  const braces: Array<'brace' | 'template'> = [];
  let previous: JsToken | undefined;
  const push = (
    kind: JsTokenKind,
    start: number,
    end: number,
    textOf: string,
    value?: string | number | null,
  ): void => {
    previous = cursor.token(kind, start, end, textOf, value);
    tokens.push(previous);
  };
  /** Reads a template's text from `i` (after `` ` `` or a substitution's `}`) to `${` or its closing backtick. */
  const templatePart = (start: number, i: number, head: boolean): number => {
    let value: string | null = '';
    while (i < n) {
      const c = text[i];
      if (c === '`') {
        push(head ? 'template' : 'templateTail', start, i + 1, '', head ? value : null);
        return i + 1;
      }
      if (c === '$' && text[i + 1] === '{') {
        push(head ? 'templateHead' : 'templateMiddle', start, i + 2, '');
        braces.push('template');
        return i + 2;
      }
      if (c === '\\') {
        const escape = jsEscape(text, i);
        value = value === null || escape.value === null ? null : value + escape.value;
        i = escape.end;
        continue;
      }
      if (value !== null) value += c;
      i++;
    }
    push('bad', start, n, 'unterminated template', null);
    return n;
  };
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (text.startsWith('#!', i)) while (i < n && !isLineBreak(text, i)) i++;
  while (i < n) {
    const c = text[i]!;
    const code = text.charCodeAt(i);
    if (
      code <= 0x20 ||
      code === 0xa0 ||
      code === 0xfeff ||
      code === 0x2028 ||
      code === 0x2029 ||
      (code >= 0x2000 && code <= 0x200a) ||
      code === 0x3000
    ) {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && !isLineBreak(text, i)) i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      let value: string | null = '';
      let j = i + 1;
      let terminated = false;
      while (j < n) {
        const d = text[j];
        if (d === c) {
          terminated = true;
          j++;
          break;
        }
        if (isLineBreak(text, j)) break;
        if (d === '\\') {
          const escape = jsEscape(text, j);
          value = value === null || escape.value === null ? null : value + escape.value;
          j = escape.end;
          continue;
        }
        if (value !== null) value += d;
        j++;
      }
      if (terminated) push('string', i, j, '', value);
      else push('bad', i, j, 'unterminated string', null);
      i = j;
      continue;
    }
    if (c === '`') {
      i = templatePart(i, i + 1, true);
      continue;
    }
    if (c === '}' && braces[braces.length - 1] === 'template') {
      braces.pop();
      i = templatePart(i, i + 1, false);
      continue;
    }
    NAME.lastIndex = i;
    const name = NAME.exec(text);
    if (name !== null) {
      push('name', i, i + name[0].length, name[0]);
      i += name[0].length;
      continue;
    }
    if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      NUMBER.lastIndex = i;
      const written = NUMBER.exec(text)![0];
      const legacyOctal = /^0\d/.test(written);
      const value = written.endsWith('n') || legacyOctal ? Number.NaN : Number(written.replace(/_/g, ''));
      push('number', i, i + written.length, written, value);
      i += written.length;
      continue;
    }
    if (c === '/' && regexAllowed(previous)) {
      const end = regexEnd(text, i);
      if (end > 0) {
        push('regex', i, end, '');
        i = end;
        continue;
      }
    }
    let p = punctuatorAt(text, i);
    // `a?.5:b` is a conditional, not optional chaining.
    if (p === '?.' && /[0-9]/.test(text[i + 2] ?? '')) p = '?';
    if (p !== undefined) {
      if (p === '{') braces.push('brace');
      else if (p === '}') braces.pop();
      push('punct', i, i + p.length, p);
      i += p.length;
      continue;
    }
    // Anything else (a stray character, a backslash): a punctuator of its own, so nothing is lost.
    push('punct', i, i + 1, c);
    i++;
  }
  return tokens;
}
