/**
 * `--calibrate REPORT` (estimate, crawl, demo): a crawl report written by `crawl --report`, read back as
 * what the test crawl measured (src/core/calibrate). A file that cannot be read, is not JSON, or is not a
 * crawl report is bad input: one line on stderr, exit 2.
 */
import { calibrationFromReport, CalibrationError } from '../core/calibrate/fromCrawlReport';
import type { Calibration } from '../core/calibrate/types';
import { sanitizeText } from '../core/format/table';
import { readJsonFile, UsageError } from './args';

export function readCalibration(path: string | undefined): Calibration | undefined {
  if (path === undefined) return undefined;
  const shown = sanitizeText(path);
  const doc = readJsonFile('calibrate', path, 'the report that crawl --report wrote');
  try {
    return calibrationFromReport(doc, path);
  } catch (err) {
    if (err instanceof CalibrationError) throw new UsageError(`--calibrate: ${shown}: ${err.message}`);
    throw err;
  }
}
