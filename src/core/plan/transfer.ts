/**
 * What the plan transfers (docs/planning.md#transfer): each host's pages × its body bytes per page on the wire
 * (a test crawl's mean, else `--page-size`), the total, and the peak rate when every host runs at its own rate
 * at once. A host with no size measured or given is unknown, never guessed.
 */
import type { HostCalibration } from '../calibrate/types';
import type { BytesSource, HostPlan, PlanTransfer, ResolvedPlanInput, UnitPlan } from './types';

/** A host's body bytes per page and where they came from; null when nothing measured or gave them. */
export function bytesPerPageOf(
  calibration: HostCalibration | undefined,
  r: Pick<ResolvedPlanInput, 'pageSizeBytes'>,
): { bytesPerPage: number | null; bytesSource: BytesSource | null } {
  const measured = calibration?.pageBytes;
  // A report written before wire sizes were recorded gives the decoded size: what an uncompressed answer costs.
  const perPage = measured ? (measured.wire ?? measured.decoded).mean : undefined;
  if (perPage !== undefined) return { bytesPerPage: Math.round(perPage), bytesSource: 'calibrated' };
  if (r.pageSizeBytes !== null) return { bytesPerPage: r.pageSizeBytes, bytesSource: 'page-size' };
  return { bytesPerPage: null, bytesSource: null };
}

/** A host's bytes: its pages × its bytes per page; null when its page size or its pages are unknown. */
export function hostBytes(pages: number, pagesUnknown: boolean, bytesPerPage: number | null): number | null {
  return bytesPerPage === null || pagesUnknown ? null : Math.round(pages * bytesPerPage);
}

/**
 * The plan's transfer over its planned hosts (skipped hosts and hosts whose pages are unknown left out). The peak:
 * each host at its own rate, or, for the members of a politeness unit of several hosts (one queue), the unit at
 * its rate with its members' mean bytes per page.
 */
export function planTransfer(hosts: readonly HostPlan[], units: readonly UnitPlan[] = []): PlanTransfer {
  let bytes = 0;
  let peak = 0;
  let known = 0;
  const unknownHosts: string[] = [];
  const shared = new Map<string, { bytes: number; pages: number }>(units.map((u) => [u.unit, { bytes: 0, pages: 0 }]));
  for (const h of hosts) {
    if (h.skipped || h.pagesUnknown !== undefined || h.pages === 0) continue;
    if (h.bytes === null || h.bytesPerPage === null) {
      unknownHosts.push(h.host);
      continue;
    }
    known++;
    bytes += h.bytes;
    const unit = h.unit === undefined ? undefined : shared.get(h.unit);
    if (unit === undefined) peak += h.bytesPerPage * h.pagesPerSecond;
    else {
      unit.bytes += h.bytes;
      unit.pages += h.pages;
    }
  }
  for (const u of units) {
    const s = shared.get(u.unit)!;
    if (s.pages > 0) peak += (s.bytes / s.pages) * (u.pagesPerHour / 3600);
  }
  return {
    bytes: known === 0 ? null : bytes,
    peakBytesPerSecond: known === 0 ? null : Math.round(peak),
    unknownHosts,
  };
}
