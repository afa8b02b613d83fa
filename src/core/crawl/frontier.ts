/**
 * The Mercator back end (seed "Politeness and back queues"), keyed by the politeness unit
 * (docs/how-it-works.md#politeness-units): one FIFO back queue per host, and a min-heap of units keyed by the
 * time each may next start a request. A unit is one host (the default: `add` without a unit) or several
 * (hosts on one address or in one registered domain, `--politeness-by ip|domain`). Its members share its
 * politeness state: requests in flight, the last start and end, the pause, the live interval (HostRate) and the
 * token bucket; each member keeps its own queue, its own page budget (`setHostOpen`) and whether it is
 * dropped. A unit is in the heap only while it has work it may start (a startable item of a member that is not
 * dropped, a free slot); its key is the earliest time that is allowed by every rule at once:
 *
 *   readyAt = max( previous start + interval                 (any member's; both readings)
 *                , previous end   + interval                 (delayFrom 'end' only)
 *                , paused until                              (Retry-After, from any member)
 *                , token available at                        (optional token bucket)
 *                , earliest notBefore of a startable item )  (retry backoff; 0 or less counts as 0)
 *
 * where interval is the unit's live interval (one HostRate for the unit, every member's Crawl-delay merged into
 * it: the largest of its members' intervals). The unit with the earliest key goes first; among equal keys, the
 * one that has had startable work for longest. Within a unit of several hosts, the member whose earliest
 * startable item is earliest goes (an item with no time of its own counts as 0, and so does one whose time had
 * come when its host last started); among equal ones, the one that has had startable work, or last started,
 * longest ago (round-robin). It starts the first item of its queue, in FIFO order, whose notBefore has passed.
 *
 * The page budget: an item may start when `exempt(item) || mayStartNew()`. Each host keeps its exempt
 * items (retries, redirect continuations) apart from the rest (see backQueue.ts), and the frontier keeps
 * two heaps: the units keyed as if the budget were open, and the units keyed by their exempt items only (a
 * unit of several hosts ranks its members the same two ways). `takeReady` and `nextReadyAt` read the budget
 * and use one heap or the other, so the budget opening or closing re-keys nothing. A host's own page budget
 * (`setHostOpen`) closes only that host to new work: it then starts its exempt items only, and is re-keyed alone.
 *
 * Costs for H hosts in U units: enqueue, takeReady, pause and refresh are O(log H) (O(log U) for the unit and
 * O(log m) among a unit's m members), plus O(1) amortized in the host's own queue (O(log r) for r retries
 * waiting on their notBefore); end is O(1); drop is O(n log n) in the host's queue and removeWhere O(n log n)
 * in the frontier. The test in test/unit/crawl-frontier-model.test.ts holds all this against a plain O(n)
 * model of the same rules. The frontier does no I/O and reads no clock: the caller passes `now` in.
 */
import type { DelayFrom } from '../politeness/interval';
import type { HostRate } from '../politeness/hostRate';
import type { TokenBucket } from '../politeness/tokenBucket';
import { BackQueue, type FrontierItem } from './backQueue';
import { IndexedMinHeap, type HeapIndex } from './heap';

export type { FrontierItem } from './backQueue';

/** A politeness unit as the frontier's callers see it: one host, or several kept as one. */
export interface UnitSlot {
  readonly name: string;
  /** The member hosts, in the order they joined (a new list each time: read `size` for how many). */
  readonly hosts: readonly string[];
  readonly size: number;
  readonly inFlight: number;
  readonly lastStartAt: number | undefined;
  readonly lastEndAt: number | undefined;
  readonly pausedUntil: number;
  /** The unit's live interval: every member's Crawl-delay, throttles, learned limit and latency. */
  readonly rate: HostRate;
  readonly bucket: TokenBucket | undefined;
}

/** A host as the frontier's callers see it; T names the items its queue holds. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- T ties a slot to its frontier's item type at call sites
export interface HostSlot<T extends FrontierItem> {
  readonly name: string;
  /** The host's politeness unit (itself alone by default). */
  readonly unit: UnitSlot;
  /** Items waiting in this host's back queue (not in flight). */
  readonly queued: number;
  /** The unit's: requests in flight, last start and end, pause, rate and bucket. */
  readonly inFlight: number;
  readonly lastStartAt: number | undefined;
  readonly lastEndAt: number | undefined;
  readonly pausedUntil: number;
  readonly rate: HostRate;
  readonly bucket: TokenBucket | undefined;
  readonly dropped: boolean;
  /** The largest Crawl-delay the host itself declared or was known to have (its unit's rate holds the largest of all). */
  crawlDelaySeconds: number | undefined;
}

export interface FrontierOptions<T extends FrontierItem> {
  delayFrom: DelayFrom;
  /** Requests in flight per politeness unit (a host, by default). */
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

class Unit<T extends FrontierItem> implements UnitSlot {
  inFlight = 0;
  lastStartAt: number | undefined = undefined;
  lastEndAt: number | undefined = undefined;
  pausedUntil = Number.NEGATIVE_INFINITY;
  /** The unit's positions in the frontier's two heaps, -1 while it is not in one. */
  openPos = -1;
  exemptPos = -1;
  /** The first member, and the others (none for a unit of one: no list per host). */
  first!: Slot<T>;
  more: Slot<T>[] | undefined = undefined;
  /** With two or more members: the members ranked by their own earliest startable item, per budget reading. */
  rankOpen: IndexedMinHeap<Slot<T>> | undefined = undefined;
  rankExempt: IndexedMinHeap<Slot<T>> | undefined = undefined;

  constructor(
    readonly name: string,
    readonly rate: HostRate,
    readonly bucket: TokenBucket | undefined,
  ) {}

  get hosts(): readonly string[] {
    return [this.first.name, ...(this.more ?? []).map((m) => m.name)];
  }

  get size(): number {
    return 1 + (this.more?.length ?? 0);
  }
}

class Slot<T extends FrontierItem> implements HostSlot<T> {
  dropped = false;
  /** The host's own page budget holds its new work back (Frontier.setHostOpen). */
  closed = false;
  crawlDelaySeconds: number | undefined = undefined;
  /** Items the page budget holds back, and exempt ones; created with their first item. */
  normal: BackQueue<T> | undefined = undefined;
  exempt: BackQueue<T> | undefined = undefined;
  /** The slot's positions in its unit's two rankings, -1 while it is not in one. */
  openPos = -1;
  exemptPos = -1;

  constructor(
    readonly name: string,
    readonly unit: Unit<T>,
  ) {}

  get queued(): number {
    return (this.normal?.size ?? 0) + (this.exempt?.size ?? 0);
  }
  get inFlight(): number {
    return this.unit.inFlight;
  }
  get lastStartAt(): number | undefined {
    return this.unit.lastStartAt;
  }
  get lastEndAt(): number | undefined {
    return this.unit.lastEndAt;
  }
  get pausedUntil(): number {
    return this.unit.pausedUntil;
  }
  get rate(): HostRate {
    return this.unit.rate;
  }
  get bucket(): TokenBucket | undefined {
    return this.unit.bucket;
  }
}

export class Frontier<T extends FrontierItem> {
  private readonly slots = new Map<string, Slot<T>>();
  /** The units named otherwise than their first host (a unit of one is found through its host). */
  private readonly unitsByName = new Map<string, Unit<T>>();
  /** Units with startable work while the budget is open, keyed by readyAt with every item. */
  private readonly heapOpen = new IndexedMinHeap<Unit<T>>(UNIT_OPEN_INDEX);
  /** Units with startable exempt work, keyed by readyAt with their exempt items only. */
  private readonly heapExempt = new IndexedMinHeap<Unit<T>>(UNIT_EXEMPT_INDEX);
  private queuedCount = 0;
  /** FIFO order within a host: back items count up from 1, front items down from -1. */
  private backSeq = 0;
  private frontSeq = 0;

  constructor(private readonly options: FrontierOptions<T>) {}

  get(name: string): HostSlot<T> | undefined {
    return this.slots.get(name);
  }

  /** A unit by its name, once a host has joined it. */
  unit(name: string): UnitSlot | undefined {
    return this.unitNamed(name);
  }

  private unitNamed(name: string): Unit<T> | undefined {
    const own = this.slots.get(name)?.unit;
    return own !== undefined && own.name === name ? own : this.unitsByName.get(name);
  }

  /**
   * Adds a host to the unit named `unit` (by default its own name). The first host of a unit makes it with
   * `rate` and `bucket`; a host that joins an existing unit shares the unit's own (`rate` and `bucket` are
   * then not used: pass the unit's).
   */
  add(name: string, rate: HostRate, bucket?: TokenBucket, unit: string = name): HostSlot<T> {
    const existing = this.slots.get(name);
    if (existing) return existing;
    let u = this.unitNamed(unit);
    let slot: Slot<T>;
    if (u === undefined) {
      u = new Unit<T>(unit, rate, bucket);
      if (unit !== name) this.unitsByName.set(unit, u);
      u.first = slot = new Slot<T>(name, u);
    } else {
      slot = new Slot<T>(name, u);
      if (u.more === undefined) {
        u.more = [];
        u.rankOpen = new IndexedMinHeap<Slot<T>>(HOST_OPEN_INDEX);
        u.rankExempt = new IndexedMinHeap<Slot<T>>(HOST_EXEMPT_INDEX);
        this.rank(u.first);
      }
      u.more.push(slot);
    }
    this.slots.set(name, slot);
    return slot;
  }

  hosts(): IterableIterator<HostSlot<T>> {
    return this.slots.values();
  }

  /** Every unit, once, in the order its first host was added. */
  *units(): IterableIterator<UnitSlot> {
    for (const slot of this.slots.values()) if (slot.unit.first === slot) yield slot.unit;
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
    const base = this.base(slot.unit);
    if (base === undefined) return undefined;
    const earliest = this.options.mayStartNew() ? earliestOpen(slot) : earliestExempt(slot);
    return earliest === undefined ? undefined : Math.max(base, earliest);
  }

  /** Opens or closes the host to new (not exempt) work: its own page budget. */
  setHostOpen(host: HostSlot<T>, open: boolean): void {
    const slot = this.own(host);
    if (slot.closed === !open) return;
    slot.closed = !open;
    this.refresh(slot);
  }

  /** Re-keys one host and its unit after anything about it changed (its rate, an end, a pause). */
  refresh(host: HostSlot<T>): void {
    const slot = this.own(host);
    if (slot.unit.rankOpen !== undefined) this.rank(slot);
    this.rekey(slot.unit);
  }

  /** Re-keys every host (after something changed for all of them). The page budget needs no re-keying. */
  refreshAll(): void {
    for (const slot of this.slots.values()) this.refresh(slot);
  }

  /** The earliest ready time over all units, or undefined when no unit has startable work. */
  nextReadyAt(): number | undefined {
    return this.heap().peekKey();
  }

  /**
   * Takes the unit at the top of the heap if it is ready at `now`, its member that goes next, the first item
   * of that host's queue that may start now (FIFO among those), and records the start on the unit. Returns
   * undefined when nothing is ready.
   */
  takeReady(now: number): { slot: HostSlot<T>; item: T; previousStartAt: number | undefined } | undefined {
    const open = this.options.mayStartNew();
    const heap = open ? this.heapOpen : this.heapExempt;
    for (;;) {
      const unit = heap.peekItem();
      if (unit === undefined || heap.peekKey()! > now) return undefined;
      // The key is O(1) to check: a unit whose state changed without a refresh never starts early.
      const base = this.base(unit);
      const at = base === undefined ? undefined : open ? this.readyAtOpen(unit, base) : this.readyAtExempt(unit, base);
      if (at === undefined || at > now) {
        this.rekey(unit);
        continue;
      }
      const ranked = open ? unit.rankOpen : unit.rankExempt;
      const slot = ranked === undefined ? unit.first : ranked.peekItem()!;
      const exemptSeq = slot.exempt?.firstSeqAt(now);
      const normalSeq = open && !slot.closed ? slot.normal?.firstSeqAt(now) : undefined;
      let item: T;
      if (normalSeq !== undefined && (exemptSeq === undefined || normalSeq < exemptSeq))
        item = slot.normal!.shift(normalSeq);
      else if (exemptSeq !== undefined) item = slot.exempt!.shift(exemptSeq);
      else throw new Error(`frontier: host ${slot.name} was ready at ${at} with nothing to start at ${now}`);
      this.queuedCount--;
      const previousStartAt = unit.lastStartAt;
      unit.inFlight++;
      unit.lastStartAt = now;
      unit.bucket?.take(now);
      // Round-robin among the unit's members: the one that started goes behind the others of its rank.
      if (ranked !== undefined) this.rank(slot, true);
      this.rekey(unit);
      return { slot, item, previousStartAt };
    }
  }

  /**
   * A request of this host ended at `now`. `sentAt`, when the fetcher reports it, is when the request
   * actually went onto the connection: a later start than the one recorded, so the next start-to-start
   * interval is measured from it. Call `refresh` once the host's rate has been updated.
   */
  end(host: HostSlot<T>, now: number, sentAt?: number): void {
    const unit = this.own(host).unit;
    if (sentAt !== undefined && unit.lastStartAt !== undefined && sentAt > unit.lastStartAt && sentAt <= now)
      unit.lastStartAt = sentAt;
    unit.inFlight = Math.max(0, unit.inFlight - 1);
    unit.lastEndAt = unit.lastEndAt === undefined ? now : Math.max(unit.lastEndAt, now);
  }

  /** Excludes the host's unit until `until` (Retry-After: every member of the unit waits). Pauses only ever extend. */
  pause(host: HostSlot<T>, until: number): void {
    const unit = this.own(host).unit;
    unit.pausedUntil = Math.max(unit.pausedUntil, until);
    this.rekey(unit);
  }

  /** Takes the host out of the run and returns what was left in its queue, in queue order (its unit goes on). */
  drop(host: HostSlot<T>): T[] {
    const slot = this.own(host);
    slot.dropped = true;
    const left = inQueueOrder([...(slot.normal?.drain() ?? []), ...(slot.exempt?.drain() ?? [])]);
    slot.normal = undefined;
    slot.exempt = undefined;
    this.queuedCount -= left.length;
    this.refresh(slot);
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

  private heap(): IndexedMinHeap<Unit<T>> {
    return this.options.mayStartNew() ? this.heapOpen : this.heapExempt;
  }

  /**
   * Puts a member of a unit of several hosts in its unit's rankings (or takes it out); `behind`: behind the
   * others of its rank, as a host that just started.
   */
  private rank(slot: Slot<T>, behind = false): void {
    const unit = slot.unit;
    const open = earliestOpen(slot);
    if (open === undefined) unit.rankOpen!.delete(slot);
    else if (behind) unit.rankOpen!.requeue(slot, open);
    else unit.rankOpen!.set(slot, open);
    const exempt = earliestExempt(slot);
    if (exempt === undefined) unit.rankExempt!.delete(slot);
    else if (behind) unit.rankExempt!.requeue(slot, exempt);
    else unit.rankExempt!.set(slot, exempt);
  }

  /** Re-keys a unit in the frontier's two heaps. */
  private rekey(unit: Unit<T>): void {
    const base = this.base(unit);
    const open = base === undefined ? undefined : this.readyAtOpen(unit, base);
    if (open === undefined) this.heapOpen.delete(unit);
    else this.heapOpen.set(unit, open);
    const exempt = base === undefined ? undefined : this.readyAtExempt(unit, base);
    if (exempt === undefined) this.heapExempt.delete(unit);
    else this.heapExempt.set(unit, exempt);
  }

  /** max of every rule but the items' own notBefore; undefined when the unit may not start anything. */
  private base(unit: Unit<T>): number | undefined {
    if (unit.inFlight >= this.options.perHostConcurrency) return undefined;
    const interval = intervalMs(unit.rate.intervalSeconds);
    let base = unit.pausedUntil;
    if (unit.lastStartAt !== undefined) base = Math.max(base, unit.lastStartAt + interval);
    if (this.options.delayFrom === 'end' && unit.lastEndAt !== undefined)
      base = Math.max(base, unit.lastEndAt + interval);
    if (unit.bucket) base = Math.max(base, unit.bucket.nextTokenAt());
    return base;
  }

  private readyAtOpen(unit: Unit<T>, base: number): number | undefined {
    const earliest = unit.rankOpen === undefined ? earliestOpen(unit.first) : unit.rankOpen.peekKey();
    return earliest === undefined ? undefined : Math.max(base, earliest);
  }

  private readyAtExempt(unit: Unit<T>, base: number): number | undefined {
    const earliest = unit.rankExempt === undefined ? earliestExempt(unit.first) : unit.rankExempt.peekKey();
    return earliest === undefined ? undefined : Math.max(base, earliest);
  }

  /** The frontier's own slot behind a HostSlot it handed out (only `add` makes them). */
  private own(host: HostSlot<T>): Slot<T> {
    return host as Slot<T>;
  }
}

/** A host's earliest startable item with the budget open (0 for one with no time of its own), or undefined. */
function earliestOpen<T extends FrontierItem>(slot: Slot<T>): number | undefined {
  if (slot.dropped) return undefined;
  const normal = slot.closed ? undefined : slot.normal?.earliest();
  const exempt = slot.exempt?.earliest();
  if (normal === undefined && exempt === undefined) return undefined;
  return Math.min(normal ?? Infinity, exempt ?? Infinity);
}

/** A host's earliest startable exempt item, or undefined. */
function earliestExempt<T extends FrontierItem>(slot: Slot<T>): number | undefined {
  return slot.dropped ? undefined : slot.exempt?.earliest();
}

/**
 * The heaps' indexes, each kept in a field of the unit (the frontier's heaps) or of the host (its unit's
 * rankings): one object each, with plain property reads (hot).
 */
type Positions = { openPos: number; exemptPos: number };
// One literal per heap and object shape (a unit in the frontier's heaps, a host in its unit's rankings): each
// property read then sees one shape only and stays monomorphic (hot).
const UNIT_OPEN_INDEX: HeapIndex<Positions> = {
  get: (x) => (x.openPos < 0 ? undefined : x.openPos),
  set: (x, pos) => {
    x.openPos = pos;
  },
  delete: (x) => {
    x.openPos = -1;
  },
};
const UNIT_EXEMPT_INDEX: HeapIndex<Positions> = {
  get: (x) => (x.exemptPos < 0 ? undefined : x.exemptPos),
  set: (x, pos) => {
    x.exemptPos = pos;
  },
  delete: (x) => {
    x.exemptPos = -1;
  },
};
const HOST_OPEN_INDEX: HeapIndex<Positions> = {
  get: (x) => (x.openPos < 0 ? undefined : x.openPos),
  set: (x, pos) => {
    x.openPos = pos;
  },
  delete: (x) => {
    x.openPos = -1;
  },
};
const HOST_EXEMPT_INDEX: HeapIndex<Positions> = {
  get: (x) => (x.exemptPos < 0 ? undefined : x.exemptPos),
  set: (x, pos) => {
    x.exemptPos = pos;
  },
  delete: (x) => {
    x.exemptPos = -1;
  },
};

function inQueueOrder<T>(pairs: [number, T][]): T[] {
  return pairs.sort((a, b) => a[0] - b[0]).map((pair) => pair[1]);
}
