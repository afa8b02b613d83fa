/**
 * Outcomes and the page budget: a URL's final outcome (fetched, redirected, failed, robots-disallowed,
 * host-dropped, not-started, ...), a host dropped for the run with every URL it still held, and the page
 * budget (new URLs start only while pages + chains in progress < maxPages; once the pages are reached,
 * the URLs that have not started leave as not started). What leads to an outcome is decided by the parts
 * that meet it (admission, the robots.txt timeline, the response rules); this is where it is recorded.
 * Each host's own page budget (CrawlOptions.pageBudgets) is kept the same way, per host: its new URLs start
 * only while its pages + its chains in progress < its budget, and once its pages reach it, the host's URLs that
 * have not started leave as not started (`host-pages`).
 */
import { pageBudgetOf, type PageBudgets } from './pageBudgets';
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
  private readonly budgets: PageBudgets | undefined;
  /** Per host (only with budgets): chains started on it and not yet final, and the pages they gave. */
  private readonly hostChains = new Map<string, number>();
  private readonly hostPages = new Map<string, number>();
  /** Hosts whose budget is spent and whose unstarted URLs have left. */
  private readonly hostsSpent = new Set<string>();

  constructor(s: CrawlState, parts: OutcomesParts) {
    super(s, parts);
    this.checking = s.checking;
    this.maxPages = s.o.maxPages;
    this.budgets = s.o.pageBudgets;
  }

  /** A chain (a URL's first try) started: counted against the page budgets. */
  chainStarted(rec: UrlRecord): void {
    rec.inChain = true;
    rec.chainHost = rec.host;
    this.s.activeChains++;
    if (this.budgets === undefined) return;
    this.hostChains.set(rec.host, (this.hostChains.get(rec.host) ?? 0) + 1);
    this.updateHostGate(rec.host);
  }

  /** Whether `host`'s own page budget is spent (its pages have reached it): its new URLs do not start. */
  hostBudgetSpent(host: string): boolean {
    if (this.budgets === undefined) return false;
    return (this.hostPages.get(host) ?? 0) >= pageBudgetOf(this.budgets, host);
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
    const chainEnded = rec.inChain && !(outcome === 'redirected' && continued);
    if (chainEnded) this.s.activeChains--;
    rec.inChain = false;
    // A robots.txt URL answered by its robots.txt request made no page request (attempts 0): not a page.
    const page = outcome === 'fetched' && rec.attempts > 0;
    if (page) this.stats.page(rec.host, this.clock.now());
    if (this.budgets !== undefined && chainEnded) {
      // A chain counts against the budget of the host it started on, wherever its redirects took it.
      const host = rec.chainHost ?? rec.host;
      this.hostChains.set(host, (this.hostChains.get(host) ?? 1) - 1);
      if (page) this.hostPages.set(host, (this.hostPages.get(host) ?? 0) + 1);
      this.updateHostGate(host);
    }
  }

  /**
   * A host's own page budget: new URLs of the host start only while its pages + its chains in progress < its
   * budget; once its pages reach it, its URLs that have not started leave as not started (`host-pages`).
   */
  private updateHostGate(host: string): void {
    const slot = this.frontier.get(host);
    if (slot === undefined) return;
    const budget = pageBudgetOf(this.budgets!, host);
    const pages = this.hostPages.get(host) ?? 0;
    if (pages >= budget && !this.hostsSpent.has(host)) {
      this.hostsSpent.add(host);
      const cut = (r: UrlRecord): boolean => r.attempts === 0 && !r.continuation;
      const left = [
        ...this.frontier.removeFromHost(slot, cut),
        ...[...this.checking].filter((r) => r.host === host && cut(r)),
      ];
      for (const rec of left) {
        this.stats.notStartedByMaxPages++;
        this.finalize(rec, 'not-started', 'host-pages');
      }
    }
    this.frontier.setHostOpen(slot, pages + (this.hostChains.get(host) ?? 0) < budget);
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
