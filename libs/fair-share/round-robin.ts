/**
 * Waiting items served in turn across keys (organizations): each key's items in their order, one
 * key after another, so a key with a hundred items waiting holds a key with one back by one turn
 * at most. Pure: no timers, no I/O.
 */
export class RoundRobinQueue<K, T> {
  private readonly waiting = new Map<K, T[]>();
  /** Keys with items, in the order they are served next. */
  private readonly turns: K[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  sizeOf(key: K): number {
    return this.waiting.get(key)?.length ?? 0;
  }

  push(key: K, item: T): void {
    const items = this.waiting.get(key);
    if (items) items.push(item);
    else {
      this.waiting.set(key, [item]);
      this.turns.push(key);
    }
    this.count++;
  }

  /** The next item: the first of the key whose turn it is; that key goes last (if it has more). */
  shift(): T | undefined {
    const key = this.turns.shift();
    if (key === undefined) return undefined;
    const items = this.waiting.get(key) as T[];
    const item = items.shift() as T;
    if (items.length > 0) this.turns.push(key);
    else this.waiting.delete(key);
    this.count--;
    return item;
  }
}
