/** Entries by key, least recently used first: past `maxEntries` or `maxBytes`, those go. */
export class LruMap<V> {
  private readonly held = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** The value without counting it as read. */
  peek(key: string): V | undefined {
    return this.held.get(key)?.value;
  }

  get(key: string): V | undefined {
    const found = this.held.get(key);
    if (!found) return undefined;
    this.held.delete(key);
    this.held.set(key, found);
    return found.value;
  }

  set(key: string, value: V, bytes = 0): void {
    this.delete(key);
    this.held.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, { bytes: oldestBytes }] of this.held) {
      if (this.held.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.held.delete(oldest);
      this.bytes -= oldestBytes;
    }
  }

  delete(key: string): boolean {
    const found = this.held.get(key);
    if (!found) return false;
    this.held.delete(key);
    this.bytes -= found.bytes;
    return true;
  }
}
