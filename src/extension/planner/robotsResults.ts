/**
 * robots.txt results for the planner view: the `RobotsInspection` the injected `inspectRobots` returns
 * (src/net/robotsInspect.ts), trimmed to what the webview shows, and the Crawl-delays that feed
 * the plan. Pure.
 */
import type { RobotsInspection } from '../../net/robotsInspect';
import type { RobotsOriginView, RobotsSeedView, RobotsView } from '../../shared/planner/viewModel';

/** At most this many origins are checked per request (a seeds list may name a thousand hosts). */
export const MAX_ROBOTS_ORIGINS = 50;
/** Sitemaps listed per origin (the count says how many there are). */
export const MAX_SITEMAPS_SHOWN = 20;
/** User agents of the applying group listed per origin. */
export const MAX_GROUP_AGENTS_SHOWN = 10;
/** A text and a URL posted to a webview at most (cut with an ellipsis). */
export const MAX_TEXT = 500;
export const MAX_URL = 2048;

export function cut(text: string, max: number): string {
  const s = String(text);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** The number when it is one (the reports use null for "none"). */
function finite(n: number | null): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/**
 * The seed URLs to inspect: every distinct URL whose origin is among the first {@link MAX_ROBOTS_ORIGINS}
 * origins, and how many origins were left out.
 */
export function robotsTargets(seeds: ReadonlyArray<{ url: string; origin: string }>): {
  urls: string[];
  omittedOrigins: number;
} {
  const origins = [...new Set(seeds.map((s) => s.origin))];
  const kept = new Set(origins.slice(0, MAX_ROBOTS_ORIGINS));
  const urls = [...new Set(seeds.filter((s) => kept.has(s.origin)).map((s) => s.url))];
  return { urls, omittedOrigins: origins.length - kept.size };
}

/** The inspection as the webview is sent it: plain data, long texts and lists cut. */
export function toRobotsView(inspection: RobotsInspection, userAgent: string, omittedOrigins = 0): RobotsView {
  const origins: RobotsOriginView[] = inspection.origins.map((o) => {
    const view: RobotsOriginView = {
      origin: cut(o.origin, MAX_URL),
      robotsUrl: cut(o.robotsUrl, MAX_URL),
      outcome: o.outcome,
      effectiveIntervalSeconds: finite(o.effectiveIntervalSeconds) ?? 0,
      intervalSource: cut(o.intervalSource, 40),
      sitemaps: o.sitemaps.slice(0, MAX_SITEMAPS_SHOWN).map((s) => cut(s, MAX_URL)),
      sitemapCount: o.sitemaps.length,
      findingCount: o.findings.length,
      reason: cut(o.reason, MAX_TEXT),
    };
    const status = finite(o.status);
    if (status !== undefined) view.status = status;
    const crawlDelaySeconds = finite(o.crawlDelaySeconds);
    if (crawlDelaySeconds !== undefined) view.crawlDelaySeconds = crawlDelaySeconds;
    const crawlDelayLine = finite(o.crawlDelayLine);
    if (
      crawlDelaySeconds !== undefined &&
      crawlDelayLine !== undefined &&
      Number.isInteger(crawlDelayLine) &&
      crawlDelayLine >= 1
    )
      view.crawlDelayLine = crawlDelayLine;
    const notText = o.findings.find((f) => f.code === 'not-text');
    if (notText) view.notText = cut(notText.message, MAX_TEXT);
    // A group without a line (no group applies) is not shown.
    if (o.group && o.group.line !== null) {
      view.group = {
        line: o.group.line,
        userAgents: o.group.userAgents.slice(0, MAX_GROUP_AGENTS_SHOWN).map((ua) => cut(ua, 200)),
      };
    }
    return view;
  });
  // A URL without an origin (none of the inspected files speaks for it) has no card to appear in.
  const results: RobotsSeedView[] = inspection.results.flatMap((r) => {
    if (r.origin === null) return [];
    const view: RobotsSeedView = {
      url: cut(r.url, MAX_URL),
      origin: cut(r.origin, MAX_URL),
      verdict: r.verdict,
      reason: cut(r.reason, MAX_TEXT),
    };
    if (r.line !== null && Number.isInteger(r.line) && r.line >= 1) view.line = r.line;
    if (r.rule !== null) view.rule = cut(r.rule, 300);
    return [view];
  });
  return { userAgent: cut(userAgent, 300), origins, results, omittedOrigins };
}

/**
 * Crawl-delays for the plan, by host (lower case, with a non-default port, as seeds key hosts). Only
 * files that were read (`ok`) count. When two origins share a host (http and https), the larger
 * Crawl-delay wins: the more polite reading.
 */
export function crawlDelaysFrom(robots: RobotsView): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of robots.origins) {
    if (o.outcome !== 'ok' || o.crawlDelaySeconds === undefined) continue;
    let host: string;
    try {
      host = new URL(o.origin).host.toLowerCase();
    } catch {
      continue;
    }
    out[host] = Math.max(out[host] ?? 0, o.crawlDelaySeconds);
  }
  return out;
}
