import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { MongoHealth } from './mongo-health.js';

/** A write not answered within this is given up (and kept for the next flush). */
const WRITE_TIMEOUT_MS = 10_000;

export interface FlushedIncrementsOptions<T> {
  /** What the increments are, as the log line names them ("rollups"). */
  what: string;
  /** Writes one increment (one upsert). */
  write: (increment: T) => Promise<void>;
  /** Adds `from` into `into`: a write given up meets what was added meanwhile under its key. */
  merge: (into: T, from: T) => void;
  logger: Logger;
  /** Written only while MongoDB answers; a write it stops answering is given up (and kept). */
  mongo: Pick<MongoHealth, 'available' | 'onLost'>;
  flushEveryMs: number;
  /** @defaultValue WRITE_TIMEOUT_MS */
  writeTimeoutMs?: number | undefined;
}

/**
 * Counts added in memory and written together every `flushEveryMs` and at close, one write per
 * key, one at a time: FerretDB 1.24 on SQLite was seen to hang for good (and every other command
 * with it) on an unordered bulk of upserts after a restart. A process killed without a close loses
 * at most a flush's worth of counts (never what they count).
 */
export class FlushedIncrements<T> {
  private pending = new Map<string, T>();
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: FlushedIncrementsOptions<T>) {
    this.timer = setInterval(() => void this.flush(), options.flushEveryMs);
    this.timer.unref();
  }

  /** Adds to the increments waiting, by key (`change` updates the map in place). */
  add(change: (pending: Map<string, T>) => void): void {
    change(this.pending);
  }

  /** Writes what was added so far; what was not written is kept for the next flush. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    if (batch.size === 0 || !this.options.mongo.available) return;
    this.pending = new Map();
    let unsubscribe = () => {};
    // A stalled or vanished MongoDB can leave a write unanswered for good: it must not hold the
    // flushes behind it (nor the shutdown).
    const lost = new Promise<never>((_, reject) => {
      unsubscribe = this.options.mongo.onLost(() => reject(new Error('MongoDB became unavailable')));
    });
    lost.catch(() => undefined);
    try {
      for (const [key, increment] of [...batch]) {
        await this.bounded(lost, () => this.options.write(increment));
        batch.delete(key);
      }
    } catch (error) {
      // A write given up that lands later counts twice: after an outage counts can come out a
      // little high, never low.
      for (const [key, increment] of batch) {
        const current = this.pending.get(key);
        if (current) this.options.merge(current, increment);
        else this.pending.set(key, increment);
      }
      this.options.logger.warn(
        { err: errorMessage(error), [this.options.what]: batch.size },
        `${this.options.what} not written; retrying with the next flush`,
      );
    } finally {
      unsubscribe();
    }
  }

  private async bounded(lost: Promise<never>, work: () => Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('a write was not answered in time')),
        this.options.writeTimeoutMs ?? WRITE_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([work(), lost, late]);
    } finally {
      clearTimeout(timer);
      late.catch(() => undefined);
    }
  }
}
