/**
 * One host's back queue for one class of items (the frontier keeps two per host: items the page budget
 * holds back, and exempt ones). Every item carries a sequence number that places it in the host's FIFO
 * order: an item queued at the back gets a higher one than every item before it, an item queued at the
 * front a lower one. The item that starts is the first in that order whose `notBefore` has passed.
 *
 * Items are kept in three places so that every operation is O(1), or O(log n) for retries:
 *
 * - `fresh`: items with no time of their own (`notBefore` ≤ 0), a ring buffer in FIFO order;
 * - `waiting`: items with a `notBefore` still to come, a heap by `notBefore`;
 * - `due`: waiting items whose `notBefore` has passed, a heap by sequence number. Items move here only
 *   when the host starts a request at a time `now` ≥ their `notBefore`; that start makes `now` the host's
 *   last start, and the host never starts again before its last start, so from then on a due item may
 *   start whenever the host may (even if the caller's clock stepped back).
 *
 * A fresh item costs two slots of the ring buffer (its sequence number and itself), a retry three array
 * slots: no object per item.
 */
import { SeqHeap } from './heap';

export interface FrontierItem {
  /**
   * Not before this time (epoch ms); 0 or less for "whenever the host is ready". Read when the item is
   * queued: changing it while the item waits has no effect.
   */
  notBefore: number;
}

/** The ring's capacity in items when it first holds one; it grows by half as it fills. */
const MIN_CAPACITY = 4;

export class BackQueue<T extends FrontierItem> {
  /**
   * The fresh items in FIFO order: a ring buffer of (seq, item) pairs at 2k and 2k + 1, `fresh` of them
   * from pair `head` on, wrapping at `capacity` pairs.
   */
  private ring: unknown[] = [];
  private head = 0;
  private fresh = 0;
  private waiting: SeqHeap<T> | undefined = undefined;
  private due: SeqHeap<T> | undefined = undefined;

  /** The ring's size in pairs. */
  private get capacity(): number {
    return this.ring.length >> 1;
  }

  get size(): number {
    return this.fresh + (this.waiting?.size ?? 0) + (this.due?.size ?? 0);
  }

  push(item: T, seq: number, where: 'front' | 'back'): void {
    if (item.notBefore > 0) (this.waiting ??= new SeqHeap<T>()).push(item.notBefore, seq, item);
    else this.pushFresh(item, seq, where);
  }

  private pushFresh(item: T, seq: number, where: 'front' | 'back'): void {
    if (this.fresh === this.capacity) this.resize(Math.max(MIN_CAPACITY, this.capacity + (this.capacity >> 1)));
    let at: number;
    if (where === 'front') {
      this.head = this.head === 0 ? this.capacity - 1 : this.head - 1;
      at = this.head;
    } else {
      at = this.head + this.fresh;
      if (at >= this.capacity) at -= this.capacity;
    }
    this.ring[2 * at] = seq;
    this.ring[2 * at + 1] = item;
    this.fresh++;
  }

  /**
   * The earliest `notBefore` over the queue, where a fresh or due item counts as 0 (it is startable
   * whenever the host is); undefined when the queue is empty.
   */
  earliest(): number | undefined {
    if (this.fresh > 0 || (this.due !== undefined && this.due.size > 0)) return 0;
    return this.waiting?.peekKey();
  }

  /**
   * The sequence number of the first item that may start at `now`, or undefined when none may. Moves the
   * waiting items whose time has come to `due` first, so call it only when the host starts a request at
   * `now` (from this queue or another of the host's).
   */
  firstSeqAt(now: number): number | undefined {
    const waiting = this.waiting;
    if (waiting !== undefined) {
      while (waiting.size > 0 && waiting.peekKey()! <= now) {
        const seq = waiting.peekSeq()!;
        const item = waiting.pop()!;
        (this.due ??= new SeqHeap<T>()).push(seq, seq, item);
      }
    }
    const dueSeq = this.due?.peekSeq();
    if (this.fresh === 0) return dueSeq;
    const freshSeq = this.ring[2 * this.head] as number;
    return dueSeq !== undefined && dueSeq < freshSeq ? dueSeq : freshSeq;
  }

  /** Removes and returns the item `firstSeqAt` named. */
  shift(seq: number): T {
    if (this.fresh === 0 || this.ring[2 * this.head] !== seq) return this.due!.pop()!;
    const at = 2 * this.head;
    const item = this.ring[at + 1] as T;
    this.ring[at] = undefined;
    this.ring[at + 1] = undefined;
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
    this.fresh--;
    // Give memory back as a drained queue shrinks (amortized O(1): at a quarter full it halves).
    if (this.capacity > MIN_CAPACITY && this.fresh <= this.capacity >> 2) this.resize(this.capacity >> 1);
    return item;
  }

  /** Empties the queue and returns every item as [seq, item], in no particular order. */
  drain(): [number, T][] {
    const out = this.freshPairs();
    this.resetFresh([]);
    for (const heap of [this.waiting, this.due]) if (heap) for (const pair of heap.drain()) out.push(pair);
    return out;
  }

  /** Removes the items that match and returns them as [seq, item], in no particular order. */
  removeWhere(predicate: (item: T) => boolean): [number, T][] {
    const kept: [number, T][] = [];
    const removed: [number, T][] = [];
    for (const pair of this.freshPairs()) (predicate(pair[1]) ? removed : kept).push(pair);
    if (removed.length > 0) this.resetFresh(kept);
    for (const heap of [this.waiting, this.due])
      if (heap) for (const pair of heap.removeWhere(predicate)) removed.push(pair);
    return removed;
  }

  /** The fresh items in FIFO order, as [seq, item]. */
  private freshPairs(): [number, T][] {
    const out: [number, T][] = [];
    for (let k = 0, at = this.head; k < this.fresh; k++, at = at + 1 === this.capacity ? 0 : at + 1) {
      out.push([this.ring[2 * at] as number, this.ring[2 * at + 1] as T]);
    }
    return out;
  }

  private resetFresh(pairs: [number, T][]): void {
    this.ring = [];
    this.head = 0;
    this.fresh = 0;
    for (const [seq, item] of pairs) this.pushFresh(item, seq, 'back');
  }

  /** Moves the fresh items to a ring of `capacity` pairs, starting at pair 0. */
  private resize(capacity: number): void {
    const next = new Array<unknown>(2 * capacity);
    for (let k = 0, at = this.head; k < this.fresh; k++, at = at + 1 === this.capacity ? 0 : at + 1) {
      next[2 * k] = this.ring[2 * at];
      next[2 * k + 1] = this.ring[2 * at + 1];
    }
    this.ring = next;
    this.head = 0;
  }
}
