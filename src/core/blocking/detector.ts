/**
 * "Alert on the trend, not just the crash" (seed: rate limiting and backoff):
 * for one host (or politeness unit), a sliding window of outcomes, and a signal when the trend says the crawl is
 * being blocked before it fails outright:
 *
 *   refusals  at least MIN_REFUSALS of 401/403/429/503, and their share in the last WINDOW requests is at least
 *             REFUSAL_SHARE and has risen by REFUSAL_RISE over the host's share before them ("403 share rose from 0% to 40% over the last 20
 *             requests");
 *   shrunk    of the last SHRINK_PAGES pages (2xx HTML), at least SHRINK_COUNT are under SHRINK_BELOW of the
 *             host's own median size, the median of its earlier pages ("pages shrank to 6% of this host's
 *             median size, 0 links");
 *   links     of the last SHRINK_PAGES pages, at least SHRINK_COUNT have under SHRINK_BELOW of the host's median
 *             links, the median being at least MIN_MEDIAN_LINKS (the records per page drop, the size does not);
 *   marker    MARKER_MATCHES of the last WINDOW pages match a block marker (markers.ts): a challenge page.
 *
 * A host's own median needs MEDIAN_PAGES earlier pages; before that, the size and link signals wait. After a
 * signal the window starts again, so a second signal needs new evidence (the engine slows the host on the first
 * and drops it on the second). Pure and bounded: O(WINDOW + REFERENCE_PAGES) memory per host.
 */

export const BLOCK_DETECTION = {
  window: 20,
  minRequests: 5,
  minRefusals: 4,
  refusalShare: 0.3,
  refusalRise: 0.2,
  shrinkPages: 8,
  shrinkCount: 6,
  shrinkBelow: 0.2,
  medianPages: 10,
  referencePages: 200,
  minMedianLinks: 5,
  markerMatches: 2,
} as const;

/** The statuses that refuse a crawler (a decision or a throttle), counted by the refusal signal. */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 429, 503]);

export type BlockSignalKind = 'refusals' | 'shrunk' | 'links' | 'marker';

export interface BlockSignal {
  kind: BlockSignalKind;
  /** For people: "403 share rose from 0% to 40% over the last 20 requests". */
  text: string;
  /** The numbers behind it (shares 0–1, sizes in bytes). */
  numbers: Record<string, number>;
}

/** One answer as the detector sees it. */
export interface BlockObservation {
  status: number;
  /** A 2xx HTML page: its body bytes and the links found on it. */
  page?: { bytes: number; links: number };
  /** The block marker it matched (markers.ts), if any. */
  marker?: { id: string; service: string };
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export class BlockDetector {
  /** The last WINDOW observations. */
  private recent: BlockObservation[] = [];
  /** Requests and refusals before `recent` (the host's share before the trend). */
  private earlierRequests = 0;
  private earlierRefusals = 0;
  /** The last SHRINK_PAGES pages; the reference pages before them (at most REFERENCE_PAGES, newest last). */
  private lastPages: Array<{ bytes: number; links: number }> = [];
  private reference: Array<{ bytes: number; links: number }> = [];
  private medians: { bytes: number; links: number } | undefined;
  private referenceChanged = true;

  /** The next answer; a signal when the trend crosses a threshold (the window then starts again). */
  observe(o: BlockObservation): BlockSignal | undefined {
    const d = BLOCK_DETECTION;
    this.recent.push(o);
    if (this.recent.length > d.window) {
      const old = this.recent.shift()!;
      this.earlierRequests += 1;
      if (REFUSAL_STATUSES.has(old.status)) this.earlierRefusals += 1;
    }
    if (o.page !== undefined) {
      this.lastPages.push(o.page);
      if (this.lastPages.length > d.shrinkPages) {
        this.reference.push(this.lastPages.shift()!);
        if (this.reference.length > d.referencePages) this.reference.shift();
        this.referenceChanged = true;
      }
    }
    const signal = this.refusals() ?? this.marker() ?? (o.page !== undefined ? this.pages() : undefined);
    if (signal !== undefined) this.restart();
    return signal;
  }

  private refusals(): BlockSignal | undefined {
    const d = BLOCK_DETECTION;
    if (this.recent.length < d.minRequests) return undefined;
    const refused = this.recent.filter((o) => REFUSAL_STATUSES.has(o.status));
    const share = refused.length / this.recent.length;
    const before = this.earlierRequests > 0 ? this.earlierRefusals / this.earlierRequests : 0;
    if (refused.length < d.minRefusals || share < d.refusalShare || share - before < d.refusalRise) return undefined;
    const statuses = [...new Set(refused.map((o) => o.status))].sort((a, b) => a - b);
    const counts = statuses.map((s) => refused.filter((o) => o.status === s).length);
    const top = statuses[counts.indexOf(Math.max(...counts))]!;
    const label = counts.filter((c) => c > 0).length === 1 ? String(top) : statuses.join('/');
    return {
      kind: 'refusals',
      text: `${label} share rose from ${percent(before)} to ${percent(share)} over the last ${this.recent.length} requests`,
      numbers: { share, before, requests: this.recent.length, status: top },
    };
  }

  private marker(): BlockSignal | undefined {
    const marked = this.recent.filter((o) => o.marker !== undefined);
    if (marked.length < BLOCK_DETECTION.markerMatches) return undefined;
    const last = marked[marked.length - 1]!.marker!;
    return {
      kind: 'marker',
      text: `${marked.length} of the last ${this.recent.length} answers were a block page (${last.service}, marker ${last.id})`,
      numbers: { matches: marked.length, requests: this.recent.length },
    };
  }

  private pages(): BlockSignal | undefined {
    const d = BLOCK_DETECTION;
    if (this.lastPages.length < d.shrinkPages || this.reference.length < d.medianPages) return undefined;
    if (this.referenceChanged || this.medians === undefined) {
      this.medians = {
        bytes: median(this.reference.map((p) => p.bytes)),
        links: median(this.reference.map((p) => p.links)),
      };
      this.referenceChanged = false;
    }
    const m = this.medians;
    const recentBytes = median(this.lastPages.map((p) => p.bytes));
    const recentLinks = median(this.lastPages.map((p) => p.links));
    const small = this.lastPages.filter((p) => p.bytes < d.shrinkBelow * m.bytes).length;
    if (m.bytes > 0 && small >= d.shrinkCount) {
      const ratio = recentBytes / m.bytes;
      return {
        kind: 'shrunk',
        text: `pages shrank to ${percent(ratio)} of this host's median size, ${recentLinks} link${recentLinks === 1 ? '' : 's'}`,
        numbers: { ratio, medianBytes: m.bytes, recentBytes, recentLinks, medianLinks: m.links },
      };
    }
    const bare = this.lastPages.filter((p) => p.links < d.shrinkBelow * m.links).length;
    if (m.links >= d.minMedianLinks && bare >= d.shrinkCount)
      return {
        kind: 'links',
        text: `pages lost their links: ${recentLinks} per page against this host's median of ${m.links}`,
        numbers: { recentLinks, medianLinks: m.links },
      };
    return undefined;
  }

  private restart(): void {
    for (const o of this.recent) {
      this.earlierRequests += 1;
      if (REFUSAL_STATUSES.has(o.status)) this.earlierRefusals += 1;
    }
    this.recent = [];
    // The suspicious pages do not become the host's reference.
    this.lastPages = [];
  }
}
