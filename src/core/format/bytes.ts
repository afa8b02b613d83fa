/** Human sizes for byte counts (decimal units, as transfer is billed): the one formatter for bytes in text. */

const SIZE_UNITS: ReadonlyArray<[string, number]> = [
  ['TB', 1e12],
  ['GB', 1e9],
  ['MB', 1e6],
  ['KB', 1e3],
];

/**
 * 81920 → "82 KB", 1_500_000 → "1.5 MB", 999 → "999 B": three significant digits at most (one decimal
 * below 10 of a unit, none above), decimal units (1 KB = 1,000 bytes).
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return bytes > 0 ? '∞' : '—';
  if (bytes < 0) return `-${formatBytes(-bytes)}`;
  if (Math.round(bytes) < 1000) return `${Math.round(bytes)} B`;
  for (const [name, size] of SIZE_UNITS) {
    const v = bytes / size;
    // Rounding 999.6 KB shows "1 MB", not "1000 KB": the unit is chosen after rounding.
    if (Math.round(v * 10) / 10 >= 1) {
      const shown = v < 9.95 ? (Math.round(v * 10) / 10).toFixed(1).replace(/\.0$/, '') : String(Math.round(v));
      return `${shown} ${name}`;
    }
  }
  return `${Math.round(bytes / 1e3)} KB`;
}

/** A byte rate: "1.2 MB/s". */
export function formatByteRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}
