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

/** Entries kept at most; the oldest go first. */
const CAPACITY = { found: 1000, absent: 10_000 };

/** A map that forgets its oldest entry when full. */
class BoundedMap<V> extends Map<string, V> {
  constructor(private readonly capacity: number) {
    super();
  }

  override set(key: string, value: V): this {
    this.delete(key);
    if (this.size >= this.capacity) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}

/**
 * Public answers kept in memory while their revision is current, and for `maxAgeMs` at most (what
 * the revision does not cover, such as a website's state, refreshes that often). Visitors arriving
 * together share one load. "Not found" is kept apart, so a flood of made-up keys costs one
 * revision read each and does not push out the pages people read.
 */
export class RevisedCache<T> {
  private readonly found = new BoundedMap<Entry<T>>(CAPACITY.found);
  private readonly absent = new BoundedMap<Entry<T>>(CAPACITY.absent);

  constructor(private readonly maxAgeMs: number) {}

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
      if (value !== null && forget()) this.found.set(key, entry);
    }, forget);
    return entry.loaded;
  }
}
