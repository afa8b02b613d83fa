/**
 * What is read from a spider or a crawler script: the blocks of start URLs (each where a CodeLens goes) and the
 * settings that map to the planner's form, each with the line it came from. Plain data.
 */

/** An http(s) URL written as a literal, with the 1-based line of its literal. */
export interface CodeUrl {
  url: string;
  line: number;
}

/** Why an entry of a list of start URLs is not taken. */
export type SkipReason =
  /** An expression (a name, a call, `+`, an f-string or template with substitutions, a comprehension, a spread). */
  | 'not-literal'
  /** A literal that is not an http(s) URL. */
  | 'not-http'
  /** A string cut by the end of its line, or a list left open. */
  | 'unterminated'
  /** `start_urls = "https://…"`: a string, not a list (Scrapy would read its characters). */
  | 'not-a-list';

export interface SkippedEntry {
  line: number;
  reason: SkipReason;
}

export type BlockKind = 'start_urls' | 'start_requests' | 'run' | 'addRequests';

/** A list of start URLs in the code: where it is, the URLs taken and the entries that are not. */
export interface StartUrlsBlock {
  framework: 'scrapy' | 'crawlee';
  kind: BlockKind;
  /** How people know it: "start_urls", "start_requests", "crawler.run", "crawler.addRequests". */
  name: string;
  /** 1-based line and 0-based column of the name (the CodeLens goes above that line). */
  line: number;
  column: number;
  /** The URLs as written, in order (repeats kept: the planner counts them). */
  urls: CodeUrl[];
  skipped: SkippedEntry[];
  /** The spider's class (Scrapy) or the crawler's variable (Crawlee), when known. */
  owner?: string;
}

/**
 * A setting as written in the code: a literal number (`value`), or why it is not read. `line` is 1-based, in the
 * file it was read from (the caller knows which).
 */
export type SettingRead =
  { name: string; line: number; value: number } | { name: string; line: number; notRead: NotReadReason };

export type NotReadReason =
  /** Not a literal number (a name, a call, arithmetic, a string). */
  | 'expression'
  /** Set inside a block (`if`, `try`, a function): it may or may not apply. */
  | 'conditional'
  /** A `**spread` (Python) or `...spread` (JavaScript) after it may replace it. */
  | 'spread';

/** The settings one place sets, by name (only the names asked for). */
export type SettingReads = Record<string, SettingRead>;
