/** What a crawl's responses transferred, from its report's request records (a run cut short, an old report). */
import type { TransferTotals } from './events';

/** The body bytes of the records' responses: decoded, and on the wire where the record knows it. */
export function transferOf(
  records: Iterable<{ outcome: string; bytes: number | null; wireBytes?: number | null }>,
): TransferTotals {
  const t: TransferTotals = { bytes: 0, wireBytes: 0, wireBytesUnknown: 0 };
  for (const r of records) {
    if (r.outcome !== 'response') continue;
    t.bytes += r.bytes ?? 0;
    if (typeof r.wireBytes === 'number') t.wireBytes += r.wireBytes;
    else t.wireBytesUnknown++;
  }
  return t;
}
