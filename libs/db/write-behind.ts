import type { AnyBulkWriteOperation, Collection, Filter, WithoutId } from 'mongodb';
import { chunkedBulkWrite } from './chunked-bulk-write.js';

/** After a failed write, the next try waits this long (MongoDB away: the versions wait in memory). */
const RETRY_AFTER_MS = 2000;

/**
 * Documents whose current version lives elsewhere (Redis) and reaches MongoDB a moment later, many
 * to a request: each id's last version wins, so a document changed five times within the delay is
 * written once. A failed write is tried again under any newer version; `close` writes what waits.
 */
export class WriteBehind<T extends { _id: string }> {
  private pending = new Map<string, T>();
  private inFlight = new Map<string, T>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly collection: Collection<T>,
    private readonly options: {
      delayMs: number;
      /** Told of a failed write (its versions are kept and tried again). */
      onFailure(error: unknown, documents: number): void;
    },
  ) {}

  /** Writes this version of the document a moment from now (replacing any version still waiting). */
  put(document: T): void {
    this.pending.set(document._id, document);
    this.schedule(this.options.delayMs);
  }

  /** The version of the document waiting to be written here, if any: newer than MongoDB's. */
  waiting(id: string): T | undefined {
    return this.pending.get(id) ?? this.inFlight.get(id);
  }

  private schedule(delayMs: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  /** Writes what waits now, one write at a time. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.pending.size === 0) return;
    this.inFlight = this.pending;
    this.pending = new Map();
    this.writing = this.write().finally(() => {
      this.inFlight = new Map();
      this.writing = null;
    });
    await this.writing;
  }

  private async write(): Promise<void> {
    const operations = [...this.inFlight.values()].map(
      (document): AnyBulkWriteOperation<T> => ({
        replaceOne: {
          filter: { _id: document._id } as Filter<T>,
          replacement: document as WithoutId<T>,
          upsert: true,
        },
      }),
    );
    try {
      await chunkedBulkWrite(this.collection, operations);
    } catch (error) {
      for (const [id, document] of this.inFlight) if (!this.pending.has(id)) this.pending.set(id, document);
      this.options.onFailure(error, this.inFlight.size);
      this.schedule(RETRY_AFTER_MS);
    }
  }

  /** At shutdown: writes what waits (tried `tries` times while MongoDB refuses). */
  async close(tries = 3): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (let tried = 0; tried < tries && (this.pending.size > 0 || this.writing); tried++) await this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
