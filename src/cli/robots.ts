/**
 * `crawl-planner robots`: what robots.txt says about some URLs. Per origin the fetch outcome, the group
 * that applies to our product token, Crawl-delay and the effective interval; per URL the verdict and the
 * deciding line. A thin adapter over src/net/robotsInspect (network) and inspectRobotsText (`--file`), the
 * same decode → parse → explain path the conformance test uses. See docs/cli.md §crawl-planner robots.
 *
 * The option readers and formatters here are shared with `estimate --robots`.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { SAMPLE_CRAWL_DEFAULTS, SAMPLE_CRAWL_LIMITS } from '../core/crawl/sampleCrawlOptions';
import { formatNumber, formatSeconds } from '../core/format/duration';
import { renderTable, sanitizeText } from '../core/format/table';
import { colors, type Colors } from '../core/format/ansi';
import { plural } from '../core/format/text';
import { realHosts } from '../core/identity';
import type { NumberLimit } from '../core/limits';
import { PLAN_DEFAULTS, PLAN_LIMITS } from '../core/plan';
import {
  ROBOTS_FETCH_TIMEOUT_SECONDS,
  ROBOTS_MAX_BYTES,
  validateProductToken,
  type RobotsFinding,
  type RobotsVerdict,
} from '../core/robots';
import type { RobotsTimeouts } from '../net/robotsFetch';
import {
  inspectRobots,
  inspectRobotsText,
  sortUrls,
  type InspectedOrigin,
  type RobotsInspection,
  type RobotsSettings,
  type RobotsUrlResult,
} from '../net/robotsInspect';
import { DEFAULT_PRODUCT_TOKEN, userAgentHeader } from '../net/userAgent';
import {
  EXIT_OK,
  parse,
  parseChoice,
  parseNumber,
  readLineFile,
  readSeedLines,
  seedLocation,
  UsageError,
  type Io,
} from './args';
import { checkContact, contactOption } from './contact';
import { RESOLVE_OPTIONS, resolveHelp, resolveHttp, resolveOption } from './resolveOption';

/** The options of every command that fetches for the user: who it is, how politely, how long it waits. */
export const FETCH_OPTIONS = {
  ...RESOLVE_OPTIONS,
  'user-agent': { type: 'string' },
  contact: { type: 'string' },
  'require-contact': { type: 'boolean' },
  delay: { type: 'string' },
  'crawl-delay-policy': { type: 'string' },
  'max-crawl-delay': { type: 'string' },
  timeout: { type: 'string' },
} as const;

export const ROBOTS_OPTIONS = {
  ...FETCH_OPTIONS,
  file: { type: 'string' },
  origin: { type: 'string' },
  'urls-file': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Seconds one robots.txt fetch may take in all (every redirect hop together). */
export const ROBOTS_TIMEOUT_DEFAULT_SECONDS = ROBOTS_FETCH_TIMEOUT_SECONDS;
/** `--timeout`: the same bound as a crawl request's. */
export const ROBOTS_TIMEOUT_LIMIT: NumberLimit = SAMPLE_CRAWL_LIMITS.timeoutSeconds;
/** The connect timeout never exceeds a crawl's default one, nor the total. */
const CONNECT_TIMEOUT_MS = SAMPLE_CRAWL_DEFAULTS.connectTimeoutSeconds * 1000;
/** Findings listed per origin in the human output; `--json` has them all. */
const FINDINGS_SHOWN = 10;
/** Invalid URL lines reported one by one on stderr; `--json` lists them all. */
const INVALID_SHOWN = 10;

export const ROBOTS_JSON_SCHEMA_VERSION = 1;

export const ROBOTS_HELP = `Usage: crawl-planner robots [options] <url>...
       crawl-planner robots [options] --urls-file FILE [<url>...]

What robots.txt (RFC 9309) says about each URL: per origin the fetch outcome, the group that applies to
your product token, Crawl-delay and the effective interval; per URL allowed / disallowed with the deciding line.

Options:
  --user-agent TOKEN        product token matched against User-agent lines, [a-zA-Z_-]+; default ${DEFAULT_PRODUCT_TOKEN}
  --contact URL             who runs the crawl, sent in the User-Agent header: an http(s) URL or mailto: address;
                            without it, fetches from real hosts warn that site operators cannot reach you
  --require-contact         refuse to fetch from a real host (not loopback) without --contact
  --delay S                 your configured per-host delay, seconds; default ${PLAN_DEFAULTS.delaySeconds}
  --crawl-delay-policy P    cap | skip | obey a Crawl-delay above --max-crawl-delay; default ${PLAN_DEFAULTS.crawlDelayPolicy}
  --max-crawl-delay S       the Crawl-delay cap, seconds; default ${PLAN_DEFAULTS.maxCrawlDelaySeconds}
  --timeout S               bound on each robots.txt fetch, all redirects included, seconds; default ${ROBOTS_TIMEOUT_DEFAULT_SECONDS}
${resolveHelp(28)}  --file PATH               test the URLs against a local robots.txt; nothing is fetched
  --origin URL              with --file: the origin the file stands for; default the first URL's
  --urls-file FILE          more URLs, one per line (# comments); - reads standard input. Bulk mode: the
                            fast verdict-only path, a short reason per URL, no reason lines in the text
  --json                    one JSON document (schemaVersion ${ROBOTS_JSON_SCHEMA_VERSION}) instead of text
  -h, --help                this help

Outcomes: ok (the rules apply), unavailable (4xx: everything allowed),
UNREACHABLE (5xx, 429, network error, timeout: everything disallowed).
Exit code: 0 when at least one URL was checked, 2 for bad input (or no http(s) URL at all).
`;

// ---------------------------------------------------------------------------------------------------------
// Option readers, shared with `estimate --robots`.

/** `--user-agent`: a valid product token, or a UsageError citing the rule it broke. */
export function productTokenOption(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_PRODUCT_TOKEN;
  const problem = validateProductToken(raw);
  if (problem !== undefined) throw new UsageError(`--user-agent: ${sanitizeText(problem)}`);
  return raw;
}

/** `--timeout S` → the robots.txt fetch's timeouts: S for the whole fetch, and no single phase longer. */
export function robotsTimeouts(seconds: number): Required<RobotsTimeouts> {
  const ms = Math.max(1, Math.round(seconds * 1000));
  return { connectMs: Math.min(CONNECT_TIMEOUT_MS, ms), headersMs: ms, bodyMs: ms, totalMs: ms };
}

// ---------------------------------------------------------------------------------------------------------
// JSON.

/** One origin in JSON: the core's report with `fetchedAt` as an ISO 8601 string and without the raw text. */
export type RobotsOriginJson = Omit<InspectedOrigin, 'fetchedAt' | 'text'> & { fetchedAt: string | null };

export function originJson(o: InspectedOrigin): RobotsOriginJson {
  const { text: _text, fetchedAt, ...rest } = o;
  return { ...rest, fetchedAt: fetchedAt === null ? null : new Date(fetchedAt).toISOString() };
}

export interface InvalidUrlArgument {
  /** 1-based position among the URL inputs: the arguments first, then the lines of --urls-file. */
  argument: number;
  /** Where it was given: "argument 2", or "urls.txt line 4" ("stdin line 4" for --urls-file -). */
  location: string;
  input: string;
  reason: string;
}

export interface RobotsCliDocument {
  schemaVersion: typeof ROBOTS_JSON_SCHEMA_VERSION;
  productToken: string;
  /** The User-Agent header the fetches sent; null with --file. */
  userAgent: string | null;
  source: 'network' | 'file';
  /** The --file path, or null. */
  file: string | null;
  /** The --urls-file path ("-" for standard input), or null. With it, results take the verdict-only path. */
  urlsFile: string | null;
  origins: RobotsOriginJson[];
  results: RobotsUrlResult[];
  invalid: InvalidUrlArgument[];
}

// ---------------------------------------------------------------------------------------------------------
// Text.

/** The outcome in words; `unreachable` in capitals, bold red: nothing on that origin may be crawled. */
export function outcomeHeadline(o: Pick<InspectedOrigin, 'outcome' | 'from'>, s: Colors): string {
  switch (o.outcome) {
    case 'ok':
      return s.green(o.from === 'file' ? 'ok (local file)' : 'ok');
    case 'unavailable':
      return s.yellow('unavailable: every URL is allowed');
    case 'unreachable':
      return s.bold(s.red('UNREACHABLE: every URL is disallowed'));
    default: {
      const never: never = o.outcome;
      return never;
    }
  }
}

/** `L3 Disallow: /private`, or `—` when no rule decided. */
export function decidingLine(r: Pick<RobotsUrlResult, 'line' | 'rule'>): string {
  if (r.line === null) return '—';
  return `L${r.line}${r.rule !== null ? ` ${sanitizeText(r.rule)}` : ''}`;
}

function verdictText(v: RobotsVerdict, s: Colors): string {
  switch (v) {
    case 'allowed':
      return s.green('allowed');
    case 'disallowed':
      return s.red('disallowed');
    case 'not-applicable':
      return s.dim('not-applicable');
    default: {
      const never: never = v;
      return never;
    }
  }
}

function groupText(o: InspectedOrigin, productToken: string): string {
  const g = o.group;
  if (g === null) return 'none';
  const token = sanitizeText(productToken);
  if (g.matchedBy === 'none') return `none: no group names ${token} and there is no * group, so everything is allowed`;
  const agents = g.userAgents.map(sanitizeText).join(', ');
  const head = `L${g.line ?? '?'} User-agent: ${agents}`;
  const how = g.matchedBy === 'product-token' ? `names ${token}` : `the * group: no group names ${token}`;
  const merged =
    g.lines.length > 1 ? `; ${g.lines.length} groups merged, at ${g.lines.map((l) => `L${l}`).join(', ')}` : '';
  return `${head} (${how}${merged})`;
}

function findingLine(f: RobotsFinding): string {
  return `L${f.line} ${f.severity} ${f.code}: ${sanitizeText(f.message)}`;
}

function findingsSummary(findings: readonly RobotsFinding[]): string {
  if (findings.length === 0) return 'none';
  const count = (sev: RobotsFinding['severity']) => findings.filter((f) => f.severity === sev).length;
  return `${formatNumber(findings.length)} (${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${formatNumber(count('info'))} info)`;
}

/** The per-origin block: outcome headline, then one labelled line per fact. */
export function formatOrigin(o: InspectedOrigin, productToken: string, s: Colors): string[] {
  const lines = [`${s.bold(sanitizeText(o.origin))}  ${outcomeHeadline(o, s)}`];
  const row = (label: string, value: string) => lines.push(`  ${label.padEnd(12)} ${value}`);
  if (o.from === 'network') {
    row('robots.txt', sanitizeText(o.robotsUrl));
    row('status', o.status === null ? 'none (no HTTP response)' : String(o.status));
    row(
      'redirects',
      o.redirects.length === 0
        ? 'none'
        : `${o.redirects.length}: ${o.redirects.map((r) => `${r.status} → ${sanitizeText(r.to)}`).join(', ')}`,
    );
  }
  const ok = o.outcome === 'ok';
  if (ok && o.bytes !== null) {
    row(
      'size',
      `${plural(o.bytes, 'byte')}${o.truncated ? `, ${s.yellow('truncated')}: only the first ${formatNumber(ROBOTS_MAX_BYTES)} bytes are parsed (RFC 9309 §2.5)` : ''}`,
    );
  }
  if (o.fetchedAt !== null) row('fetched at', new Date(o.fetchedAt).toISOString());
  row('reason', sanitizeText(o.reason));
  // Unreachable: nothing may be crawled, so there is no group, Crawl-delay or interval to show.
  if (o.outcome === 'unreachable') return lines;
  if (ok) {
    row('group', groupText(o, productToken));
    row(
      'Crawl-delay',
      o.crawlDelaySeconds === null
        ? 'none'
        : `${formatSeconds(o.crawlDelaySeconds)}${o.crawlDelayLine !== null ? ` (L${o.crawlDelayLine})` : ''}`,
    );
  }
  let interval = `${formatSeconds(o.effectiveIntervalSeconds)} (${o.intervalSource})`;
  if (o.crawlDelayAboveCap) {
    const c = o.crawlDelayAboveCap;
    interval += o.skipped
      ? ` — ${s.yellow('host skipped')}: Crawl-delay ${formatSeconds(c.declaredSeconds)} is above the cap of ${formatSeconds(c.capSeconds)}`
      : ` — Crawl-delay ${formatSeconds(c.declaredSeconds)} capped at ${formatSeconds(c.capSeconds)}`;
  }
  row('interval', interval);
  if (!ok) return lines;
  row('sitemaps', o.sitemaps.length === 0 ? 'none' : o.sitemaps.map(sanitizeText).join(', '));
  row('findings', findingsSummary(o.findings));
  for (const f of o.findings.slice(0, FINDINGS_SHOWN)) lines.push(`    ${findingLine(f)}`);
  if (o.findings.length > FINDINGS_SHOWN)
    lines.push(`    … and ${formatNumber(o.findings.length - FINDINGS_SHOWN)} more (--json lists them all)`);
  return lines;
}

/** "100,000 URLs: 71,000 allowed, 29,000 disallowed, 0 not-applicable". */
export function resultsSummary(results: readonly RobotsUrlResult[]): string {
  const count = (v: RobotsVerdict) => results.filter((r) => r.verdict === v).length;
  return `${plural(results.length, 'URL')}: ${formatNumber(count('allowed'))} allowed, ${formatNumber(count('disallowed'))} disallowed, ${formatNumber(count('not-applicable'))} not-applicable`;
}

/** The per-URL table: verdict, deciding line, URL; each row followed by its reason unless `reasons` is false. */
export function formatResults(results: readonly RobotsUrlResult[], s: Colors, indent = '', reasons = true): string[] {
  const table = renderTable(
    [
      { header: 'Verdict' },
      { header: 'Deciding line', maxWidth: 72 },
      { header: 'URL', maxWidth: 120, truncate: 'middle' },
    ],
    results.map((r) => [verdictText(r.verdict, s), decidingLine(r), sanitizeText(r.url)]),
    { indent, styleHeader: s.bold },
  );
  if (!reasons) return table;
  const out = [table[0]!];
  results.forEach((r, i) => out.push(table[i + 1]!, `${indent}    ${s.dim(sanitizeText(r.reason))}`));
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The command.

type Values = ReturnType<typeof parse<typeof ROBOTS_OPTIONS>>['values'];

/** Reads at most `cap` bytes of a file (enough for the parsing limit) and its full size. */
function readHead(path: string, cap: number): { body: Uint8Array; size: number } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new UsageError(
      `--file: cannot read ${sanitizeText(path)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new UsageError(`--file: ${sanitizeText(path)} is a directory`);
    const buf = Buffer.alloc(cap);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, got, cap - got, null);
      if (n === 0) break;
      got += n;
      if (got >= cap) break;
    }
    return { body: buf.subarray(0, got), size: stat.isFile() ? Math.max(stat.size, got) : got };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(
      `--file: cannot read ${sanitizeText(path)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  } finally {
    closeSync(fd);
  }
}

function settingsFrom(values: Values): RobotsSettings {
  return {
    productToken: productTokenOption(values['user-agent']),
    configuredDelaySeconds: parseNumber('delay', values.delay, PLAN_LIMITS.delaySeconds) ?? PLAN_DEFAULTS.delaySeconds,
    crawlDelayPolicy:
      parseChoice('crawl-delay-policy', values['crawl-delay-policy'], ['cap', 'skip', 'obey'] as const) ??
      PLAN_DEFAULTS.crawlDelayPolicy,
    maxCrawlDelaySeconds:
      parseNumber('max-crawl-delay', values['max-crawl-delay'], PLAN_LIMITS.maxCrawlDelaySeconds) ??
      PLAN_DEFAULTS.maxCrawlDelaySeconds,
  };
}

export async function runRobots(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, ROBOTS_OPTIONS);
  if (values.help) {
    io.out(ROBOTS_HELP);
    return EXIT_OK;
  }
  // Every option is checked before anything is read or fetched.
  const settings = settingsFrom(values);
  const contact = contactOption(values.contact);
  const timeoutSeconds = parseNumber('timeout', values.timeout, ROBOTS_TIMEOUT_LIMIT) ?? ROBOTS_TIMEOUT_DEFAULT_SECONDS;
  const filePath = values.file;
  if (filePath === '') throw new UsageError('--file: empty path');
  let origin: string | undefined;
  if (values.origin !== undefined) {
    if (filePath === undefined)
      throw new UsageError('--origin: only with --file (a fetched robots.txt always stands for its own origin)');
    const checked = sortUrls([values.origin]);
    if (checked.urls.length === 0) throw new UsageError(`--origin: not an http(s) URL: ${sanitizeText(values.origin)}`);
    origin = checked.urls[0]!.origin;
  }
  const urlsFile = values['urls-file'];
  if (urlsFile === '') throw new UsageError('--urls-file: empty path');
  const inputs = readSeedLines(positionals, undefined);
  if (urlsFile !== undefined) inputs.push(...readLineFile('urls-file', urlsFile));
  if (inputs.length === 0) {
    throw new UsageError(
      urlsFile === undefined
        ? 'no URLs: give one or more http(s) URLs to check'
        : `no URLs: ${sanitizeText(urlsFile)} has none`,
    );
  }
  const bulk = urlsFile !== undefined;

  const invalid: InvalidUrlArgument[] = [];
  const valid: string[] = [];
  inputs.forEach((input, i) => {
    const checked = sortUrls([input.text]);
    if (checked.urls.length === 1) {
      valid.push(input.text);
      return;
    }
    const location = sanitizeText(seedLocation(input.line, input.source));
    invalid.push({
      argument: i + 1,
      location,
      input: input.text,
      reason: checked.invalid[0]?.reason ?? 'not an http(s) URL',
    });
    if (invalid.length <= INVALID_SHOWN)
      io.err(`crawl-planner robots: ${location}: not an http(s) URL: ${sanitizeText(input.text)}\n`);
  });
  if (invalid.length > INVALID_SHOWN) {
    io.err(
      `crawl-planner robots: … and ${plural(invalid.length - INVALID_SHOWN, 'more input')} that ${invalid.length - INVALID_SHOWN === 1 ? 'is' : 'are'} not an http(s) URL (--json lists them all)\n`,
    );
  }
  if (valid.length === 0) {
    throw new UsageError(
      `no http(s) URL to check (${plural(invalid.length, bulk ? 'invalid input' : 'invalid argument')})`,
    );
  }

  let inspection: RobotsInspection;
  let header: string | null = null;
  if (filePath !== undefined) {
    const { body, size } = readHead(filePath, ROBOTS_MAX_BYTES + 1);
    inspection = inspectRobotsText(body, valid, {
      ...settings,
      brief: bulk,
      ...(origin !== undefined ? { origin } : {}),
    });
    // Only the head was read; report the file's real size.
    inspection.origins = inspection.origins.map((o) => ({
      ...o,
      bytes: size,
      truncated: o.truncated || size > ROBOTS_MAX_BYTES,
    }));
    inspection.results = inspection.results.map((r) =>
      r.origin === null ? { ...r, reason: `${r.reason} Choose the file's origin with --origin.` } : r,
    );
  } else {
    try {
      header = userAgentHeader(settings.productToken, contact);
    } catch (err) {
      throw new UsageError(`--user-agent: ${sanitizeText((err as Error).message)}`);
    }
    checkContact('robots', contact, realHosts(valid), Boolean(values['require-contact']), io);
    inspection = await inspectRobots(valid, {
      ...settings,
      brief: bulk,
      userAgentHeader: header,
      timeouts: robotsTimeouts(timeoutSeconds),
      http: resolveHttp(resolveOption(values.resolve)),
    });
  }

  if (values.json) {
    const doc: RobotsCliDocument = {
      schemaVersion: ROBOTS_JSON_SCHEMA_VERSION,
      productToken: inspection.productToken,
      userAgent: header,
      source: filePath !== undefined ? 'file' : 'network',
      file: filePath ?? null,
      urlsFile: urlsFile ?? null,
      origins: inspection.origins.map(originJson),
      results: inspection.results,
      invalid,
    };
    io.out(JSON.stringify(doc, null, 2) + '\n');
    return EXIT_OK;
  }

  const s = colors(io.color);
  const lines: string[] = [];
  lines.push(
    filePath !== undefined
      ? `robots.txt from ${s.bold(sanitizeText(filePath))} for ${s.bold(sanitizeText(settings.productToken))} (nothing fetched)`
      : `robots.txt for ${s.bold(sanitizeText(settings.productToken))} (User-Agent: ${sanitizeText(header ?? '')})`,
    '',
  );
  for (const o of inspection.origins) lines.push(...formatOrigin(o, settings.productToken, s), '');
  if (bulk) lines.push(resultsSummary(inspection.results), '');
  lines.push(...formatResults(inspection.results, s, '', !bulk));
  io.out(lines.join('\n') + '\n');
  return EXIT_OK;
}
