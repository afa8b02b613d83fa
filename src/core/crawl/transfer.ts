/** What a crawl's responses transferred, from its report's request records (a run cut short, an old report). */
import type { TransferTotals } from './events';

/** The body bytes of the records' responses: decoded, and on the wire where the record knows it. */
export function transferOf(
  records: Iterable<{ outcome: string; url: string; bytes: number | null; wireBytes?: number | null }>,
): TransferTotals {
  const t: TransferTotals = { bytes: 0, wireBytes: 0, wireBytesUnknown: 0 };
  for (const r of records) {
    if (r.outcome !== 'response') continue;
    noteTransfer(t, r.bytes ?? 0, typeof r.wireBytes === 'number' ? r.wireBytes : undefined, r.url);
  }
  return t;
}

/** Adds one response's body to `t`: its decoded bytes, its bytes on the wire when known, the largest so far. */
export function noteTransfer(t: TransferTotals, bytes: number, wireBytes: number | undefined, url: string): void {
  t.bytes += bytes;
  if (wireBytes === undefined) {
    t.wireBytesUnknown++;
    return;
  }
  t.wireBytes += wireBytes;
  if (t.largest === undefined || wireBytes > t.largest.wireBytes) t.largest = { url, wireBytes };
}
