/**
 * The Mercator back end (seed "Politeness and back queues"): one FIFO back queue per host and a min-heap
 * of hosts keyed by the time each may next start a request. A host is in the heap only while it has work
 * it may start (a queued item, a free per-host slot, not dropped); its key is the earliest time that is
 * allowed by every rule at once:
 *
 *   readyAt = max( previous start + interval                 (both readings)
 *                , previous end   + interval                 (delayFrom 'end' only)
 *                , paused until                              (Retry-After)
 *                , token available at                        (optional token bucket)
 *                , earliest notBefore of a startable item )  (retry backoff; 0 or less counts as 0)
 *
 * where interval is the host's live interval (HostRate). The host with the earliest key goes first; among
 * equal keys, the one that has had startable work for longest. It starts the first item of its queue, in
 * FIFO order, whose notBefore has passed.
 *
 * The page budget: an item may start when `exempt(item) || mayStartNew()`. Each host keeps its exempt
 * items (retries, redirect continuations) apart from the rest (see backQueue.ts), and the frontier keeps
 * two heaps: the hosts keyed as if the budget were open, and the hosts keyed by their exempt items only.
 * `takeReady` and `nextReadyAt` read the budget and use one heap or the other, so the budget opening or
 * closing re-keys nothing. A host's own page budget (`setHostOpen`) closes only that host to new work: it
 * then starts its exempt items only, and is re-keyed alone.
 *
 * Costs for H hosts: enqueue, takeReady, pause and refresh are O(log H), plus O(1) amortized in the
 * host's own queue (O(log r) for r retries waiting on their notBefore); end is O(1); drop is O(n log n)
 * in the host's queue and removeWhere O(n log n) in the frontier. The test in
 * test/unit/crawl-frontier-model.test.ts holds all this against a plain O(n) model of the same rules.
 * The frontier does no I/O and reads no clock: the caller passes `now` in.
 */
import type { DelayFrom } from '../politeness/interval';
import type { HostRate } from '../politeness/hostRate';
import type { TokenBucket } from '../politeness/tokenBucket';
import { BackQueue, type FrontierItem } from './backQueue';
import { IndexedMinHeap, type HeapIndex } from './heap';

export type { FrontierItem } from './backQueue';

/** A host as the frontier's callers see it; T names the items its queue holds. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- T ties a slot to its frontier's item type at call sites
export interface HostSlot<T extends FrontierItem> {
  readonly name: string;
  /** Items waiting in this host's back queue (not in flight). */
  readonly queued: number;
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
   * Whether an item may start regardless of the page budget (retries, redirect continuations). It is
   * read once, when the item is queued: an item's exemption does not change while it waits.
   */
  exempt: (item: T) => boolean;
  /** Whether the page budget lets new work start now; an item may start when `exempt(item) || mayStartNew()`. */
  mayStartNew: () => boolean;
}

/** Interval seconds → whole ms, rounded up (with a hair of slack for float noise such as 1.1 × 1000). */
export function intervalMs(seconds: number): number {
  return Math.max(0, Math.ceil(seconds * 1000 - 1e-6));
}

class Slot<T extends FrontierItem> implements HostSlot<T> {
  inFlight = 0;
  lastStartAt: number | undefined = undefined;
  lastEndAt: number | undefined = undefined;
  pausedUntil = Number.NEGATIVE_INFINITY;
  dropped = false;
  /** The host's own page budget holds its new work back (Frontier.setHostOpen). */
  closed = false;
  /** Items the page budget holds back, and exempt ones; created with their first item. */
  normal: BackQueue<T> | undefined = undefined;
  exempt: BackQueue<T> | undefined = undefined;
  /** The slot's positions in the frontier's two heaps, -1 while it is not in one. */
  openPos = -1;
  exemptPos = -1;

  constructor(
    readonly name: string,
    readonly rate: HostRate,
    readonly bucket: TokenBucket | undefined,
  ) {}

  get queued(): number {
    return (this.normal?.size ?? 0) + (this.exempt?.size ?? 0);
  }
}

export class Frontier<T extends FrontierItem> {
  private readonly slots = new Map<string, Slot<T>>();
  /** Hosts with startable work while the budget is open, keyed by readyAt with every item. */
  private readonly heapOpen = new IndexedMinHeap<Slot<T>>(openIndex as HeapIndex<Slot<T>>);
  /** Hosts with startable exempt work, keyed by readyAt with their exempt items only. */
  private readonly heapExempt = new IndexedMinHeap<Slot<T>>(exemptIndex as HeapIndex<Slot<T>>);
  private queuedCount = 0;
  /** FIFO order within a host: back items count up from 1, front items down from -1. */
  private backSeq = 0;
  private frontSeq = 0;

  constructor(private readonly options: FrontierOptions<T>) {}

  get(name: string): HostSlot<T> | undefined {
    return this.slots.get(name);
  }

  add(name: string, rate: HostRate, bucket?: TokenBucket): HostSlot<T> {
    const existing = this.slots.get(name);
    if (existing) return existing;
    const slot = new Slot<T>(name, rate, bucket);
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

  /** Queues the item at the back (after everything queued) or at the front (before everything). */
  enqueue(host: HostSlot<T>, item: T, where: 'front' | 'back'): void {
    const slot = this.own(host);
    if (slot.dropped) throw new Error(`enqueue on dropped host ${slot.name}`);
    const seq = where === 'front' ? --this.frontSeq : ++this.backSeq;
    if (this.options.exempt(item)) (slot.exempt ??= new BackQueue<T>()).push(item, seq, where);
    else (slot.normal ??= new BackQueue<T>()).push(item, seq, where);
    this.queuedCount++;
    this.refresh(slot);
  }

  /** The earliest time the host may start its next request, or undefined when it has nothing it may start. */
  readyAt(host: HostSlot<T>): number | undefined {
    const slot = this.own(host);
    return this.options.mayStartNew()
      ? this.readyAtOpen(slot, this.base(slot))
      : this.readyAtExempt(slot, this.base(slot));
  }

  /** Opens or closes the host to new (not exempt) work: its own page budget. */
  setHostOpen(host: HostSlot<T>, open: boolean): void {
    const slot = this.own(host);
    if (slot.closed === !open) return;
    slot.closed = !open;
    this.refresh(slot);
  }

  /** Re-keys one host after anything about it changed (its rate, an end, a pause). */
  refresh(host: HostSlot<T>): void {
    const slot = this.own(host);
    const base = this.base(slot);
    const open = this.readyAtOpen(slot, base);
    if (open === undefined) this.heapOpen.delete(slot);
    else this.heapOpen.set(slot, open);
    const exempt = this.readyAtExempt(slot, base);
    if (exempt === undefined) this.heapExempt.delete(slot);
    else this.heapExempt.set(slot, exempt);
  }

  /** Re-keys every host (after something changed for all of them). The page budget needs no re-keying. */
  refreshAll(): void {
    for (const slot of this.slots.values()) this.refresh(slot);
  }

  /** The earliest ready time over all hosts, or undefined when no host has startable work. */
  nextReadyAt(): number | undefined {
    return this.heap().peekKey();
  }

  /**
   * Takes the host at the top of the heap if it is ready at `now`, takes the first item of its queue that
   * may start now (FIFO among those), and records the start. Returns undefined when nothing is ready.
   */
  takeReady(now: number): { slot: HostSlot<T>; item: T; previousStartAt: number | undefined } | undefined {
    const open = this.options.mayStartNew();
    const heap = open ? this.heapOpen : this.heapExempt;
    for (;;) {
      const slot = heap.peekItem();
      if (slot === undefined || heap.peekKey()! > now) return undefined;
      // The key is O(1) to check: a host whose state changed without a refresh never starts early.
      const base = this.base(slot);
      const at = open ? this.readyAtOpen(slot, base) : this.readyAtExempt(slot, base);
      if (at === undefined || at > now) {
        this.refresh(slot);
        continue;
      }
      const exemptSeq = slot.exempt?.firstSeqAt(now);
      const normalSeq = open && !slot.closed ? slot.normal?.firstSeqAt(now) : undefined;
      let item: T;
      if (normalSeq !== undefined && (exemptSeq === undefined || normalSeq < exemptSeq))
        item = slot.normal!.shift(normalSeq);
      else if (exemptSeq !== undefined) item = slot.exempt!.shift(exemptSeq);
      else throw new Error(`frontier: host ${slot.name} was ready at ${at} with nothing to start at ${now}`);
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
  end(host: HostSlot<T>, now: number, sentAt?: number): void {
    const slot = this.own(host);
    if (sentAt !== undefined && slot.lastStartAt !== undefined && sentAt > slot.lastStartAt && sentAt <= now)
      slot.lastStartAt = sentAt;
    slot.inFlight = Math.max(0, slot.inFlight - 1);
    slot.lastEndAt = slot.lastEndAt === undefined ? now : Math.max(slot.lastEndAt, now);
  }

  /** Excludes the host until `until` (Retry-After). Pauses only ever extend. */
  pause(host: HostSlot<T>, until: number): void {
    const slot = this.own(host);
    slot.pausedUntil = Math.max(slot.pausedUntil, until);
    this.refresh(slot);
  }

  /** Takes the host out of the run and returns what was left in its queue, in queue order. */
  drop(host: HostSlot<T>): T[] {
    const slot = this.own(host);
    slot.dropped = true;
    const left = inQueueOrder([...(slot.normal?.drain() ?? []), ...(slot.exempt?.drain() ?? [])]);
    slot.normal = undefined;
    slot.exempt = undefined;
    this.queuedCount -= left.length;
    this.heapOpen.delete(slot);
    this.heapExempt.delete(slot);
    return left;
  }

  /** Removes and returns every queued item that matches: host by host, each host's in queue order. */
  removeWhere(predicate: (item: T) => boolean): T[] {
    const removed: T[] = [];
    for (const slot of this.slots.values()) for (const item of this.removeFromHost(slot, predicate)) removed.push(item);
    return removed;
  }

  /** Removes and returns the queued items of one host that match, in queue order. */
  removeFromHost(host: HostSlot<T>, predicate: (item: T) => boolean): T[] {
    const slot = this.own(host);
    const pairs: [number, T][] = [];
    for (const queue of [slot.normal, slot.exempt])
      if (queue) for (const pair of queue.removeWhere(predicate)) pairs.push(pair);
    if (pairs.length === 0) return [];
    this.refresh(slot);
    this.queuedCount -= pairs.length;
    return inQueueOrder(pairs);
  }

  private heap(): IndexedMinHeap<Slot<T>> {
    return this.options.mayStartNew() ? this.heapOpen : this.heapExempt;
  }

  /** max of every rule but the items' own notBefore; undefined when the host may not start anything. */
  private base(slot: Slot<T>): number | undefined {
    if (slot.dropped || slot.inFlight >= this.options.perHostConcurrency) return undefined;
    const interval = intervalMs(slot.rate.intervalSeconds);
    let base = slot.pausedUntil;
    if (slot.lastStartAt !== undefined) base = Math.max(base, slot.lastStartAt + interval);
    if (this.options.delayFrom === 'end' && slot.lastEndAt !== undefined)
      base = Math.max(base, slot.lastEndAt + interval);
    if (slot.bucket) base = Math.max(base, slot.bucket.nextTokenAt());
    return base;
  }

  private readyAtOpen(slot: Slot<T>, base: number | undefined): number | undefined {
    if (base === undefined) return undefined;
    const normal = slot.closed ? undefined : slot.normal?.earliest();
    const exempt = slot.exempt?.earliest();
    if (normal === undefined && exempt === undefined) return undefined;
    return Math.max(base, Math.min(normal ?? Infinity, exempt ?? Infinity));
  }

  private readyAtExempt(slot: Slot<T>, base: number | undefined): number | undefined {
    if (base === undefined) return undefined;
    const exempt = slot.exempt?.earliest();
    return exempt === undefined ? undefined : Math.max(base, exempt);
  }

  /** The frontier's own slot behind a HostSlot it handed out (only `add` makes them). */
  private own(host: HostSlot<T>): Slot<T> {
    return host as Slot<T>;
  }
}

/** The heaps' indexes, each kept in a field of the slot (one object each, with plain property reads: hot). */
const openIndex: HeapIndex<Slot<FrontierItem>> = {
  get: (slot) => (slot.openPos < 0 ? undefined : slot.openPos),
  set: (slot, pos) => {
    slot.openPos = pos;
  },
  delete: (slot) => {
    slot.openPos = -1;
  },
};
const exemptIndex: HeapIndex<Slot<FrontierItem>> = {
  get: (slot) => (slot.exemptPos < 0 ? undefined : slot.exemptPos),
  set: (slot, pos) => {
    slot.exemptPos = pos;
  },
  delete: (slot) => {
    slot.exemptPos = -1;
  },
};

function inQueueOrder<T>(pairs: [number, T][]): T[] {
  return pairs.sort((a, b) => a[0] - b[0]).map((pair) => pair[1]);
}
