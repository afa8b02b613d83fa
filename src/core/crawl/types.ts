/**
 * The crawl engine's contract with its adapters: what it is given (a clock, randomness, a page fetcher, a
 * robots.txt gate, a link extractor, an event sink, a stop signal, options) and what it returns (the
 * summary and one outcome per URL met). See docs/crawl-engine.md.
 */
import type { Clock, Random } from '../clock';
import type { CrawlDelayPolicy, DelayFrom } from '../politeness/interval';
import type { RobotsOutcome, RobotsVerdict } from '../robots/explain';
import type { BlockReaction, CrawlEvent, CrawlSummary, ErrorKind } from './events';
import type { PageBudgets } from './pageBudgets';
import type { PolitenessUnits } from '../servers/units';

// ---------------------------------------------------------------------------------------------------
// Injected dependencies
// ---------------------------------------------------------------------------------------------------

export interface PageRequest {
  /** Absolute http(s) URL without a fragment. */
  url: string;
  /** `URL.host` (host name plus a non-default port), the politeness key. */
  host: string;
  /** 1 for the first try. */
  attempt: number;
  /** Aborted when the crawl stops (after the grace period) or fails; the fetcher must then settle soon. */
  signal: AbortSignal;
}

/** A complete HTTP exchange, any status. The engine reads 3xx, 429 and 5xx itself. */
export interface PageSuccess {
  status: number;
  /** Lower-case header names; repeated fields joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** The decoded body as text, given for HTML (the engine only extracts links from it). */
  body?: string;
  contentType?: string;
  bytes: number;
  /** Body bytes on the wire (before Content-Encoding decoding, headers excluded), when the fetcher knows. */
  wireBytes?: number;
  truncated: boolean;
  /** For 3xx: the Location, absolute or relative (resolved against the request URL). Falls back to headers.location. */
  location?: string;
  /**
   * URLs the fetcher found itself (a sitemap index's children, say), absolute or relative: admitted as the
   * links of an HTML body are (depth + 1, scope, dedupe), whatever the content type, for a final response
   * (not a redirect that is followed, not a 429 or 5xx). With an HTML body, its links come after these.
   */
  links?: readonly string[];
  /** When the request started and ended, by the fetcher's clock (the same Clock), for latency. */
  startedAt: number;
  /** When the request was written to its connection (after any connect), by the same Clock. The
   * start-to-start interval is measured from it when it is later than the scheduled start, so
   * connection set-up cannot bring two arrivals at the server closer than the interval. */
  sentAt?: number;
  endedAt: number;
}

/** A transport failure: no complete response. */
export interface PageFailure {
  error: { kind: ErrorKind; message: string };
  startedAt: number;
  /** When the request was written to its connection (after any connect), by the same Clock. The
   * start-to-start interval is measured from it when it is later than the scheduled start, so
   * connection set-up cannot bring two arrivals at the server closer than the interval. */
  sentAt?: number;
  endedAt: number;
}

export type PageResult = PageSuccess | PageFailure;

/** Fetches one page. Should resolve (not reject) with a PageFailure on transport errors; a rejection is
 * read as kind `other` (or `aborted` when the signal was aborted). Must honour `signal`. No redirects:
 * the engine follows them itself, one request per hop. */
export type PageFetcher = (request: PageRequest) => Promise<PageResult>;

/**
 * The robots.txt request a decision was read from (its first hop's URL; the times of its last hop), so
 * that the engine can count it as a request to its host: the first one on the host's timeline.
 */
export interface RobotsFetch {
  /** `origin/robots.txt`. */
  url: string;
  /** When the fetch started, reached its connection (last hop), and ended, by the engine's Clock. */
  startedAt: number;
  sentAt?: number;
  endedAt: number;
  /** The final status, when a response came. */
  status?: number;
  /** The transport failure, when no response came. */
  error?: { kind: ErrorKind; message: string };
  /** Body bytes kept. */
  bytes: number;
  /** Body bytes on the wire (before Content-Encoding decoding), when the fetcher knows. */
  wireBytes?: number;
  truncated: boolean;
  /** True when this gate call made the request (or joined one in flight); false when the answer came
   * from a robots.txt fetched before the call (a cache). */
  fetchedNow: boolean;
}

/** robots.txt's answer for one URL (RFC 9309). */
export interface RobotsDecision {
  /** `not-applicable` (no rules apply) is read as allowed. */
  verdict: RobotsVerdict;
  /** The deciding line (1-based) and rule text, for the robots-skip event. */
  line?: number;
  rule?: string;
  /** How robots.txt was fetched: `unreachable` (5xx, 429, network error) means complete disallow, and the
   * engine leaves the whole host out of the run. */
  outcome?: RobotsOutcome;
  /** The Crawl-delay of the group that applies, validated (finite, ≥ 0). Merged into the host's interval by max. */
  crawlDelaySeconds?: number;
  /** Why, for `unreachable` (shown in the host-dropped event). */
  detail?: string;
  /** The robots.txt request the answer comes from, when the gate knows. */
  fetch?: RobotsFetch;
}

/**
 * robots.txt gate. The engine calls it once per URL before the URL enters its host's queue, serially per
 * origin (the first call of an origin completes before the next starts), so an implementation that
 * fetches robots.txt on the first call of an origin and caches it does one fetch per origin. A rejection
 * is read as `unreachable`. `signal` aborts when the crawl ends or stops.
 *
 * A gate that fetches should also `peek`: the answer when it needs no request (robots.txt at hand), else
 * undefined. Then the engine decides at once whatever `peek` answers, and makes the call for a URL it
 * cannot answer a request of the URL's host, taken from the host's queue like a page (the host's
 * interval, one in flight, a global slot) and counted and reported as one (from `decision.fetch`). A gate
 * without `peek` is asked for every URL, at once, and its calls are not requests (rules in memory, tests).
 */
export type RobotsGate = ((url: string, signal: AbortSignal) => Promise<RobotsDecision>) & {
  peek?: (url: string) => RobotsDecision | undefined;
};

/** Absolute or relative link targets found in an HTML page (the engine resolves, filters and dedupes). */
export type LinkExtractor = (html: string, baseUrl: string) => string[];

// ---------------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------------

export interface TokenBucketSetting {
  ratePerSecond: number;
  /** Burst size (≥ 1). */
  burst: number;
}

/**
 * Each host's politeness unit (docs/how-it-works.md#politeness-units): a function from a host (`URL.host`) to
 * its unit's name, or the PolitenessUnits of src/core/servers/units.ts (its `unitOf`). Hosts with one unit
 * name share one back queue's turn, one request in flight (perHostConcurrency), one interval and one pause.
 */
export type PolitenessUnitsOption = Pick<PolitenessUnits, 'unitOf'> | ((host: string) => string);

export interface CrawlOptions {
  /** Seed URLs (depth 0). Their hosts are the crawl's hosts unless `allowOtherHosts`. */
  seeds: readonly string[];
  clock: Clock;
  random: Random;
  /** Fetches each request (one of `fetch` and `startFetch` is required). */
  fetch?: PageFetcher;
  /**
   * The callback road, for a simulation on a clock that drives its callers (src/core/simulate): starts the
   * request and calls `done` once with its result, in a later turn of the clock, never inside the call.
   * When given, `fetch` is not called, and every request shares one signal.
   */
  startFetch?: (request: PageRequest, done: (result: PageResult) => void) => void;
  /** Default: everything allowed. */
  robots?: RobotsGate;
  /** Default: no links (only the seeds are fetched). */
  extractLinks?: LinkExtractor;
  /** Receives every CrawlEvent in order. Must not throw (a throw fails the crawl). */
  emit?: (event: CrawlEvent) => void;
  /** Abort to stop: no new requests; in-flight ones get `graceMs` to finish, then are aborted. */
  stop?: AbortSignal;
  /**
   * Runs `task` once the I/O started just now has gone out (Node: `setImmediate`, after which a client
   * such as undici writes a request on a reused connection). With it, a host's next request is started
   * before the page that just came is read (links, their robots.txt checks, the events), and that work
   * runs while the request is on its way. Without it, pages are read first (tests on virtual time).
   */
  defer?: (task: () => void) => void;

  // Every default is in CRAWL_DEFAULTS (engineOptions.ts; the pacing ones come from PACING_DEFAULTS).

  /** Global request slots (requests in flight over all hosts). */
  concurrency?: number;
  /** Requests in flight per host. */
  perHostConcurrency?: number;
  /** The configured per-host delay in seconds. */
  delaySeconds?: number;
  /** How the delay is measured. */
  delayFrom?: DelayFrom;
  crawlDelayPolicy?: CrawlDelayPolicy;
  maxCrawlDelaySeconds?: number;
  /** The adaptive rule max(1 s, 10 × latency). */
  adaptive?: boolean;
  /** Optional per-host token bucket on top of the interval. Default none. */
  tokenBucket?: TokenBucketSetting;
  /**
   * Crawl-delays known before the crawl, by host (a plan's: `crawl --plan`), merged by max with each host's
   * robots.txt Crawl-delay under the same policy and cap. Default none.
   */
  crawlDelayByHost?: Readonly<Record<string, number>>;

  /**
   * The politeness unit of each host: hosts of one unit are kept polite together, as one host
   * (docs/how-it-works.md#politeness-units). Default: each host is its own unit.
   */
  politenessUnits?: PolitenessUnitsOption;

  /** Completed pages (final responses) after which no new URL starts (Infinity: no limit). */
  maxPages?: number;
  /**
   * Per-host page budgets, counted as `maxPages` counts pages: a host's new URLs start only while its pages +
   * its chains in progress are below its budget (docs/crawl-engine.md#per-host-page-budgets). Default none
   * (only `maxPages`); both apply together.
   */
  pageBudgets?: PageBudgets;
  /** Link depth from the seeds (seeds are 0). Links on pages at this depth are read only to be counted as not followed (`depth`). */
  maxDepth?: number;
  /** Follow links and redirects to hosts that are not seed hosts. */
  allowOtherHosts?: boolean;
  /** Follow redirects to hosts that are not seed hosts (each through that host's robots.txt and queue),
   * but not links found there. */
  followOtherHostRedirects?: boolean;
  /** Redirect hops followed per chain. */
  maxRedirects?: number;

  /** Retries per URL after the first attempt. */
  maxRetries?: number;
  /** Full-jitter backoff: first retry's ceiling. */
  backoffBaseMs?: number;
  /** Full-jitter backoff: largest ceiling. */
  backoffCapMs?: number;
  /** A Retry-After above this drops the host for the run. */
  retryAfterCapSeconds?: number;
  /** Consecutive failed attempts (errors, 429, 5xx) on one host after which it is dropped. */
  maxConsecutiveFailures?: number;
  /** Host rate control: throttle multiplier, per-success recovery, bound on the raised interval. */
  rateIncreaseFactor?: number;
  rateRecoveryFactor?: number;
  maxRaisedIntervalSeconds?: number;

  /**
   * When a host looks like it is blocking the crawl (docs/crawl-engine.md#blocking-suspected): `warn` only emits
   * `blocking-suspected`; `slow` doubles the host's interval on the first signal and drops the host on the
   * second; `stop` drops it on the first.
   */
  onBlock?: BlockReaction;
  /** The user's own block markers: body substrings (src/core/blocking/markers.ts). Default none. */
  blockMarkers?: readonly string[];

  /** After a stop, how long in-flight requests may run before they are aborted. */
  graceMs?: number;
  /** At most one progress event per this many ms of clock time (plus one at the end). */
  progressIntervalMs?: number;
  /** The plan's duration, copied into the summary. */
  plannedSeconds?: number;
  /** Return one outcome per URL met (`CrawlResult.urls`); a simulation that reads only the summary passes false. Default true. */
  urlOutcomes?: boolean;
}

type OptionalCrawlOptions =
  | 'fetch'
  | 'startFetch'
  | 'robots'
  | 'extractLinks'
  | 'emit'
  | 'stop'
  | 'defer'
  | 'tokenBucket'
  | 'crawlDelayByHost'
  | 'politenessUnits'
  | 'pageBudgets'
  | 'blockMarkers'
  | 'plannedSeconds'
  | 'urlOutcomes';
export type ResolvedCrawlOptions = Required<Omit<CrawlOptions, OptionalCrawlOptions>> &
  Pick<CrawlOptions, OptionalCrawlOptions>;

// ---------------------------------------------------------------------------------------------------
// Result
// ---------------------------------------------------------------------------------------------------

/**
 * How each URL the crawl met ended. Stable codes:
 * - `fetched`: a final response (any status that is neither followed as a redirect nor retried-and-failed);
 * - `redirected`: a 3xx whose Location was taken as the next hop (or refused: see `detail`);
 * - `robots-disallowed`, `robots-unreachable`: left out by robots.txt;
 * - `host-dropped`: its host was dropped (Retry-After above the cap, consecutive failures, Crawl-delay above the cap);
 * - `failed`: retries used up, a final transport error, or aborted by a stop;
 * - `out-of-scope`: not http(s), invalid, another host, too deep, or past the redirect limit;
 * - `not-started`: never requested because of max-pages or a stop.
 */
export type UrlOutcome =
  | 'fetched'
  | 'redirected'
  | 'robots-disallowed'
  | 'robots-unreachable'
  | 'host-dropped'
  | 'failed'
  | 'out-of-scope'
  | 'not-started';

export interface UrlReport {
  url: string;
  /** '' for a URL that did not parse. */
  host: string;
  outcome: UrlOutcome;
  /** The last HTTP status received for it, if any. */
  status?: number;
  /** Requests made for it (retries included). */
  attempts: number;
  depth: number;
  /** The page it was found on, or the URL that redirected to it; undefined for a seed. */
  from?: string;
  /** A short reason: "other-host", "depth", "max-pages", "stopped", "connect: ECONNREFUSED", … */
  detail?: string;
}

export interface CrawlResult {
  summary: CrawlSummary;
  /** One entry per distinct URL met, in the order met (empty with `urlOutcomes: false`). */
  urls: UrlReport[];
}
