import { LRUCache } from 'lru-cache';
import { growingUpTo } from '../runtime/index.js';
import type { MongoHealth } from './mongo-health.js';
import { withinDeadline } from './unavailable.js';

/** A read found nothing: the key's last read value goes with it (a read that failed keeps it). */
class KeyGone extends Error {}

type Read<V> = () => Promise<V | null>;

/**
 * What the check path reads of MongoDB and seldom changes (a customer and its package), as last
 * read. Once known, a check never waits for it: past `maxAgeMs` it is served as last read while
 * one read refreshes it (a check waiting on a read that MongoDB, stalled, never answers would
 * start late); while MongoDB is away, as last read without a read. Only the first check of a key
 * waits for it. A value read as null (gone) is not kept.
 *
 * lru-cache's `fetch` serves the stale value while one read per key runs, and keeps it when the
 * read fails; this wrapper adds what it cannot say: no read at all while MongoDB is away, and a
 * read of null that drops the value (a `fetchMethod` answering nothing would keep it).
 */
export class LastReadCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly known: LRUCache<K, V, Read<V>>;

  constructor(
    private readonly options: {
      maxAgeMs: number;
      /** Keys kept at most, the least recently used going first (storage grows as they come). */
      maxEntries: number;
      /** A read gives up after this long (a stalled MongoDB). */
      readTimeoutMs: number;
      mongo: Pick<MongoHealth, 'available'>;
      /** What is read, for the error of a read given up ("customer 7"). */
      describe(key: K): string;
    },
  ) {
    this.known = new LRUCache<K, V, Read<V>>({
      ...growingUpTo(options.maxEntries),
      ttl: options.maxAgeMs,
      allowStale: true,
      // Its failure is the next refresh's to retry (and the health watcher's to notice).
      noDeleteOnFetchRejection: true,
      fetchMethod: async (key, _last, { context: read, options: fetching }) => {
        const value = await withinDeadline(read(), options.readTimeoutMs, options.describe(key));
        if (value !== null) return value;
        fetching.noDeleteOnFetchRejection = false;
        throw new KeyGone();
      },
    });
  }

  async get(key: K, read: Read<V>): Promise<V | null> {
    if (!this.options.mongo.available) {
      const last = this.known.peek(key, { allowStale: true });
      if (last !== undefined) return last;
    }
    try {
      return (await this.known.fetch(key, { context: read })) ?? null;
    } catch (error) {
      if (error instanceof KeyGone) return null;
      throw error;
    }
  }
}
