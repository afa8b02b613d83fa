'use strict';
/**
 * The politeness check, seen from both ends: from the demo servers' own arrival logs (as
 * `crawl-planner demo` does it) and from the report's wire times (`sentAt`: when each request reached
 * its connection).
 *
 * The servers stamp arrivals on their own event loop (a child process of the harness): a late loop makes
 * a stamp late and the gap after it look shorter than it was on the wire. So the server-side check allows
 * the 2 ms loopback slack plus that loop's worst delay measured during the crawl, and says so.
 */
const LOOPBACK_SLACK_MS = 2;

function minGap(times) {
  const sorted = [...times].sort((a, b) => a - b);
  let min = null;
  for (let i = 1; i < sorted.length; i++) {
    const gap = sorted[i] - sorted[i - 1];
    if (min === null || gap < min) min = gap;
  }
  return min;
}

/**
 * For each demo host (by name → interval in seconds): the requests it received since `since`, robots.txt
 * included (it is the host's first request and must keep the interval too), the shortest gap between two
 * of them, the most it ever had in flight, and whether that held.
 * `snap` is a demo snapshot (lib/servers.js) taken after the crawl.
 */
function checkIntervals(snap, intervals, since) {
  const slack = LOOPBACK_SLACK_MS + Math.ceil(snap.lagMs);
  return Object.entries(intervals).map(([name, seconds]) => {
    const starts = snap.requestArrivals(name, since).map((a) => a.at);
    const minGapMs = minGap(starts);
    const inFlightMax = snap.inFlightMax(name);
    const ok = (minGapMs === null || minGapMs + slack >= seconds * 1000) && inFlightMax <= 1;
    return { name, requests: starts.length, minGapMs, intervalMs: seconds * 1000, slackMs: slack, inFlightMax, ok };
  });
}

/** The same from the report: the shortest gap between `sentAt` of consecutive requests to each host. */
function checkWire(report, intervalsByHost) {
  return Object.entries(intervalsByHost).map(([host, seconds]) => {
    const sent = report.requests.filter((r) => r.host === host && typeof r.sentAt === 'number').map((r) => r.sentAt);
    const minGapMs = minGap(sent);
    return {
      name: host,
      requests: sent.length,
      minGapMs,
      intervalMs: seconds * 1000,
      ok: minGapMs === null || minGapMs >= seconds * 1000,
    };
  });
}

function describe(r) {
  const slack = r.slackMs !== undefined ? ` ± ${r.slackMs} ms` : '';
  const inFlight = r.inFlightMax !== undefined ? `, at most ${r.inFlightMax} at once` : '';
  return `${r.name}: ${r.requests} requests, shortest gap ${r.minGapMs === null ? '—' : `${r.minGapMs} ms`} (interval ${r.intervalMs} ms${slack})${inFlight}`;
}

module.exports = { checkIntervals, checkWire, describe, LOOPBACK_SLACK_MS };
