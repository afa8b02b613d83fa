/**
 * The Mercator back end (seed "Politeness and back queues"): one FIFO back queue per host and a binary
 * min-heap of hosts keyed by the time each may next start a request. A host is in the heap only while it
 * has work it may start (a non-empty queue, a free per-host slot, not dropped); its key is the earliest
 * time that is allowed by every rule at once:
 *
 *   readyAt = max( previous start + interval                 (both readings)
 *                , previous end   + interval                 (delayFrom 'end' only)
 *                , paused until                              (Retry-After)
 *                , token available at                        (optional token bucket)
 *                , earliest notBefore of a startable item )  (retry backoff)
 *
 * where interval is the host's live interval (HostRate). The frontier does no I/O and reads no clock:
 * the engine passes `now` in.
 */
import type { DelayFrom } from '../politeness/interval';
import type { HostRate } from '../politeness/hostRate';
import type { TokenBucket } from '../politeness/tokenBucket';
import { IndexedMinHeap } from './heap';

export interface FrontierItem {
  /** Not before this time (epoch ms); 0 or less for "whenever the host is ready". */
  notBefore: number;
}

export interface HostSlot<T extends FrontierItem> {
  readonly name: string;
  /** The back queue, FIFO. Retries go to the back; redirect targets to the front. */
  readonly queue: T[];
  inFlight: number;
  lastStartAt: number | undefined;
  lastEndAt: number | undefined;
  pausedUntil: number;
  readonly rate: HostRate;
  readonly bucket: TokenBucket | undefined;
  dropped: boolean;
}

export interface FrontierOptions<T extends FrontierItem> {
  delayFrom: DelayFrom;
  perHostConcurrency: number;
  /**
   * Whether an item may start now regardless of the page budget (retries, redirect continuations), and
   * whether new work may start at all. An item may start when `exempt(item) || mayStartNew()`.
   */
  exempt: (item: T) => boolean;
  mayStartNew: () => boolean;
}

/** Interval seconds → whole ms, rounded up (with a hair of slack for float noise such as 1.1 × 1000). */
export function intervalMs(seconds: number): number {
  return Math.max(0, Math.ceil(seconds * 1000 - 1e-6));
}

export class Frontier<T extends FrontierItem> {
  private readonly slots = new Map<string, HostSlot<T>>();
  private readonly heap = new IndexedMinHeap<HostSlot<T>>();
  private queuedCount = 0;

  constructor(private readonly options: FrontierOptions<T>) {}

  get(name: string): HostSlot<T> | undefined {
    return this.slots.get(name);
  }

  add(name: string, rate: HostRate, bucket?: TokenBucket): HostSlot<T> {
    const existing = this.slots.get(name);
    if (existing) return existing;
    const slot: HostSlot<T> = {
      name,
      queue: [],
      inFlight: 0,
      lastStartAt: undefined,
      lastEndAt: undefined,
      pausedUntil: Number.NEGATIVE_INFINITY,
      rate,
      bucket,
      dropped: false,
    };
    this.slots.set(name, slot);
    return slot;
  }

  hosts(): IterableIterator<HostSlot<T>> {
    return this.slots.values();
  }

  /** Items waiting in back queues (not in flight). */
  get queued(): number {
    return this.queuedCount;
  }

  enqueue(slot: HostSlot<T>, item: T, where: 'front' | 'back'): void {
    if (slot.dropped) throw new Error(`enqueue on dropped host ${slot.name}`);
    if (where === 'front') slot.queue.unshift(item);
    else slot.queue.push(item);
    this.queuedCount++;
    this.refresh(slot);
  }

  /** The earliest time the host may start its next request, or undefined when it has nothing it may start. */
  readyAt(slot: HostSlot<T>): number | undefined {
    if (slot.dropped || slot.queue.length === 0 || slot.inFlight >= this.options.perHostConcurrency) return undefined;
    const interval = intervalMs(slot.rate.intervalSeconds);
    let base = slot.pausedUntil;
    if (slot.lastStartAt !== undefined) base = Math.max(base, slot.lastStartAt + interval);
    if (this.options.delayFrom === 'end' && slot.lastEndAt !== undefined) base = Math.max(base, slot.lastEndAt + interval);
    if (slot.bucket) base = Math.max(base, slot.bucket.nextTokenAt());
    const open = this.options.mayStartNew();
    let earliest = Number.POSITIVE_INFINITY;
    for (const item of slot.queue) {
      if (!open && !this.options.exempt(item)) continue;
      if (item.notBefore <= base) return base;
      earliest = Math.min(earliest, item.notBefore);
    }
    return Number.isFinite(earliest) ? Math.max(base, earliest) : undefined;
  }

  /** Re-keys one host after anything about it changed. */
  refresh(slot: HostSlot<T>): void {
    const at = this.readyAt(slot);
    if (at === undefined) this.heap.delete(slot);
    else this.heap.set(slot, at);
  }

  /** Re-keys every host (after the page budget opened or closed). */
  refreshAll(): void {
    for (const slot of this.slots.values()) this.refresh(slot);
  }

  /** The earliest ready time over all hosts, or undefined when no host has startable work. */
  nextReadyAt(): number | undefined {
    return this.heap.peek()?.key;
  }

  /**
   * Pops the host at the top of the heap if it is ready at `now`, takes the first item of its queue that
   * may start now (FIFO among those), and records the start. Returns undefined when nothing is ready.
   */
  takeReady(now: number): { slot: HostSlot<T>; item: T; previousStartAt: number | undefined } | undefined {
    for (;;) {
      const top = this.heap.peek();
      if (!top || top.key > now) return undefined;
      const slot = top.item;
      const open = this.options.mayStartNew();
      const index = slot.queue.findIndex((item) => item.notBefore <= now && (open || this.options.exempt(item)));
      if (index < 0) {
        // A stale key (cannot happen when every change is followed by refresh); re-key and look again.
        this.refresh(slot);
        if (this.heap.peek()?.item === slot && this.heap.peek()!.key <= now) this.heap.delete(slot);
        continue;
      }
      const [item] = slot.queue.splice(index, 1) as [T];
      this.queuedCount--;
      const previousStartAt = slot.lastStartAt;
      slot.inFlight++;
      slot.lastStartAt = now;
      slot.bucket?.take(now);
      this.refresh(slot);
      return { slot, item, previousStartAt };
    }
  }

  /**
   * A request of this host ended at `now`. `sentAt`, when the fetcher reports it, is when the request
   * actually went onto the connection: a later start than the one recorded, so the next start-to-start
   * interval is measured from it. Call `refresh` once the host's rate has been updated.
   */
  end(slot: HostSlot<T>, now: number, sentAt?: number): void {
    if (sentAt !== undefined && slot.lastStartAt !== undefined && sentAt > slot.lastStartAt && sentAt <= now) slot.lastStartAt = sentAt;
    slot.inFlight = Math.max(0, slot.inFlight - 1);
    slot.lastEndAt = slot.lastEndAt === undefined ? now : Math.max(slot.lastEndAt, now);
  }

  /** Excludes the host until `until` (Retry-After). Pauses only ever extend. */
  pause(slot: HostSlot<T>, until: number): void {
    slot.pausedUntil = Math.max(slot.pausedUntil, until);
    this.refresh(slot);
  }

  /** Takes the host out of the run and returns what was left in its queue. */
  drop(slot: HostSlot<T>): T[] {
    slot.dropped = true;
    const left = slot.queue.splice(0);
    this.queuedCount -= left.length;
    this.heap.delete(slot);
    return left;
  }

  /** Removes and returns every queued item (of live hosts) that matches. */
  removeWhere(predicate: (item: T) => boolean): T[] {
    const removed: T[] = [];
    for (const slot of this.slots.values()) {
      for (let i = slot.queue.length - 1; i >= 0; i--) {
        if (predicate(slot.queue[i]!)) removed.unshift(...slot.queue.splice(i, 1));
      }
      this.refresh(slot);
    }
    this.queuedCount -= removed.length;
    return removed;
  }
}
