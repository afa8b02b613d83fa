/**
 * URL records and admission: how the crawl meets a URL (a seed, a link of a fetched page, a redirect
 * target). A URL is resolved, normalised (fragment dropped), deduped and scope-checked (other hosts,
 * depth, redirects, a stop, the page budget and the host's own), recorded once, and an in-scope one is announced (`queued`)
 * and sent through robots.txt into its host's queue; its host's politeness state is made on first meeting.
 */
import { HostRate } from '../politeness/hostRate';
import { TokenBucket } from '../politeness/tokenBucket';
import { canonicalHttpHost } from './canonicalUrl';
import { crawlPart, UrlRecord, type AdmitContext, type CrawlState } from './crawlState';
import type { EventStream } from './eventStream';
import type { HostSlot } from './frontier';
import type { Outcomes } from './outcomes';
import type { RobotsTimeline } from './robotsTimeline';
import type { UrlOutcome } from './types';

/** What admission says of a URL: queued, or why not (`url` is the URL as normalised, when it parsed). */
export interface Admitted {
  queued: boolean;
  url?: string;
  why?: string;
}

/** What admission works with, besides the crawl's state. */
export interface AdmissionParts {
  events: EventStream;
  outcomes: Outcomes;
  robots: RobotsTimeline;
}

export class Admission extends crawlPart<AdmissionParts>() {
  private readonly records: Map<string, UrlRecord>;
  private readonly order: UrlRecord[];
  /** The seeds' hosts: the crawl's scope, unless other hosts are allowed. */
  private readonly seedHosts = new Set<string>();

  constructor(s: CrawlState, parts: AdmissionParts) {
    super(s, parts);
    this.records = s.records;
    this.order = s.order;
  }

  /** The seeds (CrawlOptions.seeds), in order: their hosts are the crawl's scope. */
  admitSeeds(): void {
    const seeds = this.o.seeds;
    // Each seed's host when it is a canonical URL (so that admit need not look again), else undefined.
    const canonical = new Array<string | undefined>(seeds.length);
    for (let i = 0; i < seeds.length; i++) {
      const host = (canonical[i] = canonicalHttpHost(seeds[i]!.trim())) ?? seedHost(seeds[i]!);
      if (host !== undefined) this.seedHosts.add(host);
    }
    const ctx: AdmitContext = { depth: 0, hops: 0, continuation: false, seed: true };
    for (let i = 0; i < seeds.length; i++) this.admit(seeds[i]!, undefined, ctx, canonical[i]);
  }

  /** The links of a fetched page, one level deeper; returns how many were queued. */
  admitLinks(page: UrlRecord, links: readonly string[]): number {
    let linksQueued = 0;
    for (const link of links) {
      if (
        typeof link === 'string' &&
        this.admit(link, page.url, { depth: page.depth + 1, from: page.url, hops: 0, continuation: false, seed: false })
          .queued
      )
        linksQueued++;
    }
    return linksQueued;
  }

  /** A redirect's target (Location, resolved against the URL that redirected): the next hop of its chain. */
  admitRedirect(rec: UrlRecord, location: string): Admitted {
    return this.admit(location, rec.url, {
      depth: rec.depth,
      from: rec.url,
      hops: rec.hops + 1,
      continuation: true,
      seed: false,
      chainHost: rec.chainHost ?? rec.host,
    });
  }

  /**
   * Meets a URL: resolves, normalises (fragment dropped), dedupes and scope-checks it, records it, and for
   * an in-scope URL emits `queued` and sends it through robots.txt into its host's queue.
   */
  private admit(raw: string, base: string | undefined, ctx: AdmitContext, canonicalHost?: string): Admitted {
    const text = raw.trim();
    let url: string;
    let host: string | undefined = canonicalHost ?? canonicalHttpHost(text);
    if (host !== undefined) {
      url = text;
    } else {
      let u: URL;
      try {
        u = base === undefined ? new URL(text) : new URL(text, base);
      } catch {
        return this.refuse(text, '', ctx, 'out-of-scope', 'invalid-url');
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') {
        u.hash = '';
        return this.refuse(u.href, '', ctx, 'out-of-scope', 'scheme');
      }
      // Only a fragment puts '#' in a serialized URL; setting `hash` re-parses, so it is done only then.
      url = u.href;
      if (url.includes('#')) {
        u.hash = '';
        url = u.href;
      }
      host = u.host;
    }
    if (this.records.has(url)) return { queued: false, url, why: 'already-met' };
    // One string per host, however many URLs it has (the frontier's name for it).
    const known = this.frontier.get(host);
    if (known) host = known.name;
    if (
      !ctx.seed &&
      !this.o.allowOtherHosts &&
      !(ctx.continuation && this.o.followOtherHostRedirects) &&
      !this.seedHosts.has(host)
    ) {
      return this.refuse(url, host, ctx, 'out-of-scope', 'other-host');
    }
    if (ctx.depth > this.o.maxDepth) return this.refuse(url, host, ctx, 'out-of-scope', 'depth');
    if (ctx.hops > this.o.maxRedirects) return this.refuse(url, host, ctx, 'out-of-scope', 'redirect-limit');
    if (this.s.stopping) return this.refuse(url, host, ctx, 'not-started', 'stopped');
    if (!ctx.continuation && this.stats.pages >= this.o.maxPages) {
      this.stats.notStartedByMaxPages++;
      return this.refuse(url, host, ctx, 'not-started', 'max-pages');
    }
    if (!ctx.continuation && this.outcomes.hostBudgetSpent(host)) {
      this.stats.notStartedByMaxPages++;
      return this.refuse(url, host, ctx, 'not-started', 'host-pages');
    }
    const rec = this.record(url, host, ctx);
    rec.inChain = ctx.continuation;
    if (this.emitting)
      this.events.emit({
        type: 'queued',
        at: this.clock.now(),
        url,
        host,
        depth: rec.depth,
        ...(rec.from === undefined ? {} : { from: rec.from }),
      });
    const slot = this.ensureHost(host);
    if (slot.dropped) this.outcomes.finalizeForDroppedHost(slot, rec);
    else this.robots.checkRobots(rec);
    return { queued: true, url };
  }

  private refuse(
    url: string,
    host: string,
    ctx: AdmitContext,
    outcome: UrlOutcome,
    why: string,
  ): { queued: false; url: string; why: string } {
    if (!this.records.has(url)) {
      const rec = this.record(url, host, ctx);
      this.outcomes.finalize(rec, outcome, why);
    }
    return { queued: false, url, why };
  }

  private record(url: string, host: string, ctx: AdmitContext): UrlRecord {
    const rec = new UrlRecord(url, host, ctx.depth, ctx.from, ctx.hops, ctx.continuation);
    if (ctx.chainHost !== undefined) rec.chainHost = ctx.chainHost;
    this.records.set(url, rec);
    this.order.push(rec);
    this.s.unfinished++;
    return rec;
  }

  private ensureHost(host: string): HostSlot<UrlRecord> {
    const existing = this.frontier.get(host);
    if (existing) return existing;
    // A host whose unit has a member already shares the unit's rate and bucket (docs/how-it-works.md#politeness-units).
    const unitName = this.s.unitOf?.(host) ?? host;
    const joined = this.frontier.unit(unitName);
    const rate = joined?.rate ?? this.newRate();
    const bucket = joined
      ? joined.bucket
      : this.o.tokenBucket
        ? new TokenBucket(
            { ratePerSecond: this.o.tokenBucket.ratePerSecond, capacity: this.o.tokenBucket.burst },
            this.clock.now(),
          )
        : undefined;
    // A Crawl-delay known before the crawl (a plan's) keeps the host, and its unit, at least that far apart from the start.
    const known = this.o.crawlDelayByHost;
    const delay = known !== undefined && Object.hasOwn(known, host) ? known[host] : undefined;
    if (delay !== undefined) rate.mergeCrawlDelay(delay);
    this.stats.addHost(host);
    const slot = this.frontier.add(host, rate, bucket, unitName);
    if (delay !== undefined) {
      slot.crawlDelaySeconds = delay;
      if (joined) this.frontier.refresh(slot);
    }
    return slot;
  }

  private newRate(): HostRate {
    return new HostRate({
      configuredSeconds: this.o.delaySeconds,
      crawlDelayPolicy: this.o.crawlDelayPolicy,
      maxCrawlDelaySeconds: this.o.maxCrawlDelaySeconds,
      adaptive: this.o.adaptive,
      increaseFactor: this.o.rateIncreaseFactor,
      recoveryFactor: this.o.rateRecoveryFactor,
      maxIntervalSeconds: this.o.maxRaisedIntervalSeconds,
      minRaisedSeconds: 1,
    });
  }
}

/** The host of a seed that is an http(s) URL (its politeness key), else undefined. */
function seedHost(seed: string): string | undefined {
  const text = seed.trim();
  const fast = canonicalHttpHost(text);
  if (fast !== undefined) return fast;
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : undefined;
  } catch {
    return undefined;
  }
}
