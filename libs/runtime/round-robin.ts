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

  /**
   * The next item: the first of the first key in turn that `may` take one (every key when not
   * given); that key goes last (if it has more), the keys passed over keep their place.
   */
  shift(may: (key: K) => boolean = () => true): T | undefined {
    const turn = this.turns.findIndex(may);
    if (turn < 0) return undefined;
    const [key] = this.turns.splice(turn, 1) as [K];
    const items = this.waiting.get(key) as T[];
    const item = items.shift() as T;
    if (items.length > 0) this.turns.push(key);
    else this.waiting.delete(key);
    this.count--;
    return item;
  }
}
