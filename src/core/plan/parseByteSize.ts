/** Sizes as people type them, parsed to bytes: "80KB", "120kB", "1.5MB", "2 GiB", "81920" (format/bytes.ts writes them). */
import { formatBytes } from '../format/bytes';
import { PLAN_LIMITS } from './types';

/** Decimal units (1 KB = 1,000 bytes, as transfer is billed), and the binary ones by their own names. */
const UNIT_BYTES: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1e3,
  k: 1e3,
  mb: 1e6,
  m: 1e6,
  gb: 1e9,
  g: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/**
 * A page size (`--page-size`): a plain number of bytes, or a number and a unit (B, KB, MB, GB, KiB, MiB,
 * GiB; any case), within PLAN_LIMITS.pageSizeBytes. Its bytes (whole, rounded), or why not in words after the
 * text as typed, for the caller to prefix.
 */
export function parseByteSizeText(text: string): { bytes: number } | { problem: string } {
  const t = text.trim();
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)$/i.exec(t);
  const unit = m?.[2]?.toLowerCase() ?? '';
  if (!m || !Object.hasOwn(UNIT_BYTES, unit || 'b'))
    return { problem: `"${text}" is not a size (bytes, or e.g. 80KB, 1.5MB, 2GiB)` };
  const bytes = Math.round(Number(m[1]) * UNIT_BYTES[unit || 'b']!);
  const limit = PLAN_LIMITS.pageSizeBytes;
  if (!Number.isFinite(bytes) || bytes > limit.max)
    return { problem: `${t} is too large (at most ${formatBytes(limit.max)} per page)` };
  if (bytes < limit.min) return { problem: `${t} must be at least ${limit.min} byte` };
  return { bytes };
}
