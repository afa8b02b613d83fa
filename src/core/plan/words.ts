/** The plan in words: why a host gets the period it gets, and what limits the crawl (`bindingDescription`). */
import { formatDuration, formatNumber, formatSeconds } from '../format/duration';
import { plural } from '../format/text';
import { tidy, type HostNotes } from './host';
import type { Makespan } from './makespan';
import type { HostPlan, ResolvedPlanInput } from './types';

export function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** Why a host gets the period it gets, in words. */
function hostReason(h: HostPlan, notes: HostNotes, r: ResolvedPlanInput): string {
  const interval = formatSeconds(h.intervalSeconds);
  let reason: string;
  switch (h.intervalSource) {
    case 'configured':
      reason = `the configured delay of ${interval}`;
      break;
    case 'crawl-delay':
      reason = notes.capped
        ? `its Crawl-delay of ${formatSeconds(notes.capped.declaredSeconds)}, capped at ${interval}`
        : `its Crawl-delay of ${interval}`;
      break;
    case 'adaptive':
      reason = `the adaptive delay max(1 s, 10 × ${formatSeconds(h.latencySeconds)} latency) = ${interval}`;
      break;
    case 'latency':
      if (h.intervalSeconds === 0) {
        return `its ${formatSeconds(h.latencySeconds)} response time alone (no delay), with ${plural(r.perHostConcurrency, 'request')} in flight per host,`;
      }
      return (
        `its ${formatSeconds(h.latencySeconds)} response time, longer than its ${interval} interval, with ` +
        `${plural(r.perHostConcurrency, 'request')} in flight per host (${percent(h.intervalSeconds / h.periodSeconds)} of the configured rate)`
      );
  }
  return r.delayFrom === 'end'
    ? `${reason}, measured from the end of each ${formatSeconds(h.latencySeconds)} response,`
    : `${reason}, measured from start to start,`;
}

/** One or two sentences saying what limits the crawl (the plan's `bindingDescription`). */
export function describeBinding(
  m: Makespan,
  r: ResolvedPlanInput,
  notes: ReadonlyMap<string, HostNotes>,
  machine: { index: number; of: number } | null,
  unknownHosts = 0,
): string {
  const all = `${plural(m.pages, 'page')} and their hosts' robots.txt (${plural(m.requests, 'request')})`;
  const where = machine ? `On machine ${machine.index} (the slowest of ${machine.of}), ` : '';
  const cap = (s: string) => (where ? s : s.charAt(0).toUpperCase() + s.slice(1));
  const took = formatDuration(m.seconds);
  switch (m.bindingConstraint) {
    case 'none':
      return unknownHosts > 0
        ? `Nothing to crawl yet: the pages of ${plural(unknownHosts, 'host')} are unknown, and no other host has pages.`
        : 'Nothing to crawl: every host with pages is skipped.';
    case 'global-rate':
      return (
        `${where}${cap('the')} global rate of ${formatNumber(r.rate ?? 0, 3)} req/s limits the crawl: ` +
        `${all} take ${took} at that rate, longer than any single host needs.`
      );
    case 'workers': {
      const mean = (m.bounds.workersSeconds * r.workers) / m.requests;
      return (
        `${where}${cap('the')} ${plural(r.workers, 'worker')} ${r.workers === 1 ? 'limits' : 'limit'} the crawl: each request holds a worker for its ` +
        `response time (${formatSeconds(tidy(mean))} on average), so ${all} take ${took}.`
      );
    }
    default: {
      const h = m.bindingHost!;
      const u = m.bindingUnit;
      if (u !== null) {
        // A unit of several hosts (docs/planning.md#politeness-units): named with its size, the member that sets its interval.
        const reason = hostReason(h, notes.get(h.host) ?? {}, r).replace(/^its /, `${h.host}'s `);
        const lanes = r.perHostConcurrency > 1 ? ` on each of ${r.perHostConcurrency} lanes` : '';
        const faults =
          u.faultSeconds > 0 ? `, ${formatDuration(u.faultSeconds)} of it for the faults the test crawl measured` : '';
        return (
          `${where}${u.unit} (${plural(u.hosts.length, 'host')}) limits the crawl: its hosts are one politeness unit (by ${r.politenessBy}), and ` +
          `${reason} gives the unit one request every ${formatSeconds(u.periodSeconds)}${lanes} (${formatNumber(u.pagesPerHour, 1)} pages/h), ` +
          `so its hosts' robots.txt and ${plural(u.pages, 'page')} take ${took}${faults}.`
        );
      }
      const lanes = r.perHostConcurrency > 1 ? ` on each of ${r.perHostConcurrency} lanes` : '';
      const faults =
        h.faultSeconds > 0 ? `, ${formatDuration(h.faultSeconds)} of it for the faults the test crawl measured` : '';
      return (
        `${where}${h.host} limits the crawl: ${hostReason(h, notes.get(h.host) ?? {}, r)} gives one request every ${formatSeconds(h.periodSeconds)}${lanes} ` +
        `(${formatNumber(h.pagesPerHour, 1)} pages/h), so its robots.txt and ${plural(h.pages, 'page')} take ${took}${faults}.`
      );
    }
  }
}
