/**
 * Verdicts: allowed / disallowed / not-applicable for one URL and one crawler, with the deciding line and a
 * sentence saying why. Group choice is ours (from parse.ts); the matching of rules is robots-parser's, fed
 * canonical patterns and a canonical URL, unless its worst-case cost for this URL is above
 * MATCH_STEP_BUDGET, when the equivalent linear matcher decides (gap G15).
 *
 * Order of checks:
 * 1. The URL must be an absolute http(s) URL (or a path starting with "/", resolved against the robots.txt
 *    URL) on the robots.txt's origin; otherwise `not-applicable`, never `disallowed` (gap G16). The empty
 *    string is not a URL: `not-applicable`.
 * 2. `/robots.txt` itself is always allowed (RFC 9309 §2.2.2; gap G9).
 * 3. Groups: all groups naming the product token are merged; else all `*` groups are merged; else no group
 *    applies and everything is allowed (§2.2.1). A matching group without rules allows everything (§2.1;
 *    gap G8), it does not fall back to `*`.
 * 4. The longest matching rule wins; on a tie allow wins; no match means allowed (§2.2.2).
 */
import robotsParser from 'robots-parser';
import { normalizeForMatch } from './encoding';
import { MATCH_STEP_BUDGET, linearLongestMatch, robotsParserSteps, type MatchRule } from './match';
import type { RobotsCrawlDelay, RobotsFile, RobotsGroup, RobotsParserInstance, RobotsRule, RobotsSitemap } from './parse';
import { resolveProductToken, type ProductTokenSource } from './token';

export type RobotsVerdict = 'allowed' | 'disallowed' | 'not-applicable';
export type GroupMatch = 'product-token' | 'star' | 'none';

/** Which groups apply to a crawler. */
export interface GroupSelection {
  matchedBy: GroupMatch;
  /** The product token used (as resolved from the input, original case); absent when none was valid. */
  productToken?: string;
  productTokenSource?: ProductTokenSource;
  /** Why the input gave no product token (then only `*` groups can apply). */
  tokenProblem?: string;
  /** The merged groups, in file order; empty when `matchedBy` is 'none'. */
  groups: RobotsGroup[];
  /** Line of the first merged group's first user-agent line. */
  line?: number;
  /** Lines of all merged groups. */
  lines: number[];
  /** The user-agent values of the merged groups as written (duplicates removed). */
  userAgents: string[];
  /** The merged rules in file order (empty-valued rules included). */
  rules: RobotsRule[];
  /** The largest Crawl-delay among the merged groups. */
  crawlDelay?: RobotsCrawlDelay;
  /** The key robots-parser is asked with: the lower-case token, or `*`. */
  key?: string;
}

export interface RobotsExplanation {
  verdict: RobotsVerdict;
  /** The deciding line (1-based), when a rule decided. */
  line?: number;
  /** The deciding line as written, e.g. `Disallow: /private`. */
  rule?: string;
  directive?: 'allow' | 'disallow';
  group?: {
    /** Absent when no group applies (`matchedBy: 'none'`). */
    line?: number;
    lines: number[];
    userAgents: string[];
    matchedBy: GroupMatch;
  };
  crawlDelaySeconds?: number;
  /** One human sentence. */
  reason: string;
  /** The URL as checked (normalised href), when it parsed. */
  url?: string;
  /** The canonical path+query that was matched. */
  path?: string;
  productToken?: string;
  tokenProblem?: string;
  /** Which matcher decided (see match.ts); absent when no rule had to be matched. */
  matcher?: 'robots-parser' | 'linear';
  /** Set by explainWithOutcome. */
  outcome?: RobotsOutcome;
}

export interface ExplainOptions {
  /** Force a matcher (tests); default 'auto' = robots-parser within the step budget, else linear. */
  matcher?: 'auto' | 'robots-parser' | 'linear';
  /** Override MATCH_STEP_BUDGET (tests). */
  stepBudget?: number;
}

/** `https://host:port/robots.txt` for an http(s) URL; undefined for anything else. */
export function robotsUrlFor(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return `${u.origin}/robots.txt`;
  } catch {
    return undefined;
  }
}

function describeAgents(sel: GroupSelection): string {
  if (sel.matchedBy === 'star') return 'the * group';
  return `the group for ${sel.userAgents.join(', ')}`;
}

function groupLinesText(sel: GroupSelection): string {
  if (sel.lines.length === 1) return `line ${sel.lines[0]}`;
  return `lines ${sel.lines.join(', ')}, merged`;
}

/** The groups that apply to `productToken` (a product token or a full User-Agent header; see token.ts). */
export function groupFor(file: RobotsFile, productToken: string): GroupSelection {
  const resolved = resolveProductToken(productToken);
  const base: Pick<GroupSelection, 'productToken' | 'productTokenSource' | 'tokenProblem'> = {};
  if (resolved.token !== undefined) {
    base.productToken = resolved.token;
    base.productTokenSource = resolved.source;
  }
  if (resolved.problem !== undefined) base.tokenProblem = resolved.problem;

  const token = resolved.token?.toLowerCase();
  let matchedBy: GroupMatch = 'none';
  let groups: RobotsGroup[] = [];
  if (token !== undefined) {
    groups = file.groups.filter((g) => g.userAgents.some((ua) => !ua.global && ua.token === token));
    if (groups.length > 0) matchedBy = 'product-token';
  }
  if (groups.length === 0) {
    groups = file.groups.filter((g) => g.userAgents.some((ua) => ua.global));
    if (groups.length > 0) matchedBy = 'star';
  }
  if (matchedBy === 'none') return { ...base, matchedBy, groups: [], lines: [], userAgents: [], rules: [] };

  const userAgents = [...new Set(groups.flatMap((g) => g.userAgents.map((ua) => ua.value)))];
  const rules = groups.flatMap((g) => g.rules);
  let crawlDelay: RobotsCrawlDelay | undefined;
  for (const g of groups) if (g.crawlDelay && (!crawlDelay || g.crawlDelay.seconds > crawlDelay.seconds)) crawlDelay = g.crawlDelay;
  const sel: GroupSelection = {
    ...base,
    matchedBy,
    groups,
    line: (groups[0] as RobotsGroup).line,
    lines: groups.map((g) => g.line),
    userAgents,
    rules,
    key: matchedBy === 'star' ? '*' : token,
  };
  if (crawlDelay) sel.crawlDelay = crawlDelay;
  return sel;
}

/** The Crawl-delay of the groups that apply to `productToken` (no fallback to `*` when a specific group applies). */
export function crawlDelayFor(file: RobotsFile, productToken: string): { seconds?: number; line?: number } {
  const d = groupFor(file, productToken).crawlDelay;
  return d ? { seconds: d.seconds, line: d.line } : {};
}

/** The file's valid sitemaps (absolute http(s), resolved against the robots.txt URL, duplicates removed). */
export function sitemaps(file: RobotsFile): RobotsSitemap[] {
  return [...file.sitemaps];
}

/**
 * The text robots-parser is given for selection key `key` (a lower-case token or `*`): the same number of
 * lines as the file, so its line numbers are ours. Rule lines in groups carry canonical patterns; in each
 * group the first user-agent line naming `key` becomes `User-agent: <key>` and every other user-agent line
 * an empty `User-agent:` (it keeps the group structure but names nobody, so robots-parser stores each rule
 * once, under one key); every other line is blank.
 */
export function robotsParserInput(file: RobotsFile, key: string): string {
  const out: string[] = new Array<string>(file.lines.length).fill('');
  for (const g of file.groups) {
    const named = g.userAgents.find((ua) => (key === '*' ? ua.global : !ua.global && ua.token === key));
    for (const ua of g.userAgents) out[ua.line - 1] = ua === named ? `User-agent: ${key}` : 'User-agent:';
    for (const r of g.rules) out[r.line - 1] = `${r.directive === 'allow' ? 'Allow' : 'Disallow'}: ${r.pattern}`;
  }
  return out.join('\n');
}

const MAX_PARSERS = 16;

function parserFor(file: RobotsFile, key: string): RobotsParserInstance {
  let p = file.parsers.get(key);
  if (!p) {
    if (file.parsers.size >= MAX_PARSERS) file.parsers.delete(file.parsers.keys().next().value as string);
    p = robotsParser(file.robotsUrl, robotsParserInput(file, key));
    file.parsers.set(key, p);
  }
  return p;
}

type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string; href?: string };

function checkUrl(robotsUrl: string | undefined, input: string): UrlCheck {
  let url: URL;
  try {
    if (input.startsWith('/') && !input.startsWith('//') && robotsUrl) url = new URL(input, robotsUrl);
    else url = new URL(input);
  } catch {
    const what = input === '' ? 'The URL is empty' : `"${input}" is not an absolute URL`;
    return { ok: false, reason: `${what}, so robots.txt rules do not apply to it.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, href: url.href, reason: `${url.href} is not an http(s) URL; robots.txt does not apply to it.` };
  }
  if (robotsUrl !== undefined) {
    const origin = new URL(robotsUrl).origin;
    if (url.origin !== origin) {
      return {
        ok: false,
        href: url.href,
        reason: `${url.href} is not on ${origin}; a robots.txt applies only to its own scheme, host and port (RFC 9309 §2.3), so this file says nothing about it.`,
      };
    }
  }
  return { ok: true, url };
}

function isRobotsTxt(url: URL): boolean {
  return url.pathname === '/robots.txt' && url.search === '';
}

const ROBOTS_TXT_REASON = 'The /robots.txt URI itself is always allowed (RFC 9309 §2.2.2).';

/** allowed / disallowed / not-applicable for `url`, for the crawler `productToken`, by the rules of `file`. */
export function explain(file: RobotsFile, url: string, productToken: string, options: ExplainOptions = {}): RobotsExplanation {
  const check = checkUrl(file.robotsUrl, url);
  if (!check.ok) return { verdict: 'not-applicable', reason: check.reason, ...(check.href ? { url: check.href } : {}) };
  const u = check.url;
  const sel = groupFor(file, productToken);
  const path = normalizeForMatch(u.pathname + u.search, 'url');
  const common: Partial<RobotsExplanation> = { url: u.href, path };
  if (sel.productToken !== undefined) common.productToken = sel.productToken;
  if (sel.tokenProblem !== undefined) common.tokenProblem = sel.tokenProblem;
  if (sel.crawlDelay) common.crawlDelaySeconds = sel.crawlDelay.seconds;
  const group: RobotsExplanation['group'] = { lines: sel.lines, userAgents: sel.userAgents, matchedBy: sel.matchedBy };
  if (sel.line !== undefined) group.line = sel.line;
  const tokenNote = sel.tokenProblem ? ` (${sel.tokenProblem} Only * groups can apply.)` : '';

  if (isRobotsTxt(u)) return { ...common, verdict: 'allowed', group, reason: ROBOTS_TXT_REASON };

  if (sel.matchedBy === 'none') {
    const who = sel.productToken !== undefined ? `"${sel.productToken}"` : 'this crawler';
    return { ...common, verdict: 'allowed', group, reason: `No group names ${who} and there is no * group, so everything is allowed.${tokenNote}` };
  }

  const rules: (MatchRule & { rule: RobotsRule })[] = [];
  for (const r of sel.rules) if (r.pattern !== '') rules.push({ pattern: r.pattern, allow: r.directive === 'allow', line: r.line, rule: r });
  const where = `${describeAgents(sel)} (${groupLinesText(sel)})`;
  if (rules.length === 0) {
    return {
      ...common,
      verdict: 'allowed',
      group,
      reason: `${capitalise(where)} has no rules that match anything, so everything is allowed (RFC 9309 §2.1).${tokenNote}`,
    };
  }

  const decided = decide(file, sel.key as string, rules, u.origin, path, options);
  if (!decided.rule) {
    return { ...common, verdict: 'allowed', group, matcher: decided.matcher, reason: `No rule in ${where} matches ${clipPath(path)}, so it is allowed.${tokenNote}` };
  }
  const r = decided.rule;
  const verdict = r.directive === 'allow' ? 'allowed' : 'disallowed';
  return {
    ...common,
    verdict,
    line: r.line,
    rule: r.text,
    directive: r.directive,
    group,
    matcher: decided.matcher,
    reason: `${verdict === 'allowed' ? 'Allowed' : 'Disallowed'} by line ${r.line} "${clipPath(r.text)}" in ${where}.${tokenNote}`,
  };
}

function decide(
  file: RobotsFile,
  key: string,
  rules: (MatchRule & { rule: RobotsRule })[],
  origin: string,
  path: string,
  options: ExplainOptions,
): { rule?: RobotsRule; matcher: 'robots-parser' | 'linear' } {
  const mode = options.matcher ?? 'auto';
  const budget = options.stepBudget ?? MATCH_STEP_BUDGET;
  const useParser = mode === 'robots-parser' || (mode === 'auto' && robotsParserSteps(rules, path.length) <= budget);
  if (useParser) {
    const target = origin + path;
    let roundTrips = false;
    try {
      const t = new URL(target);
      roundTrips = t.pathname + t.search === path;
    } catch {
      roundTrips = false;
    }
    if (roundTrips) {
      const parser = parserFor(file, key);
      const allowed = parser.isAllowed(target, key);
      if (allowed !== undefined) {
        const line = parser.getMatchingLineNumber(target, key);
        const hit = line > 0 ? rules.find((r) => r.line === line) : undefined;
        if (line <= 0 && allowed) return { matcher: 'robots-parser' };
        if (hit && hit.allow === allowed) return { rule: hit.rule, matcher: 'robots-parser' };
      }
      // Anything inconsistent falls through to the linear matcher, which needs no robots-parser state.
    }
  }
  const best = linearLongestMatch(rules, path);
  return best ? { rule: best.rule, matcher: 'linear' } : { matcher: 'linear' };
}

/** What the robots.txt fetch (src/net) found, by RFC 9309 §2.3.1. */
export type RobotsOutcome = 'ok' | 'unavailable' | 'unreachable';

export interface OutcomeContext {
  /** The original robots.txt URL: lets other origins be `not-applicable` when there is no file. */
  robotsUrl?: string;
  /** The HTTP status, for the reason text. */
  status?: number;
  /** A short description of a network failure (e.g. "connection refused"), for the reason text. */
  detail?: string;
}

/**
 * The verdict given the fetch outcome:
 * - `ok`: explain() on the file (which must be given).
 * - `unavailable` (4xx, or more than five redirects): allowed, RFC 9309 §2.3.1.3.
 * - `unreachable` (5xx, 429, network error, timeout): disallowed, RFC 9309 §2.3.1.4, and the reason starts
 *   with "robots.txt unreachable".
 * `/robots.txt` itself is allowed in every case; other origins are not-applicable when the robots.txt URL
 * is known (from the file or `context.robotsUrl`).
 */
export function explainWithOutcome(
  outcome: RobotsOutcome,
  file: RobotsFile | undefined,
  url: string,
  productToken: string,
  context: OutcomeContext = {},
): RobotsExplanation {
  if (outcome === 'ok') {
    if (!file) throw new TypeError("explainWithOutcome: outcome 'ok' needs the parsed file");
    return { ...explain(file, url, productToken), outcome };
  }
  const robotsUrl = file?.robotsUrl ?? context.robotsUrl;
  const check = checkUrl(robotsUrl, url);
  if (!check.ok) return { verdict: 'not-applicable', reason: check.reason, outcome, ...(check.href ? { url: check.href } : {}) };
  const u = check.url;
  const base: RobotsExplanation = { verdict: 'allowed', reason: '', outcome, url: u.href, path: normalizeForMatch(u.pathname + u.search, 'url') };
  if (isRobotsTxt(u)) return { ...base, reason: ROBOTS_TXT_REASON };
  const what = [context.status !== undefined ? `HTTP ${context.status}` : '', context.detail ?? ''].filter(Boolean).join(', ');
  const paren = what ? ` (${what})` : '';
  if (outcome === 'unavailable') {
    return {
      ...base,
      reason: `robots.txt is unavailable${paren}, so the crawler may access any resource on ${u.origin} (RFC 9309 §2.3.1.3).`,
    };
  }
  return {
    ...base,
    verdict: 'disallowed',
    reason: `robots.txt unreachable${paren}: every URL on ${u.origin} is disallowed until robots.txt can be fetched (RFC 9309 §2.3.1.4).`,
  };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function clipPath(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
