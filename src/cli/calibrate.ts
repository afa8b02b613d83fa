/**
 * `--calibrate REPORT` (estimate, crawl, demo): a crawl report written by `crawl --report`, read back as
 * what the test crawl measured (src/core/calibrate). A file that cannot be read, is not JSON, or is not a
 * crawl report is bad input: one line on stderr, exit 2.
 */
import { readFileSync, statSync } from 'node:fs';
import { calibrationFromReport, CalibrationError } from '../core/calibrate/fromCrawlReport';
import type { Calibration } from '../core/calibrate/types';
import { sanitizeText } from '../core/format/table';
import { UsageError } from './args';

export function readCalibration(path: string | undefined): Calibration | undefined {
  if (path === undefined) return undefined;
  const shown = sanitizeText(path);
  let text: string;
  try {
    if (statSync(path).isDirectory()) throw new UsageError(`--calibrate: ${shown} is a directory`);
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(
      `--calibrate: cannot read ${shown}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UsageError(`--calibrate: ${shown} is not JSON (give the report that crawl --report wrote)`);
  }
  try {
    return calibrationFromReport(doc, path);
  } catch (err) {
    if (err instanceof CalibrationError) throw new UsageError(`--calibrate: ${shown}: ${err.message}`);
    throw err;
  }
}
