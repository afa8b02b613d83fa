/**
 * A Crawl-delay value: how its text is read (decision G17), and which of several lines for one crawler is used.
 */
import type { RobotsCrawlDelay } from './robotsFile';

/** Result of reading a Crawl-delay value (decision G17, docs/robots-txt.md#behaviour-decisions). */
export interface CrawlDelayReading {
  seconds?: number;
  /** Set when the value is not used. */
  problem?: string;
  /** True for exponent notation (`1e3`), which is used but reported. */
  exponent?: boolean;
}

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const EXPONENT = /^(?:\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+$/;

/**
 * A Crawl-delay value in seconds: a non-negative decimal number (`10`, `0.5`, `.5`, `2.`). Exponent notation
 * (`1e3`) is read as the number it denotes (1000) and reported. Everything else is ignored with a reason:
 * empty, signs (`-5`, `+5`), hex (`0x10`), `Infinity`/`NaN`, units (`10s`), `1.2.1`, and values that
 * overflow to infinity.
 */
export function readCrawlDelay(value: string): CrawlDelayReading {
  if (value === '') return { problem: 'The Crawl-delay value is empty.' };
  const exponent = EXPONENT.test(value);
  if (DECIMAL.test(value) || exponent) {
    const seconds = Number(value);
    if (!Number.isFinite(seconds)) return { problem: `The Crawl-delay value "${value}" is not a finite number.` };
    return exponent ? { seconds, exponent } : { seconds };
  }
  if (/^-/.test(value))
    return { problem: `The Crawl-delay value "${value}" is negative; a delay must be at least 0 seconds.` };
  if (/^[+-]?0[xXoObB]/.test(value)) return { problem: `The Crawl-delay value "${value}" is not a decimal number.` };
  if (/^[+-]?(?:infinity|nan)$/i.test(value))
    return { problem: `The Crawl-delay value "${value}" is not a finite number.` };
  if (/^\+/.test(value))
    return { problem: `The Crawl-delay value "${value}" has a sign; write the number of seconds only.` };
  if (/^\d+(?:\.\d+)?\s*[a-zA-Z]+$/.test(value)) {
    return { problem: `The Crawl-delay value "${value}" has a unit; Crawl-delay is a plain number of seconds.` };
  }
  return { problem: `The Crawl-delay value "${value}" is not a number of seconds.` };
}

/**
 * Of several Crawl-delay lines that apply to one crawler, the one used: the largest (the earliest of equal
 * ones). A Crawl-delay is a minimum wait between requests, so the largest one respects every line; it is
 * also the politeness rule for merging delays (a floor merged by max). robots-parser and urllib.robotparser
 * keep the last or the first line instead, which is never more polite than this.
 */
export function largestCrawlDelay(delays: readonly RobotsCrawlDelay[]): RobotsCrawlDelay | undefined {
  let best: RobotsCrawlDelay | undefined;
  for (const d of delays) if (!best || d.seconds > best.seconds) best = d;
  return best;
}
