/**
 * The planner's limits: how many seeds it takes and in which form (docs/extension.md §Seeds), and the
 * sizes of what the webview may post. The webview, the extension and the messages check them.
 */
import { countSeedLines } from '../../core/seeds';
import { formatNumber } from '../../core/format/duration';
import type { NumberLimit } from '../../core/limits';

/**
 * How many seeds the planner takes, and in which form (docs/extension.md §Seeds). The seeds box is for lists
 * a person reads; a longer list is a file the planner reads and keeps as the source.
 */
export const PLANNER_SEED_LIMITS = {
  /** Seed lines the seeds box plans (blank and comment lines are not counted). */
  textLines: 5_000,
  /** UTF-8 bytes the seeds box plans (512 KiB). */
  textBytes: 512 * 1024,
  /** From this many seed lines the box suggests a file instead. */
  suggestFileLines: 2_000,
  /**
   * UTF-8 bytes of seeds box text the extension keeps (4 MiB): what is typed past the planning limits is
   * kept and restored, just not planned. A paste over the limits is refused before it reaches the box.
   */
  storedTextBytes: 4 * 1024 * 1024,
  /** Seed lines a seeds file may have. */
  fileLines: 100_000,
  /** Bytes a seeds file may have (32 MiB). */
  fileBytes: 32 * 1024 * 1024,
} as const;

/** A user agent override in the form (the header value; control characters refused). */
export const MAX_USER_AGENT_CHARS = 256;
/** An origin posted by `openRobots`. */
export const MAX_ORIGIN_CHARS = 2048;
/** A robots.txt line number posted by `openRobots` (or passed to the Open robots.txt command). */
export const MAX_ROBOTS_LINE = 1_000_000;
export const ROBOTS_LINE_LIMIT: NumberLimit = { min: 1, max: MAX_ROBOTS_LINE, integer: true };
/** A seeds file line posted by `openSeedsFile`. */
export const SEEDS_FILE_LINE_LIMIT: NumberLimit = { min: 1, max: 100_000_000, integer: true };
/** The origin picker's search text posted by `findOrigins`. */
export const MAX_ORIGIN_QUERY_CHARS = 256;
/** Hosts with their own page count in the form (`pagesByHost`): sitemap sizing and a deadline's caps fill it. */
export const MAX_PAGES_BY_HOST = 1_000;
/** A host as the form names it: `host[:port]`, lower-case (a DNS name is at most 253 characters). */
export const MAX_HOST_CHARS = 260;
/** The "changed since" text posted by `sizeFromSitemaps` (a date-time or a duration). */
export const MAX_CHANGED_SINCE_CHARS = 64;
/** Deadline options a plan offers at most (the solver gives two: cap and drop, or capacity and machines). */
export const MAX_DEADLINE_OPTIONS = 10;
export const DEADLINE_OPTION_LIMIT: NumberLimit = { min: 0, max: MAX_DEADLINE_OPTIONS - 1, integer: true };
/** The number of a plan (DeadlineView.plan), counted from 1 in each window. */
export const PLAN_NUMBER_LIMIT: NumberLimit = { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true };

/** UTF-8 length of `text`, counted without encoding it. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** "1.2 MB", "230 KB", "512 bytes": a size for messages (1 KB = 1,024 bytes). */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${formatNumber(bytes / (1024 * 1024), 1)} MB`;
}

/** "1 seed line", "50,000 seed lines". */
export function seedLinesText(n: number): string {
  return `${formatNumber(n)} seed ${n === 1 ? 'line' : 'lines'}`;
}

/** What to do with a list too long for the box (the two buttons beside it). */
export const SEEDS_FILE_ADVICE =
  'Save the list as a file and use “Load seeds from file…”, or save it as seeds.txt in the workspace and use “Use seeds.txt”.';

const L = PLANNER_SEED_LIMITS;

/** "1,001 seed lines (32.5 KB)": a seeds text's seed lines (blank and comment lines not counted) and size. */
function seedsSizeText(lines: number, bytes: number): string {
  return `${seedLinesText(lines)} (${sizeText(bytes)})`;
}

/** "5,000 seed lines (512 KB)": the box's limits. */
export const SEEDS_BOX_LIMIT_TEXT = seedsSizeText(L.textLines, L.textBytes);

/**
 * Why the seeds box text cannot be planned, or undefined: its size and seed lines (blank and comment lines
 * not counted), the limit, and what to do instead.
 */
export function seedsTextProblem(text: string): string | undefined {
  const bytes = utf8Length(text);
  const lines = countSeedLines(text);
  if (bytes <= L.textBytes && lines <= L.textLines) return undefined;
  return `${seedsSizeText(lines, bytes)}: the box plans at most ${SEEDS_BOX_LIMIT_TEXT}. ${SEEDS_FILE_ADVICE}`;
}

/**
 * Why a paste (or a drop) of `pasted` into a box holding `before` (minus the selection it replaces) is refused,
 * or undefined. Refused: a result over the box's limits; it never reaches the box, and the message says its
 * size, the limit and what to do instead.
 */
export function seedsPasteProblem(pasted: string, resultText: string): string | undefined {
  if (seedsTextProblem(resultText) === undefined) return undefined;
  const pastedSize = seedsSizeText(countSeedLines(pasted), utf8Length(pasted));
  return `Not pasted: ${pastedSize}. The box plans at most ${SEEDS_BOX_LIMIT_TEXT}. ${SEEDS_FILE_ADVICE}`;
}

/** Why a seeds box text cannot even be kept (over {@link PLANNER_SEED_LIMITS}.storedTextBytes), or undefined. */
export function seedsStoreProblem(text: string): string | undefined {
  // At most 3 UTF-8 bytes per UTF-16 unit: a text this short is kept without counting.
  if (text.length <= L.storedTextBytes / 3) return undefined;
  const bytes = utf8Length(text);
  if (bytes <= L.storedTextBytes) return undefined;
  return `Not kept: ${sizeText(bytes)} of seeds; the box keeps at most ${sizeText(L.storedTextBytes)}. ${SEEDS_FILE_ADVICE}`;
}
