/**
 * What the robots.txt editor knows: each directive (where it is defined, what it means, which major
 * crawlers honour it, what Crawl Planner does with it) and the well-known crawlers (their product tokens,
 * operators, purposes, and the documented fallbacks), with which of them a group catches. Claims are
 * deliberately conservative: they say what each operator's documentation says, and no more.
 */
import { IGNORED_DIRECTIVE_NOTES } from '../lint';
import type { RobotsFile, RobotsGroup, RobotsLine, RobotsLineKind } from '../robotsFile';

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
    meaning:
      'Gives the absolute URL of a sitemap. It belongs to no group, so it applies to every crawler wherever it stands.',
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

export const KIND_CANONICAL: Partial<Record<RobotsLineKind, string>> = {
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
  {
    token: 'AdsBot-Google-Mobile',
    operator: 'Google',
    purpose: 'Google Ads landing-page checks (mobile)',
    ignoresStar: true,
  },
  {
    token: 'APIs-Google',
    operator: 'Google',
    purpose: 'push notification delivery for Google APIs',
    ignoresStar: true,
  },
  { token: 'Bingbot', operator: 'Microsoft', purpose: 'Bing search' },
  { token: 'YandexBot', operator: 'Yandex', purpose: 'Yandex search', fallback: ['yandex'] },
  { token: 'Baiduspider', operator: 'Baidu', purpose: 'Baidu search' },
  { token: 'DuckDuckBot', operator: 'DuckDuckGo', purpose: 'DuckDuckGo search' },
  { token: 'Applebot', operator: 'Apple', purpose: 'Siri, Spotlight and Safari suggestions', fallback: ['googlebot'] },
  {
    token: 'Applebot-Extended',
    operator: 'Apple',
    purpose: "whether content Applebot crawls may be used to train Apple's AI models",
    controlToken: true,
  },
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

export function namesToken(group: RobotsGroup, token: string): boolean {
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
    ...new Set(
      group.userAgents
        .filter((ua) => !ua.global && !knownCrawler(ua.token) && !isFallbackTarget(ua.token))
        .map((ua) => ua.value),
    ),
  ];
  return { caught, ignoringStar, otherAgents };
}

/** Tokens that are not crawlers themselves but groups others follow (`Yandex`). */
function isFallbackTarget(token: string): boolean {
  return token !== '' && KNOWN_CRAWLERS.some((c) => c.fallback?.includes(token)) && !knownCrawler(token);
}
