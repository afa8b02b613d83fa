/**
 * Verdicts: allowed / disallowed / not-applicable for one URL and one crawler.
 *
 * - `verdict(file, url, token)`: the verdict, why in one word (`basis`), and the deciding line, as a shared,
 *   precomputed object: no prose is built. The crawl gate, bulk checks and the CLI's `--urls-file` use it.
 * - `explain(file, url, token)`: the same decision with the group, the Crawl-delay and a sentence saying why.
 *
 * Group choice is ours (from parse.ts). The rules of the chosen groups are compiled once per file and
 * crawler (match.ts) and cached on the file, so a verdict is a lookup, not a walk over every rule.
 *
 * Order of checks:
 * 1. The URL must be an absolute http(s) URL (or a path starting with "/", resolved against the robots.txt
 *    URL) on the robots.txt's origin; otherwise `not-applicable`, never `disallowed` (gap G16). The empty
 *    string is not a URL: `not-applicable`.
 * 2. `/robots.txt` itself is always allowed (RFC 9309 §2.2.2; gap G9); `/robots.txt?` is another URI.
 * 3. Groups: all groups naming the product token are merged; else all `*` groups are merged; else no group
 *    applies and everything is allowed (§2.2.1). A matching group without rules allows everything (§2.1;
 *    gap G8), it does not fall back to `*`.
 * 4. The longest matching rule wins; on a tie allow wins; no match means allowed (§2.2.2).
 *
 * Crawl-delay is chosen the way groups are, but from records (parse.ts): if any user-agent line names the
 * crawler, only the Crawl-delay lines of its own records count (none means no Crawl-delay: the `*` value
 * does not apply); only a crawler named nowhere gets the `*` records'. Of several, the largest is used.
 */
import { clip } from '../format/text';
import { matchablePath } from './percentEncoding';
import { bestMatch, compileRules, type CompiledRules, type MatchRule } from './match';
import { largestCrawlDelay } from './crawlDelay';
import type {
  RobotsCrawlDelay,
  RobotsFile,
  RobotsGroup,
  RobotsRecord,
  RobotsRule,
  RobotsSitemap,
  RuleDirective,
} from './robotsFile';
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
  /** The records whose Crawl-delay lines apply (chosen like the groups), in file order. */
  records: RobotsRecord[];
  /** Every valid Crawl-delay line of those records, in file order. */
  crawlDelays: RobotsCrawlDelay[];
  /** The Crawl-delay used: the largest of `crawlDelays` (the earliest of equal ones). */
  crawlDelay?: RobotsCrawlDelay;
}

/** Why a verdict is what it is, in one word. */
export type VerdictBasis =
  /** A rule matched: `line` and `rule` say which. */
  | 'rule'
  /** The groups that apply have rules, but none matches. */
  | 'no-match'
  /** The groups that apply have no rules that can match (RFC 9309 §2.1). */
  | 'no-rules'
  /** No group names the crawler and there is no `*` group. */
  | 'no-group'
  /** `/robots.txt` itself is always allowed (§2.2.2). */
  | 'robots-txt'
  /** robots.txt is unavailable (4xx): everything allowed (§2.3.1.3). */
  | 'unavailable'
  /** robots.txt is unreachable (5xx, network): everything disallowed (§2.3.1.4). */
  | 'unreachable'
  /** not-applicable: another origin than the robots.txt's. */
  | 'other-origin'
  /** not-applicable: not an http(s) URL. */
  | 'not-http'
  /** not-applicable: not a URL at all (the empty string too). */
  | 'not-a-url';

/** The verdict without prose. Objects are shared between calls: treat them as read-only. */
export interface RobotsVerdictResult {
  readonly verdict: RobotsVerdict;
  readonly basis: VerdictBasis;
  /** The deciding line (1-based), when a rule decided. */
  readonly line?: number;
  /** The deciding line as written, e.g. `Disallow: /private`. */
  readonly rule?: string;
  readonly directive?: RuleDirective;
}

export interface RobotsExplanation {
  verdict: RobotsVerdict;
  basis: VerdictBasis;
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
  /** The Crawl-delay that applies to the crawler, and its line. */
  crawlDelaySeconds?: number;
  crawlDelayLine?: number;
  /** One human sentence. */
  reason: string;
  /** The URL as checked (normalised href), when it parsed. */
  url?: string;
  /** The canonical path+query that was matched. */
  path?: string;
  productToken?: string;
  tokenProblem?: string;
  /** Which part of the compiled matcher held the deciding rule (see match.ts); absent when no rule decided. */
  matcher?: 'prefix' | 'exact' | 'wildcard';
  /** Set by explainWithOutcome. */
  outcome?: RobotsOutcome;
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

// ---------------------------------------------------------------------------------------------------
// Selection: which groups and records apply, cached per file and crawler with the compiled rules

/** A rule as the compiled matcher holds it, with its verdict ready to hand out. */
interface RuleEntry extends MatchRule {
  rule: RobotsRule;
  result: RobotsVerdictResult;
}

/** What verdicts need for one crawler, kept on the file (RobotsFile.selections). */
export interface SelectionCache {
  sel: GroupSelection;
  compiled: CompiledRules<RuleEntry>;
  /** "the * group (line 6)": built on first use by explain(). */
  where?: string;
}

/** At most this many crawlers' selections are kept per file. */
const MAX_SELECTIONS = 16;

function namesToken(agents: readonly { global: boolean; token: string }[], token: string): boolean {
  return agents.some((ua) => !ua.global && ua.token === token);
}

function selectGroups(file: RobotsFile, productToken: string): GroupSelection {
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
  let records: RobotsRecord[] = [];
  // Groups and records hold the same user-agent lines, so "named by a group" is "named by a record".
  if (token !== undefined) {
    groups = file.groups.filter((g) => namesToken(g.userAgents, token));
    if (groups.length > 0) {
      matchedBy = 'product-token';
      records = file.records.filter((r) => namesToken(r.userAgents, token));
    }
  }
  if (groups.length === 0) {
    groups = file.groups.filter((g) => g.userAgents.some((ua) => ua.global));
    if (groups.length > 0) {
      matchedBy = 'star';
      records = file.records.filter((r) => r.userAgents.some((ua) => ua.global));
    }
  }
  if (matchedBy === 'none')
    return { ...base, matchedBy, groups: [], lines: [], userAgents: [], rules: [], records: [], crawlDelays: [] };

  const crawlDelays = records.flatMap((r) => r.crawlDelays);
  const sel: GroupSelection = {
    ...base,
    matchedBy,
    groups,
    line: (groups[0] as RobotsGroup).line,
    lines: groups.map((g) => g.line),
    userAgents: [...new Set(groups.flatMap((g) => g.userAgents.map((ua) => ua.value)))],
    rules: groups.flatMap((g) => g.rules),
    records,
    crawlDelays,
  };
  const used = largestCrawlDelay(crawlDelays);
  if (used) sel.crawlDelay = used;
  return sel;
}

function ruleEntry(rule: RobotsRule): RuleEntry {
  const allow = rule.directive === 'allow';
  const result: RobotsVerdictResult = Object.freeze({
    verdict: allow ? 'allowed' : 'disallowed',
    basis: 'rule',
    line: rule.line,
    rule: rule.text,
    directive: rule.directive,
  });
  return { pattern: rule.pattern, allow, line: rule.line, rule, result };
}

function selectionFor(file: RobotsFile, productToken: string): SelectionCache {
  const cache = file.selections;
  let s = cache.get(productToken);
  if (!s) {
    if (cache.size >= MAX_SELECTIONS) cache.delete(cache.keys().next().value as string);
    const sel = selectGroups(file, productToken);
    s = { sel, compiled: compileRules(sel.rules.filter((r) => r.pattern !== '').map(ruleEntry)) };
    cache.set(productToken, s);
  }
  return s;
}

/**
 * The groups that apply to `productToken` (a product token or a full User-Agent header; see token.ts), and
 * the Crawl-delay. Cached on the file: treat the result as read-only.
 */
export function groupFor(file: RobotsFile, productToken: string): GroupSelection {
  return selectionFor(file, productToken).sel;
}

/** The Crawl-delay that applies to `productToken`, and its line (see the top of this file for the scoping). */
export function crawlDelayFor(file: RobotsFile, productToken: string): { seconds?: number; line?: number } {
  const d = groupFor(file, productToken).crawlDelay;
  return d ? { seconds: d.seconds, line: d.line } : {};
}

/** The file's valid sitemaps (absolute http(s), resolved against the robots.txt URL, duplicates removed). */
export function sitemaps(file: RobotsFile): RobotsSitemap[] {
  return [...file.sitemaps];
}

// ---------------------------------------------------------------------------------------------------
// The decision, shared by verdict() and explain()

type UrlCheck = { ok: true; url: URL } | { ok: false; basis: 'not-a-url' | 'not-http' | 'other-origin'; href?: string };

/** `origin` is the robots.txt's origin, when known; `robotsUrl` resolves a path starting with "/". */
function checkUrl(origin: string | undefined, robotsUrl: string | undefined, input: string | URL): UrlCheck {
  let url: URL;
  if (typeof input !== 'string') url = input;
  else {
    try {
      if (input.startsWith('/') && !input.startsWith('//') && robotsUrl) url = new URL(input, robotsUrl);
      else url = new URL(input);
    } catch {
      return { ok: false, basis: 'not-a-url' };
    }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, basis: 'not-http', href: url.href };
  if (origin !== undefined && url.origin !== origin) return { ok: false, basis: 'other-origin', href: url.href };
  return { ok: true, url };
}

/** RFC 9309 §2.2.2: "/robots.txt" is implicitly allowed; compared canonically, so `/robots.txt?` is not it. */
const ROBOTS_TXT_PATH = '/robots.txt';

type Decision =
  | { applies: false; basis: 'not-a-url' | 'not-http' | 'other-origin'; href?: string }
  | {
      applies: true;
      basis: 'robots-txt' | 'no-group' | 'no-rules' | 'no-match' | 'rule';
      url: URL;
      path: string;
      s: SelectionCache;
      entry?: RuleEntry;
    };

function decide(file: RobotsFile, input: string | URL, productToken: string): Decision {
  const check = checkUrl(file.origin, file.robotsUrl, input);
  if (!check.ok)
    return check.href !== undefined
      ? { applies: false, basis: check.basis, href: check.href }
      : { applies: false, basis: check.basis };
  const url = check.url;
  const path = matchablePath(url);
  const s = selectionFor(file, productToken);
  if (path === ROBOTS_TXT_PATH) return { applies: true, basis: 'robots-txt', url, path, s };
  if (s.sel.matchedBy === 'none') return { applies: true, basis: 'no-group', url, path, s };
  if (s.compiled.size === 0) return { applies: true, basis: 'no-rules', url, path, s };
  const entry = bestMatch(s.compiled, path);
  return entry
    ? { applies: true, basis: 'rule', url, path, s, entry }
    : { applies: true, basis: 'no-match', url, path, s };
}

const fixed = (verdict: RobotsVerdict, basis: VerdictBasis): RobotsVerdictResult => Object.freeze({ verdict, basis });
const FIXED: Readonly<Record<Exclude<VerdictBasis, 'rule'>, RobotsVerdictResult>> = {
  'no-match': fixed('allowed', 'no-match'),
  'no-rules': fixed('allowed', 'no-rules'),
  'no-group': fixed('allowed', 'no-group'),
  'robots-txt': fixed('allowed', 'robots-txt'),
  unavailable: fixed('allowed', 'unavailable'),
  unreachable: fixed('disallowed', 'unreachable'),
  'other-origin': fixed('not-applicable', 'other-origin'),
  'not-http': fixed('not-applicable', 'not-http'),
  'not-a-url': fixed('not-applicable', 'not-a-url'),
};

/**
 * allowed / disallowed / not-applicable for `url` (a string, or an already parsed URL), for the crawler
 * `productToken`, by the rules of `file`: the same decision as explain(), without the words.
 */
export function verdict(file: RobotsFile, url: string | URL, productToken: string): RobotsVerdictResult {
  const d = decide(file, url, productToken);
  return d.basis === 'rule' ? (d.entry as RuleEntry).result : FIXED[d.basis];
}

/** One short sentence per basis, the same for every URL: the reason in bulk output (see briefReason). */
const BRIEF: Readonly<Record<Exclude<VerdictBasis, 'rule'>, string>> = {
  'no-match': 'No rule matches, so it is allowed.',
  'no-rules': 'The group that applies has no rules, so everything is allowed (RFC 9309 §2.1).',
  'no-group': 'No group names the crawler and there is no * group, so everything is allowed.',
  'robots-txt': 'The /robots.txt URI itself is always allowed (RFC 9309 §2.2.2).',
  unavailable: 'robots.txt is unavailable, so every URL is allowed (RFC 9309 §2.3.1.3).',
  unreachable: 'robots.txt unreachable: every URL is disallowed (RFC 9309 §2.3.1.4).',
  'other-origin': 'Another origin: this robots.txt says nothing about it (RFC 9309 §2.3).',
  'not-http': 'Not an http(s) URL: robots.txt does not apply to it.',
  'not-a-url': 'Not an absolute URL: robots.txt does not apply to it.',
};

/**
 * A short reason for a verdict() result, built without looking at the file again: what bulk output (the
 * CLI's `--urls-file`) prints instead of explain()'s sentence.
 */
export function briefReason(v: RobotsVerdictResult): string {
  if (v.basis !== 'rule') return BRIEF[v.basis];
  return `${v.verdict === 'allowed' ? 'Allowed' : 'Disallowed'} by line ${v.line}.`;
}

// ---------------------------------------------------------------------------------------------------
// explain(): the words

function describeAgents(sel: GroupSelection): string {
  if (sel.matchedBy === 'star') return 'the * group';
  return `the group for ${sel.userAgents.join(', ')}`;
}

function groupLinesText(sel: GroupSelection): string {
  if (sel.lines.length === 1) return `line ${sel.lines[0]}`;
  return `lines ${sel.lines.join(', ')}, merged`;
}

const ROBOTS_TXT_REASON = 'The /robots.txt URI itself is always allowed (RFC 9309 §2.2.2).';

function notApplicableReason(
  basis: 'not-a-url' | 'not-http' | 'other-origin',
  input: string | URL,
  href: string | undefined,
  origin: string | undefined,
): string {
  switch (basis) {
    case 'not-a-url': {
      const what = input === '' ? 'The URL is empty' : `"${String(input)}" is not an absolute URL`;
      return `${what}, so robots.txt rules do not apply to it.`;
    }
    case 'not-http':
      return `${href ?? String(input)} is not an http(s) URL; robots.txt does not apply to it.`;
    case 'other-origin':
      return `${href ?? String(input)} is not on ${origin ?? 'its origin'}; a robots.txt applies only to its own scheme, host and port (RFC 9309 §2.3), so this file says nothing about it.`;
    default: {
      const never: never = basis;
      return never;
    }
  }
}

/** allowed / disallowed / not-applicable for `url`, for the crawler `productToken`, by the rules of `file`, with the reason. */
export function explain(file: RobotsFile, url: string | URL, productToken: string): RobotsExplanation {
  const d = decide(file, url, productToken);
  if (!d.applies) {
    return {
      verdict: 'not-applicable',
      basis: d.basis,
      reason: notApplicableReason(d.basis, url, d.href, file.origin),
      ...(d.href !== undefined ? { url: d.href } : {}),
    };
  }
  const { sel } = d.s;
  const common: Omit<RobotsExplanation, 'verdict' | 'basis' | 'reason'> = {
    url: d.url.href,
    path: d.path,
    group: {
      ...(sel.line !== undefined ? { line: sel.line } : {}),
      lines: [...sel.lines],
      userAgents: [...sel.userAgents],
      matchedBy: sel.matchedBy,
    },
  };
  if (sel.productToken !== undefined) common.productToken = sel.productToken;
  if (sel.tokenProblem !== undefined) common.tokenProblem = sel.tokenProblem;
  if (sel.crawlDelay) {
    common.crawlDelaySeconds = sel.crawlDelay.seconds;
    common.crawlDelayLine = sel.crawlDelay.line;
  }
  const tokenNote = sel.tokenProblem ? ` (${sel.tokenProblem} Only * groups can apply.)` : '';
  const where = (d.s.where ??= `${describeAgents(sel)} (${groupLinesText(sel)})`);

  switch (d.basis) {
    case 'robots-txt':
      return { ...common, verdict: 'allowed', basis: d.basis, reason: ROBOTS_TXT_REASON };
    case 'no-group': {
      const who = sel.productToken !== undefined ? `"${sel.productToken}"` : 'this crawler';
      return {
        ...common,
        verdict: 'allowed',
        basis: d.basis,
        reason: `No group names ${who} and there is no * group, so everything is allowed.${tokenNote}`,
      };
    }
    case 'no-rules':
      return {
        ...common,
        verdict: 'allowed',
        basis: d.basis,
        reason: `${capitalise(where)} has no rules that match anything, so everything is allowed (RFC 9309 §2.1).${tokenNote}`,
      };
    case 'no-match':
      return {
        ...common,
        verdict: 'allowed',
        basis: d.basis,
        reason: `No rule in ${where} matches ${clip(d.path, 120)}, so it is allowed.${tokenNote}`,
      };
    case 'rule': {
      const r = (d.entry as RuleEntry).rule;
      const v = r.directive === 'allow' ? 'allowed' : 'disallowed';
      return {
        ...common,
        verdict: v,
        basis: d.basis,
        line: r.line,
        rule: r.text,
        directive: r.directive,
        matcher: r.pattern.includes('*') ? 'wildcard' : r.pattern.endsWith('$') ? 'exact' : 'prefix',
        reason: `${v === 'allowed' ? 'Allowed' : 'Disallowed'} by line ${r.line} "${clip(r.text, 120)}" in ${where}.${tokenNote}`,
      };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// With the fetch outcome

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

function originOf(robotsUrl: string | undefined): string | undefined {
  if (robotsUrl === undefined) return undefined;
  try {
    return new URL(robotsUrl).origin;
  } catch {
    return undefined;
  }
}

/** The decision when there is no file to read: the outcome decides, except for /robots.txt and other origins. */
function decideWithoutFile(
  outcome: 'unavailable' | 'unreachable',
  robotsUrl: string | undefined,
  origin: string | undefined,
  url: string | URL,
) {
  const check = checkUrl(origin, robotsUrl, url);
  if (!check.ok) return check;
  const path = matchablePath(check.url);
  return {
    ok: true as const,
    url: check.url,
    path,
    basis: path === ROBOTS_TXT_PATH ? ('robots-txt' as const) : outcome,
  };
}

/**
 * verdict() given the fetch outcome: `ok` reads the file (which must be given); `unavailable` (4xx) allows
 * and `unreachable` (5xx, network) disallows everything but `/robots.txt`; other origins are not-applicable
 * when the robots.txt URL is known (from the file or `robotsUrl`).
 */
export function verdictWithOutcome(
  outcome: RobotsOutcome,
  file: RobotsFile | undefined,
  url: string | URL,
  productToken: string,
  robotsUrl?: string,
): RobotsVerdictResult {
  if (outcome === 'ok') {
    if (!file) throw new TypeError("verdictWithOutcome: outcome 'ok' needs the parsed file");
    return verdict(file, url, productToken);
  }
  const known = file?.robotsUrl ?? robotsUrl;
  const d = decideWithoutFile(outcome, known, file?.origin ?? originOf(known), url);
  return FIXED[d.basis];
}

/**
 * explain() given the fetch outcome:
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
  url: string | URL,
  productToken: string,
  context: OutcomeContext = {},
): RobotsExplanation {
  if (outcome === 'ok') {
    if (!file) throw new TypeError("explainWithOutcome: outcome 'ok' needs the parsed file");
    return { ...explain(file, url, productToken), outcome };
  }
  const robotsUrl = file?.robotsUrl ?? context.robotsUrl;
  const origin = file?.origin ?? originOf(robotsUrl);
  const d = decideWithoutFile(outcome, robotsUrl, origin, url);
  if (!d.ok) {
    return {
      verdict: 'not-applicable',
      basis: d.basis,
      reason: notApplicableReason(d.basis, url, d.href, origin),
      outcome,
      ...(d.href ? { url: d.href } : {}),
    };
  }
  const base = { outcome, url: d.url.href, path: d.path };
  if (d.basis === 'robots-txt') return { ...base, verdict: 'allowed', basis: d.basis, reason: ROBOTS_TXT_REASON };
  const what = [context.status !== undefined ? `HTTP ${context.status}` : '', context.detail ?? '']
    .filter(Boolean)
    .join(', ');
  const paren = what ? ` (${what})` : '';
  if (outcome === 'unavailable') {
    return {
      ...base,
      verdict: 'allowed',
      basis: 'unavailable',
      reason: `robots.txt is unavailable${paren}, so the crawler may access any resource on ${d.url.origin} (RFC 9309 §2.3.1.3).`,
    };
  }
  return {
    ...base,
    verdict: 'disallowed',
    basis: 'unreachable',
    reason: `robots.txt unreachable${paren}: every URL on ${d.url.origin} is disallowed until robots.txt can be fetched (RFC 9309 §2.3.1.4).`,
  };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
