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
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${trim(seconds.toFixed(1))} s`;
  // Round to the smallest unit that will be shown, then split.
  const first = UNITS.findIndex(([, size]) => seconds >= size);
  const last = Math.min(UNITS.length - 1, first + maxParts - 1);
  const lastSize = UNITS[last]![1];
  let rest = Math.round(seconds / lastSize) * lastSize;
  const parts: string[] = [];
  for (let i = first; i <= last; i++) {
    const [name, size] = UNITS[i]!;
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length === 0) parts.push(`${n} ${name}`);
  }
  return parts.join(' ');
}

function trim(s: string): string {
  return s.replace(/\.0$/, '');
}

/** 1234567.8 → "1,234,568"; keeps up to `digits` decimals for small numbers. */
export function formatNumber(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '—';
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** Seconds as a short interval: "1 s", "0.5 s", "2.25 s". */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '∞';
  return `${trim(String(Math.round(seconds * 1000) / 1000))} s`;
}
