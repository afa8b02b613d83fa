/**
 * A fetched page read for its links: a 2xx HTML page, when the crawl has a link extractor, has its links
 * admitted (admission.ts), and its response event goes out with their count, then the events they caused.
 * With CrawlOptions.defer the host's next request is started first and the page is read once that request
 * is on its way (deferredWork.ts); its events still come in order. Each page, read or not, is then given to
 * the blocking watch (blockWatch.ts) with the links found on it.
 */
import type { Admission } from './admission';
import type { BlockWatch } from './blockWatch';
import { crawlPart, type CrawlState, type UrlRecord } from './crawlState';
import type { DeferredWork } from './deferredWork';
import type { CrawlEvent } from './events';
import type { EventStream } from './eventStream';
import type { HostSlot } from './frontier';
import type { Outcomes } from './outcomes';
import type { PageSuccess } from './types';

/** A response's event, built only when it goes out: with the links it queued (and a redirect's target). */
export type ResponseEvent = (linksQueued: number, location?: string) => CrawlEvent;

/** What reading a page works with, besides the crawl's state. */
export interface PageReadingParts {
  events: EventStream;
  outcomes: Outcomes;
  admission: Admission;
  deferred: DeferredWork;
  blocking: BlockWatch;
  /** Starts what may start now (the host's next request, before the page is read). */
  startReady: () => void;
}

export class PageReading extends crawlPart<PageReadingParts>() {
  private readonly sharedHosts: boolean;

  constructor(s: CrawlState, parts: PageReadingParts) {
    super(s, parts);
    this.sharedHosts = s.sharedHosts;
  }

  /**
   * A page fetched (its outcome recorded): read for links when it is HTML or the fetcher found links itself
   * (`PageSuccess.links`), else its response event goes out.
   */
  fetched(slot: HostSlot<UrlRecord>, rec: UrlRecord, result: PageSuccess, responseEvent: ResponseEvent): void {
    const status = result.status;
    const html =
      this.o.extractLinks &&
      status >= 200 &&
      status < 300 &&
      isHtml(result.contentType ?? result.headers['content-type'])
        ? result.body
        : undefined;
    const given = result.links;
    if (html === undefined && given === undefined) {
      if (this.emitting) this.events.emit(responseEvent(0));
      this.blocking.observe(slot, result, undefined);
      return;
    }
    if (this.o.defer && !this.sharedHosts) {
      // The host's next request first: it goes out while this page is read (not with several requests in
      // flight per host: a response of this same instant may still pause the host, see WakeUps.endOfInstant).
      // Its events wait for this page's response event, and every later completion reads the pages put off
      // before it.
      this.events.hold();
      this.frontier.refresh(slot);
      this.outcomes.updateGate();
      const before = this.s.inFlight;
      this.startReady();
      const held = this.events.takeHeld() ?? [];
      if (this.s.inFlight > before) {
        this.deferred.later(() => this.read(slot, rec, result, html, given, responseEvent, held));
        return;
      }
      this.read(slot, rec, result, html, given, responseEvent, held);
      return;
    }
    this.read(slot, rec, result, html, given, responseEvent, []);
  }

  /**
   * Queues the links of a fetched page (those the fetcher gave, then the body's), then emits its response
   * event, the held events and the links' events.
   */
  private read(
    slot: HostSlot<UrlRecord>,
    rec: UrlRecord,
    result: PageSuccess,
    html: string | undefined,
    given: readonly string[] | undefined,
    responseEvent: ResponseEvent,
    held: readonly CrawlEvent[],
  ): void {
    if (this.s.fatal) return;
    this.events.hold();
    let links: readonly string[] = given ?? [];
    if (html !== undefined) {
      try {
        const found = this.o.extractLinks!(html, rec.url);
        links = given === undefined ? found : [...given, ...found];
      } catch {
        // A page whose links cannot be read adds none.
      }
    }
    const linksQueued = this.admission.admitLinks(rec, links);
    const found = this.events.takeHeld() ?? [];
    this.events.emit(responseEvent(linksQueued));
    for (const event of held) this.events.emit(event);
    for (const event of found) this.events.emit(event);
    this.blocking.observe(slot, result, html === undefined ? undefined : links.length);
  }
}

function isHtml(contentType: string | undefined): boolean {
  return contentType === undefined || /html/i.test(contentType);
}
