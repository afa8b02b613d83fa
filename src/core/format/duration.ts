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

/** One formatter per number of decimals: `toLocaleString` builds a new one on every call (~0.1 ms). */
const NUMBER_FORMATS = new Map<number, Intl.NumberFormat>();

/** 1234567.8 → "1,234,568"; keeps up to `digits` decimals for small numbers. */
export function formatNumber(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '—';
  let format = NUMBER_FORMATS.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
    NUMBER_FORMATS.set(digits, format);
  }
  const text = format.format(n);
  // -0 and small negatives that round to zero ("-0") read as 0.
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** Seconds as a short interval: "1 s", "0.5 s", "2.25 s". */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '∞';
  return `${trim(String(Math.round(seconds * 1000) / 1000))} s`;
}
