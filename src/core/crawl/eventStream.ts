/**
 * The crawl's event stream (CrawlOptions.emit) and its summary: every event goes out through `emit`, none
 * is built when nobody listens (`emitting`), and an event sink that throws fails the crawl. While a
 * response's own event is being worked out (the URLs its redirect or its links queue), the events it
 * causes are held and go out after it. The progress event is timed here; the summary at the end is built
 * from the counts (stats.ts).
 */
import { crawlPart } from './crawlState';
import type { CrawlEvent, CrawlSummary } from './events';
import { summarizeNotFollowed } from './notFollowed';
import type { StopAndFailure } from './stopAndFailure';

/** What the event stream works with, besides the crawl's state. */
export interface EventStreamParts {
  stops: StopAndFailure;
}

export class EventStream extends crawlPart<EventStreamParts>() {
  private lastProgressAt: number | undefined = undefined;

  emit(event: CrawlEvent): void {
    if (!this.emitting) return;
    const s = this.s;
    if (s.eventBuffer) {
      s.eventBuffer.push(event);
      return;
    }
    try {
      s.o.emit?.(event);
    } catch (err) {
      this.stops.failCrawl(err);
    }
  }

  /** Holds the events emitted from now on, until `takeHeld` or `flushWith`. */
  hold(): void {
    this.s.eventBuffer = [];
  }

  /** Ends the hold and returns what it held (undefined when a failure has dropped it). */
  takeHeld(): CrawlEvent[] | undefined {
    const held = this.s.eventBuffer;
    this.s.eventBuffer = undefined;
    return held;
  }

  /** Emits `first`, then what was held while it was being worked out (its `queued` events). */
  flushWith(first: CrawlEvent): void {
    const buffered = this.s.eventBuffer ?? [];
    this.s.eventBuffer = undefined;
    this.emit(first);
    for (const event of buffered) this.emit(event);
  }

  /** The progress event, at most once per CrawlOptions.progressIntervalMs unless forced. */
  maybeProgress(now: number, force: boolean): void {
    if (!this.emitting) return;
    const s = this.s;
    if (!force && this.lastProgressAt !== undefined && now - this.lastProgressAt < s.o.progressIntervalMs) return;
    this.lastProgressAt = now;
    const stats = s.stats;
    const ratePerSecond = stats.pageRate(now);
    const pending = s.unfinished;
    const pages = stats.pages;
    const planned = Math.min(s.o.maxPages, pages + pending);
    const remaining = Math.max(0, planned - pages);
    const etaSeconds = remaining === 0 ? 0 : ratePerSecond > 0 ? remaining / ratePerSecond : undefined;
    this.emit({
      type: 'progress',
      at: now,
      done: pages,
      planned,
      queued: s.frontier.queued + s.checking.size,
      inFlight: s.inFlight,
      ratePerSecond,
      ...(etaSeconds === undefined ? {} : { etaSeconds }),
    });
  }

  /** The crawl's summary at `now`: the counts, each host's planned interval, what was not followed. */
  summary(now: number): CrawlSummary {
    const s = this.s;
    const hosts = [...s.frontier.hosts()].map((slot) => ({
      name: slot.name,
      planned: slot.rate.planned(),
      ...(slot.unit.size > 1 ? { unit: slot.unit.name } : {}),
    }));
    const units = [...s.frontier.units()]
      .filter((u) => u.size > 1)
      .map((u) => ({ name: u.name, hosts: u.hosts, planned: u.rate.planned() }));
    return s.stats.summary(now, hosts, {
      units,
      stopped: s.stopping,
      plannedSeconds: s.o.plannedSeconds,
      notFollowed: summarizeNotFollowed(s.order),
    });
  }
}
