/**
 * The typed event stream of a crawl. The engine emits these; the terminal formatter (CLI and VS Code
 * task), the NDJSON log, the report and the status bar all read them. Times are epoch milliseconds
 * from the injected Clock. String-literal `type` tags, no numeric enums.
 */
import type { BlockSignalKind } from '../blocking/detector';
import { INTERVAL_SOURCES, type IntervalSource } from '../politeness/interval';

/**
 * Where a host's current interval came from while crawling: the plan's sources, or one of the crawl's own
 * (LIVE_INTERVAL_SOURCES). `retry-after` and `backoff` are raised intervals after 429/5xx that decay back
 * towards the planned one; `learned-limit` is the host held just above the interval it refused
 * (docs/crawl-engine.md#the-learned-limit); `blocking-suspected` is the host slowed ×2 for the run after a
 * blocking signal (docs/crawl-engine.md#blocking-suspected).
 */
export type LiveIntervalSource = IntervalSource | ThrottledIntervalSource;

/** The sources a crawl adds to the plan's: the host is kept above its plan by what it answered. */
export const THROTTLED_INTERVAL_SOURCES = ['retry-after', 'backoff', 'learned-limit', 'blocking-suspected'] as const;
export type ThrottledIntervalSource = (typeof THROTTLED_INTERVAL_SOURCES)[number];

/** Every source a crawl's interval can have, the plan's ones first. */
export const LIVE_INTERVAL_SOURCES: readonly LiveIntervalSource[] = [
  ...INTERVAL_SOURCES,
  ...THROTTLED_INTERVAL_SOURCES,
];

export function isThrottledIntervalSource(source: string): source is ThrottledIntervalSource {
  return (THROTTLED_INTERVAL_SOURCES as readonly string[]).includes(source);
}

export type ErrorKind =
  | 'dns'
  | 'connect'
  | 'connect-timeout'
  | 'headers-timeout'
  | 'body-timeout'
  | 'timeout'
  | 'reset'
  | 'tls'
  | 'too-large'
  | 'bad-response'
  | 'aborted'
  | 'other';

export interface QueuedEvent {
  type: 'queued';
  at: number;
  url: string;
  host: string;
  depth: number;
  /** The URL it was found on, or undefined for a seed. */
  from?: string;
}

export interface RequestStartEvent {
  type: 'request-start';
  at: number;
  url: string;
  host: string;
  method: 'GET';
  /** 1 for the first try. */
  attempt: number;
  /** The interval the host is kept to right now, in seconds, and why. */
  intervalSeconds: number;
  intervalSource: LiveIntervalSource;
  /** Seconds since the previous start to this host, or undefined for the first. */
  sinceLastStartSeconds?: number;
  /** This request fetches its origin's robots.txt (through the host's queue, like a page). */
  robotsTxt?: true;
  /** The host's politeness unit, when it shares one with other hosts: the interval and the time since the last start are the unit's. */
  unit?: string;
}

export interface ResponseEvent {
  type: 'response';
  at: number;
  url: string;
  host: string;
  status: number;
  attempt: number;
  startedAt: number;
  /** When the request reached its connection (the moment a server can see it), when the fetcher knows. */
  sentAt?: number;
  latencyMs: number;
  bytes: number;
  /** Body bytes on the wire (before Content-Encoding decoding, headers excluded); absent when unknown. */
  wireBytes?: number;
  truncated: boolean;
  /** For 3xx: the resolved Location that was queued (or skipped). */
  location?: string;
  /** Links found in the page and newly queued. */
  linksQueued: number;
  intervalSeconds: number;
  intervalSource: LiveIntervalSource;
  /** The response to a robots.txt request. */
  robotsTxt?: true;
}

export interface RetryScheduledEvent {
  type: 'retry-scheduled';
  at: number;
  url: string;
  host: string;
  /** The attempt that will run next. */
  attempt: number;
  /** Not before this time (epoch ms). */
  notBefore: number;
  reason: string;
}

export interface HostPausedEvent {
  type: 'host-paused';
  at: number;
  host: string;
  until: number;
  /** The raw Retry-After value when one decided the pause. */
  retryAfter?: string;
  status?: number;
  /** The host's politeness unit, when it shares one: every member of it is paused. */
  unit?: string;
}

export interface HostDroppedEvent {
  type: 'host-dropped';
  at: number;
  host: string;
  reason:
    | 'retry-after-above-cap'
    | 'consecutive-failures'
    | 'robots-unreachable'
    | 'crawl-delay-above-cap'
    | 'blocking-suspected';
  detail: string;
  /** URLs of this host that will not be fetched in this run. */
  urlsLeft: number;
}

/** What the engine does when a host looks like it is blocking the crawl (CrawlOptions.onBlock). */
export type BlockReaction = 'warn' | 'slow' | 'stop';
export const BLOCK_REACTIONS: readonly BlockReaction[] = ['warn', 'slow', 'stop'];

/**
 * The trend detector (src/core/blocking/detector.ts) says a host (its politeness unit) is blocking the crawl:
 * a rising share of refusals, pages shrinking or losing their links, or block pages
 * (docs/crawl-engine.md#blocking-suspected).
 */
export interface BlockingSuspectedEvent {
  type: 'blocking-suspected';
  at: number;
  /** The host whose answer raised the signal. */
  host: string;
  kind: BlockSignalKind;
  /** The numbers in words: "403 share rose from 0% to 40% over the last 20 requests". */
  text: string;
  /** The numbers behind it (shares 0–1, sizes in bytes). */
  numbers: Record<string, number>;
  /** This host's signals so far, this one included. */
  signal: number;
  /** What the engine did: nothing but this event, the interval doubled, or the host dropped. */
  action: 'warned' | 'slowed' | 'dropped';
  /** The host's interval after the reaction, seconds. */
  intervalSeconds: number;
  /** The host's politeness unit, when it shares one: the unit's answers are judged together and slowed together. */
  unit?: string;
}

/** A host's blocking signals in the summary: how many, the last one, and what the engine did last. */
export interface HostBlocking {
  signals: number;
  kind: BlockSignalKind;
  text: string;
  action: BlockingSuspectedEvent['action'];
}

export interface RobotsSkipEvent {
  type: 'robots-skip';
  at: number;
  url: string;
  host: string;
  /** The deciding line, when robots.txt gave one. */
  line?: number;
  rule?: string;
  reason: 'disallowed' | 'unreachable';
}

export interface ErrorEvent {
  type: 'error';
  at: number;
  url: string;
  host: string;
  attempt: number;
  kind: ErrorKind;
  message: string;
  startedAt: number;
  /** When the request reached its connection, if it got that far. */
  sentAt?: number;
  /** Whether the engine will retry it. */
  willRetry: boolean;
  /** A robots.txt request failed (the host is then left out: RFC 9309 unreachable). */
  robotsTxt?: true;
}

export interface ProgressEvent {
  type: 'progress';
  at: number;
  done: number;
  planned: number;
  queued: number;
  inFlight: number;
  /** Pages per second over the recent window. */
  ratePerSecond: number;
  /** Seconds left at the current rate, or undefined when unknown. */
  etaSeconds?: number;
}

/** The p10–p90 band of a plan's simulated makespans, seconds (`estimate --simulate`). */
export interface PlannedBand {
  p10Seconds: number;
  p50Seconds: number;
  p90Seconds: number;
  runs: number;
}

export interface HostSummary {
  host: string;
  /** Requests started, robots.txt included. */
  requests: number;
  pages: number;
  /** Shortest and mean gap between consecutive request starts (robots.txt included), in seconds (undefined with < 2 starts). */
  minIntervalSeconds?: number;
  meanIntervalSeconds?: number;
  plannedIntervalSeconds: number;
  intervalSource: LiveIntervalSource;
  retryAfterSeen: string[];
  retries: number;
  robotsSkips: number;
  errors: number;
  dropped?: string;
  /** Blocking suspected (docs/crawl-engine.md#blocking-suspected); absent when the detector never signalled. */
  blocking?: HostBlocking;
  /** The politeness unit the host shares with other hosts (docs/how-it-works.md#politeness-units); absent for a unit of its own. */
  unit?: string;
}

/**
 * A politeness unit of two or more hosts (docs/how-it-works.md#politeness-units): the gaps between request
 * starts over all its members, which is what its interval keeps.
 */
export interface UnitSummary {
  unit: string;
  /** Its member hosts, in the order met. */
  hosts: string[];
  /** Requests started to any member, robots.txt included. */
  requests: number;
  /** Shortest and mean gap between consecutive starts to any of its members, in seconds (undefined with < 2 starts). */
  minIntervalSeconds?: number;
  meanIntervalSeconds?: number;
  /** The unit's planned interval at the end: the largest of its members'. */
  plannedIntervalSeconds: number;
  intervalSource: LiveIntervalSource;
}

/**
 * Why a URL the crawl met was not requested, when that is the crawl's scope or limits and not a failure:
 * a link or redirect to a host outside the seeds, a robots.txt Disallow, the depth limit, the page limit,
 * the host's page budget (CrawlOptions.pageBudgets), the redirect limit.
 */
export type NotFollowedReason =
  'other-host' | 'robots-disallowed' | 'depth' | 'max-pages' | 'host-pages' | 'redirect-limit';

/** The reasons in the order they are reported. */
export const NOT_FOLLOWED_REASONS: readonly NotFollowedReason[] = [
  'other-host',
  'robots-disallowed',
  'depth',
  'max-pages',
  'host-pages',
  'redirect-limit',
];

/** At most this many hosts are named per reason (the most URLs first); `moreHosts` counts the rest. */
export const NOT_FOLLOWED_HOSTS_NAMED = 10;

export interface NotFollowed {
  reason: NotFollowedReason;
  /** Distinct URLs left out for this reason. */
  urls: number;
  /** The hosts of those URLs, the most URLs first (ties by name), at most NOT_FOLLOWED_HOSTS_NAMED. */
  hosts: Array<{ host: string; urls: number }>;
  /** Further hosts not named. */
  moreHosts: number;
}

/** Body bytes over a crawl's responses (headers excluded). */
export interface TransferTotals {
  /** Decoded body bytes read. */
  bytes: number;
  /** Body bytes on the wire, before Content-Encoding decoding, over the responses whose wire size is known. */
  wireBytes: number;
  /** Responses whose wire size the fetcher did not give (not in `wireBytes`). */
  wireBytesUnknown: number;
  /** The largest response on the wire, where the bytes went; absent when no wire size is known. */
  largest?: { url: string; wireBytes: number };
}

export interface CrawlSummary {
  startedAt: number;
  endedAt: number;
  elapsedSeconds: number;
  /** The plan's duration for this crawl, when one was made. */
  plannedSeconds?: number;
  /** The simulated band around the plan (src/core/simulate), when one was made. */
  plannedBand?: PlannedBand;
  pages: number;
  /** Requests started, robots.txt included. */
  requests: number;
  /** The status of every response, robots.txt included. */
  statusCounts: Record<string, number>;
  retries: number;
  robotsSkips: number;
  errors: number;
  retryAfterSeen: string[];
  /** Body bytes transferred over every response, robots.txt included (absent in reports written before it). */
  transferred?: TransferTotals;
  hosts: HostSummary[];
  /** The politeness units of two or more hosts, when there are any (CrawlOptions.politenessUnits). */
  units?: UnitSummary[];
  /** URLs met but not requested because of the crawl's scope or limits, by reason (only reasons with URLs). */
  notFollowed: NotFollowed[];
  /** Why the crawl ended: all work done, the page limit, a stop request, or every host dropped. */
  endReason: 'complete' | 'max-pages' | 'stopped' | 'hosts-dropped';
}

export interface DoneEvent {
  type: 'done';
  at: number;
  summary: CrawlSummary;
}

export type CrawlEvent =
  | QueuedEvent
  | RequestStartEvent
  | ResponseEvent
  | RetryScheduledEvent
  | HostPausedEvent
  | HostDroppedEvent
  | BlockingSuspectedEvent
  | RobotsSkipEvent
  | ErrorEvent
  | ProgressEvent
  | DoneEvent;

export type CrawlEventType = CrawlEvent['type'];
