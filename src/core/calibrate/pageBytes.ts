/**
 * A host's body bytes per page as a test crawl measured them: the final 2xx answers with a body (robots.txt,
 * redirects, refusals and errors left out), decoded and on the wire (before Content-Encoding decoding, headers
 * excluded). The plan multiplies its pages by the mean on the wire.
 */
import { mean, percentileSorted } from '../statistics';
import type { ByteSummary, PageBytes } from './types';

/** One page's body: decoded bytes, and its bytes on the wire when the report knows them (null: unknown). */
export interface PageBody {
  bytes: number;
  wireBytes: number | null;
}

/** The record's page body, when it is one: a 2xx answer (not robots.txt) with a body. */
export function pageBodyOf(raw: Record<string, unknown>): PageBody | undefined {
  const { status, bytes, wireBytes } = raw;
  if (raw.robotsTxt === true || raw.outcome !== 'response') return undefined;
  if (typeof status !== 'number' || status < 200 || status > 299) return undefined;
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes <= 0) return undefined;
  const wire = typeof wireBytes === 'number' && Number.isFinite(wireBytes) && wireBytes >= 0 ? wireBytes : null;
  return { bytes, wireBytes: wire };
}

function summary(values: number[]): ByteSummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    mean: mean(sorted),
    p50: percentileSorted(sorted, 50),
    p90: percentileSorted(sorted, 90),
  };
}

/** The host's page bytes; undefined without a page body. `wire` is null when no page's wire size is known. */
export function pageBytesOf(bodies: readonly PageBody[]): PageBytes | undefined {
  if (bodies.length === 0) return undefined;
  const wire = bodies.flatMap((b) => (b.wireBytes === null ? [] : [b.wireBytes]));
  return { decoded: summary(bodies.map((b) => b.bytes)), wire: wire.length === 0 ? null : summary(wire) };
}
