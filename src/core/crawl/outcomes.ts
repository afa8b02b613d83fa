/**
 * Outcomes and the page budget: a URL's final outcome (fetched, redirected, failed, robots-disallowed,
 * host-dropped, not-started, ...), a host dropped for the run with every URL it still held, and the page
 * budget (new URLs start only while pages + chains in progress < maxPages; once the pages are reached,
 * the URLs that have not started leave as not started). What leads to an outcome is decided by the parts
 * that meet it (admission, the robots.txt timeline, the response rules); this is where it is recorded.
 */
import { crawlPart, toReport, type CrawlState, type UrlRecord } from './crawlState';
import type { HostDroppedEvent } from './events';
import type { EventStream } from './eventStream';
import type { HostSlot } from './frontier';
import type { UrlOutcome, UrlReport } from './types';

/** What outcomes work with, besides the crawl's state. */
export interface OutcomesParts {
  events: EventStream;
}

export class Outcomes extends crawlPart<OutcomesParts>() {
  private readonly checking: Set<UrlRecord>;
  private readonly maxPages: number;
  private maxPagesReached = false;

  constructor(s: CrawlState, parts: OutcomesParts) {
    super(s, parts);
    this.checking = s.checking;
    this.maxPages = s.o.maxPages;
  }

  finalize(rec: UrlRecord, outcome: UrlOutcome, detail: string | undefined, continued = false): void {
    if (rec.state === 'done') return;
    this.checking.delete(rec);
    const release = rec.robotsRelease;
    if (release) {
      rec.robotsRelease = undefined;
      release();
    }
    rec.state = 'done';
    this.s.unfinished--;
    rec.outcome = outcome;
    if (detail !== undefined) rec.detail = detail;
    else if (outcome === 'fetched' || outcome === 'redirected') rec.detail = undefined;
    if (rec.inChain && !(outcome === 'redirected' && continued)) this.s.activeChains--;
    rec.inChain = false;
    // A robots.txt URL answered by its robots.txt request made no page request (attempts 0): not a page.
    if (outcome === 'fetched' && rec.attempts > 0) this.stats.page(rec.host, this.clock.now());
  }

  /** Drops a host for the run; every URL of it that is queued or awaiting robots.txt gets its outcome. */
  dropHost(slot: HostSlot<UrlRecord>, reason: HostDroppedEvent['reason'], detail: string, current?: UrlRecord): void {
    const st = this.stats.host(slot.name);
    if (slot.dropped) {
      if (current) this.finalizeForDroppedHost(slot, current);
      return;
    }
    const left = this.frontier.drop(slot);
    const checking = [...this.checking].filter((r) => r.host === slot.name && r !== current);
    const all = [...(current ? [current] : []), ...left, ...checking];
    st.dropReason = reason;
    st.dropped = `${reason}: ${detail}`;
    this.events.emit({
      type: 'host-dropped',
      at: this.clock.now(),
      host: slot.name,
      reason,
      detail,
      urlsLeft: all.length,
    });
    for (const rec of all) this.finalizeForDroppedHost(slot, rec);
  }

  /** A URL of a dropped host: robots-unreachable when its robots.txt was why, else host-dropped. */
  finalizeForDroppedHost(slot: HostSlot<UrlRecord>, rec: UrlRecord): void {
    this.checking.delete(rec);
    const st = this.stats.host(slot.name);
    if (st.dropReason === 'robots-unreachable') {
      this.stats.robotsSkip(slot.name);
      this.events.emit({
        type: 'robots-skip',
        at: this.clock.now(),
        url: rec.url,
        host: rec.host,
        reason: 'unreachable',
      });
      this.finalize(rec, 'robots-unreachable', st.dropped);
    } else {
      this.finalize(rec, 'host-dropped', st.dropped);
    }
  }

  /** The page budget: new URLs start only while pages + chains in progress < maxPages. */
  updateGate(): void {
    if (!this.maxPagesReached && this.stats.pages >= this.maxPages) {
      this.maxPagesReached = true;
      const cut = (r: UrlRecord): boolean => r.attempts === 0 && !r.continuation;
      const left = [...this.frontier.removeWhere(cut), ...[...this.checking].filter(cut)];
      for (const rec of left) {
        this.stats.notStartedByMaxPages++;
        this.finalize(rec, 'not-started', 'max-pages');
      }
    }
    // The frontier reads the gate through mayStartNew when it takes work: nothing to re-key.
    this.s.gateOpen = this.stats.pages + this.s.activeChains < this.maxPages;
  }

  /** The crawl's end: every URL not yet final did not start (`why`: stopped, or not scheduled). */
  finalizeUnfinished(why: string): void {
    for (const rec of this.frontier.removeWhere(() => true)) this.finalize(rec, 'not-started', why);
    for (const rec of this.s.order) if (rec.state !== 'done') this.finalize(rec, 'not-started', why);
  }

  /** One outcome per URL met, in the order met (none when CrawlOptions.urlOutcomes is false). */
  reports(): UrlReport[] {
    return this.o.urlOutcomes === false ? [] : this.s.order.map(toReport);
  }
}
