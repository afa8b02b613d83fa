/**
 * Plain-text layout for terminals: sanitising untrusted text, display width (ANSI SGR sequences take no
 * room, East Asian wide characters take two), truncation with an ellipsis, padding, and a small table
 * renderer with column alignment that shrinks chosen columns to fit a width. Pure: no I/O.
 */

/** SGR ("Select Graphic Rendition") sequences: the only escape sequences our own code ever emits. */
const SGR = /\x1b\[[0-9;]*m/g;
const HAS_SGR = /\x1b\[[0-9;]*m/;

/**
 * C0 controls (incl. ESC, BEL, backspace), DEL, C1 controls (incl. the one-byte CSI U+009B), and the
 * bidirectional overrides/isolates that can reorder what a reader sees ("Trojan Source").
 */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Line breaks and tabs, which would break one logical line into several, become a space. */
const BREAKS = /[\t\n\r\u2028\u2029]/g;

/**
 * Makes untrusted text (URLs, header values, server error messages, hosts) safe to print on one
 * terminal line: tabs and line breaks become a space; every other control character (C0 incl. ESC,
 * DEL, C1 incl. CSI) and the bidi override/isolate characters are removed. An ESC-based sequence such
 * as "\x1b[2J" is left as the inert visible text "[2J".
 */
export function sanitizeText(text: string): string {
  return String(text).replace(BREAKS, ' ').replace(UNSAFE, '');
}

/** Removes the SGR sequences this module's callers add for colour. */
export function stripAnsi(text: string): string {
  return text.replace(SGR, '');
}

/** Columns a code point takes in a monospace terminal: 0 for combining/zero-width, 2 for wide. */
export function codePointWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1;
  if (
    (cp >= 0x300 && cp <= 0x36f) || // combining diacritical marks
    (cp >= 0x200b && cp <= 0x200f) || // zero-width space/joiners, LRM/RLM
    (cp >= 0x2060 && cp <= 0x2064) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) || // variation selectors
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x1dc0 && cp <= 0x1dff) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe20 && cp <= 0xfe2f) ||
    cp === 0xfeff
  ) {
    return 0;
  }
  if (
    (cp >= 0x1100 && cp <= 0x115f) || // Hangul Jamo
    (cp >= 0x2e80 && cp <= 0x303e) || // CJK radicals, punctuation
    (cp >= 0x3041 && cp <= 0x33ff) || // kana, CJK symbols
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) || // CJK unified ideographs
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || // Hangul syllables
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) || // fullwidth forms
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) || // emoji
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** The number of terminal columns `text` takes, ignoring SGR sequences. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of stripAnsi(text)) width += codePointWidth(ch.codePointAt(0)!);
  return width;
}

export type TruncateAt = 'end' | 'middle' | 'start';

const ELLIPSIS = '…';

/** Splits into SGR sequences (width 0) and single code points. */
function tokens(text: string): Array<{ s: string; w: number; sgr: boolean }> {
  const out: Array<{ s: string; w: number; sgr: boolean }> = [];
  let last = 0;
  const push = (chunk: string) => {
    for (const ch of chunk) out.push({ s: ch, w: codePointWidth(ch.codePointAt(0)!), sgr: false });
  };
  for (const m of text.matchAll(SGR)) {
    push(text.slice(last, m.index));
    out.push({ s: m[0], w: 0, sgr: true });
    last = m.index + m[0].length;
  }
  push(text.slice(last));
  return out;
}

/** Keeps the first `width` columns of `text`, SGR sequences included. */
function takeStart(text: string, width: number): string {
  let used = 0;
  let out = '';
  for (const t of tokens(text)) {
    if (!t.sgr && used + t.w > width) break;
    out += t.s;
    used += t.w;
  }
  return out;
}

/** Keeps the last `width` columns of `text` (plain text only). */
function takeEnd(text: string, width: number): string {
  const chars = [...text];
  let used = 0;
  let i = chars.length;
  while (i > 0) {
    const w = codePointWidth(chars[i - 1]!.codePointAt(0)!);
    if (used + w > width) break;
    used += w;
    i--;
  }
  return chars.slice(i).join('');
}

/**
 * Shortens `text` to at most `width` columns, marking the cut with "…". `end` keeps SGR colour (and
 * closes it with a reset); `middle` and `start` drop colour from a text they cut. Text that fits is
 * returned unchanged.
 */
export function truncate(text: string, width: number, at: TruncateAt = 'end'): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  if (width === 1) return ELLIPSIS;
  const room = width - 1;
  if (at === 'end') {
    const head = takeStart(text, room);
    return head + ELLIPSIS + (HAS_SGR.test(head) ? '\x1b[0m' : '');
  }
  const plain = stripAnsi(text);
  if (at === 'start') return ELLIPSIS + takeEnd(plain, room);
  const left = Math.ceil(room / 2);
  return takeStart(plain, left) + ELLIPSIS + takeEnd(plain, room - left);
}

export type Align = 'left' | 'right';

/** Pads `text` with spaces to `width` columns (never cuts). */
export function pad(text: string, width: number, align: Align = 'left'): string {
  const fill = Math.max(0, width - displayWidth(text));
  return align === 'right' ? ' '.repeat(fill) + text : text + ' '.repeat(fill);
}

/** Pads or truncates to exactly `width` columns. */
export function fit(text: string, width: number, align: Align = 'left', at: TruncateAt = 'end'): string {
  return pad(truncate(text, width, at), width, align);
}

export interface TableColumn {
  header: string;
  /** Default `left`. Numbers read best `right`. */
  align?: Align;
  /** When the table is wider than `width`, columns with `shrink` give up room, widest first. */
  shrink?: boolean;
  /** The narrowest a shrinking column gets (default: 6, or its natural width when smaller). */
  minWidth?: number;
  /** Cells are cut to this many columns even when there is room. */
  maxWidth?: number;
  /** Where a cut cell loses text (default `end`; `middle` suits hosts and paths). */
  truncate?: TruncateAt;
}

export type TableCell = string | number | null | undefined;

export interface TableOptions {
  /** The whole line's budget in columns, indent included; no limit when undefined. */
  width?: number;
  /** Spaces between columns (default 2). */
  gap?: number;
  /** Put before every line (default ''). */
  indent?: string;
  /** Print the header row (default true). */
  header?: boolean;
  /** Styles a header cell after padding, e.g. bold; must not change its display width. */
  styleHeader?: (text: string) => string;
}

function cellText(cell: TableCell): string {
  if (cell === null || cell === undefined) return '';
  return typeof cell === 'number' ? String(cell) : cell;
}

/**
 * Lays out rows under headers, each column as wide as its widest cell (bounded by `maxWidth`); when
 * `width` is given and the table would be wider, the `shrink` columns are narrowed (widest first, not
 * below `minWidth`) and their cells truncated. Cells may carry SGR colour; they are measured without
 * it. Cells are NOT sanitised here: pass untrusted text through `sanitizeText` first. Lines carry no
 * trailing spaces and no line terminators.
 */
export function renderTable(
  columns: readonly TableColumn[],
  rows: ReadonlyArray<ReadonlyArray<TableCell>>,
  options: TableOptions = {},
): string[] {
  const gap = options.gap ?? 2;
  const indent = options.indent ?? '';
  const showHeader = options.header ?? true;
  const texts = rows.map((row) => columns.map((_, i) => cellText(row[i])));
  const widths = columns.map((col, i) => {
    let w = showHeader ? displayWidth(col.header) : 0;
    for (const row of texts) w = Math.max(w, displayWidth(row[i]!));
    return col.maxWidth !== undefined ? Math.min(w, col.maxWidth) : w;
  });
  if (options.width !== undefined) {
    const total = () =>
      displayWidth(indent) + widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, columns.length - 1);
    const floors = columns.map((col, i) => Math.min(widths[i]!, col.minWidth ?? 6));
    let excess = total() - options.width;
    while (excess > 0) {
      let pick = -1;
      for (let i = 0; i < columns.length; i++) {
        if (!columns[i]!.shrink || widths[i]! <= floors[i]!) continue;
        if (pick < 0 || widths[i]! > widths[pick]!) pick = i;
      }
      if (pick < 0) break;
      widths[pick]!--;
      excess--;
    }
  }
  const line = (cells: string[], style?: (s: string) => string) =>
    (
      indent +
      cells
        .map((cell, i) => {
          const col = columns[i]!;
          const text = fit(cell, widths[i]!, col.align ?? 'left', col.truncate ?? 'end');
          return style ? style(text) : text;
        })
        .join(' '.repeat(gap))
    ).trimEnd();
  const out: string[] = [];
  if (showHeader)
    out.push(
      line(
        columns.map((c) => c.header),
        options.styleHeader,
      ),
    );
  for (const row of texts) out.push(line(row));
  return out;
}
