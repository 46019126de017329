import type { MongoHealth } from './mongo-health.js';
import { withinDeadline } from './unavailable.js';

/**
 * What the check path reads of MongoDB and seldom changes (a customer and its package), as last
 * read. Once known, a check never waits for it: past `maxAgeMs` it is served as last read while
 * one read refreshes it (a check waiting on a read that MongoDB, stalled, never answers would
 * start late); while MongoDB is away, as last read without a read. Only the first check of a key
 * waits for it. A value read as null (gone) is not kept.
 */
export class LastReadCache<K, V> {
  private readonly known = new Map<K, { at: number; value: V }>();
  private readonly reads = new Map<K, Promise<V | null>>();

  constructor(
    private readonly options: {
      maxAgeMs: number;
      /** A read gives up after this long (a stalled MongoDB). */
      readTimeoutMs: number;
      mongo: Pick<MongoHealth, 'available'>;
      /** What is read, for the error of a read given up ("customer 7"). */
      describe(key: K): string;
    },
  ) {}

  async get(key: K, read: () => Promise<V | null>): Promise<V | null> {
    const known = this.known.get(key);
    if (known && (Date.now() - known.at < this.options.maxAgeMs || !this.options.mongo.available))
      return known.value;
    const reading = this.read(key, read);
    if (!known) return reading;
    // Its failure is the next refresh's to retry (and the health watcher's to notice).
    reading.catch(() => undefined);
    return known.value;
  }

  /** One read per key at a time, kept for the next checks. */
  private read(key: K, read: () => Promise<V | null>): Promise<V | null> {
    let reading = this.reads.get(key);
    if (!reading) {
      reading = withinDeadline(read(), this.options.readTimeoutMs, this.options.describe(key))
        .then((value) => {
          if (value === null) this.known.delete(key);
          else this.known.set(key, { at: Date.now(), value });
          return value;
        })
        .finally(() => this.reads.delete(key));
      this.reads.set(key, reading);
    }
    return reading;
  }
}
