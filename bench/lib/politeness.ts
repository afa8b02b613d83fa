/**
 * Politeness and efficiency of one crawl, judged only from the servers' arrival log (what the hosts saw,
 * not what the crawler believes it did). robots.txt counts as a request to its host like any other. Pure.
 *
 * - A short gap: two consecutive request starts on one host closer than the host's interval less
 *   LOOPBACK_SLACK_MS. The interval is the larger of the configured delay and the host's Crawl-delay.
 *   A server stamps an arrival when its event loop gets to it, so a stamp can be late by the loop's
 *   delay; gaps short by more than the slack plus that delay are counted apart ("beyond lag").
 * - Early after Retry-After: a request that reached a host after it answered with Retry-After and before
 *   that wait was over (counted from the end of the answer, less the slack), whatever URL it was for.
 * - The bound: the least makespan a polite crawler could reach with the same requests and the same answer
 *   times: per host, Σ max(interval, answer time) over all requests but the last, plus the last answer time
 *   (one request in flight, start to start); over all hosts, the largest of those and the total answer
 *   time / global slots. Efficiency = bound / makespan (above 1 only for a crawler that broke the rules).
 * - Start lateness: how long after it was allowed each request started. Allowed: the crawl's first
 *   arrival for a host's first request; then the latest of the previous start + interval, the previous
 *   answer's end, and the end of any Retry-After wait.
 */
import { percentile } from '../../src/core/statistics';
import type { DemoArrival } from '../../src/demo';
import { LOOPBACK_SLACK_MS } from '../../src/demo/lag';
import { parseRetryAfter, RETRY_AFTER_MAX_SECONDS } from '../../src/core/politeness/retryAfter';
import type { ServerLog } from './hostServer';

export { percentile };

export const ROBOTS_PATH = '/robots.txt';

export interface HostFacts {
  name: string;
  /** The effective interval in ms: the larger of the configured delay and the host's Crawl-delay. */
  intervalMs: number;
  /** robots.txt answers 5xx: unreachable, so nothing may be fetched (RFC 9309 §2.3.1.4). */
  robotsUnreachable: boolean;
  /** Whether robots.txt disallows this path (and query) to every crawler. */
  disallowed(pathAndQuery: string): boolean;
}

export interface RunMetrics {
  /** Every request the servers saw, robots.txt included. */
  requests: number;
  /** Answers 200 to a path other than robots.txt. */
  pages: number;
  shortGaps: number;
  /** How far the shortest gap fell below its interval, in ms (0 without short gaps). */
  worstShortfallMs: number;
  /** Short gaps that fall short by more than the slack plus the servers' event-loop delay (not stamping noise). */
  shortGapsBeyondLag: number;
  /** The most requests one host had open at once. */
  maxInFlight: number;
  earlyAfterRetryAfter: number;
  /** Requests other than robots.txt to hosts whose robots.txt answered 5xx. */
  unreachableRobotsFetches: number;
  /** Requests for paths robots.txt disallows. */
  disallowedFetches: number;
  makespanMs: number;
  boundMs: number;
  efficiency: number;
  latenessP50Ms: number;
  latenessP99Ms: number;
}

function pathOnly(target: string): string {
  const cut = target.search(/[?#]/);
  return cut >= 0 ? target.slice(0, cut) : target;
}

/** When the answer ended, or when the run ended for one that never did. */
function endOf(a: DemoArrival, runEnd: number): number {
  return a.endedAt ?? runEnd;
}

/** The end of the wait an answer's Retry-After asked for, counted from the end of the answer; undefined without one. */
function retryAfterUntil(a: DemoArrival): number | undefined {
  if (a.retryAfter === undefined || a.endedAt === undefined) return undefined;
  const read = parseRetryAfter(a.retryAfter, a.endedAt, { capSeconds: RETRY_AFTER_MAX_SECONDS });
  return read.kind === 'invalid' ? undefined : a.endedAt + read.requestedMs;
}

export function analyseRun(hosts: readonly HostFacts[], log: ServerLog, slots: number): RunMetrics {
  const all = log.arrivals;
  const byHost = new Map<string, DemoArrival[]>();
  for (const h of hosts) byHost.set(h.name, []);
  for (const a of all) byHost.get(a.host)?.push(a);
  const t0 = all.length > 0 ? Math.min(...all.map((a) => a.at)) : 0;
  const runEnd = all.length > 0 ? Math.max(...all.map((a) => a.endedAt ?? a.at)) : 0;

  let shortGaps = 0;
  let worstShortfallMs = 0;
  let shortGapsBeyondLag = 0;
  let earlyAfterRetryAfter = 0;
  let unreachableRobotsFetches = 0;
  let disallowedFetches = 0;
  let hostBoundMs = 0;
  let busyMs = 0;
  const lateness: number[] = [];

  for (const h of hosts) {
    const list = [...(byHost.get(h.name) ?? [])].sort((a, b) => a.at - b.at);
    const waits: number[] = []; // Retry-After ends, by arrival index
    let hostBound = 0;
    for (const [i, a] of list.entries()) {
      const duration = Math.max(0, endOf(a, runEnd) - a.at);
      busyMs += duration;
      hostBound += i < list.length - 1 ? Math.max(h.intervalMs, duration) : duration;
      const isRobots = pathOnly(a.path) === ROBOTS_PATH;
      if (!isRobots && h.robotsUnreachable) unreachableRobotsFetches++;
      if (!isRobots && h.disallowed(a.path)) disallowedFetches++;

      // Retry-After waits announced by answers that had ended when this request arrived.
      let waitUntil = -Infinity;
      let early = false;
      for (const [j, until] of waits.entries()) {
        const announcedAt = list[j]!.endedAt!;
        if (announcedAt > a.at) continue;
        waitUntil = Math.max(waitUntil, until);
        if (a.at < until - LOOPBACK_SLACK_MS) early = true;
      }
      if (early) earlyAfterRetryAfter++;
      const until = retryAfterUntil(a);
      waits[i] = until ?? -Infinity;

      if (i === 0) {
        lateness.push(Math.max(0, a.at - t0));
        continue;
      }
      const prev = list[i - 1]!;
      const gap = a.at - prev.at;
      if (gap < h.intervalMs - LOOPBACK_SLACK_MS) {
        shortGaps++;
        worstShortfallMs = Math.max(worstShortfallMs, h.intervalMs - gap);
        if (gap < h.intervalMs - LOOPBACK_SLACK_MS - log.lagMs) shortGapsBeyondLag++;
      }
      const allowed = Math.max(prev.at + h.intervalMs, endOf(prev, runEnd), waitUntil);
      lateness.push(Math.max(0, a.at - allowed));
    }
    hostBoundMs = Math.max(hostBoundMs, hostBound);
  }

  const makespanMs = runEnd - t0;
  const boundMs = Math.max(hostBoundMs, busyMs / Math.max(1, slots));
  return {
    requests: all.length,
    pages: all.filter((a) => a.status === 200 && pathOnly(a.path) !== ROBOTS_PATH).length,
    shortGaps,
    worstShortfallMs,
    shortGapsBeyondLag,
    maxInFlight: Math.max(0, ...Object.values(log.inFlightMax)),
    earlyAfterRetryAfter,
    unreachableRobotsFetches,
    disallowedFetches,
    makespanMs,
    boundMs,
    efficiency: makespanMs > 0 ? boundMs / makespanMs : 0,
    latenessP50Ms: percentile(lateness, 50),
    latenessP99Ms: percentile(lateness, 99),
  };
}
