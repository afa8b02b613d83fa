/**
 * robots.txt results for the planner: what the injected `inspectRobots` returns (the lead's
 * `src/net/robotsInspect.ts`, typed here structurally by the fields the planner reads), trimmed to what the
 * webview shows, and the Crawl-delays that feed the plan. Pure.
 */
import type { RobotsOriginView, RobotsOutcome, RobotsSeedView, RobotsVerdict, RobotsView } from '../../shared/protocol';

/** One origin as `inspectRobots` reports it (only the fields the planner reads). */
export interface RobotsOriginLike {
  origin: string;
  robotsUrl: string;
  outcome: RobotsOutcome;
  status?: number;
  crawlDelaySeconds?: number;
  effectiveIntervalSeconds: number;
  intervalSource: string;
  sitemaps: readonly string[];
  group?: { line: number; userAgents: readonly string[] };
  findings: readonly unknown[];
  reason: string;
}

/** One seed URL's verdict as `inspectRobots` reports it. */
export interface RobotsResultLike {
  url: string;
  origin: string;
  verdict: RobotsVerdict;
  line?: number;
  rule?: string;
  reason: string;
}

/** The part of `RobotsInspection` the planner reads. */
export interface RobotsInspectionLike {
  origins: readonly RobotsOriginLike[];
  results: readonly RobotsResultLike[];
}

/** At most this many origins are checked per request (a seeds list may name a thousand hosts). */
export const MAX_ROBOTS_ORIGINS = 50;
/** Sitemaps listed per origin (the count says how many there are). */
export const MAX_SITEMAPS_SHOWN = 20;
/** User agents of the applying group listed per origin. */
export const MAX_GROUP_AGENTS_SHOWN = 10;
const MAX_TEXT = 500;
const MAX_URL = 2048;

function cut(text: string, max: number): string {
  const s = String(text);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function finite(n: number | undefined): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/**
 * The seed URLs to inspect: every distinct URL whose origin is among the first {@link MAX_ROBOTS_ORIGINS}
 * origins, and how many origins were left out.
 */
export function robotsTargets(seeds: ReadonlyArray<{ url: string; origin: string }>): { urls: string[]; omittedOrigins: number } {
  const origins = [...new Set(seeds.map((s) => s.origin))];
  const kept = new Set(origins.slice(0, MAX_ROBOTS_ORIGINS));
  const urls = [...new Set(seeds.filter((s) => kept.has(s.origin)).map((s) => s.url))];
  return { urls, omittedOrigins: origins.length - kept.size };
}

/** The inspection as the webview is sent it: plain data, long texts and lists cut. */
export function toRobotsView(inspection: RobotsInspectionLike, userAgent: string, omittedOrigins = 0): RobotsView {
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
    if (finite(o.status) !== undefined) view.status = o.status;
    if (finite(o.crawlDelaySeconds) !== undefined) view.crawlDelaySeconds = o.crawlDelaySeconds;
    if (o.group) {
      view.group = {
        line: o.group.line,
        userAgents: o.group.userAgents.slice(0, MAX_GROUP_AGENTS_SHOWN).map((ua) => cut(ua, 200)),
      };
    }
    return view;
  });
  const results: RobotsSeedView[] = inspection.results.map((r) => {
    const view: RobotsSeedView = { url: cut(r.url, MAX_URL), origin: cut(r.origin, MAX_URL), verdict: r.verdict, reason: cut(r.reason, MAX_TEXT) };
    if (typeof r.line === 'number' && Number.isInteger(r.line) && r.line >= 1) view.line = r.line;
    if (typeof r.rule === 'string') view.rule = cut(r.rule, 300);
    return view;
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
