/**
 * A binary min-heap of items keyed by a number, with an index so that an item's key can be changed or
 * the item removed in O(log n). Equal keys come out in the order the items were (re)inserted, which
 * gives round-robin among hosts that are ready at the same time and keeps runs deterministic.
 */

interface Entry<T> {
  item: T;
  key: number;
  seq: number;
}

export class IndexedMinHeap<T> {
  private readonly entries: Entry<T>[] = [];
  private readonly index = new Map<T, number>();
  private seq = 0;

  get size(): number {
    return this.entries.length;
  }

  has(item: T): boolean {
    return this.index.has(item);
  }

  keyOf(item: T): number | undefined {
    const i = this.index.get(item);
    return i === undefined ? undefined : this.entries[i]!.key;
  }

  /** Inserts the item, or changes its key (keeping its place among equal keys). */
  set(item: T, key: number): void {
    const i = this.index.get(item);
    if (i === undefined) {
      this.entries.push({ item, key, seq: this.seq++ });
      this.index.set(item, this.entries.length - 1);
      this.up(this.entries.length - 1);
      return;
    }
    const entry = this.entries[i]!;
    const old = entry.key;
    entry.key = key;
    if (key < old) this.up(i);
    else if (key > old) this.down(i);
  }

  delete(item: T): boolean {
    const i = this.index.get(item);
    if (i === undefined) return false;
    this.removeAt(i);
    return true;
  }

  peek(): { item: T; key: number } | undefined {
    const top = this.entries[0];
    return top && { item: top.item, key: top.key };
  }

  pop(): { item: T; key: number } | undefined {
    const top = this.entries[0];
    if (!top) return undefined;
    this.removeAt(0);
    return { item: top.item, key: top.key };
  }

  private removeAt(i: number): void {
    const removed = this.entries[i]!;
    this.index.delete(removed.item);
    const last = this.entries.pop()!;
    if (i === this.entries.length) return; // the removed entry was the last one
    this.entries[i] = last;
    this.index.set(last.item, i);
    this.up(i);
    this.down(this.index.get(last.item)!);
  }

  private less(a: Entry<T>, b: Entry<T>): boolean {
    return a.key < b.key || (a.key === b.key && a.seq < b.seq);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.entries[i]!, this.entries[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.entries.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < n && this.less(this.entries[l]!, this.entries[smallest]!)) smallest = l;
      if (r < n && this.less(this.entries[r]!, this.entries[smallest]!)) smallest = r;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  private swap(a: number, b: number): void {
    const ea = this.entries[a]!;
    const eb = this.entries[b]!;
    this.entries[a] = eb;
    this.entries[b] = ea;
    this.index.set(eb.item, a);
    this.index.set(ea.item, b);
  }
}
