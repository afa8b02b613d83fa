/**
 * robots.txt in the editor, as pure position-based functions the VS Code adapter
 * (src/extension/robotsTxtEditor) turns into hovers, CodeLens, quick fixes and the "Test URLs" command:
 *
 * - hoverAt(file, line, column, ctx): markdown for the line under the cursor: what a directive means and
 *   which major crawlers honour it; for Crawl-delay, the effective interval once merged with the configured
 *   delay, pages/hour, pages/day and the time for N pages; for User-agent, which crawlers the group catches.
 * - codeLenses(file, ctx, options): "Test URLs…" above each group, the cost of each Crawl-delay, and
 *   "Compare with live robots.txt" when the file's origin is known.
 * - quickFixes(file, finding): text edits for the findings that have one obvious repair.
 * - testUrls(file, inputs, token): verdicts with the deciding line.
 *
 * Lines are 1-based and columns 0-based UTF-16 offsets, as in findings.ts. Claims about crawlers are
 * deliberately conservative: they say what each operator's documentation says, and no more.
 */
import { formatDuration, formatNumber, formatSeconds } from '../format/duration';
import { effectiveInterval, type CrawlDelayPolicy, type IntervalDecision } from '../politeness/interval';
import { explain, groupFor, robotsUrlFor, type RobotsExplanation, type RobotsVerdict } from './explain';
import type { RobotsFinding } from './findings';
import { IGNORED_DIRECTIVE_NOTES, originUnknown, suggestDirective, type OriginHint } from './lint';
import {
  largestCrawlDelay,
  readCrawlDelay,
  type RobotsFile,
  type RobotsGroup,
  type RobotsLine,
  type RobotsLineKind,
  type RobotsRecord,
  type RobotsUserAgent,
} from './parse';
import { readUserAgentValue } from './token';

// ---------------------------------------------------------------------------------------------------
// Knowledge: directives

export interface DirectiveInfo {
  /** The usual spelling. */
  name: string;
  /** Where it is defined. */
  standard: string;
  /** What it means, in one or two sentences. */
  meaning: string;
  /** Which major crawlers honour it, per their own documentation. */
  support: string;
  /** What Crawl Planner does with it. */
  crawlPlanner: string;
}

const RFC_CRAWLERS =
  'Google, Bing, Yandex, Baidu, DuckDuckGo, Apple (Applebot) and OpenAI (GPTBot) document that their crawlers follow robots.txt groups and rules.';

const STANDARD_DIRECTIVES: Readonly<Record<string, DirectiveInfo>> = {
  'user-agent': {
    name: 'User-agent',
    standard: 'RFC 9309 §2.2.1',
    meaning:
      'Starts a group: the rules that follow apply to the crawlers named here, by product token, case-insensitively. ' +
      'A crawler obeys every group that names it; only when none does, the `*` groups.',
    support: RFC_CRAWLERS,
    crawlPlanner: 'Picks the group for the configured product token (`crawlPlanner.userAgent`).',
  },
  allow: {
    name: 'Allow',
    standard: 'RFC 9309 §2.2.2',
    meaning:
      'Allows URLs whose path (and query) starts with the pattern. `*` matches any characters and a final `$` anchors the end. ' +
      'Among the matching rules the longest pattern wins, and on a tie Allow wins.',
    support: `${RFC_CRAWLERS} Google and Bing document \`*\` and \`$\`.`,
    crawlPlanner: 'Matches by RFC 9309: longest match, Allow wins ties.',
  },
  disallow: {
    name: 'Disallow',
    standard: 'RFC 9309 §2.2.2',
    meaning:
      'Blocks URLs whose path (and query) starts with the pattern. `*` matches any characters and a final `$` anchors the end. ' +
      'An empty Disallow blocks nothing.',
    support: `${RFC_CRAWLERS} Google and Bing document \`*\` and \`$\`.`,
    crawlPlanner: 'Matches by RFC 9309: longest match, Allow wins ties.',
  },
  'crawl-delay': {
    name: 'Crawl-delay',
    standard: 'Not in RFC 9309 (a widespread extension)',
    meaning: 'Asks a crawler to wait at least this many seconds between requests to this host.',
    support:
      "Google: not supported, per Google's robots.txt documentation. Bing: honoured, per Bing's documentation. " +
      "Yandex: described in Yandex's help, which also points to the crawl-rate setting in Yandex Webmaster. " +
      "Other crawlers: see each crawler's documentation; many ignore it.",
    crawlPlanner:
      'Honours it: the interval is max(your delay, Crawl-delay), and a Crawl-delay above `crawlPlanner.maxCrawlDelay` is handled by `crawlPlanner.crawlDelayPolicy`.',
  },
  sitemap: {
    name: 'Sitemap',
    standard: 'sitemaps.org; RFC 9309 §2.2.4 allows such records',
    meaning: 'Gives the absolute URL of a sitemap. It belongs to no group, so it applies to every crawler wherever it stands.',
    support: 'Google, Bing and Yandex document reading Sitemap lines.',
    crawlPlanner: 'Lists it; only absolute http(s) URLs are kept.',
  },
};

const UNSUPPORTED_NAMES: Readonly<Record<string, string>> = {
  host: 'Host',
  'clean-param': 'Clean-param',
  noindex: 'Noindex',
  nofollow: 'Nofollow',
  noarchive: 'Noarchive',
  'request-rate': 'Request-rate',
  'visit-time': 'Visit-time',
  'content-signal': 'Content-Signal',
  'content-usage': 'Content-Usage',
};

/** Keyed by the lower-case directive name: the RFC 9309 directives, Sitemap, Crawl-delay and the ignored ones. */
export const DIRECTIVES: Readonly<Record<string, DirectiveInfo>> = {
  ...STANDARD_DIRECTIVES,
  ...Object.fromEntries(
    Object.entries(UNSUPPORTED_NAMES).map(([key, name]): [string, DirectiveInfo] => [
      key,
      {
        name,
        standard: 'Not in RFC 9309',
        meaning: `${name} is not a robots.txt rule of RFC 9309, so crawlers that follow only the RFC ignore it.`,
        support: IGNORED_DIRECTIVE_NOTES[key] ?? '',
        crawlPlanner: 'Ignores it.',
      },
    ]),
  ),
};

/** The knowledge entry for a line's directive, if it has one. */
export function directiveInfo(line: Pick<RobotsLine, 'kind' | 'key'>): DirectiveInfo | undefined {
  if (line.kind === 'unsupported') return DIRECTIVES[(line.key ?? '').toLowerCase()];
  return DIRECTIVES[line.kind];
}

const KIND_CANONICAL: Partial<Record<RobotsLineKind, string>> = {
  'user-agent': 'User-agent',
  allow: 'Allow',
  disallow: 'Disallow',
  sitemap: 'Sitemap',
  'crawl-delay': 'Crawl-delay',
};

// ---------------------------------------------------------------------------------------------------
// Knowledge: well-known crawlers

export interface KnownCrawler {
  /** The product token as its operator writes it. */
  token: string;
  operator: string;
  purpose: string;
  /**
   * Lower-case tokens whose group the crawler follows when no group names it, per its operator's
   * documentation (not RFC 9309 behaviour). Tried in order.
   */
  fallback?: readonly string[];
  /** Its operator documents that it ignores `User-agent: *`: it must be named. */
  ignoresStar?: boolean;
  /** A control token read by other crawlers; it fetches nothing itself. */
  controlToken?: boolean;
}

export const KNOWN_CRAWLERS: readonly KnownCrawler[] = [
  { token: 'Googlebot', operator: 'Google', purpose: 'Google Search' },
  { token: 'Googlebot-Image', operator: 'Google', purpose: 'Google Images', fallback: ['googlebot'] },
  { token: 'Googlebot-Video', operator: 'Google', purpose: 'Google video search', fallback: ['googlebot'] },
  { token: 'Googlebot-News', operator: 'Google', purpose: 'Google News', fallback: ['googlebot'] },
  {
    token: 'Google-Extended',
    operator: 'Google',
    purpose: 'whether content Google crawls may be used for its Gemini models',
    controlToken: true,
  },
  { token: 'AdsBot-Google', operator: 'Google', purpose: 'Google Ads landing-page checks', ignoresStar: true },
  { token: 'AdsBot-Google-Mobile', operator: 'Google', purpose: 'Google Ads landing-page checks (mobile)', ignoresStar: true },
  { token: 'APIs-Google', operator: 'Google', purpose: 'push notification delivery for Google APIs', ignoresStar: true },
  { token: 'Bingbot', operator: 'Microsoft', purpose: 'Bing search' },
  { token: 'YandexBot', operator: 'Yandex', purpose: 'Yandex search', fallback: ['yandex'] },
  { token: 'Baiduspider', operator: 'Baidu', purpose: 'Baidu search' },
  { token: 'DuckDuckBot', operator: 'DuckDuckGo', purpose: 'DuckDuckGo search' },
  { token: 'Applebot', operator: 'Apple', purpose: 'Siri, Spotlight and Safari suggestions', fallback: ['googlebot'] },
  { token: 'Applebot-Extended', operator: 'Apple', purpose: "whether content Applebot crawls may be used to train Apple's AI models", controlToken: true },
  { token: 'GPTBot', operator: 'OpenAI', purpose: 'collecting content that may be used to train its models' },
  { token: 'OAI-SearchBot', operator: 'OpenAI', purpose: 'ChatGPT search results' },
  { token: 'ClaudeBot', operator: 'Anthropic', purpose: 'collecting content that may be used to train its models' },
  { token: 'CCBot', operator: 'Common Crawl', purpose: 'the open Common Crawl web archive' },
  { token: 'PerplexityBot', operator: 'Perplexity', purpose: 'Perplexity search results' },
  { token: 'Amazonbot', operator: 'Amazon', purpose: 'Amazon services such as Alexa' },
];

const CRAWLERS_BY_TOKEN = new Map(KNOWN_CRAWLERS.map((c) => [c.token.toLowerCase(), c]));

export function knownCrawler(token: string): KnownCrawler | undefined {
  return CRAWLERS_BY_TOKEN.get(token.toLowerCase());
}

export interface GroupCatch {
  crawler: KnownCrawler;
  /** `named`: a user-agent line names it; `fallback`: it follows `via`'s group (operator's documentation); `star`: the `*` group. */
  how: 'named' | 'fallback' | 'star';
  via?: string;
}

export interface GroupCatches {
  caught: GroupCatch[];
  /** For a `*` group: well-known crawlers whose operators say they ignore `*`. */
  ignoringStar: KnownCrawler[];
  /** User-agent values of the group that are not well-known crawlers (as written). */
  otherAgents: string[];
}

function namesToken(group: RobotsGroup, token: string): boolean {
  return group.userAgents.some((ua) => !ua.global && ua.token === token);
}

/** Which well-known crawlers the group at `groupIndex` applies to. */
export function crawlersCaughtBy(file: RobotsFile, groupIndex: number): GroupCatches {
  const group = file.groups[groupIndex];
  if (!group) return { caught: [], ignoringStar: [], otherAgents: [] };
  const isStar = group.userAgents.some((ua) => ua.global);
  const caught: GroupCatch[] = [];
  const ignoringStar: KnownCrawler[] = [];
  for (const crawler of KNOWN_CRAWLERS) {
    const token = crawler.token.toLowerCase();
    if (file.groups.some((g) => namesToken(g, token))) {
      if (namesToken(group, token)) caught.push({ crawler, how: 'named' });
      continue;
    }
    const via = crawler.fallback?.find((fb) => file.groups.some((g) => namesToken(g, fb)));
    if (via !== undefined) {
      if (namesToken(group, via)) caught.push({ crawler, how: 'fallback', via });
      continue;
    }
    if (!isStar || crawler.controlToken) continue;
    if (crawler.ignoresStar) ignoringStar.push(crawler);
    else caught.push({ crawler, how: 'star' });
  }
  const otherAgents = [
    ...new Set(group.userAgents.filter((ua) => !ua.global && !knownCrawler(ua.token) && !isFallbackTarget(ua.token)).map((ua) => ua.value)),
  ];
  return { caught, ignoringStar, otherAgents };
}

/** Tokens that are not crawlers themselves but groups others follow (`Yandex`). */
function isFallbackTarget(token: string): boolean {
  return token !== '' && KNOWN_CRAWLERS.some((c) => c.fallback?.includes(token)) && !knownCrawler(token);
}

// ---------------------------------------------------------------------------------------------------
// Crawl-delay economics

export interface EditorContext {
  /** The configured per-host delay in seconds (`crawlPlanner.defaultDelay`). */
  configuredDelaySeconds: number;
  /** `crawlPlanner.maxCrawlDelay`. */
  maxCrawlDelaySeconds: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  /** N in "time for N pages": from the settings or the sidebar's plan. */
  pagesForEstimate: number;
  /** The crawler's product token (`crawlPlanner.userAgent`), to say which group it uses. */
  productToken?: string;
}

export interface CrawlDelayEstimate {
  crawlDelaySeconds: number;
  /** effectiveInterval() with the configured delay, the cap and the policy. */
  decision: IntervalDecision;
  /** Infinity when the interval is 0. */
  pagesPerHour: number;
  pagesPerDay: number;
  pages: number;
  /** pages × interval: one request per interval, response times not counted. */
  totalSeconds: number;
}

export function crawlDelayEstimate(crawlDelaySeconds: number, ctx: EditorContext): CrawlDelayEstimate {
  const decision = effectiveInterval({
    configuredSeconds: ctx.configuredDelaySeconds,
    crawlDelaySeconds,
    crawlDelayPolicy: ctx.crawlDelayPolicy,
    maxCrawlDelaySeconds: ctx.maxCrawlDelaySeconds,
  });
  const s = decision.seconds;
  const pages = Math.max(0, ctx.pagesForEstimate);
  return {
    crawlDelaySeconds,
    decision,
    pagesPerHour: s > 0 ? 3600 / s : Infinity,
    pagesPerDay: s > 0 ? 86_400 / s : Infinity,
    pages,
    totalSeconds: pages * s,
  };
}

function rate(n: number): string {
  return formatNumber(n, n < 10 ? 1 : 0);
}

function pagesText(n: number): string {
  return `${formatNumber(n)} ${n === 1 ? 'page' : 'pages'}`;
}

/** "360 pages/hour · 1,000,000 pages ≈ 115 d 18 h", with a prefix when the cap, the policy or your delay decides. */
export function crawlDelayLensTitle(est: CrawlDelayEstimate, ctx: EditorContext): string {
  const d = est.decision;
  if (d.skipped) {
    return `Crawl-delay ${formatSeconds(est.crawlDelaySeconds)} is above your ${formatSeconds(ctx.maxCrawlDelaySeconds)} cap: this host is skipped (policy "skip")`;
  }
  if (d.seconds <= 0) return 'No delay: the rate is set by response times and your rate limit';
  const base = `${rate(est.pagesPerHour)} pages/hour · ${pagesText(est.pages)} ≈ ${formatDuration(est.totalSeconds, 2)}`;
  if (d.crawlDelayAboveCap) return `Capped at ${formatSeconds(d.seconds)}: ${base}`;
  if (d.source === 'configured' && ctx.configuredDelaySeconds > est.crawlDelaySeconds) return `Your ${formatSeconds(d.seconds)} delay applies: ${base}`;
  return base;
}

// ---------------------------------------------------------------------------------------------------
// Markdown helpers (everything from the file is escaped)

function escapeMd(s: string): string {
  // Values from the file go through code(); this is for the few other strings (never at a line start).
  return s.replace(/[\\`*_[\]<>|~]/g, '\\$&');
}

function code(s: string, max = 120): string {
  const text = (s.length > max ? `${s.slice(0, max - 1)}…` : s).replace(/[\r\n]/g, ' ');
  const runs = text.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function lineText(line: RobotsLine): string {
  const hash = line.raw.indexOf('#');
  return (hash < 0 ? line.raw : line.raw.slice(0, hash)).trim();
}

function groupOfLine(file: RobotsFile, n: number): RobotsGroup | undefined {
  return file.groups.find((g) => g.line <= n && n <= g.endLine);
}

function recordOfLine(file: RobotsFile, n: number): RobotsRecord | undefined {
  return file.records.find((r) => r.line <= n && n <= r.endLine);
}

function recordAgentsText(record: RobotsRecord): string {
  return record.userAgents.map((ua) => code(ua.value || '(empty)')).join(', ');
}

function agentsText(group: RobotsGroup): string {
  return group.userAgents.map((ua) => code(ua.value || '(empty)')).join(', ');
}

function directiveSection(info: DirectiveInfo): string {
  return [
    `**${escapeMd(info.name)}** · ${escapeMd(info.standard)}`,
    info.meaning,
    `*Crawlers:* ${info.support}`,
    `*Crawl Planner:* ${info.crawlPlanner}`,
  ].join('\n\n');
}

// ---------------------------------------------------------------------------------------------------
// Hovers

/**
 * Markdown for the hover at (line, column), or undefined for blank lines, comments, the comment part of a
 * line, and lines that are not directives.
 */
export function hoverAt(file: RobotsFile, line: number, column: number, ctx: EditorContext): string | undefined {
  const l = file.lines[line - 1];
  if (!l || l.kind === 'blank' || l.kind === 'comment' || l.kind === 'invalid') return undefined;
  const hash = l.raw.indexOf('#');
  if (hash >= 0 && column >= hash) return undefined;
  switch (l.kind) {
    case 'user-agent':
      return userAgentHover(file, l, ctx);
    case 'allow':
    case 'disallow':
      return ruleHover(file, l);
    case 'crawl-delay':
      return crawlDelayHover(file, l, ctx);
    case 'sitemap':
      return sitemapHover(file, l);
    case 'unsupported': {
      const info = directiveInfo(l);
      return info ? directiveSection(info) : undefined;
    }
    case 'unknown': {
      const suggestion = suggestDirective(l.key ?? '');
      return [
        `**Unknown directive** ${code(l.key ?? '')}: crawlers ignore this line.`,
        suggestion ? `Did you mean **${suggestion}**?` : 'The directives of RFC 9309 are User-agent, Allow and Disallow; Sitemap and Crawl-delay are common extensions.',
      ].join('\n\n');
    }
  }
}

function userAgentHover(file: RobotsFile, l: RobotsLine, ctx: EditorContext): string {
  const group = groupOfLine(file, l.line);
  const parts: string[] = [`**${code(lineText(l))}**`, ...typoNote(l)];
  if (!group) return [...parts, directiveSection(DIRECTIVES['user-agent'] as DirectiveInfo)].join('\n\n');
  const ua = readUserAgentValue(l.value ?? '');
  const ruleCount = group.rules.filter((r) => r.value !== '').length;
  parts.push(`Group at lines ${group.line}–${group.endLine}: ${ruleCount} ${ruleCount === 1 ? 'rule' : 'rules'}. Agents: ${agentsText(group)}.`);
  const record = recordOfLine(file, l.line);
  const delay = record ? largestCrawlDelay(record.crawlDelays) : undefined;
  if (record && delay) {
    parts.push(`Crawl-delay for ${recordAgentsText(record)}: ${formatSeconds(delay.seconds)} (line ${delay.line}).`);
  }
  if (!ua.global && ua.token === '') parts.push('This value holds no product token (`[a-zA-Z_-]+`), so it names no crawler.');
  if (ctx.productToken) parts.push(yourCrawler(file, group, ctx.productToken));

  const catches = crawlersCaughtBy(file, group.index);
  const named = catches.caught.filter((c) => c.how === 'named');
  const fallback = catches.caught.filter((c) => c.how === 'fallback');
  const star = catches.caught.filter((c) => c.how === 'star');
  const list: string[] = [];
  for (const c of named) list.push(`- **${escapeMd(c.crawler.token)}** (${escapeMd(c.crawler.operator)}): ${describePurpose(c.crawler)}`);
  for (const c of fallback) {
    list.push(
      `- **${escapeMd(c.crawler.token)}** (${escapeMd(c.crawler.operator)}): no group names it, and ${escapeMd(c.crawler.operator)}'s documentation says it then follows the ${code(c.via ?? '')} group`,
    );
  }
  for (const other of catches.otherAgents) list.push(`- ${code(other)}: caught by its product token (not in Crawl Planner's list of well-known crawlers)`);
  if (list.length > 0) parts.push(`**This group catches:**\n\n${list.join('\n')}`);
  if (star.length > 0) {
    parts.push(
      `**As the \`*\` group, it also catches** every crawler that no group names, for example: ${star.map((c) => escapeMd(c.crawler.token)).join(', ')}.`,
    );
  }
  if (catches.ignoringStar.length > 0) {
    parts.push(
      `**Not caught by \`*\`:** ${catches.ignoringStar.map((c) => escapeMd(c.token)).join(', ')}. Google's documentation says these ignore \`User-agent: *\`; name them to address them.`,
    );
  }
  const mergedWith = file.groups.filter(
    (g) => g !== group && g.userAgents.some((a) => (ua.global ? a.global : !a.global && a.token !== '' && a.token === ua.token)),
  );
  if (mergedWith.length > 0) {
    parts.push(`${code(l.value ?? '')} is also named by the group at line${mergedWith.length > 1 ? 's' : ''} ${mergedWith.map((g) => g.line).join(', ')}: the groups are merged (RFC 9309 §2.2.1).`);
  }
  parts.push('---', directiveSection(DIRECTIVES['user-agent'] as DirectiveInfo));
  return parts.join('\n\n');
}

function describePurpose(c: KnownCrawler): string {
  if (c.controlToken) return `a control token for ${escapeMd(c.purpose)}; it fetches nothing itself`;
  return `crawls for ${escapeMd(c.purpose)}`;
}

function yourCrawler(file: RobotsFile, group: RobotsGroup, token: string): string {
  const sel = groupFor(file, token);
  const who = `Your crawler (${code(token)})`;
  if (sel.groups.includes(group)) return `${who} uses this group${sel.groups.length > 1 ? ` (merged with lines ${sel.lines.filter((n) => n !== group.line).join(', ')})` : ''}.`;
  if (sel.matchedBy === 'none') return `${who} uses no group here: no group names it and there is no \`*\` group.`;
  return `${who} uses the group at line ${sel.lines.join(', ')}, not this one.`;
}

/** "`Disalow` is read as Disallow", for the typos parse.ts accepts. */
function typoNote(l: RobotsLine): string[] {
  const canonical = KIND_CANONICAL[l.kind];
  if (!canonical || !l.key || l.key.toLowerCase() === canonical.toLowerCase()) return [];
  return [`${code(l.key)} is read as **${canonical}**, a frequent typo Google also accepts.`];
}

function patternNotes(value: string): string[] {
  const notes: string[] = [];
  if (value.includes('*')) notes.push('`*` matches any run of characters, including none.');
  if (value.endsWith('$')) notes.push('The final `$` means the URL must end right there.');
  if (value.includes('?')) notes.push('The pattern includes a query string, which is matched too.');
  return notes;
}

function ruleHover(file: RobotsFile, l: RobotsLine): string {
  const group = groupOfLine(file, l.line);
  const rule = group?.rules.find((r) => r.line === l.line);
  const value = l.value ?? '';
  const allow = l.kind === 'allow';
  const parts: string[] = [`**${code(lineText(l))}**`, ...typoNote(l)];
  if (!group || !rule) {
    parts.push('This rule comes before any User-agent line, so no crawler applies it.');
  } else if (value === '') {
    parts.push(allow ? 'An empty Allow has no effect.' : 'An empty Disallow blocks nothing: it allows everything.');
  } else if (value[0] !== '/' && value[0] !== '*') {
    parts.push('The pattern starts with neither `/` nor `*`, and every URL path starts with `/`, so this rule never matches.');
  } else {
    const core = value.replace(/\$$/, '');
    const verb = allow ? 'Allows' : 'Blocks';
    if (core.includes('*')) parts.push(`${verb} every URL whose path and query match ${code(value)}.`);
    else if (value.endsWith('$')) parts.push(`${verb} exactly the URL path (and query) ${code(core)}.`);
    else parts.push(`${verb} every URL whose path (and query) starts with ${code(core)}.`);
    parts.push(...patternNotes(value));
    if (rule.pattern !== value) parts.push(`Compared as ${code(rule.pattern)} after percent-encoding (RFC 9309 §2.2.2).`);
    parts.push(`Specificity: ${rule.pattern.length} characters. The longest matching rule in the group wins; on a tie Allow wins.`);
  }
  if (group) parts.push(`In the group at line ${group.line} for ${agentsText(group)}.`);
  parts.push('---', directiveSection(DIRECTIVES[l.kind] as DirectiveInfo));
  return parts.join('\n\n');
}

function crawlDelayHover(file: RobotsFile, l: RobotsLine, ctx: EditorContext): string {
  const record = recordOfLine(file, l.line);
  const reading = readCrawlDelay(l.value ?? '');
  const title = `**${code(lineText(l))}**`;
  const parts: string[] = [];
  if (!record) {
    parts.push(title, 'This line comes before any User-agent line, so it belongs to no group and is not used.');
  } else if (reading.seconds === undefined) {
    parts.push(title, `Not used: ${escapeMd(reading.problem ?? 'not a number of seconds')}`);
  } else {
    const group = file.groups[record.group] as RobotsGroup;
    parts.push(`${title} for ${recordAgentsText(record)}: the user-agent line${record.userAgents.length > 1 ? 's' : ''} just before it (line${record.userAgents.length > 1 ? 's' : ''} ${record.userAgents.map((ua) => ua.line).join(', ')})`);
    const others = group.userAgents.filter((ua) => !record.userAgents.includes(ua));
    if (others.length > 0) {
      parts.push(
        `Not for ${others.map((ua) => code(ua.value || '(empty)')).join(', ')}: RFC 9309 puts them in the same group (line ${group.line}), ` +
          'but a Crawl-delay belongs to the user-agent lines just before it, as robots-parser, urllib.robotparser and crawler-commons read it.',
      );
    }
    parts.push(estimateSection(crawlDelayEstimate(reading.seconds, ctx), ctx));
    const used = largestCrawlDelay(record.crawlDelays);
    if (used && used.line !== l.line) {
      parts.push(
        `Several Crawl-delay lines follow these user-agent lines; the largest, ${formatSeconds(used.seconds)} on line ${used.line}, is the one used: ` +
          'a Crawl-delay is a minimum wait, so the largest respects them all.',
      );
    }
    if (ctx.productToken) parts.push(yourCrawlDelay(file, l.line, ctx.productToken));
  }
  parts.push('---', directiveSection(DIRECTIVES['crawl-delay'] as DirectiveInfo));
  return parts.join('\n\n');
}

/** Which Crawl-delay line your crawler uses, said from the point of view of `line`. */
function yourCrawlDelay(file: RobotsFile, line: number, token: string): string {
  const sel = groupFor(file, token);
  const who = `Your crawler (${code(token)})`;
  const used = sel.crawlDelay;
  if (!used) {
    return sel.matchedBy === 'product-token'
      ? `${who} is named in this file but no Crawl-delay follows its user-agent lines, so it has none (the \`*\` value does not apply).`
      : `${who} gets no Crawl-delay from this file.`;
  }
  if (used.line === line) return `${who} uses this Crawl-delay.`;
  return `${who} uses the Crawl-delay on line ${used.line} (${formatSeconds(used.seconds)}), not this one.`;
}

function estimateSection(est: CrawlDelayEstimate, ctx: EditorContext): string {
  const d = est.decision;
  const settings = `your delay ${formatSeconds(ctx.configuredDelaySeconds)}, cap ${formatSeconds(ctx.maxCrawlDelaySeconds)}, policy "${ctx.crawlDelayPolicy}"`;
  if (d.skipped) {
    return `With your settings (${settings}), Crawl Planner **skips this host**: its Crawl-delay is above the cap. Obeying it would mean one request every ${formatDuration(est.crawlDelaySeconds)}.`;
  }
  let why: string;
  if (d.crawlDelayAboveCap) why = `the Crawl-delay is above your cap, so the cap (${formatSeconds(d.seconds)}) is used`;
  else if (d.source === 'crawl-delay') why = 'the Crawl-delay is longer than your delay';
  else if (ctx.configuredDelaySeconds > est.crawlDelaySeconds) why = 'your delay is longer than the Crawl-delay';
  else why = 'your delay and the Crawl-delay are equal';
  if (d.seconds <= 0) {
    return `With your settings (${settings}), the effective interval is **0 s**: the rate is set by response times and your rate limit, not by a delay.`;
  }
  const total = `≈ ${formatDuration(est.totalSeconds)}${est.totalSeconds >= 2 * 86_400 ? ` (${formatNumber(est.totalSeconds / 86_400, 1)} days)` : ''}`;
  // One short table first: the hover is small, and these are the numbers people hover for.
  return [
    [
      `| Interval | Pages/hour | Pages/day | ${pagesText(est.pages)} |`,
      '|---|---|---|---|',
      `| ${formatSeconds(d.seconds)} | ${rate(est.pagesPerHour)} | ${rate(est.pagesPerDay)} | ${total} |`,
    ].join('\n'),
    `With your settings (${settings}), one request every **${formatSeconds(d.seconds)}** to this host: ${why}. ` +
      'One request per interval, response times not counted; N is `crawlPlanner.robotsTxt.pagesForEstimate`, or the Planner\'s pages.',
  ].join('\n\n');
}

function sitemapHover(file: RobotsFile, l: RobotsLine): string {
  const parts: string[] = [`**${code(lineText(l))}**`, ...typoNote(l)];
  const kept = file.sitemaps.find((s) => s.line === l.line);
  if (kept) {
    if (kept.value !== kept.url) {
      parts.push(originUnknown(file) ? 'A relative URL: crawlers need the full https:// URL.' : `Read as ${code(kept.url)}.`);
    } else parts.push('An absolute URL: crawlers can fetch it as written.');
  } else if (file.sitemaps.some((s) => s.url === safeUrl(l.value ?? '', file.robotsUrl))) {
    parts.push('The same sitemap is listed earlier in the file.');
  } else {
    parts.push('Not used: the value is not an absolute http(s) URL.');
  }
  parts.push('---', directiveSection(DIRECTIVES.sitemap as DirectiveInfo));
  return parts.join('\n\n');
}

function safeUrl(value: string, base: string): string | undefined {
  try {
    return new URL(value, base).href;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// CodeLens

export type LensKind = 'test-urls' | 'crawl-delay' | 'compare-live';

export interface LensSpec {
  /** 1-based line the lens stands above. */
  line: number;
  title: string;
  kind: LensKind;
  /** The group's index (test-urls above a group). */
  group?: number;
  /** compare-live: the origin to fetch. */
  origin?: string;
  tooltip?: string;
}

export interface LensOptions {
  /** Where the live file is: given only when the origin is known (see originFromText / originFromPath). */
  liveOrigin?: OriginHint;
}

const ORIGIN_SOURCE_TEXT: Record<OriginHint['from'], string> = {
  option: 'the document',
  comment: 'a comment in the file',
  folder: 'the folder name',
  sitemap: 'the Sitemap URLs',
};

export function codeLenses(file: RobotsFile, ctx: EditorContext, options: LensOptions = {}): LensSpec[] {
  const lenses: LensSpec[] = [];
  if (options.liveOrigin && file.lines.length > 0) {
    const o = options.liveOrigin;
    lenses.push({
      line: 1,
      kind: 'compare-live',
      title: `Compare with live robots.txt (${o.origin})`,
      origin: o.origin,
      tooltip: `Diff this buffer against ${o.origin}/robots.txt as fetched now (origin from ${ORIGIN_SOURCE_TEXT[o.from]}).`,
    });
  }
  if (file.groups.length === 0 && file.lines.length > 0) {
    lenses.push({ line: 1, kind: 'test-urls', title: 'Test URLs…', tooltip: 'Test URLs against this robots.txt (it has no groups: everything is allowed).' });
  }
  // Files can have thousands of groups with the same few Crawl-delay values: format each value once.
  const texts = new Map<number, { title: string; tooltip: string }>();
  for (const group of file.groups) {
    const token = tokenForGroup(file, group.index, ctx.productToken ?? 'CrawlPlanner');
    lenses.push({
      line: group.line,
      kind: 'test-urls',
      title: 'Test URLs…',
      group: group.index,
      tooltip: `Test URLs against this group (as ${token}), using the unsaved text.`,
    });
  }
  for (const record of file.records) {
    const used = largestCrawlDelay(record.crawlDelays);
    if (used) {
      const seconds = used.seconds;
      let text = texts.get(seconds);
      if (!text) {
        const est = crawlDelayEstimate(seconds, ctx);
        text = {
          title: crawlDelayLensTitle(est, ctx),
          tooltip: `Effective interval ${formatSeconds(est.decision.seconds)} from Crawl-delay ${formatSeconds(seconds)} and your settings; pages/day ${rate(est.pagesPerDay)}.`,
        };
        texts.set(seconds, text);
      }
      lenses.push({ line: used.line, kind: 'crawl-delay', title: text.title, group: record.group, tooltip: text.tooltip });
    }
  }
  return lenses.sort((a, b) => a.line - b.line);
}

// ---------------------------------------------------------------------------------------------------
// Quick fixes

export interface TextEditSpec {
  /** 1-based start line. */
  line: number;
  startColumn: number;
  /** 1-based end line when it differs from `line` (deleting a whole line). */
  endLine?: number;
  endColumn: number;
  /** Line breaks are written `\n`; the adapter uses the document's own. */
  newText: string;
}

export interface QuickFixSpec {
  title: string;
  edits: TextEditSpec[];
  isPreferred: boolean;
}

function replaceRange(line: number, range: { start: number; end: number }, newText: string): TextEditSpec {
  return { line, startColumn: range.start, endColumn: range.end, newText };
}

function deleteLine(file: RobotsFile, line: number): TextEditSpec {
  if (line < file.lines.length) return { line, startColumn: 0, endLine: line + 1, endColumn: 0, newText: '' };
  const prev = file.lines[line - 2];
  if (prev) return { line: line - 1, startColumn: prev.raw.length, endLine: line, endColumn: (file.lines[line - 1] as RobotsLine).raw.length, newText: '' };
  return { line, startColumn: 0, endColumn: (file.lines[line - 1] as RobotsLine).raw.length, newText: '' };
}

/** The quick fixes for one finding of `file` (from lintRobotsText); empty when there is no obvious repair. */
export function quickFixes(file: RobotsFile, finding: RobotsFinding): QuickFixSpec[] {
  const l = file.lines[finding.line - 1];
  if (!l) return [];
  const key = l.key ?? '';
  switch (finding.code) {
    case 'directive-typo': {
      const canonical = KIND_CANONICAL[l.kind];
      if (!canonical || !l.keyRange) return [];
      return [{ title: `Change "${key}" to "${canonical}"`, edits: [replaceRange(l.line, l.keyRange, canonical)], isPreferred: true }];
    }
    case 'unknown-directive': {
      const suggestion = suggestDirective(key);
      if (!suggestion || !l.keyRange) return [];
      return [{ title: `Change "${clip(key)}" to "${suggestion}"`, edits: [replaceRange(l.line, l.keyRange, suggestion)], isPreferred: true }];
    }
    case 'missing-colon': {
      if (!l.keyRange) return [];
      const canonical = KIND_CANONICAL[l.kind];
      const typo = canonical !== undefined && key.toLowerCase() !== canonical.toLowerCase();
      return [
        {
          title: typo ? `Write "${canonical}:"` : `Add ":" after "${key}"`,
          edits: [typo ? replaceRange(l.line, l.keyRange, `${canonical}:`) : replaceRange(l.line, { start: l.keyRange.end, end: l.keyRange.end }, ':')],
          isPreferred: true,
        },
      ];
    }
    case 'rule-outside-group':
    case 'crawl-delay-outside-group': {
      const first = file.lines.find((x) => x.kind === 'allow' || x.kind === 'disallow' || x.kind === 'crawl-delay');
      if (!first || first.line > finding.line) return [];
      return [
        {
          title: `Add "User-agent: *" above line ${first.line}`,
          edits: [{ line: first.line, startColumn: 0, endColumn: 0, newText: 'User-agent: *\n' }],
          isPreferred: true,
        },
      ];
    }
    case 'sitemap-relative': {
      if (originUnknown(file) || !l.valueRange) return [];
      const href = safeUrl(l.value ?? '', file.robotsUrl);
      if (!href) return [];
      return [{ title: `Make the Sitemap URL absolute: ${href}`, edits: [replaceRange(l.line, l.valueRange, href)], isPreferred: true }];
    }
    case 'rule-path-not-absolute': {
      if (!l.valueRange || !l.value) return [];
      return [{ title: `Start the path with "/": /${clip(l.value)}`, edits: [replaceRange(l.line, { start: l.valueRange.start, end: l.valueRange.start }, '/')], isPreferred: true }];
    }
    case 'user-agent-not-a-token': {
      const ua = readUserAgentValue(l.value ?? '');
      if (!l.valueRange || ua.global || ua.token === '') return [];
      const token = (l.value ?? '').slice(0, (l.value ?? '').length - ua.rest.length);
      return [{ title: `Use the product token "${token}"`, edits: [replaceRange(l.line, l.valueRange, token)], isPreferred: true }];
    }
    case 'bom-in-line': {
      if (finding.column === undefined || finding.endColumn === undefined) return [];
      return [{ title: 'Remove the invisible byte order mark (U+FEFF)', edits: [replaceRange(l.line, { start: finding.column, end: finding.endColumn }, '')], isPreferred: true }];
    }
    case 'rule-duplicate':
      return [{ title: 'Remove the duplicate rule', edits: [deleteLine(file, l.line)], isPreferred: true }];
    case 'crawl-delay-duplicate':
      return [{ title: 'Remove this Crawl-delay line (a larger one is used)', edits: [deleteLine(file, l.line)], isPreferred: false }];
    case 'crawl-delay-scope': {
      // For the reading "the whole group shares it": repeat the line after every run of user-agent lines of
      // the group that has no Crawl-delay of its own.
      const record = recordOfLine(file, l.line);
      if (!record) return [];
      const bare = file.records.filter((r) => r.group === record.group && r !== record && r.crawlDelays.length === 0);
      if (bare.length === 0) return [];
      const text = lineText(l);
      const agents = bare.flatMap((r) => r.userAgents.map((ua) => ua.value || '""'));
      return [
        {
          title: `Give ${clip(agents.join(', '))} the same Crawl-delay`,
          edits: bare.map((r): TextEditSpec => {
            const last = r.userAgents[r.userAgents.length - 1] as RobotsUserAgent;
            if (last.line < file.lines.length) return { line: last.line + 1, startColumn: 0, endColumn: 0, newText: `${text}\n` };
            const end = (file.lines[last.line - 1] as RobotsLine).raw.length;
            return { line: last.line, startColumn: end, endColumn: end, newText: `\n${text}` };
          }),
          isPreferred: false,
        },
      ];
    }
    case 'crawl-delay-exponent': {
      const reading = readCrawlDelay(l.value ?? '');
      if (!l.valueRange || reading.seconds === undefined) return [];
      const plain = plainNumber(reading.seconds);
      return plain ? [{ title: `Write "${plain}"`, edits: [replaceRange(l.line, l.valueRange, plain)], isPreferred: true }] : [];
    }
    case 'crawl-delay-invalid': {
      const m = /^\+?(\d+(?:\.\d*)?|\.\d+)\s*(?:s|secs?|seconds?)?$/i.exec(l.value ?? '');
      if (!l.valueRange || !m || m[1] === l.value) return [];
      return [{ title: `Write "${m[1]}" (seconds)`, edits: [replaceRange(l.line, l.valueRange, m[1] as string)], isPreferred: true }];
    }
    default:
      return [];
  }
}

function plainNumber(n: number): string | undefined {
  if (!Number.isFinite(n) || n > 1e15) return undefined;
  const s = n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  return /e/i.test(s) ? undefined : s;
}

function clip(s: string, max = 60): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

// ---------------------------------------------------------------------------------------------------
// Testing URLs

/** URLs or paths from an input box: separated by whitespace; a bare path gets its leading `/`. */
export function splitUrlInput(text: string): string[] {
  return text
    .split(/\s+/)
    .filter((s) => s !== '')
    .map((s) => (/^[a-z][a-z0-9+.-]*:/i.test(s) || s.startsWith('/') ? s : `/${s}`));
}

/**
 * The robots.txt URL to test `inputs` against when the file's origin is unknown: the origin of the first
 * absolute http(s) URL among them (as the CLI's `--file` mode does); undefined when none is absolute.
 */
export function robotsUrlForInputs(inputs: readonly string[]): string | undefined {
  for (const input of inputs) {
    if (!/^https?:\/\//i.test(input)) continue;
    const robotsUrl = robotsUrlFor(input);
    if (robotsUrl) return robotsUrl;
  }
  return undefined;
}

/**
 * A product token that selects the group at `groupIndex`: its first named token; for a `*` group, the
 * configured token when it falls to `*`, else a token no group names.
 */
export function tokenForGroup(file: RobotsFile, groupIndex: number, productToken: string): string {
  const group = file.groups[groupIndex];
  if (!group) return productToken;
  const named = group.userAgents.find((ua) => !ua.global && ua.token !== '');
  if (named) return named.value.slice(0, named.token.length);
  if (groupFor(file, productToken).matchedBy === 'star') return productToken;
  let candidate = 'AnyOtherCrawler';
  while (file.groups.some((g) => namesToken(g, candidate.toLowerCase()))) candidate += 'X';
  return candidate;
}

export interface UrlTest {
  /** As typed. */
  input: string;
  explanation: RobotsExplanation;
}

export function testUrls(file: RobotsFile, inputs: readonly string[], productToken: string): UrlTest[] {
  return inputs.map((input) => ({ input, explanation: explain(file, input, productToken) }));
}

export interface VerdictMark {
  /** The deciding line (1-based). */
  line: number;
  /** `disallowed` when any URL deciding on this line is disallowed. */
  verdict: Exclude<RobotsVerdict, 'not-applicable'>;
  /** The inputs this line decided, as typed. */
  inputs: string[];
  /** A short text to show after the line: "✗ blocks /private/x" or "✓ allows /a, /b". */
  text: string;
}

/** One mark per deciding line, in line order. */
export function verdictMarks(results: readonly UrlTest[]): VerdictMark[] {
  const byLine = new Map<number, VerdictMark>();
  for (const r of results) {
    const e = r.explanation;
    if (e.line === undefined || e.verdict === 'not-applicable') continue;
    const mark = byLine.get(e.line) ?? { line: e.line, verdict: e.verdict, inputs: [], text: '' };
    mark.inputs.push(r.input);
    if (e.verdict === 'disallowed') mark.verdict = 'disallowed';
    byLine.set(e.line, mark);
  }
  const marks = [...byLine.values()].sort((a, b) => a.line - b.line);
  for (const m of marks) {
    const shown = m.inputs.slice(0, 3).map((s) => clip(s, 60)).join(', ');
    const more = m.inputs.length > 3 ? ` and ${m.inputs.length - 3} more` : '';
    m.text = `${m.verdict === 'disallowed' ? '✗ blocks' : '✓ allows'} ${shown}${more}`;
  }
  return marks;
}
