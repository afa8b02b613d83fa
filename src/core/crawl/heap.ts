/**
 * The frontier's min-heaps, ordered by (key, seq) so that equal keys come out in a fixed order and runs
 * are deterministic. Keys, seqs and items sit in three parallel arrays: no object per entry. Each node has
 * four children (entry i's are 4i + 1 … 4i + 4): half the depth of a binary heap, which counts because a
 * host leaves the top of the heap on every start. 100,000 hosts are 9 levels deep.
 *
 * - `IndexedMinHeap`: an item's key can be changed or the item removed in O(log n), through an index of
 *   each item's position. Equal keys come out in the order the items were (re)inserted, which gives
 *   round-robin among hosts that are ready at the same time. The frontier keeps its hosts in two.
 * - `SeqHeap`: push and pop with a seq the caller gives. The frontier keeps a host's retries in it.
 */

abstract class ArrayHeap<T> {
  protected keys: number[] = [];
  protected seqs: number[] = [];
  protected items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  /** The smallest key, or undefined when empty. */
  peekKey(): number | undefined {
    return this.keys[0];
  }

  /** The item with the smallest key, or undefined when empty. */
  peekItem(): T | undefined {
    return this.items[0];
  }

  /** Tells the index where an item now is (or, with -1, that it left). */
  protected abstract moved(item: T, pos: number): void;

  protected insert(key: number, seq: number, item: T): void {
    this.keys.push(key);
    this.seqs.push(seq);
    this.items.push(item);
    this.up(this.items.length - 1, key, seq, item);
  }

  /** Removes the entry at `pos` and returns its item. */
  protected removeAt(pos: number): T {
    const item = this.items[pos]!;
    const key = this.keys.pop()!;
    const seq = this.seqs.pop()!;
    const last = this.items.pop()!;
    this.moved(item, -1);
    if (pos < this.items.length) {
      // The last entry fills the hole and moves up or down from there.
      if (this.up(pos, key, seq, last) === pos) this.down(pos, key, seq, last);
    }
    return item;
  }

  /** Places (key, seq, item) at `i` or above it, and returns where. */
  protected up(i: number, key: number, seq: number, item: T): number {
    const { keys, seqs, items } = this;
    while (i > 0) {
      const p = (i - 1) >> 2;
      if (!(key < keys[p]! || (key === keys[p]! && seq < seqs[p]!))) break;
      this.put(i, keys[p]!, seqs[p]!, items[p]!);
      i = p;
    }
    this.put(i, key, seq, item);
    return i;
  }

  /** Places (key, seq, item) at `i` or below it. */
  protected down(i: number, key: number, seq: number, item: T): void {
    const { keys, seqs, items } = this;
    const n = items.length;
    for (;;) {
      const first = 4 * i + 1;
      if (first >= n) break;
      let c = first;
      const end = Math.min(first + 4, n);
      for (let j = first + 1; j < end; j++)
        if (keys[j]! < keys[c]! || (keys[j]! === keys[c]! && seqs[j]! < seqs[c]!)) c = j;
      if (!(keys[c]! < key || (keys[c]! === key && seqs[c]! < seq))) break;
      this.put(i, keys[c]!, seqs[c]!, items[c]!);
      i = c;
    }
    this.put(i, key, seq, item);
  }

  /** Rebuilds the heap order in O(n) after the arrays were filtered. */
  protected heapify(): void {
    for (let i = 0; i < this.items.length; i++) this.moved(this.items[i]!, i);
    for (let i = (this.items.length - 2) >> 2; i >= 0; i--) this.down(i, this.keys[i]!, this.seqs[i]!, this.items[i]!);
  }

  private put(i: number, key: number, seq: number, item: T): void {
    this.keys[i] = key;
    this.seqs[i] = seq;
    this.items[i] = item;
    this.moved(item, i);
  }
}

/**
 * Where an IndexedMinHeap finds an item's position: a Map by default, or a field of the item itself (no
 * hashing, no Map entry per item). A `Map<T, number>` is one.
 */
export interface HeapIndex<T> {
  get(item: T): number | undefined;
  set(item: T, pos: number): unknown;
  delete(item: T): unknown;
}

export class IndexedMinHeap<T> extends ArrayHeap<T> {
  private nextSeq = 0;

  constructor(private readonly index: HeapIndex<T> = new Map<T, number>()) {
    super();
  }

  has(item: T): boolean {
    return this.index.get(item) !== undefined;
  }

  keyOf(item: T): number | undefined {
    const pos = this.index.get(item);
    return pos === undefined ? undefined : this.keys[pos];
  }

  /** Inserts the item, or changes its key (keeping its place among equal keys). */
  set(item: T, key: number): void {
    const pos = this.index.get(item);
    if (pos === undefined) {
      this.insert(key, this.nextSeq++, item);
      return;
    }
    const old = this.keys[pos]!;
    if (key < old) this.up(pos, key, this.seqs[pos]!, item);
    else if (key > old) this.down(pos, key, this.seqs[pos]!, item);
  }

  /**
   * Inserts the item, or changes its key and puts it behind every item of equal key (as if re-inserted, in one
   * pass): round-robin among equals.
   */
  requeue(item: T, key: number): void {
    const pos = this.index.get(item);
    if (pos === undefined) {
      this.insert(key, this.nextSeq++, item);
      return;
    }
    const seq = this.nextSeq++;
    if (key < this.keys[pos]!) this.up(pos, key, seq, item);
    else this.down(pos, key, seq, item);
  }

  delete(item: T): boolean {
    const pos = this.index.get(item);
    if (pos === undefined) return false;
    this.removeAt(pos);
    return true;
  }

  peek(): { item: T; key: number } | undefined {
    return this.items.length === 0 ? undefined : { item: this.items[0]!, key: this.keys[0]! };
  }

  pop(): { item: T; key: number } | undefined {
    if (this.items.length === 0) return undefined;
    const key = this.keys[0]!;
    return { item: this.removeAt(0), key };
  }

  protected moved(item: T, pos: number): void {
    if (pos < 0) this.index.delete(item);
    else this.index.set(item, pos);
  }
}

export class SeqHeap<T> extends ArrayHeap<T> {
  /** The seq of the top entry, or undefined when empty. */
  peekSeq(): number | undefined {
    return this.seqs[0];
  }

  push(key: number, seq: number, item: T): void {
    this.insert(key, seq, item);
  }

  /** Removes the top entry and returns its item (read its key and seq first if they matter). */
  pop(): T | undefined {
    return this.items.length === 0 ? undefined : this.removeAt(0);
  }

  /** Every entry as [seq, item], in no particular order, and empties the heap. */
  drain(): [number, T][] {
    const out = this.items.map((item, i): [number, T] => [this.seqs[i]!, item]);
    this.keys = [];
    this.seqs = [];
    this.items = [];
    return out;
  }

  /** Removes the entries whose item matches and returns them as [seq, item]; O(n). */
  removeWhere(predicate: (item: T) => boolean): [number, T][] {
    const removed: [number, T][] = [];
    let kept = 0;
    for (let i = 0; i < this.items.length; i++) {
      const item = this.items[i]!;
      if (predicate(item)) {
        removed.push([this.seqs[i]!, item]);
        continue;
      }
      this.keys[kept] = this.keys[i]!;
      this.seqs[kept] = this.seqs[i]!;
      this.items[kept] = item;
      kept++;
    }
    if (removed.length === 0) return removed;
    this.keys.length = kept;
    this.seqs.length = kept;
    this.items.length = kept;
    this.heapify();
    return removed;
  }

  protected moved(): void {
    // No index: items are only pushed and popped.
  }
}
