/**
 * Exports of a plan for the crawlers that run it at scale (docs/exports.md): the formats, what an export
 * takes besides the plan, and what it gives back. An export is a list of files (path and text) plus notes:
 * the caller writes the files (the CLI into `--out DIR`, the extension into a folder the user picks).
 */
import { SAMPLE_CRAWL_DEFAULTS, SAMPLE_CRAWL_LIMITS } from '../crawl/sampleCrawlOptions';
import { CRAWL_DEFAULTS } from '../crawl/engineOptions';
import { BACKOFF_DEFAULTS } from '../politeness/backoff';

export const EXPORT_FORMATS = ['scrapy', 'crawlee', 'nutch', 'stormcrawler'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A seed URL and its host (`URL.host`, lower-case), as `validateSeeds` gives them. */
export interface ExportSeed {
  url: string;
  host: string;
}

export interface ExportOptions {
  /**
   * The seeds the plan was made from (the allowed ones, when robots.txt was read first). Each must be an
   * absolute http(s) URL; seeds of hosts the plan skips or gives no pages are left out of the export.
   */
  seeds: readonly ExportSeed[];
  /** The robots.txt product token, `[a-zA-Z_-]+` (RFC 9309 §2.2.1). */
  productToken: string;
  /** The whole User-Agent header the exported crawler sends (the CLI builds it with `userAgentHeader`). */
  userAgentHeader: string;
  /** Who runs the crawl: an http(s) URL or a mailto: address, for the frameworks that take it apart (Nutch, StormCrawler). */
  contact?: string;
  /** The bound on one request, seconds. Default {@link EXPORT_DEFAULTS}.timeoutSeconds. */
  timeoutSeconds?: number;
  /** Retries per URL after the first attempt. Default {@link EXPORT_DEFAULTS}.maxRetries. */
  maxRetries?: number;
}

/** What an export does when the plan does not say: the test crawl's defaults and the crawl engine's. */
export const EXPORT_DEFAULTS = {
  timeoutSeconds: SAMPLE_CRAWL_DEFAULTS.timeoutSeconds,
  maxRetries: SAMPLE_CRAWL_DEFAULTS.maxRetries,
  /** A Retry-After longer than this drops the host for the run, as in the crawl engine. */
  retryAfterCapSeconds: CRAWL_DEFAULTS.retryAfterCapSeconds,
  backoffBaseMs: BACKOFF_DEFAULTS.baseMs,
  backoffCapMs: BACKOFF_DEFAULTS.capMs,
} as const;

/** The ranges of the export's own numbers: the test crawl's. */
export const EXPORT_LIMITS = {
  timeoutSeconds: SAMPLE_CRAWL_LIMITS.timeoutSeconds,
  maxRetries: SAMPLE_CRAWL_LIMITS.maxRetries,
} as const;

export interface ExportFile {
  /** Relative, `/`-separated, inside the export folder. */
  path: string;
  content: string;
}

export interface ExportResult {
  format: ExportFormat;
  files: ExportFile[];
  /**
   * What the caller shows the user: how to run the export, what it left out, and every assumption of the
   * plan the framework cannot keep (the same lines as the export's "differences" comment block).
   */
  notes: string[];
}

/** Input the export cannot use; the message names what is wrong. */
export class ExportInputError extends Error {
  override readonly name = 'ExportInputError';
}

/**
 * The parts of an export file's path, for the caller to join under the folder it writes into. The core makes
 * only plain relative, `/`-separated paths; anything else (absolute, empty parts, `.` or `..`, a backslash or a
 * drive letter) is refused rather than written outside the folder.
 */
export function exportPathParts(file: string): string[] {
  const parts = file.split('/');
  if (file === '' || parts.some((p) => p === '' || p === '.' || p === '..' || /[\\:\u0000]/.test(p))) {
    throw new ExportInputError(`refusing to write ${JSON.stringify(file)}: not a plain relative path`);
  }
  return parts;
}
