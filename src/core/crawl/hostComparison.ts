/**
 * Each host's planned against actual pages, requests and time, for a crawl run with page budgets (its flags or
 * `--plan`): the crawl report's `comparison.hosts` (docs/formats.md#the-crawl-report---report-filejson) and the
 * CLI's end text. A host's actual time is as the plan counts it: from its first request (its robots.txt) to its
 * last answer; for a member of a politeness unit of several hosts, its unit's (planned and actual). Pure.
 */
import type { HostSummary } from './events';

/** What the plan gave a host: pages null when they were unknown. */
export interface PlannedHost {
  host: string;
  pages: number | null;
  requests: number;
  seconds: number;
  /**
   * The politeness unit of several hosts the host is in, if any: its requests take turns with the others', so its
   * planned time is the unit's, and its actual time is the unit's too (the first request of any member to the last
   * answer of any).
   */
  unit?: string;
}

/** A request's host and times, as the report's records have them (epoch ms; endedAt null: unfinished). */
export interface TimedRequest {
  host: string;
  startedAt: number;
  endedAt: number | null;
}

export interface HostComparison {
  host: string;
  /** Null for a host the plan did not have (or whose pages it did not know). */
  plannedPages: number | null;
  actualPages: number;
  plannedRequests: number | null;
  actualRequests: number;
  plannedSeconds: number | null;
  /** First request start to last answer, seconds; 0 for a host with no request. */
  actualSeconds: number;
  /** +10 for a host 10% slower than planned; null without a planned time above 0. */
  secondsVsPlannedPercent: number | null;
}

/** The plan's hosts in plan order, then any host the crawl met that the plan did not have. */
export function compareHosts(
  planned: readonly PlannedHost[],
  crawled: readonly Pick<HostSummary, 'host' | 'pages' | 'requests'>[],
  requests: readonly TimedRequest[],
): HostComparison[] {
  // Spans by host, or by unit for the members of one.
  const keyOf = new Map<string, string>();
  for (const p of planned) if (p.unit !== undefined) keyOf.set(p.host, `unit ${p.unit}`);
  const span = new Map<string, { first: number; last: number }>();
  for (const r of requests) {
    const key = keyOf.get(r.host) ?? r.host;
    const s = span.get(key);
    const end = r.endedAt ?? r.startedAt;
    if (s === undefined) span.set(key, { first: r.startedAt, last: end });
    else {
      s.first = Math.min(s.first, r.startedAt);
      s.last = Math.max(s.last, end);
    }
  }
  const byHost = new Map(crawled.map((h) => [h.host, h]));
  const row = (host: string, p: PlannedHost | undefined): HostComparison => {
    const c = byHost.get(host);
    const s = span.get(keyOf.get(host) ?? host);
    const actualSeconds = s === undefined ? 0 : (s.last - s.first) / 1000;
    const plannedSeconds = p?.pages === null || p === undefined ? null : p.seconds;
    return {
      host,
      plannedPages: p?.pages ?? null,
      actualPages: c?.pages ?? 0,
      plannedRequests: p?.pages === null || p === undefined ? null : p.requests,
      actualRequests: c?.requests ?? 0,
      plannedSeconds,
      actualSeconds,
      secondsVsPlannedPercent:
        plannedSeconds !== null && plannedSeconds > 0
          ? Math.round((actualSeconds / plannedSeconds - 1) * 1000) / 10
          : null,
    };
  };
  const rows = planned.map((p) => row(p.host, p));
  const inPlan = new Set(planned.map((p) => p.host));
  for (const h of crawled) if (!inPlan.has(h.host)) rows.push(row(h.host, undefined));
  return rows;
}
