/**
 * Blocking suspected (docs/crawl-engine.md#blocking-suspected): every response of a host is fed to its politeness
 * unit's trend detector (src/core/blocking/detector.ts): its status, and for a 2xx HTML page its body bytes,
 * the links found on it and whether it matches a block marker (markers.ts: a plain substring of a header or
 * of the body, never run). When the detector signals, a `blocking-suspected` event goes out and the engine
 * reacts as CrawlOptions.onBlock says: `warn` nothing more; `slow` the unit's interval ×2 on the first signal
 * (through its HostRate, which every start reads) and the host dropped on the second; `stop` the host dropped
 * on the first.
 */
import { BlockDetector, matchBlockMarker, type BlockObservation } from '../blocking';
import { crawlPart, type UrlRecord } from './crawlState';
import type { BlockingSuspectedEvent } from './events';
import type { EventStream } from './eventStream';
import type { HostSlot } from './frontier';
import type { Outcomes } from './outcomes';
import type { PageSuccess } from './types';

/** The interval's factor on a host's first signal under `slow`. */
export const BLOCK_SLOW_FACTOR = 2;

/** What watching for blocking works with, besides the crawl's state. */
export interface BlockWatchParts {
  events: EventStream;
  outcomes: Outcomes;
}

export class BlockWatch extends crawlPart<BlockWatchParts>() {
  /** Per politeness unit: its detector and its signals so far. */
  private readonly units = new Map<string, { detector: BlockDetector; signals: number }>();

  /**
   * One response of `slot`'s host: `links`, the links found on it when it was read as an HTML page (2xx),
   * else undefined. Robots.txt answers are not fed (they are not the site's pages).
   */
  observe(slot: HostSlot<UrlRecord>, result: PageSuccess, links: number | undefined): void {
    if (slot.dropped || this.s.fatal) return;
    const status = result.status;
    const html = links !== undefined && status >= 200 && status < 300;
    const headers = result.headers;
    const marker = matchBlockMarker(
      { headers, bodyStart: html ? result.body : undefined, links },
      this.o.blockMarkers ?? [],
    );
    const o: BlockObservation = {
      status,
      ...(html ? { page: { bytes: result.bytes, links } } : {}),
      ...(marker === undefined ? {} : { marker: { id: marker.id, service: marker.service } }),
    };
    const name = slot.unit.name;
    let unit = this.units.get(name);
    if (unit === undefined) this.units.set(name, (unit = { detector: new BlockDetector(), signals: 0 }));
    const signal = unit.detector.observe(o);
    if (signal === undefined) return;
    unit.signals++;
    const reaction = this.o.onBlock;
    const drop = reaction === 'stop' || (reaction === 'slow' && unit.signals >= 2);
    const action: BlockingSuspectedEvent['action'] = drop ? 'dropped' : reaction === 'slow' ? 'slowed' : 'warned';
    if (action === 'slowed') {
      // The rate is the unit's: every member of it is slowed.
      slot.rate.slowDown(BLOCK_SLOW_FACTOR);
      this.frontier.refresh(slot);
    }
    const st = this.stats.host(slot.name);
    st.blocking = { signals: (st.blocking?.signals ?? 0) + 1, kind: signal.kind, text: signal.text, action };
    this.events.emit({
      type: 'blocking-suspected',
      at: this.clock.now(),
      host: slot.name,
      kind: signal.kind,
      text: signal.text,
      numbers: { ...signal.numbers },
      signal: unit.signals,
      action,
      intervalSeconds: slot.rate.intervalSeconds,
      ...(slot.unit.size > 1 ? { unit: name } : {}),
    });
    if (drop) this.outcomes.dropHost(slot, 'blocking-suspected', `${signal.kind}: ${signal.text}`);
  }
}
