/**
 * What `crawl-planner robots`, `estimate --robots`, the sidebar and the crawl all show about robots.txt:
 * per origin the outcome, the group, Crawl-delay and the effective interval it implies; per URL the verdict
 * and the deciding line. Pure: the fetch result comes in as data (src/net does the fetching).
 */
import { effectiveInterval, type CrawlDelayPolicy, type IntervalDecision } from '../politeness/interval';
import {
  briefReason,
  explainWithOutcome,
  groupFor,
  verdictWithOutcome,
  type RobotsOutcome,
  type RobotsVerdict,
} from './explain';
import type { RobotsFinding } from './findings';
import type { RobotsFile } from './robotsFile';

export interface RobotsSettings {
  /** The product token rules are matched against ([a-zA-Z_-]+). */
  productToken: string;
  /** The configured per-host delay in seconds. */
  configuredDelaySeconds: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  maxCrawlDelaySeconds: number;
}

/** What the fetch found for one origin (a subset of src/net's RobotsFetchResult, or a local file). */
export interface RobotsSource {
  origin: string;
  robotsUrl: string;
  outcome: RobotsOutcome;
  /** `network` for a fetch, `file` for `--file` and the editor. */
  from: 'network' | 'file';
  status?: number;
  redirects?: ReadonlyArray<{ from: string; to: string; status: number }>;
  bytes?: number;
  truncated?: boolean;
  fetchedAt?: number;
  /** The fetch layer's one-line explanation (status, error). */
  reason?: string;
  errorKind?: string;
}

export interface RobotsOriginInspection {
  origin: string;
  robotsUrl: string;
  outcome: RobotsOutcome;
  from: 'network' | 'file';
  status: number | null;
  redirects: Array<{ from: string; to: string; status: number }>;
  bytes: number | null;
  truncated: boolean;
  /** Epoch ms of the fetch; null for a local file. */
  fetchedAt: number | null;
  /** The group that applies to the product token: its first line, all merged lines and the agents named. */
  group: {
    line: number | null;
    lines: number[];
    userAgents: string[];
    matchedBy: 'product-token' | 'star' | 'none';
  } | null;
  /** The group's validated Crawl-delay (seconds) and its line, or null. */
  crawlDelaySeconds: number | null;
  crawlDelayLine: number | null;
  /** max(configured delay, Crawl-delay under the cap policy) and where it came from. */
  effectiveIntervalSeconds: number;
  intervalSource: IntervalDecision['source'];
  /** True when the Crawl-delay is above the cap and the policy is `skip`: the host is left out. */
  skipped: boolean;
  crawlDelayAboveCap: { declaredSeconds: number; capSeconds: number } | null;
  sitemaps: string[];
  findings: RobotsFinding[];
  /** One sentence: what the outcome means for crawling. */
  reason: string;
}

export interface RobotsUrlResult {
  url: string;
  origin: string | null;
  verdict: RobotsVerdict;
  line: number | null;
  rule: string | null;
  reason: string;
}

/** The per-origin report from a fetch (or file) result and, when the outcome is ok, the parsed file. */
export function inspectOrigin(
  source: RobotsSource,
  file: RobotsFile | undefined,
  settings: RobotsSettings,
): RobotsOriginInspection {
  const ok = source.outcome === 'ok' && file !== undefined;
  const sel = ok ? groupFor(file, settings.productToken) : undefined;
  const crawlDelay = sel?.crawlDelay;
  const decision = effectiveInterval({
    configuredSeconds: settings.configuredDelaySeconds,
    ...(crawlDelay ? { crawlDelaySeconds: crawlDelay.seconds } : {}),
    crawlDelayPolicy: settings.crawlDelayPolicy,
    maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
  });
  return {
    origin: source.origin,
    robotsUrl: source.robotsUrl,
    outcome: source.outcome,
    from: source.from,
    status: source.status ?? null,
    redirects: [...(source.redirects ?? [])],
    bytes: source.bytes ?? file?.body?.bytes ?? null,
    truncated: Boolean(source.truncated || file?.body?.truncated),
    fetchedAt: source.fetchedAt ?? null,
    group: sel
      ? { line: sel.line ?? null, lines: [...sel.lines], userAgents: [...sel.userAgents], matchedBy: sel.matchedBy }
      : null,
    crawlDelaySeconds: crawlDelay?.seconds ?? null,
    crawlDelayLine: crawlDelay?.line ?? null,
    effectiveIntervalSeconds: decision.seconds,
    intervalSource: decision.source,
    skipped: decision.skipped,
    crawlDelayAboveCap: decision.crawlDelayAboveCap ?? null,
    sitemaps: ok ? file.sitemaps.map((s) => s.url) : [],
    findings: ok ? [...file.findings] : [],
    reason: outcomeReason(source),
  };
}

function outcomeReason(source: RobotsSource): string {
  switch (source.outcome) {
    case 'ok':
      return source.from === 'file'
        ? 'Local file: its rules apply.'
        : (source.reason ?? 'robots.txt was fetched: its rules apply.');
    case 'unavailable':
      return source.reason ?? 'robots.txt is unavailable: every URL may be crawled (RFC 9309 §2.3.1.3).';
    case 'unreachable':
      return source.reason ?? 'robots.txt is unreachable: every URL is disallowed (RFC 9309 §2.3.1.4).';
    default: {
      const never: never = source.outcome;
      return never;
    }
  }
}

/**
 * The verdict for one URL against its origin's fetch outcome and file, with explain()'s reason; with
 * `brief` (bulk output), on the verdict-only path with briefReason(), one short sentence per kind of verdict.
 */
export function urlResult(
  url: string,
  source: RobotsSource | undefined,
  file: RobotsFile | undefined,
  productToken: string,
  missingReason = 'No robots.txt was fetched for this origin.',
  brief = false,
): RobotsUrlResult {
  if (!source) return { url, origin: null, verdict: 'not-applicable', line: null, rule: null, reason: missingReason };
  if (brief) {
    const v = verdictWithOutcome(source.outcome, file, url, productToken, source.robotsUrl);
    return {
      url,
      origin: source.origin,
      verdict: v.verdict,
      line: v.line ?? null,
      rule: v.rule ?? null,
      reason: briefReason(v),
    };
  }
  const e = explainWithOutcome(source.outcome, file, url, productToken, {
    robotsUrl: source.robotsUrl,
    ...(source.status !== undefined ? { status: source.status } : {}),
    ...(source.errorKind !== undefined ? { detail: source.errorKind } : {}),
  });
  return {
    url,
    origin: source.origin,
    verdict: e.verdict,
    line: e.line ?? null,
    rule: e.rule ?? null,
    reason: e.reason,
  };
}
