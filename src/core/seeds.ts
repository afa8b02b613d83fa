/**
 * Seed URL validation, shared by the plan, the robots.txt view, the crawl and the extension. Pure: the
 * caller reads the lines (command line, `--seeds-file`, a webview form) and keeps their line numbers;
 * this module says which lines are usable seeds and, for the others, why not, with a stable code.
 */

/** One line of seed input. `line` is 1-based; `source` names where it came from (a file, "argument"). */
export interface SeedLineInput {
  text: string;
  line: number;
  source?: string;
}

/** A usable seed. */
export interface Seed {
  /** The parsed URL (WHATWG `href`) without its `#fragment`, which is never sent to a server. */
  url: string;
  /** `URL.host`, lower-cased: the host name plus a non-default port ("a.example", "a.example:8080"). */
  host: string;
  /** `URL.origin`: scheme, host and port ("https://a.example"). */
  origin: string;
  line: number;
  source?: string;
}

/** Why a line is not a usable seed. Stable codes: adapters may switch on them. */
export type SeedProblem = 'not-a-url' | 'not-http' | 'no-host';

/** The human reading of each {@link SeedProblem}. */
export const SEED_PROBLEM_MESSAGES: Readonly<Record<SeedProblem, string>> = {
  'not-a-url': 'not a URL',
  'not-http': 'not http/https',
  'no-host': 'no host',
};

export interface InvalidSeed {
  line: number;
  /** The line as given (trimmed). */
  text: string;
  reason: SeedProblem;
  /** {@link SEED_PROBLEM_MESSAGES}[reason], e.g. "not a URL". */
  message: string;
  source?: string;
}

export interface SeedValidation {
  seeds: Seed[];
  invalid: InvalidSeed[];
}

/** Checks one seed text: a Seed-shaped result without position, or the problem. */
export function parseSeedUrl(text: string): { url: string; host: string; origin: string } | { problem: SeedProblem } {
  const trimmed = text.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return { problem: 'not-a-url' };
  }
  const protocol = parsed.protocol;
  if (protocol !== 'http:' && protocol !== 'https:') return { problem: 'not-http' };
  // The WHATWG parser refuses an http(s) URL with an empty host, so this is a guard for other parsers'
  // inputs (and for hosts such as "." that would be nothing once the trailing dot is read).
  const host = parsed.host.toLowerCase();
  if (host === '' || /^\.*(:\d+)?$/.test(host)) return { problem: 'no-host' };
  // Only a URL that has a '#' is re-serialised (setting `hash` rebuilds the whole href).
  if (trimmed.includes('#')) parsed.hash = '';
  const url = parsed.href;
  // Without user info the href starts with the origin; taking it from the href (and the host from the
  // origin) keeps one string per seed instead of three (100,000 seeds: about 10 MB less).
  const originEnd = protocol.length + 2 + host.length;
  const fromHref = url.startsWith('//', protocol.length) && url.startsWith(host, protocol.length + 2) && (url.length === originEnd || url[originEnd] === '/');
  return fromHref ? { url, host: url.slice(protocol.length + 2, originEnd), origin: url.slice(0, originEnd) } : { url, host, origin: parsed.origin };
}

/**
 * Splits seed lines into usable seeds and invalid lines, keeping input order and line numbers.
 * Duplicates are kept: grouping by host is the caller's business.
 */
export function validateSeeds(lines: Iterable<SeedLineInput>): SeedValidation {
  const seeds: Seed[] = [];
  const invalid: InvalidSeed[] = [];
  for (const { text, line, source } of lines) {
    const result = parseSeedUrl(text);
    if ('problem' in result) {
      const bad: InvalidSeed = { line, text: text.trim(), reason: result.problem, message: SEED_PROBLEM_MESSAGES[result.problem] };
      if (source !== undefined) bad.source = source;
      invalid.push(bad);
    } else {
      const seed: Seed = { url: result.url, host: result.host, origin: result.origin, line };
      if (source !== undefined) seed.source = source;
      seeds.push(seed);
    }
  }
  return { seeds, invalid };
}

/** The distinct hosts of `seeds`, in first-seen order. */
export function seedHosts(seeds: ReadonlyArray<{ host: string }>): string[] {
  return [...new Set(seeds.map((s) => s.host))];
}

/**
 * The URLs typed into one line of an input box (the commands' URL boxes, the robots.txt editor's Test URLs):
 * separated by white space, or by a comma that ends the URL, one followed by white space, the end, `/` or
 * a scheme (`a.example/, b.example/`, `https://a/,https://b/`). A comma inside a URL stays (`/s?q=a,b`).
 */
export function splitUrlList(text: string): string[] {
  return text.split(/\s+|,(?=\s|$|\/|[a-z][a-z0-9+.-]*:\/\/)/i).filter((s) => s !== '');
}
