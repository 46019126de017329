import {
  type Collection,
  type Document,
  MongoBulkWriteError,
  MongoServerError,
  type OptionalUnlessRequiredId,
} from 'mongodb';
import { type BatchOutcome, GroupedWrites, type GroupedWritesOptions } from './grouped-writes.js';

/**
 * Many concurrent inserts shared by one unordered insertMany, at most `flushEveryMs` later; with
 * `flushEveryMs: 0`, as a group commit (see `GroupedWrites`). Each `insert` settles with its own
 * document's outcome: stored, or that document's error (a duplicate key, say) while the rest of
 * the batch is stored. So a caller awaiting its insert knows the document is in MongoDB, and
 * nothing is stored twice on a retry of a finished job.
 */
export class BatchInserter<T extends Document> {
  private readonly writes: GroupedWrites<OptionalUnlessRequiredId<T>>;

  constructor(
    private readonly collection: Collection<T>,
    private readonly options: GroupedWritesOptions & {
      /** A bound on each batch's write (a stalled server answers nothing, and errors nothing). */
      timeoutMS?: number;
      /** Told when MongoDB answered a batch (stored, or refused some of it). */
      onAnswered?: () => void;
    } = {},
  ) {
    this.writes = new GroupedWrites((documents) => this.insertMany(documents), options);
  }

  insert(document: OptionalUnlessRequiredId<T>): Promise<void> {
    return this.writes.add(document);
  }

  /** Writes what is pending now (at shutdown, or when a batch is full). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  private async insertMany(documents: OptionalUnlessRequiredId<T>[]): Promise<BatchOutcome> {
    try {
      // A copy: the driver adds `_id` to the documents it is given.
      await this.collection.insertMany(
        documents.map((document) => ({ ...document })),
        {
          ordered: false,
          ...(this.options.timeoutMS === undefined ? {} : { timeoutMS: this.options.timeoutMS }),
        },
      );
      this.options.onAnswered?.();
      return [];
    } catch (error) {
      const refused = refusedDocuments(error);
      if (!refused) throw error;
      this.options.onAnswered?.();
      return documents.map((_, index) => refused.get(index));
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
