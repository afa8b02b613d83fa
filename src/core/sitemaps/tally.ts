/**
 * Counting the URLs that sitemaps list: per host, duplicates removed, URLs on other hosts and URLs that
 * robots.txt disallows apart, and a summary of `<lastmod>`. Pure: the clock's reading and each origin's
 * robots.txt come in; counts go out.
 *
 * - **Hosts** are `URL.host` (name plus a non-default port), the unit the plan and the crawl keep their
 *   politeness by; http and https URLs of one host count for that host. Only the hosts being sized
 *   (`hosts`) get counts.
 * - **Which host a URL counts for.** A sitemap file is read on behalf of one sized host (its `root`: the
 *   host whose robots.txt, or `/sitemap.xml`, led to it). A URL counts for its own host H when H is sized and
 *   H *accepts* the file: the file is on H, or H's robots.txt lists the file or an index it was reached
 *   through (sitemaps.org, "Sitemaps & Cross Submits"). Any other URL is counted apart, under the root's
 *   `otherHosts`, by host.
 * - **Duplicates**: a URL (WHATWG `href`, fragment dropped) counts once per run; a repeat keeps the newest
 *   valid `lastmod`.
 * - **robots.txt**: each URL gets the fast `verdict()` of its own origin's robots.txt (RFC 9309: http and
 *   https of a host have a robots.txt each). A URL whose origin's robots.txt is not known yet waits
 *   (`pendingOrigins()`); once the caller has it, `counts()` decides them. Disallowed URLs are counted
 *   apart and are not in `urls` or the lastmod summary.
 * - **Cap**: at most `maxUrls` distinct URLs are held over all hosts; past it `add` answers `full` and the
 *   counts are lower bounds.
 */
import { verdictWithOutcome, type RobotsFile, type RobotsOutcome } from '../robots';
import { parseLastmod } from './lastmod';
import { SITEMAP_TOTALS_DEFAULT } from './limits';

const DAY_MS = 86_400_000;
/** At most this many other hosts are named per host (the most URLs first); `urls` counts them all. */
export const OTHER_HOSTS_SHOWN = 10;

/** An origin's robots.txt as the counting needs it. */
export interface OriginRobots {
  outcome: RobotsOutcome;
  /** The parsed file, when the outcome is `ok`. */
  file?: RobotsFile;
  /** `${origin}/robots.txt`. */
  robotsUrl: string;
}

export interface TallyOptions {
  /** The product token robots.txt groups are matched against. */
  productToken: string;
  /** The clock's reading (epoch ms): the lastmod windows end here. */
  now: number;
  /** Also count the URLs whose lastmod is at or after this instant (epoch ms). */
  changedSince?: number;
  /** Distinct URLs held at most, over all hosts. Default SITEMAP_TOTALS_DEFAULT.urls. */
  maxUrls?: number;
  /** The robots.txt of an origin, or undefined while it is not known. */
  robots(origin: string): OriginRobots | undefined;
}

/** What became of one `<loc>`. */
export type AddOutcome = 'counted' | 'disallowed' | 'pending' | 'duplicate' | 'other-host' | 'invalid' | 'full';

export interface LastmodSummary {
  /** The newest and oldest lastmod of the host's URLs, ISO 8601 in UTC; null when none has one. */
  newest: string | null;
  oldest: string | null;
  /** URLs whose lastmod is at most 7, 30, 365 days before the clock's reading (later ones included). */
  last7d: number;
  last30d: number;
  last365d: number;
  /** URLs with a valid lastmod, without one, and with one that is not a W3C Datetime. */
  dated: number;
  undated: number;
  invalid: number;
  /** URLs whose lastmod is after the clock's reading (counted as changed in every window). */
  future: number;
}

export interface SitemapHostCounts {
  host: string;
  /** Distinct URLs on this host that robots.txt allows: the pages a crawl of the host can fetch. */
  urls: number;
  /** Distinct URLs on this host that robots.txt disallows (not in `urls`). */
  disallowed: number;
  /** URLs in `urls` whose origin's robots.txt was never read (counted as allowed). */
  unchecked: number;
  /** Entries of this host's sitemaps that repeated a URL already counted. */
  duplicates: number;
  /** Entries of this host's sitemaps whose `<loc>` is not an absolute http(s) URL. */
  invalid: number;
  /** URLs in this host's sitemaps on hosts that do not accept them (see the top of this file). */
  otherHosts: { urls: number; hosts: Array<{ host: string; urls: number }> };
  lastmod: LastmodSummary;
  /** With `changedSince`: URLs in `urls` whose lastmod is at or after it; null without it. */
  changedSince: number | null;
}

/** lastmod as stored: epoch ms, or one of these. */
const NO_LASTMOD = Number.NaN;
const BAD_LASTMOD = Number.NEGATIVE_INFINITY;

function lastmodValue(text: string | undefined): number {
  if (text === undefined || text === '') return NO_LASTMOD;
  return parseLastmod(text) ?? BAD_LASTMOD;
}

function isDate(v: number): boolean {
  return Number.isFinite(v);
}

interface HostState {
  /** href → lastmod: allowed URLs and those waiting for their robots.txt. */
  urls: Map<string, number>;
  disallowed: Set<string>;
  /** origin → hrefs in `urls` whose verdict waits for that origin's robots.txt. */
  pending: Map<string, string[]>;
  unchecked: number;
  duplicates: number;
  invalid: number;
  other: Map<string, number>;
}

/**
 * The hosts that accept a sitemap file: the file's own host, and every host whose robots.txt lists the file
 * or one of the indexes it was reached through. `chain` holds the file's URL first, then the indexes above it;
 * `listed` maps a host to the sitemap URLs its robots.txt lists.
 */
export function acceptingHosts(
  chain: readonly string[],
  listed: ReadonlyMap<string, ReadonlySet<string>>,
): Set<string> {
  const hosts = new Set<string>();
  const own = hostOf(chain[0]);
  if (own !== undefined) hosts.add(own);
  for (const [host, urls] of listed) if (chain.some((u) => urls.has(u))) hosts.add(host);
  return hosts;
}

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

export class SitemapTally {
  private readonly hosts = new Map<string, HostState>();
  /** URLs counted apart (another host's), over all roots: each counts once. */
  private readonly otherSeen = new Set<string>();
  private held = 0;
  private readonly maxUrls: number;
  private isFull = false;

  constructor(
    hosts: Iterable<string>,
    private readonly options: TallyOptions,
  ) {
    this.maxUrls = options.maxUrls ?? SITEMAP_TOTALS_DEFAULT.urls;
    for (const h of hosts) {
      const host = h.toLowerCase();
      if (!this.hosts.has(host)) {
        this.hosts.set(host, {
          urls: new Map(),
          disallowed: new Set(),
          pending: new Map(),
          unchecked: 0,
          duplicates: 0,
          invalid: 0,
          other: new Map(),
        });
      }
    }
  }

  /** True once the cap on distinct URLs was reached: later URLs are not counted. */
  get full(): boolean {
    return this.isFull;
  }

  /** Distinct URLs held, over all hosts (counted, disallowed and other hosts'). */
  get size(): number {
    return this.held;
  }

  /**
   * One `<loc>` (and its `<lastmod>`) from a file read for `root`, which the hosts in `accepting` accept
   * (see acceptingHosts).
   */
  add(root: string, accepting: ReadonlySet<string>, loc: string, lastmod?: string): AddOutcome {
    const owner = this.hosts.get(root);
    if (owner === undefined) throw new RangeError(`SitemapTally: ${root} is not a host being sized`);
    let url: URL;
    try {
      url = new URL(loc);
    } catch {
      owner.invalid++;
      return 'invalid';
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
      owner.invalid++;
      return 'invalid';
    }
    let href = url.href;
    const hash = href.indexOf('#');
    if (hash >= 0) href = href.slice(0, hash);
    const host = url.host;
    const state = accepting.has(host) ? this.hosts.get(host) : undefined;
    if (state === undefined) {
      if (this.otherSeen.has(href)) {
        owner.duplicates++;
        return 'duplicate';
      }
      if (!this.hold()) return 'full';
      this.otherSeen.add(href);
      owner.other.set(host, (owner.other.get(host) ?? 0) + 1);
      return 'other-host';
    }
    const value = lastmodValue(lastmod);
    const known = state.urls.get(href);
    if (known !== undefined || state.disallowed.has(href)) {
      owner.duplicates++;
      if (known !== undefined && isDate(value) && (!isDate(known) || value > known)) state.urls.set(href, value);
      return 'duplicate';
    }
    if (!this.hold()) return 'full';
    const origin = url.origin;
    const robots = this.options.robots(origin);
    if (robots === undefined) {
      state.urls.set(href, value);
      const waiting = state.pending.get(origin);
      if (waiting) waiting.push(href);
      else state.pending.set(origin, [href]);
      return 'pending';
    }
    if (
      verdictWithOutcome(robots.outcome, robots.file, url, this.options.productToken, robots.robotsUrl).verdict ===
      'disallowed'
    ) {
      state.disallowed.add(href);
      return 'disallowed';
    }
    state.urls.set(href, value);
    return 'counted';
  }

  private hold(): boolean {
    if (this.held >= this.maxUrls) {
      this.isFull = true;
      return false;
    }
    this.held++;
    return true;
  }

  /** Origins whose robots.txt some counted URL is waiting for. */
  pendingOrigins(): string[] {
    const origins = new Set<string>();
    for (const state of this.hosts.values()) for (const origin of state.pending.keys()) origins.add(origin);
    return [...origins];
  }

  /**
   * The counts per host, in the order the hosts were given. URLs still waiting for a robots.txt are decided
   * now; those whose robots.txt is still unknown count as allowed and `unchecked`.
   */
  counts(): SitemapHostCounts[] {
    const out: SitemapHostCounts[] = [];
    for (const [host, state] of this.hosts) {
      this.settle(state);
      out.push(this.hostCounts(host, state));
    }
    return out;
  }

  private settle(state: HostState): void {
    for (const [origin, hrefs] of state.pending) {
      const robots = this.options.robots(origin);
      if (robots === undefined) {
        state.unchecked += hrefs.length;
        continue;
      }
      for (const href of hrefs) {
        if (
          verdictWithOutcome(robots.outcome, robots.file, href, this.options.productToken, robots.robotsUrl).verdict !==
          'disallowed'
        )
          continue;
        state.urls.delete(href);
        state.disallowed.add(href);
      }
    }
    state.pending.clear();
  }

  private hostCounts(host: string, state: HostState): SitemapHostCounts {
    const now = this.options.now;
    const since = this.options.changedSince;
    const w7 = now - 7 * DAY_MS;
    const w30 = now - 30 * DAY_MS;
    const w365 = now - 365 * DAY_MS;
    let newest = Number.NEGATIVE_INFINITY;
    let oldest = Number.POSITIVE_INFINITY;
    let last7d = 0;
    let last30d = 0;
    let last365d = 0;
    let dated = 0;
    let invalid = 0;
    let future = 0;
    let changed = 0;
    for (const t of state.urls.values()) {
      if (!isDate(t)) {
        if (t === BAD_LASTMOD) invalid++;
        continue;
      }
      dated++;
      if (t > newest) newest = t;
      if (t < oldest) oldest = t;
      if (t >= w365) {
        last365d++;
        if (t >= w30) {
          last30d++;
          if (t >= w7) {
            last7d++;
            if (t > now) future++;
          }
        }
      }
      if (since !== undefined && t >= since) changed++;
    }
    const others = [...state.other].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return {
      host,
      urls: state.urls.size,
      disallowed: state.disallowed.size,
      unchecked: state.unchecked,
      duplicates: state.duplicates,
      invalid: state.invalid,
      otherHosts: {
        urls: others.reduce((s, [, n]) => s + n, 0),
        hosts: others.slice(0, OTHER_HOSTS_SHOWN).map(([h, urls]) => ({ host: h, urls })),
      },
      lastmod: {
        newest: dated > 0 ? new Date(newest).toISOString() : null,
        oldest: dated > 0 ? new Date(oldest).toISOString() : null,
        last7d,
        last30d,
        last365d,
        dated,
        undated: state.urls.size - dated - invalid,
        invalid,
        future,
      },
      changedSince: since === undefined ? null : changed,
    };
  }
}
