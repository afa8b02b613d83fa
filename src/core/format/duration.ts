/** Human units for durations and rates, shared by the CLI, the terminal formatter and the webview. */

const UNITS: ReadonlyArray<[string, number]> = [
  ['d', 86400],
  ['h', 3600],
  ['m', 60],
  ['s', 1],
];

/**
 * "11 d 13 h 46 m": the two or three largest non-zero units, whole numbers, rounded to the last unit
 * shown. Durations under a minute keep one decimal of seconds ("2.5 s"); under a second, milliseconds.
 */
export function formatDuration(seconds: number, maxParts = 3): string {
  if (!Number.isFinite(seconds)) return seconds > 0 ? '∞' : '—';
  if (seconds < 0) return `-${formatDuration(-seconds, maxParts)}`;
  if (seconds === 0) return '0 s';
  // Each branch checks the value after its own rounding, so 0.9996 s is "1 s", not "1000 ms", and
  // 59.96 s is "1 m", not "60 s".
  if (Math.round(seconds * 1000) < 1000) return `${Math.round(seconds * 1000)} ms`;
  if (Math.round(seconds * 10) < 600) return `${trim((Math.round(seconds * 10) / 10).toFixed(1))} s`;
  // Round to the smallest unit that will be shown, then split. Rounding can carry into a larger unit
  // (3599.9 s → 3600 s), so the units are chosen again from the rounded value.
  let rest = roundToShown(seconds, firstUnit(seconds), maxParts);
  const first = firstUnit(rest);
  rest = roundToShown(seconds, first, maxParts);
  const last = lastUnit(first, maxParts);
  const parts: string[] = [];
  for (let i = first; i <= last; i++) {
    const [name, size] = UNITS[i]!;
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length === 0) parts.push(`${n} ${name}`);
  }
  return parts.join(' ');
}

function firstUnit(seconds: number): number {
  const i = UNITS.findIndex(([, size]) => seconds >= size);
  return i < 0 ? UNITS.length - 1 : i;
}

function lastUnit(first: number, maxParts: number): number {
  return Math.min(UNITS.length - 1, first + Math.max(1, maxParts) - 1);
}

function roundToShown(seconds: number, first: number, maxParts: number): number {
  const lastSize = UNITS[lastUnit(first, maxParts)]![1];
  return Math.round(seconds / lastSize) * lastSize;
}

function trim(s: string): string {
  return s.replace(/\.0$/, '');
}

/**
 * 1234567.8 → "1,234,568"; keeps up to `digits` decimals for small numbers. The same text as
 * `n.toLocaleString('en-US', { maximumFractionDigits: digits })` (test/unit/duration.test.ts holds them
 * equal), built by hand: the first use of Intl's number formatting costs about 10 ms, a sixth of a CLI
 * start. Like Intl, it rounds the shortest decimal that reads back as `n`, half away from zero.
 */
export function formatNumber(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '—';
  const { int, frac } = roundHalfExpand(plainDecimal(Math.abs(n)), digits);
  // -0 and small negatives that round to zero read as 0.
  const sign = n < 0 && /[1-9]/.test(int + frac) ? '-' : '';
  let grouped = '';
  for (let i = int.length; i > 0; i -= 3)
    grouped = int.slice(Math.max(0, i - 3), i) + (grouped === '' ? '' : `,${grouped}`);
  return `${sign}${grouped}${frac === '' ? '' : `.${frac}`}`;
}

/** A finite x ≥ 0 as integer and fraction digits, from its shortest round-trip text ("1e-7" too). */
function plainDecimal(x: number): { int: string; frac: string } {
  const text = String(x);
  const e = text.indexOf('e');
  if (e < 0) {
    const dot = text.indexOf('.');
    return dot < 0 ? { int: text, frac: '' } : { int: text.slice(0, dot), frac: text.slice(dot + 1) };
  }
  const mantissa = text.slice(0, e).replace('.', '');
  // The position of the decimal point within `mantissa`'s digits (one digit before the point).
  const point = 1 + Number(text.slice(e + 1));
  if (point <= 0) return { int: '0', frac: '0'.repeat(-point) + mantissa };
  if (point >= mantissa.length) return { int: mantissa + '0'.repeat(point - mantissa.length), frac: '' };
  return { int: mantissa.slice(0, point), frac: mantissa.slice(point) };
}

/** Rounds to at most `digits` fraction digits, half away from zero, without trailing zeros. */
function roundHalfExpand({ int, frac }: { int: string; frac: string }, digits: number): { int: string; frac: string } {
  if (frac.length > digits) {
    const up = frac.charCodeAt(digits) >= 53; // '5'
    let kept = int + frac.slice(0, digits);
    if (up) {
      const chars = kept.split('');
      let i = chars.length - 1;
      for (; i >= 0; i--) {
        if (chars[i] === '9') {
          chars[i] = '0';
        } else {
          chars[i] = String.fromCharCode(chars[i]!.charCodeAt(0) + 1);
          break;
        }
      }
      kept = (i < 0 ? '1' : '') + chars.join('');
    }
    int = kept.slice(0, kept.length - digits);
    frac = kept.slice(kept.length - digits);
  }
  return { int: int.replace(/^0+(?=\d)/, ''), frac: frac.replace(/0+$/, '') };
}

/** Seconds as a short interval: "1 s", "0.5 s", "2.25 s". */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '∞';
  return `${trim(String(Math.round(seconds * 1000) / 1000))} s`;
}
