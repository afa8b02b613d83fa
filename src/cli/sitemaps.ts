/**
 * `crawl-planner sitemaps`: how many pages each host publishes in its sitemaps. A thin adapter over
 * src/net/sitemaps.ts: options → sizeFromSitemaps → a table or the JSON document (docs/cli.md, docs/formats.md).
 * The option readers here are shared with `estimate --sitemaps`.
 */
import { formatNumber, formatSeconds } from '../core/format/duration';
import { renderTable, sanitizeText } from '../core/format/table';
import { realHosts } from '../core/identity';
import { PLAN_DEFAULTS, PLAN_LIMITS } from '../core/plan';
// From the modules themselves, not the index: `estimate` loads this file, and the index would load the XML
// parser (src/core/sitemaps/parse.ts) at every start-up; the sizing itself is imported when it runs.
import { parseChangedSince } from '../core/sitemaps/lastmod';
import {
  SITEMAP_FETCH_TIMEOUT_SECONDS,
  SITEMAP_MAX_BYTES_PER_FILE,
  SITEMAP_MAX_INDEX_DEPTH,
  SITEMAP_MAX_URLS_PER_FILE,
  SITEMAP_TOTALS_DEFAULT,
  SITEMAP_TOTALS_LIMITS,
  type SitemapTotals,
} from '../core/sitemaps/limits';
import {
  SITEMAPS_SCHEMA_VERSION,
  sizedPages,
  sizingPages,
  type SitemapHostReport,
  type SitemapSizing,
} from '../core/sitemaps/sizing';
import { sortUrls } from '../net/robotsInspect';
import type { SitemapSizingOptions } from '../net/sitemaps';
import { DEFAULT_PRODUCT_TOKEN, userAgentHeader } from '../net/userAgent';
import {
  EXIT_FAILED,
  EXIT_OK,
  parse,
  parseChoice,
  parseNumber,
  readSeedLines,
  seedLocation,
  UsageError,
  type Io,
} from './args';
import { checkContact, contactOption } from './contact';
import { colors, type Colors } from '../core/format/ansi';
import { resolveHelp, resolveHttp, resolveOption } from './resolveOption';
import { FETCH_OPTIONS, productTokenOption, ROBOTS_TIMEOUT_DEFAULT_SECONDS, ROBOTS_TIMEOUT_LIMIT } from './robots';

const OPTIONS = {
  ...FETCH_OPTIONS,
  'max-files': { type: 'string' },
  'max-urls': { type: 'string' },
  'changed-since': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const MiB = 1024 * 1024;

export const SITEMAPS_HELP = `Usage: crawl-planner sitemaps [options] <url>...

How many pages each host publishes in its sitemaps: the Sitemap lines of robots.txt (else /sitemap.xml),
indexes followed, gzip included. Per host: distinct URLs, URLs robots.txt disallows, URLs on other hosts,
files read, and when the pages last changed (lastmod). Each URL stands for its origin.

Requests are polite: robots.txt first, one request at a time per host, --delay apart (a Crawl-delay raises it).

Options:
  --user-agent TOKEN        product token matched against robots.txt groups, [a-zA-Z_-]+; default ${DEFAULT_PRODUCT_TOKEN}
  --contact URL             who runs the crawl, sent in the User-Agent header: an http(s) URL or mailto: address;
                            without it, requests to real hosts warn that site operators cannot reach you
  --require-contact         refuse to fetch from a real host (not loopback) without --contact
  --delay S                 seconds between two requests to one host; default ${PLAN_DEFAULTS.delaySeconds}
  --crawl-delay-policy P    cap | skip | obey a Crawl-delay above --max-crawl-delay; default ${PLAN_DEFAULTS.crawlDelayPolicy}
  --max-crawl-delay S       the Crawl-delay cap, seconds; default ${PLAN_DEFAULTS.maxCrawlDelaySeconds}
  --timeout S               bound on each fetch, all redirects included, seconds; default ${ROBOTS_TIMEOUT_DEFAULT_SECONDS}
${resolveHelp(28)}                            for robots.txt and ${SITEMAP_FETCH_TIMEOUT_SECONDS} for a sitemap file
  --max-files N             sitemap files read at most, all hosts together; default ${formatNumber(SITEMAP_TOTALS_DEFAULT.files)}
  --max-urls N              distinct URLs counted at most, all hosts together; default ${formatNumber(SITEMAP_TOTALS_DEFAULT.urls)}
  --changed-since D         also count the URLs whose lastmod is on or after D: a date (2024-05-01) or
                            a duration before now (30d, 12h, 1w)
  --json                    one JSON document (schemaVersion ${SITEMAPS_SCHEMA_VERSION}) instead of text
  -h, --help                this help

Limits: ${formatNumber(SITEMAP_MAX_URLS_PER_FILE)} URLs and ${SITEMAP_MAX_BYTES_PER_FILE / MiB} MiB uncompressed per file (sitemaps.org), indexes
followed ${SITEMAP_MAX_INDEX_DEPTH} levels down, ${SITEMAP_TOTALS_DEFAULT.bytes / (1024 * MiB)} GiB uncompressed per run; past a cap on the run the counts are lower bounds.
Exit code: 0 when at least one sitemap file was read, 1 when none was, 2 for bad input.
`;

// ---------------------------------------------------------------------------------------------------------
// Option readers, shared with `estimate --sitemaps`.

/**
 * `--changed-since D` → epoch ms: a W3C date or date-time (2024-05-01, 2024-05-01T12:00Z), or a duration
 * (30d, 12h, 1w, 1d12h) counted back from `now`.
 */
export function changedSinceOption(raw: string | undefined, now: number): number | undefined {
  if (raw === undefined) return undefined;
  const read = parseChangedSince(raw, now);
  if ('problem' in read) throw new UsageError(`--changed-since: ${sanitizeText(read.problem)}`);
  return read.ms;
}

/** What the sizing takes from the command line; unset values keep the sizing's defaults. */
export interface SizingArgs {
  productToken: string;
  userAgentHeader: string;
  delaySeconds?: number | undefined;
  crawlDelayPolicy?: SitemapSizingOptions['crawlDelayPolicy'] | undefined;
  maxCrawlDelaySeconds?: number | undefined;
  /** `--timeout S`: S for every fetch when given, else each kind's default. */
  timeoutSeconds?: number | undefined;
  changedSince?: number | undefined;
  totals?: Partial<SitemapTotals> | undefined;
  cache?: SitemapSizingOptions['cache'] | undefined;
  /** `--resolve`'s HTTP options. */
  http?: SitemapSizingOptions['http'] | undefined;
}

export function sizingOptions(a: SizingArgs): SitemapSizingOptions {
  const o: SitemapSizingOptions = { productToken: a.productToken, userAgentHeader: a.userAgentHeader };
  if (a.delaySeconds !== undefined) o.delaySeconds = a.delaySeconds;
  if (a.crawlDelayPolicy !== undefined) o.crawlDelayPolicy = a.crawlDelayPolicy;
  if (a.maxCrawlDelaySeconds !== undefined) o.maxCrawlDelaySeconds = a.maxCrawlDelaySeconds;
  if (a.timeoutSeconds !== undefined)
    o.timeouts = { robotsSeconds: a.timeoutSeconds, sitemapSeconds: a.timeoutSeconds };
  if (a.changedSince !== undefined) o.changedSince = a.changedSince;
  if (a.totals !== undefined) o.totals = a.totals;
  if (a.cache !== undefined) o.cache = a.cache;
  if (a.http !== undefined) o.http = a.http;
  return o;
}

/** `--max-files` and `--max-urls`. */
export function totalsOption(values: { 'max-files'?: string; 'max-urls'?: string }): Partial<SitemapTotals> {
  const files = parseNumber('max-files', values['max-files'], SITEMAP_TOTALS_LIMITS.files);
  const urls = parseNumber('max-urls', values['max-urls'], SITEMAP_TOTALS_LIMITS.urls);
  return { ...(files !== undefined ? { files } : {}), ...(urls !== undefined ? { urls } : {}) };
}

// ---------------------------------------------------------------------------------------------------------
// Text.

const day = (iso: string | null): string => (iso === null ? '—' : iso.slice(0, 10));

/** The per-host table (and the changed-since column when asked). */
export function sitemapTable(sizing: SitemapSizing, s: Colors, indent = ''): string[] {
  const since = sizing.changedSince;
  return renderTable(
    [
      { header: 'Host', truncate: 'middle', maxWidth: 40 },
      { header: 'URLs', align: 'right' },
      { header: 'Disallowed', align: 'right' },
      { header: 'Other hosts', align: 'right' },
      { header: 'Files', align: 'right' },
      { header: 'Newest', align: 'right' },
      { header: 'Oldest', align: 'right' },
      { header: '7 d', align: 'right' },
      { header: '30 d', align: 'right' },
      { header: '365 d', align: 'right' },
      ...(since !== null ? [{ header: `Since ${day(since)}`, align: 'right' as const }] : []),
    ],
    sizing.hosts.map((h) => [
      sanitizeText(h.host),
      // Not 0: a host whose sitemaps could not be read has an unknown number of pages.
      'unknown' in sizedPages(h, false) ? 'unknown' : formatNumber(h.urls),
      formatNumber(h.disallowed),
      formatNumber(h.otherHosts.urls),
      formatNumber(h.files),
      day(h.lastmod.newest),
      day(h.lastmod.oldest),
      formatNumber(h.lastmod.last7d),
      formatNumber(h.lastmod.last30d),
      formatNumber(h.lastmod.last365d),
      ...(since !== null ? [formatNumber(h.changedSince ?? 0)] : []),
    ]),
    { indent, styleHeader: s.bold },
  );
}

/** Under the table: per host where its sitemaps came from, what else was found, and every error. */
export function sitemapNotes(h: SitemapHostReport, s: Colors, indent = ''): string[] {
  const lines: string[] = [];
  const source =
    h.source === 'robots.txt'
      ? 'sitemaps from robots.txt'
      : h.source === 'fallback'
        ? 'robots.txt names no sitemap: /sitemap.xml tried'
        : 'no sitemap read';
  const extras = [
    `interval ${formatSeconds(h.intervalSeconds)}`,
    h.duplicates > 0 ? `${formatNumber(h.duplicates)} duplicate${h.duplicates === 1 ? '' : 's'} removed` : '',
    h.invalid > 0 ? `${formatNumber(h.invalid)} not an http(s) URL` : '',
    h.unchecked > 0 ? `${formatNumber(h.unchecked)} not checked against robots.txt` : '',
    h.lastmod.undated > 0 ? `${formatNumber(h.lastmod.undated)} without lastmod` : '',
    h.lastmod.invalid > 0 ? `${formatNumber(h.lastmod.invalid)} with an invalid lastmod` : '',
    h.lastmod.future > 0 ? `${formatNumber(h.lastmod.future)} with a lastmod in the future` : '',
  ].filter(Boolean);
  lines.push(`${indent}${s.bold(sanitizeText(h.host))}: ${source}; ${extras.join(', ')}`);
  if (h.otherHosts.urls > 0) {
    const named = h.otherHosts.hosts.map((o) => `${sanitizeText(o.host)} (${formatNumber(o.urls)})`).join(', ');
    const more = h.otherHosts.hosts.reduce((n, o) => n + o.urls, 0) < h.otherHosts.urls ? ', …' : '';
    lines.push(`${indent}  other hosts, not counted: ${named}${more}`);
  }
  for (const e of h.errors) {
    lines.push(
      `${indent}  ${s.yellow(e.code)}${e.url !== null ? ` ${sanitizeText(e.url)}` : ''}: ${sanitizeText(e.message)}`,
    );
  }
  return lines;
}

export function formatSizing(sizing: SitemapSizing, color: boolean): string {
  const s = colors(color);
  const lines = [
    `Sitemaps for ${s.bold(sanitizeText(sizing.productToken))} (User-Agent: ${sanitizeText(sizing.userAgent)})`,
    '',
  ];
  lines.push(...sitemapTable(sizing, s), '');
  for (const h of sizing.hosts) lines.push(...sitemapNotes(h, s));
  const { counts, unknown } = sizingPages({ hosts: sizing.hosts, changedSince: null });
  const counted = Object.keys(counts).length;
  const total = Object.values(counts).reduce((n, urls) => n + urls, 0);
  lines.push(
    '',
    `${formatNumber(total)} URL${total === 1 ? '' : 's'} on ${formatNumber(counted)} host${counted === 1 ? '' : 's'}, ` +
      `${formatNumber(sizing.requests)} request${sizing.requests === 1 ? '' : 's'}; lastmod windows end ${sizing.generatedAt.slice(0, 16).replace('T', ' ')} UTC`,
  );
  const unread = Object.keys(unknown);
  if (unread.length > 0) {
    const named =
      unread.slice(0, 5).map(sanitizeText).join(', ') +
      (unread.length > 5 ? `, +${formatNumber(unread.length - 5)} more` : '');
    lines.push(
      s.yellow(
        `${unread.length === 1 ? "1 host's pages are" : `${formatNumber(unread.length)} hosts' pages are`} unknown: no sitemap of ${unread.length === 1 ? 'it' : 'theirs'} could be read (${named}; the errors above say why).`,
      ),
    );
  }
  if (!sizing.complete)
    lines.push(s.yellow('A cap on the run was reached: the counts are lower bounds (see --max-files, --max-urls).'));
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------------------
// The command.

export async function runSitemaps(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) {
    io.out(SITEMAPS_HELP);
    return EXIT_OK;
  }
  // Every option is checked before anything is fetched.
  const productToken = productTokenOption(values['user-agent']);
  const contact = contactOption(values.contact);
  const delaySeconds = parseNumber('delay', values.delay, PLAN_LIMITS.delaySeconds);
  const crawlDelayPolicy = parseChoice('crawl-delay-policy', values['crawl-delay-policy'], [
    'cap',
    'skip',
    'obey',
  ] as const);
  const maxCrawlDelaySeconds = parseNumber(
    'max-crawl-delay',
    values['max-crawl-delay'],
    PLAN_LIMITS.maxCrawlDelaySeconds,
  );
  const timeoutSeconds = parseNumber('timeout', values.timeout, ROBOTS_TIMEOUT_LIMIT);
  const totals = totalsOption(values);
  const changedSince = changedSinceOption(values['changed-since'], Date.now());
  const inputs = readSeedLines(positionals, undefined);
  if (inputs.length === 0) throw new UsageError('no URLs: give one or more http(s) URLs whose hosts to size');
  const urls: string[] = [];
  for (const input of inputs) {
    const checked = sortUrls([input.text]);
    if (checked.urls.length === 0)
      throw new UsageError(
        `${seedLocation(input.line, input.source)}: not an http(s) URL: ${sanitizeText(input.text)}`,
      );
    urls.push(checked.urls[0]!.url);
  }
  const header = userAgentHeader(productToken, contact);
  checkContact('sitemaps', contact, realHosts(urls), Boolean(values['require-contact']), io);

  const { sizeFromSitemaps } = await import('../net/sitemaps.js');
  const sizing = await sizeFromSitemaps(
    urls,
    sizingOptions({
      productToken,
      userAgentHeader: header,
      delaySeconds,
      crawlDelayPolicy,
      maxCrawlDelaySeconds,
      timeoutSeconds,
      changedSince,
      totals,
      http: resolveHttp(resolveOption(values.resolve)),
    }),
  );
  io.out(values.json ? JSON.stringify(sizing, null, 2) + '\n' : formatSizing(sizing, io.color));
  return sizing.hosts.some((h) => h.files > 0) ? EXIT_OK : EXIT_FAILED;
}
