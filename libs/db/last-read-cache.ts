import type { MongoHealth } from './mongo-health.js';
import { isMongoUnavailable, withinDeadline } from './unavailable.js';

/**
 * What the check path reads of MongoDB (a customer and package, a monitor's configuration), as
 * last read, so checks go on while MongoDB stalls or is away: then it is served as last read
 * without a read. Otherwise, within `maxAgeMs` of its read it is served from memory; past it,
 * `refresh: 'behind'` serves it as last read while one read refreshes it (a check never waits for
 * a read once the key is known), `'first'` reads it and falls back to the last read only when
 * MongoDB does not answer (an edit counts from the next check). A value read as null (gone) is
 * not kept.
 */
export class LastReadCache<K, V> {
  private readonly known = new Map<K, { at: number; value: V }>();
  private readonly reads = new Map<K, Promise<V | null>>();

  constructor(
    private readonly options: {
      maxAgeMs: number;
      refresh: 'behind' | 'first';
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
    if (this.options.refresh === 'first')
      return reading.catch((error: unknown) => {
        if (isMongoUnavailable(error)) return known.value;
        throw error;
      });
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
