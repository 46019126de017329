import { LRUCache } from 'lru-cache';
import { growingUpTo } from '../runtime/index.js';
import { REVISION_UNKNOWN, type Revision } from './page-revisions.js';

/** What a loader found (null: nothing) and the revision it read before it began. */
export interface Revised<T> {
  revision: Revision;
  value: T | null;
  /** When the value was made, if before this load (one another process built): its age counts from then. */
  madeAt?: number;
}

/** Why a loader is called: after the revision moved, and whether a visitor waits for it. */
export interface LoadReason {
  afterChange: boolean;
  /** A refresh of a value still served meanwhile: it may decline (throw) when another does it. */
  background: boolean;
}

interface Entry<T> {
  at: number;
  loaded: Promise<Revised<T>>;
  /** A background refresh is under way, or none before this time (the last one failed). */
  refresh?: { running: boolean; notBefore: number };
}

/** Where a value's age counts from: when it was made, if before its load began (another process built it). */
const ageFrom = (revised: { madeAt?: number }, loadedAt: number) =>
  Math.min(revised.madeAt ?? loadedAt, loadedAt);

/** A refresh that failed (or declined) is tried again by a request this much later. */
const REFRESH_RETRY_MS = 1000;

/** How long a value is served without reading it anew, and how long after that while it is. */
export interface Freshness {
  maxAgeMs: number;
  /**
   * Past `maxAgeMs`, a value whose revision still holds is served this much longer while one
   * refresh runs in the background, so no visitor waits for a periodic rebuild (0: never).
   */
  staleWhileRefreshMs?: number;
}

/** Entries kept at most; past either bound the least recently used go first. */
const CAPACITY = { found: 1000, absent: 10_000 };

/** What found values may hold in memory together, and what one holds. */
export interface ByteBudget<T> {
  maxBytes: number;
  sizeOf(value: T): number;
}

/**
 * Public answers kept in memory while their revision is current, and for `maxAgeMs` at most (what
 * the revision does not cover, such as a website's state, refreshes that often). Visitors arriving
 * together share one load. "Not found" is kept apart, so a flood of made-up keys costs one
 * revision read each and does not push out the pages people read. Found values are bounded by
 * count and, given a `budget`, by the bytes they hold.
 *
 * lru-cache keeps the entries and their bounds; when one is served stays here, as lru-cache's
 * `ttl`/`allowStale`/`fetchMethod` cannot say it: fresh only while its revision holds (read on every
 * request), stale at most `staleWhileRefreshMs` and never after the revision moved, a failed refresh
 * tried again only a second later, and a visitor who read a change never answered a refresh begun
 * before it.
 */
export class RevisedCache<T> {
  private readonly found: LRUCache<string, Entry<T>>;
  private readonly absent = new LRUCache<string, Entry<T>>(growingUpTo(CAPACITY.absent));
  private readonly maxAgeMs: number;
  private readonly staleMs: number;

  constructor(
    freshness: number | Freshness,
    private readonly budget?: ByteBudget<T>,
  ) {
    const { maxAgeMs, staleWhileRefreshMs = 0 } =
      typeof freshness === 'number' ? { maxAgeMs: freshness } : freshness;
    this.maxAgeMs = maxAgeMs;
    this.staleMs = staleWhileRefreshMs;
    this.found = new LRUCache({ max: CAPACITY.found, maxSize: budget?.maxBytes });
  }

  /**
   * The value under `key`: the cached one while `revisionOf` still gives the revision it was loaded
   * under (or Redis cannot tell), else a fresh `load`, told whether the revision moved since the
   * cached one (so it reads past any memory of its own, such as a lookup's "not found"). A found
   * value past its age but within `staleWhileRefreshMs` is answered while a refresh runs.
   */
  async get(
    key: string,
    revisionOf: (cached: T | null) => Promise<Revision>,
    load: (reason: LoadReason) => Promise<Revised<T>>,
  ): Promise<T | null> {
    const cached = this.found.get(key) ?? this.absent.get(key);
    let afterChange = false;
    const age = cached ? Date.now() - cached.at : Number.POSITIVE_INFINITY;
    if (cached && age < this.maxAgeMs + this.staleMs) {
      const { revision, value } = await cached.loaded;
      const current = await revisionOf(value);
      const holds = current === REVISION_UNKNOWN || current === revision;
      if (holds && age < this.maxAgeMs) return value;
      if (holds && value !== null) {
        this.refresh(key, cached, load);
        return value;
      }
      if (!holds) {
        // Another visitor may have started the reload meanwhile: taken only if loaded under the
        // revision read here (a background refresh that began before the change was not).
        const replaced = this.found.get(key) ?? this.absent.get(key);
        if (replaced && replaced !== cached) {
          const reloaded = await replaced.loaded;
          if (reloaded.revision === current) return reloaded.value;
        }
        afterChange = true;
      }
    }
    return (await this.load(key, () => load({ afterChange, background: false }))).value;
  }

  private load(key: string, load: () => Promise<Revised<T>>): Promise<Revised<T>> {
    this.found.delete(key);
    this.absent.delete(key);
    const loadedAt = Date.now();
    const loaded = load();
    const entry: Entry<T> = { at: loadedAt, loaded };
    // Loading among the absent: a flood of made-up keys in flight must not push out found pages.
    this.absent.set(key, entry);
    const forget = () => this.absent.get(key) === entry && this.absent.delete(key);
    loaded.then((revised) => {
      entry.at = ageFrom(revised, loadedAt);
      if (revised.value !== null && forget()) this.keepFound(key, entry, revised.value);
    }, forget);
    return loaded;
  }

  /** Past the byte budget the least recently read go; one larger than all of it is not kept. */
  private keepFound(key: string, entry: Entry<T>, value: T): void {
    // lru-cache takes no size of 0.
    this.found.set(key, entry, this.budget && { size: Math.max(1, this.budget.sizeOf(value)) });
  }

  /** One background load of a value served meanwhile; it replaces the value when it is found. */
  private refresh(key: string, cached: Entry<T>, load: (reason: LoadReason) => Promise<Revised<T>>) {
    const now = Date.now();
    if (cached.refresh && (cached.refresh.running || now < cached.refresh.notBefore)) return;
    // Replaced meanwhile (another visitor saw a change): nothing of this entry to refresh.
    if (this.found.peek(key) !== cached) return;
    cached.refresh = { running: true, notBefore: now };
    load({ afterChange: false, background: true }).then(
      (revised) => {
        if (this.found.peek(key) !== cached) return;
        const fresh: Entry<T> = { at: ageFrom(revised, now), loaded: Promise.resolve(revised) };
        if (revised.value === null) this.found.delete(key);
        else this.keepFound(key, fresh, revised.value);
      },
      () => {
        cached.refresh = { running: false, notBefore: Date.now() + REFRESH_RETRY_MS };
      },
    );
  }
}
