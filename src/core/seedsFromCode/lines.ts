/**
 * Line numbers for the scanners: where each line of a text starts (LF, CRLF and CR end lines, as in Python and
 * JavaScript), and the line of an offset for offsets asked in increasing order; and what the two tokenizers
 * (pythonTokens.ts, jsTokens.ts) build tokens with: a token at its line and column, the longest operator at an
 * offset. Pure.
 */

/** A token of either tokenizer (pythonTokens.ts, jsTokens.ts), by its kinds. */
export interface SourceToken<Kind extends string> {
  kind: Kind;
  /** A name's or an operator's text, a number as written; '' for strings and templates. */
  text: string;
  /** A literal string's value (null when it has none: substitutions, bytes, an escape not read); a number's (NaN when not a plain number). */
  value?: string | number | null;
  /** Offset of the token's first character. */
  start: number;
  /** Offset after its last character. */
  end: number;
  /** 1-based line of its first character. */
  line: number;
  /** 0-based column of its first character (UTF-16 units, as editors count). */
  column: number;
}

/** The offsets where the lines of `text` start (the first is 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) starts.push(i + 1);
    else if (c === 0x0d) {
      if (text.charCodeAt(i + 1) === 0x0a) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The 1-based line and 0-based column of an offset: cheap for offsets asked in increasing order. */
export class LineCursor {
  private readonly starts: number[];
  private index = 0;

  constructor(text: string) {
    this.starts = lineStarts(text);
  }

  /** 1-based line of `offset`. */
  line(offset: number): number {
    return this.seek(offset) + 1;
  }

  /** 0-based column of `offset` (in UTF-16 units, as VS Code counts). */
  column(offset: number): number {
    return offset - this.starts[this.seek(offset)]!;
  }

  /** A token of `kind` from `start` to `end`, at its line and column; `value` only when given. */
  token<Kind extends string>(
    kind: Kind,
    start: number,
    end: number,
    text: string,
    value?: string | number | null,
  ): SourceToken<Kind> {
    const token: SourceToken<Kind> = { kind, text, start, end, line: this.line(start), column: this.column(start) };
    if (value !== undefined) token.value = value;
    return token;
  }

  private seek(offset: number): number {
    if (offset < this.starts[this.index]!) {
      // Backwards: a binary search for the last start at or before `offset`.
      let lo = 0;
      let hi = this.index;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.starts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      this.index = lo;
      return lo;
    }
    while (this.index + 1 < this.starts.length && this.starts[this.index + 1]! <= offset) this.index++;
    return this.index;
  }
}

/** Whether the character at `i` ends a line (LF or CR). */
export function isLineBreak(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 0x0a || c === 0x0d;
}

/** The offset after the line break at `i` (CRLF is one break). */
export function afterLineBreak(text: string, i: number): number {
  return text.charCodeAt(i) === 0x0d && text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
}

/** A reader of a language's operators: the longest one that starts at offset `i` of `text`, or undefined. */
export function operatorReader(operators: readonly string[]): (text: string, i: number) => string | undefined {
  // By first character, longest first: the first that matches is the longest.
  const byFirst = new Map<string, string[]>();
  for (const op of [...operators].sort((a, b) => b.length - a.length)) {
    const list = byFirst.get(op[0]!);
    if (list) list.push(op);
    else byFirst.set(op[0]!, [op]);
  }
  return (text, i) => byFirst.get(text[i]!)?.find((op) => text.startsWith(op, i));
}
