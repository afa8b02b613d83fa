/**
 * What a parsed robots.txt is (parse.ts makes it): every line with its kind, key and value; the groups; the
 * Crawl-delay records; the sitemaps; and the findings. Plain data, shared by verdicts (explain.ts), the lint
 * and the editor.
 *
 * Groups (RFC 9309 §2.1, §2.2.4): a group is one or more `user-agent` lines followed by rules; only an
 * `allow`/`disallow` line ends the run of user-agent lines. Sitemap, Crawl-delay, Host, unknown and invalid
 * lines never split a group (gap G2; robots-parser split on all of them).
 *
 * Records (Crawl-delay only): a record is a run of user-agent lines plus the lines after it, up to the next
 * user-agent line that follows a `key: value` line of another kind. A Crawl-delay belongs to the record it
 * is in, that is to the user-agent lines just before it, as robots-parser, Python's urllib.robotparser,
 * crawler-commons (Nutch, Heritrix), temoto/robotstxt and texting_robots read it. Every group boundary is a
 * record boundary, so a record lies inside one group; a group may hold several records.
 */
import type { SelectionCache } from './explain';
import type { RobotsFinding } from './findings';

export type RobotsLineKind =
  | 'blank'
  | 'comment'
  | 'user-agent'
  | 'allow'
  | 'disallow'
  | 'crawl-delay'
  | 'sitemap'
  /** A known non-standard directive that we ignore (Host, Clean-param, Noindex, Request-rate, …). */
  | 'unsupported'
  /** `key: value` with a key we do not know. */
  | 'unknown'
  /** Not `key: value` at all (prose, HTML, `:::`, a lone word). */
  | 'invalid';

/** Columns are 0-based UTF-16 offsets within the line; `end` is exclusive. */
export interface ColumnRange {
  start: number;
  end: number;
}

export interface RobotsLine {
  /** 1-based. */
  line: number;
  /** The line without its terminator. */
  raw: string;
  kind: RobotsLineKind;
  /** The key as written (trimmed), for every kind but blank/comment/invalid. */
  key?: string;
  /** The value as written (comment removed, trimmed). */
  value?: string;
  keyRange?: ColumnRange;
  valueRange?: ColumnRange;
}

export interface RobotsUserAgent {
  line: number;
  /** The value as written. */
  value: string;
  /** Lower-case product token read from the value (`''`: matches no crawler; `'*'` when global). */
  token: string;
  global: boolean;
}

export type RuleDirective = 'allow' | 'disallow';

export interface RobotsRule {
  line: number;
  directive: RuleDirective;
  /** The path pattern as written (may be empty: `Disallow:` allows everything). */
  value: string;
  /** The canonical pattern both matchers compare (see percentEncoding.ts). */
  pattern: string;
  /** The line as a reader would quote it: comment removed, trimmed, e.g. `Disallow: /private`. */
  text: string;
}

export interface RobotsCrawlDelay {
  seconds: number;
  line: number;
}

export interface RobotsGroup {
  /** 0-based position among the file's groups. */
  index: number;
  /** Line of the group's first user-agent line. */
  line: number;
  /** Last line before the next group starts (or the file's last line). */
  endLine: number;
  userAgents: RobotsUserAgent[];
  /** Allow/disallow rules in file order, including empty ones. */
  rules: RobotsRule[];
}

/**
 * The unit a Crawl-delay belongs to: a run of user-agent lines and the lines after it, up to the next
 * user-agent line that follows a `key: value` line of another kind (see the top of this file).
 */
export interface RobotsRecord {
  /** 0-based position among the file's records. */
  index: number;
  /** Line of the record's first user-agent line. */
  line: number;
  /** Last line before the next record starts (or the file's last line). */
  endLine: number;
  userAgents: RobotsUserAgent[];
  /** The valid Crawl-delay lines of the record, in file order. */
  crawlDelays: RobotsCrawlDelay[];
  /** The RFC 9309 group the record lies in (its index). */
  group: number;
}

export interface RobotsSitemap {
  /** Absolute http(s) URL, resolved against the robots.txt URL. */
  url: string;
  /** The value as written. */
  value: string;
  line: number;
}

/** What decodeRobotsBody reported, when the file came from bytes (loadRobotsFile). */
export interface RobotsBodyInfo {
  bytes: number;
  parsedBytes: number;
  truncated: boolean;
  bom: 'full' | 'partial' | 'none';
}

export interface RobotsFile {
  /** The ORIGINAL robots.txt URL (before redirects, RFC 9309 §2.3.1.2), normalised href. */
  robotsUrl: string;
  /** Its origin: the only scheme/host/port these rules apply to. */
  origin: string;
  lines: readonly RobotsLine[];
  groups: readonly RobotsGroup[];
  /** Crawl-delay records (see RobotsRecord), in file order. */
  records: readonly RobotsRecord[];
  sitemaps: readonly RobotsSitemap[];
  /** Sorted by line, then column. */
  findings: readonly RobotsFinding[];
  /** The cap used for `crawl-delay-above-cap` findings (the cap itself is applied by effectiveInterval). */
  maxCrawlDelaySeconds: number;
  /** Present when the file was decoded from bytes by loadRobotsFile. */
  body?: RobotsBodyInfo;
  /**
   * What verdicts need per crawler, built on first use by explain.ts and kept with the file: the group
   * selection and its rules compiled for matching, keyed by the product-token argument as given. At most
   * 16 are kept. Copies of the file (`{ ...file }`) share it, which is right: they have the same groups.
   */
  readonly selections: Map<string, SelectionCache>;
}
