/**
 * JSON text that is safe to print: the `--log` NDJSON lines (one CrawlEvent each) and the `--report`
 * document. Control and bidi characters are escaped, so `cat` on a log or report cannot drive a terminal.
 */
import type { CrawlEvent } from '../crawl/events';
import type { CrawlReport } from '../crawl/crawlReport';

/**
 * JSON.stringify already escapes C0 controls inside strings; this also escapes DEL, the C1 controls
 * and the bidi/line-separator characters, losslessly, so that `cat` on a log or report cannot drive
 * a terminal. These characters can only occur inside JSON strings, so a global replace is safe.
 */
function escapeUnsafe(json: string): string {
  return json.replace(
    /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Objects with their keys sorted (arrays keep their order), `type` and `at` first. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const rank = (k: string) => (k === 'type' ? 0 : k === 'at' ? 1 : 2);
  const keys = Object.keys(obj).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = stable(obj[k]);
  return out;
}

/**
 * One event as one NDJSON line, WITHOUT the line terminator (the writer adds `\n`). Keys are the
 * event's own field names, `type` and `at` first, the rest sorted; absent optional fields are
 * omitted; non-finite numbers become null.
 */
export function eventToJsonLine(event: CrawlEvent): string {
  return escapeUnsafe(JSON.stringify(stable(event)));
}

/** The report as JSON text (2-space indent, trailing newline), terminal-safe like the log. */
export function reportToJson(report: CrawlReport): string {
  return `${escapeUnsafe(JSON.stringify(report, null, 2))}\n`;
}
