/**
 * The state of one crawl, shared by the scheduler's parts (engine.ts wires them): the URL records, the
 * frontier and the counts, the requests in flight, the page budget's chains, and whether the crawl is
 * stopping or has failed. Data only: each part reads and writes the fields of its job here (plain fields,
 * no getters: the engine is hot), and keeps what only it uses to itself. Each part that works with it
 * extends `crawlPart` (below).
 */
import type { Clock } from '../clock';
import type { CrawlEvent } from './events';
import { Frontier } from './frontier';
import { CrawlStats } from './stats';
import type { ResolvedCrawlOptions, UrlOutcome, UrlReport } from './types';

/** One URL the crawl met. All fields are set in the constructor, so every record has one shape. */
export class UrlRecord {
  /** Retry backoff or Retry-After: not before this time. */
  notBefore = 0;
  attempts = 0;
  /** Counted in `activeChains` (started, or continuing a started chain, and not yet final). */
  inChain = false;
  /** The host its chain started on (a redirect target keeps its chain's): whose page budget the chain counts against. */
  chainHost: string | undefined = undefined;
  state: 'new' | 'checking' | 'queued' | 'in-flight' | 'done' = 'new';
  /**
   * Set while this URL carries its origin's robots.txt request through the host's queue: called once the
   * request is decided or the URL leaves the run, to let the origin's other robots checks go on.
   */
  robotsRelease: (() => void) | undefined = undefined;
  outcome: UrlOutcome | undefined = undefined;
  status: number | undefined = undefined;
  detail: string | undefined = undefined;

  constructor(
    readonly url: string,
    /** `URL.host`; '' for a URL that did not parse. */
    readonly host: string,
    readonly depth: number,
    readonly from: string | undefined,
    /** Redirect hops from the start of its chain. */
    readonly hops: number,
    /** A redirect target: it continues a chain that has already started, so the page budget does not hold it back. */
    readonly continuation: boolean,
  ) {}

  /** `URL.origin` (scheme://host), from the URL's scheme and its host. */
  get origin(): string {
    return (this.url.startsWith('https:') ? 'https://' : 'http://') + this.host;
  }
}

/** How a URL was met: what its record is made with, and what admission checks. */
export interface AdmitContext {
  depth: number;
  from?: string;
  hops: number;
  continuation: boolean;
  seed: boolean;
  /** A redirect target: the host its chain started on. */
  chainHost?: string;
}

export class CrawlState {
  readonly clock: Clock;
  readonly frontier: Frontier<UrlRecord>;
  /** Every URL met, by URL, and in the order met. */
  readonly records = new Map<string, UrlRecord>();
  readonly order: UrlRecord[] = [];
  readonly stats: CrawlStats;
  /** URLs whose robots.txt answer takes a turn (or a request of their origin's): being checked. */
  readonly checking = new Set<UrlRecord>();
  /** Requests in flight (robots.txt included), and the controllers of those on the promise road. */
  inFlight = 0;
  readonly controllers = new Map<UrlRecord, AbortController>();
  /** The one signal of every request on the callback road (CrawlOptions.startFetch): aborts reach them all at once. */
  readonly sharedRequests = new AbortController();
  /** Whether anyone listens to events: when not, none is built. */
  readonly emitting: boolean;
  /** More than one request in flight per host: new starts wait for the end of the instant (WakeUps.endOfInstant). */
  readonly sharedHosts: boolean;
  /** Each host's politeness unit (CrawlOptions.politenessUnits); undefined: each host is its own. */
  readonly unitOf: ((host: string) => string) | undefined;
  /** Events held back while a response's own event is worked out (EventStream), else undefined. */
  eventBuffer: CrawlEvent[] | undefined = undefined;

  /** Chains started and not yet final (Outcomes.updateGate), and whether the page budget lets new URLs start. */
  activeChains = 0;
  gateOpen = true;
  /** Records not yet final (state other than 'done'). */
  unfinished = 0;

  stopping = false;
  fatal: { error: unknown } | undefined = undefined;

  constructor(readonly o: ResolvedCrawlOptions) {
    this.clock = o.clock;
    this.sharedHosts = o.perHostConcurrency > 1;
    this.emitting = o.emit !== undefined;
    const units = o.politenessUnits;
    this.unitOf = units === undefined ? undefined : typeof units === 'function' ? units : (h) => units.unitOf(h);
    this.stats = new CrawlStats(this.clock.now());
    this.frontier = new Frontier<UrlRecord>({
      delayFrom: o.delayFrom,
      perHostConcurrency: o.perHostConcurrency,
      exempt: (r) => r.attempts > 0 || r.continuation,
      mayStartNew: () => this.gateOpen,
    });
  }
}

/**
 * The base of every scheduler part: the crawl's state, the fields of it that most parts read (copied once,
 * so that the hot path reads a plain field of its own, not `this.s.…`), and the parts it works with, which
 * `crawlPart` makes its own fields too.
 */
abstract class CrawlPartBase {
  protected readonly o: ResolvedCrawlOptions;
  protected readonly clock: Clock;
  protected readonly frontier: Frontier<UrlRecord>;
  protected readonly stats: CrawlStats;
  protected readonly emitting: boolean;

  constructor(
    protected readonly s: CrawlState,
    parts: object,
  ) {
    this.o = s.o;
    this.clock = s.clock;
    this.frontier = s.frontier;
    this.stats = s.stats;
    this.emitting = s.emitting;
    // One object literal per part in engine.ts, its keys always in one order: every instance of a part has
    // one shape, and its fields are read as directly as if each were assigned here by name.
    Object.assign(this, parts);
  }
}

/**
 * The base class of a scheduler part that works with the parts `P` (its `…Parts`): `class X extends
 * crawlPart<XParts>()`, made as `new X(state, { …parts })`, reads each of them as a field (`this.events`).
 * (They are readonly and, to the type checker, public: a part calls another only through its methods.)
 */
export function crawlPart<P extends object>(): abstract new (s: CrawlState, parts: P) => CrawlPartBase & Readonly<P> {
  return CrawlPartBase as abstract new (s: CrawlState, parts: P) => CrawlPartBase & Readonly<P>;
}

/** A record as the crawl's result lists it. */
export function toReport(rec: UrlRecord): UrlReport {
  return {
    url: rec.url,
    host: rec.host,
    outcome: rec.outcome ?? 'not-started',
    ...(rec.status === undefined ? {} : { status: rec.status }),
    attempts: rec.attempts,
    depth: rec.depth,
    ...(rec.from === undefined ? {} : { from: rec.from }),
    ...(rec.detail === undefined ? {} : { detail: rec.detail }),
  };
}
