import {
  type Collection,
  type Document,
  MongoBulkWriteError,
  MongoServerError,
  type OptionalUnlessRequiredId,
} from 'mongodb';

interface Pending<T> {
  document: OptionalUnlessRequiredId<T>;
  done: () => void;
  failed: (error: unknown) => void;
}

/**
 * Many concurrent inserts shared by one unordered insertMany, at most `flushEveryMs` later; with
 * `flushEveryMs: 0`, as a group commit: an insert goes out at once when no batch is being written,
 * and those arriving meanwhile go together as soon as it is done (no added latency when idle). Each
 * `insert` settles with its own document's outcome: stored, or that document's error (a duplicate
 * key, say) while the rest of the batch is stored. So a caller awaiting its insert knows the
 * document is in MongoDB, and nothing is stored twice on a retry of a finished job.
 */
export class BatchInserter<T extends Document> {
  private pending: Array<Pending<T>> = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly collection: Collection<T>,
    private readonly options: {
      maxBatch?: number;
      flushEveryMs?: number;
      /** A bound on each batch's write (a stalled server answers nothing, and errors nothing). */
      timeoutMS?: number;
      /** Told when MongoDB answered a batch (stored, or refused some of it). */
      onAnswered?: () => void;
    } = {},
  ) {}

  insert(document: OptionalUnlessRequiredId<T>): Promise<void> {
    return new Promise((done, failed) => {
      this.pending.push({ document, done, failed });
      if (this.pending.length >= (this.options.maxBatch ?? 500)) void this.flush();
      else if (this.options.flushEveryMs === 0) this.groupCommit();
      else this.timer ??= setTimeout(() => void this.flush(), this.options.flushEveryMs ?? 100);
    });
  }

  private groupCommit(): void {
    if (this.writing) return;
    this.writing = (async () => {
      while (this.pending.length > 0) await this.flush();
      this.writing = null;
    })();
  }

  /** Writes what is pending now (at shutdown, or when a batch is full). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      // A copy: the driver adds `_id` to the documents it is given.
      await this.collection.insertMany(
        batch.map((entry) => ({ ...entry.document })),
        {
          ordered: false,
          ...(this.options.timeoutMS === undefined ? {} : { timeoutMS: this.options.timeoutMS }),
        },
      );
      this.options.onAnswered?.();
      for (const entry of batch) entry.done();
    } catch (error) {
      const refused = refusedDocuments(error);
      if (refused) this.options.onAnswered?.();
      for (const [index, entry] of batch.entries()) {
        if (!refused) entry.failed(error);
        else if (refused.has(index)) entry.failed(refused.get(index));
        else entry.done();
      }
    }
  }
}

/** For an insertMany that stored some documents: each refused one's index and error; else null. */
function refusedDocuments(error: unknown): Map<number, MongoServerError> | null {
  if (!(error instanceof MongoBulkWriteError) || error.writeConcernError) return null;
  const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  if (writeErrors.length === 0) return null;
  return new Map(
    writeErrors.map((writeError) => [
      writeError.index,
      new MongoServerError({ errmsg: writeError.errmsg ?? 'insert refused', code: writeError.code }),
    ]),
  );
}
