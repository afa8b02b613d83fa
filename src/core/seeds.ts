/**
 * Seed URL validation, shared by the plan, the robots.txt view, the crawl and the extension. Pure: the
 * caller reads the lines (command line, `--seeds-file`, a webview form) and keeps their line numbers;
 * this module says which lines are usable seeds and, for the others, why not, with a stable code. It also
 * says what a line hides (seedHygiene.ts): credentials (removed from the seed), IP literals in another form,
 * local addresses, invisible characters, and how many seeds repeat an earlier one.
 */
import {
  escapeInvisible,
  hasInvisibleCharacters,
  invisibleCharacters,
  isIpLiteral,
  LOCAL_ADDRESS_MESSAGES,
  localAddressKind,
  redactCredentials,
  writtenHost,
  type LocalAddressKind,
} from './seedHygiene';

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

/** What a seed line hides, found while it is validated. Stable codes: adapters may switch on them. */
export type SeedNoteCode = 'credentials' | 'ip-literal' | 'local-address' | 'invisible-characters';

/** The seed note codes in the order they are reported. */
export const SEED_NOTE_CODES: readonly SeedNoteCode[] = [
  'credentials',
  'invisible-characters',
  'ip-literal',
  'local-address',
];

export interface SeedNote {
  code: SeedNoteCode;
  line: number;
  /** The line as typed, trimmed, without credentials, invisible characters escaped (`\u202E`): safe to show. */
  text: string;
  /** "user name and password removed", "0x7f.1 is the IP address 127.0.0.1", … */
  message: string;
  /** For `local-address`: where the address points. */
  kind?: LocalAddressKind;
  source?: string;
}

export interface SeedValidation {
  seeds: Seed[];
  invalid: InvalidSeed[];
  /** What the lines hide (credentials, IP literals in another form, local addresses, invisible characters), in line order. */
  notes: SeedNote[];
  /** Usable seeds whose URL an earlier line already gave (they add nothing to a plan or a crawl). */
  duplicates: number;
}

/** What `validateSeeds` needs to know besides the lines. */
export interface SeedValidationOptions {
  /**
   * Hosts (`URL.host`: name or address, with a non-default port) known to be local on purpose, such as the
   * running demo hosts: they get no `local-address` note.
   */
  expectedLocalHosts?: ReadonlySet<string>;
}

/** A parsed seed without position; `credentials` is set when a user name or password was removed. */
export type ParsedSeedUrl = { url: string; host: string; origin: string; credentials?: 'user' | 'password' | 'both' };

/**
 * Checks one seed text: a Seed-shaped result without position, or the problem. A user name and password
 * are removed from the URL (they would go into every request, report and log); `credentials` says so.
 */
export function parseSeedUrl(text: string): ParsedSeedUrl | { problem: SeedProblem } {
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
  let credentials: ParsedSeedUrl['credentials'];
  if (parsed.username !== '' || parsed.password !== '') {
    credentials =
      parsed.username !== '' && parsed.password !== '' ? 'both' : parsed.username !== '' ? 'user' : 'password';
    parsed.username = '';
    parsed.password = '';
  }
  // Only a URL that has a '#' is re-serialised (setting `hash` rebuilds the whole href).
  if (trimmed.includes('#')) parsed.hash = '';
  const url = parsed.href;
  // Without user info the href starts with the origin; taking it from the href (and the host from the
  // origin) keeps one string per seed instead of three (100,000 seeds: about 10 MB less).
  const originEnd = protocol.length + 2 + host.length;
  const fromHref =
    url.startsWith('//', protocol.length) &&
    url.startsWith(host, protocol.length + 2) &&
    (url.length === originEnd || url[originEnd] === '/');
  const result: ParsedSeedUrl = fromHref
    ? { url, host: url.slice(protocol.length + 2, originEnd), origin: url.slice(0, originEnd) }
    : { url, host, origin: parsed.origin };
  if (credentials !== undefined) result.credentials = credentials;
  return result;
}

const CREDENTIAL_MESSAGES: Readonly<Record<NonNullable<ParsedSeedUrl['credentials']>, string>> = {
  both: 'user name and password removed from the URL',
  user: 'user name removed from the URL',
  password: 'password removed from the URL',
};

/** The `ip-literal` note's message when the host was written in another form than its address, else undefined. */
function ipLiteralMessage(text: string, hostname: string): string | undefined {
  if (!isIpLiteral(hostname)) return undefined;
  const written = writtenHost(text);
  if (written === undefined || written === hostname) return undefined;
  return `${escapeInvisible(written)} is the IP address ${hostname}`;
}

/**
 * Splits seed lines into usable seeds and invalid lines, keeping input order and line numbers, and notes
 * what the lines hide (see {@link SeedNote}). Duplicates are kept and counted: grouping by host is the
 * caller's business. Credentials never reach a seed's URL nor an invalid line's text.
 */
export function validateSeeds(lines: Iterable<SeedLineInput>, options: SeedValidationOptions = {}): SeedValidation {
  const seeds: Seed[] = [];
  const invalid: InvalidSeed[] = [];
  const notes: SeedNote[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  const note = (
    code: SeedNoteCode,
    line: number,
    source: string | undefined,
    trimmed: string,
    message: string,
    kind?: LocalAddressKind,
  ): void => {
    const n: SeedNote = { code, line, text: escapeInvisible(redactCredentials(trimmed)), message };
    if (kind !== undefined) n.kind = kind;
    if (source !== undefined) n.source = source;
    notes.push(n);
  };
  for (const { text, line, source } of lines) {
    const trimmed = text.trim();
    const result = parseSeedUrl(trimmed);
    const hidden = hasInvisibleCharacters(trimmed);
    if ('problem' in result) {
      const bad: InvalidSeed = {
        line,
        text: redactCredentials(trimmed),
        reason: result.problem,
        message: SEED_PROBLEM_MESSAGES[result.problem],
      };
      if (source !== undefined) bad.source = source;
      invalid.push(bad);
      if (bad.text !== trimmed) note('credentials', line, source, trimmed, 'user name and password removed');
      if (hidden)
        note(
          'invisible-characters',
          line,
          source,
          trimmed,
          `hidden characters: ${invisibleCharacters(trimmed).join(', ')}`,
        );
      continue;
    }
    // `source` in the literal, not added after: an added property costs a second object per seed.
    const seed: Seed =
      source === undefined
        ? { url: result.url, host: result.host, origin: result.origin, line }
        : { url: result.url, host: result.host, origin: result.origin, line, source };
    seeds.push(seed);
    if (seen.has(seed.url)) duplicates++;
    else seen.add(seed.url);
    if (result.credentials !== undefined)
      note('credentials', line, source, trimmed, CREDENTIAL_MESSAGES[result.credentials]);
    if (hidden)
      note(
        'invisible-characters',
        line,
        source,
        trimmed,
        `hidden characters: ${invisibleCharacters(trimmed).join(', ')}`,
      );
    if (!mayBeLocalOrLiteral(result.host)) continue;
    // The host name without the port: the origin is scheme://host[:port].
    const hostname = hostnameOf(result);
    const ip = ipLiteralMessage(trimmed, hostname);
    if (ip !== undefined) note('ip-literal', line, source, trimmed, ip);
    const kind = localAddressKind(hostname);
    if (kind !== undefined && !options.expectedLocalHosts?.has(result.host))
      note('local-address', line, source, trimmed, `${hostname} is ${LOCAL_ADDRESS_MESSAGES[kind]}`, kind);
  }
  return { seeds, invalid, notes, duplicates };
}

/**
 * A cheap first look (100,000 seeds are checked per plan): only an IP literal (its host starts with a digit or
 * `[`) or a name with a local suffix can be either.
 */
function mayBeLocalOrLiteral(host: string): boolean {
  const c = host.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 91 || /local|internal|arpa/.test(host);
}

/** `URL.hostname` of a parsed seed: its host without the port. */
function hostnameOf(seed: { host: string }): string {
  const host = seed.host;
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** The note counts by code, and the first `max` notes of each code: for a summary that stays short. */
export function seedNotesByCode(
  notes: readonly SeedNote[],
  max: number,
): Array<{ code: SeedNoteCode; count: number; notes: SeedNote[] }> {
  return SEED_NOTE_CODES.map((code) => {
    const mine = notes.filter((n) => n.code === code);
    return { code, count: mine.length, notes: mine.slice(0, max) };
  }).filter((g) => g.count > 0);
}

/**
 * One line of seed text as a seed line: `#` starts a comment (at the start of a line or after white space),
 * the rest is trimmed; '' when nothing is left (a blank or comment line, which is skipped). The CLI's
 * `--seeds-file` and the planner read lines with this one rule.
 */
export function seedLineText(raw: string): string {
  return raw.replace(/(^|\s)#.*$/, '').trim();
}

/**
 * The seed lines of a text (a seeds file, the planner's seeds box), one at a time: a BOM dropped, lines split
 * at CRLF, CR or LF, read with {@link seedLineText}, line numbers 1-based positions in the text. Blank and
 * comment lines are skipped, so a trailing newline adds nothing.
 */
export function* seedLines(text: string, source?: string): Generator<SeedLineInput> {
  const content = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  for (let number = 1; start <= content.length; number++) {
    const found = breaks.exec(content);
    const end = found ? found.index : content.length;
    const line = seedLineText(content.slice(start, end));
    if (line !== '') yield source === undefined ? { text: line, line: number } : { text: line, line: number, source };
    if (!found) break;
    start = breaks.lastIndex;
  }
}

/** {@link seedLines} as a list. */
export function seedLinesFromText(text: string, source?: string): SeedLineInput[] {
  return [...seedLines(text, source)];
}

/** How many seed lines a text has (blank and comment lines not counted). */
export function countSeedLines(text: string): number {
  let n = 0;
  for (const _ of seedLines(text)) n++;
  return n;
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
