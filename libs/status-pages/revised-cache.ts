import { REVISION_UNKNOWN, type Revision } from './page-revisions.js';

/** What a loader found (null: nothing) and the revision it read before it began. */
export interface Revised<T> {
  revision: Revision;
  value: T | null;
}

interface Entry<T> {
  at: number;
  loaded: Promise<Revised<T>>;
}

/** Entries kept at most; past either bound the least recently used go first. */
const CAPACITY = { found: 1000, absent: 10_000 };

/** What found values may hold in memory together, and what one holds. */
export interface ByteBudget<T> {
  maxBytes: number;
  sizeOf(value: T): number;
}

/** Entries by key, least recently used first: past `maxEntries` or `maxBytes`, those go. */
class LruMap<V> {
  private readonly held = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

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

/**
 * Public answers kept in memory while their revision is current, and for `maxAgeMs` at most (what
 * the revision does not cover, such as a website's state, refreshes that often). Visitors arriving
 * together share one load. "Not found" is kept apart, so a flood of made-up keys costs one
 * revision read each and does not push out the pages people read. Found values are bounded by
 * count and, given a `budget`, by the bytes they hold.
 */
export class RevisedCache<T> {
  private readonly found: LruMap<Entry<T>>;
  private readonly absent = new LruMap<Entry<T>>(CAPACITY.absent);

  constructor(
    private readonly maxAgeMs: number,
    private readonly budget?: ByteBudget<T>,
  ) {
    this.found = new LruMap(CAPACITY.found, budget?.maxBytes);
  }

  /**
   * The value under `key`: the cached one while `revisionOf` still gives the revision it was loaded
   * under (or Redis cannot tell), else a fresh `load`, told whether the revision moved since the
   * cached one (so it reads past any memory of its own, such as a lookup's "not found").
   */
  async get(
    key: string,
    revisionOf: (cached: T | null) => Promise<Revision>,
    load: (afterChange: boolean) => Promise<Revised<T>>,
  ): Promise<T | null> {
    const cached = this.found.get(key) ?? this.absent.get(key);
    let afterChange = false;
    if (cached && Date.now() - cached.at < this.maxAgeMs) {
      const { revision, value } = await cached.loaded;
      const current = await revisionOf(value);
      if (current === REVISION_UNKNOWN || current === revision) return value;
      // Another visitor may have started the reload meanwhile.
      const replaced = this.found.get(key) ?? this.absent.get(key);
      if (replaced && replaced !== cached) return (await replaced.loaded).value;
      afterChange = true;
    }
    return (await this.load(key, () => load(afterChange))).value;
  }

  private load(key: string, load: () => Promise<Revised<T>>): Promise<Revised<T>> {
    this.found.delete(key);
    this.absent.delete(key);
    const entry = { at: Date.now(), loaded: load() };
    // Loading among the absent: a flood of made-up keys in flight must not push out found pages.
    this.absent.set(key, entry);
    const forget = () => this.absent.get(key) === entry && this.absent.delete(key);
    entry.loaded.then(({ value }) => {
      if (value !== null && forget()) this.found.set(key, entry, this.budget?.sizeOf(value));
    }, forget);
    return entry.loaded;
  }
}
