/**
 * `JSON.stringify(value, null, indent)` in pieces, for documents too large to hold twice: the
 * `estimate --json` document for 100,000 hosts is about 40 MB of text, and writing it as one string
 * held the string and its encoded copy at once. Concatenated, the pieces are exactly the text
 * `JSON.stringify` gives (test/unit/format-json.test.ts holds them equal).
 *
 * Plain objects and arrays down to `depth` levels are laid out here; anything deeper, and anything
 * that is not a plain object or array (a `toJSON`, a Date, a boxed primitive), is handed to
 * `JSON.stringify` whole and re-indented, so its rules (undefined, functions and symbols left out of
 * objects and null in arrays, non-finite numbers as null) apply unchanged.
 */

/** Pieces are yielded once the text gathered reaches this many characters. */
const PIECE_CHARS = 1 << 16;
/**
 * Array items written by one JSON.stringify call (see `items`): few enough that a piece stays below V8's
 * large-object size (128 KiB), which is collected far less eagerly.
 */
const BATCH = 64;

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The text of `value` as JSON.stringify(value, null, indent) gives it, in pieces of about 64 K
 * characters. (One difference no document here meets: a `toJSON` below the laid-out levels is called
 * with its property name, one at a laid-out level with '' or the item's index in its batch.)
 */
export function* jsonPieces(value: unknown, indent = 2, depth = 2): Generator<string> {
  const step = ' '.repeat(Math.max(0, Math.min(10, Math.floor(indent))));
  let buffer = '';
  /** `v` at nesting `level`; undefined when JSON.stringify would leave it out of an object. */
  const leaf = (v: unknown, level: number): string | undefined => {
    const text = JSON.stringify(v, null, step) as string | undefined;
    if (text === undefined || level === 0 || !text.includes('\n')) return text;
    // JSON.stringify never writes a raw line break inside a string, so every '\n' is layout.
    return text.replace(/\n/g, `\n${step.repeat(level)}`);
  };
  /**
   * Items of an array at `level`, as JSON.stringify lays them out, from the first item's indentation to
   * the end of the last: the batch is wrapped in `level` arrays so JSON.stringify indents it itself
   * (much faster than re-indenting each item), and the brackets around it are cut off.
   */
  const items = (batch: unknown[], level: number): string => {
    let wrapped: unknown = batch;
    let cut = 0;
    for (let k = 0; k <= level; k++) {
      if (k < level) wrapped = [wrapped];
      cut += k * step.length + 2; // "<indent>[\n" before, "\n<indent>]" after
    }
    const text = JSON.stringify(wrapped, null, step);
    return text.slice(cut, text.length - cut);
  };
  const expand = (v: unknown, level: number): v is Record<string, unknown> | unknown[] =>
    level < depth && step !== '' && isPlainContainer(v);
  function* write(v: Record<string, unknown> | unknown[], level: number): Generator<string> {
    const inner = `\n${step.repeat(level + 1)}`;
    const close = `\n${step.repeat(level)}`;
    if (Array.isArray(v)) {
      if (v.length === 0) {
        buffer += '[]';
        return;
      }
      for (let i = 0; i < v.length;) {
        buffer += i === 0 ? '[' : ',';
        if (expand(v[i], level + 1)) {
          buffer += inner;
          yield* write(v[i] as Record<string, unknown> | unknown[], level + 1);
          i++;
        } else {
          // A run of items that are not laid out here, in one call.
          let end = i + 1;
          while (end < v.length && end - i < BATCH && !expand(v[end], level + 1)) end++;
          buffer += `\n${items(v.slice(i, end), level)}`;
          i = end;
        }
        if (buffer.length >= PIECE_CHARS) {
          yield buffer;
          buffer = '';
        }
      }
      buffer += `${close}]`;
      return;
    }
    let written = 0;
    for (const key of Object.keys(v)) {
      const item = v[key];
      const nested = expand(item, level + 1);
      const text = nested ? undefined : leaf(item, level + 1);
      if (!nested && text === undefined) continue;
      buffer += `${written++ === 0 ? '{' : ','}${inner}${JSON.stringify(key)}: `;
      if (nested) yield* write(item, level + 1);
      else buffer += text;
      if (buffer.length >= PIECE_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
    buffer += written === 0 ? '{}' : `${close}}`;
  }
  if (expand(value, 0)) {
    yield* write(value, 0);
  } else {
    const text = leaf(value, 0);
    if (text === undefined) return;
    buffer = text;
  }
  if (buffer !== '') yield buffer;
}
