import type { AnyBulkWriteOperation, BulkWriteOptions, Collection, Document } from 'mongodb';
import { serializedInProcess } from './serialized-in-process.js';

/** How many operations one bulk write carries at most (inserts and deletes; updates: `UPDATES_PER_COMMAND`). */
export const BULK_WRITE_CHUNK = 50;

/**
 * How many update (or replace) statements one command carries at most. FerretDB 1.24 (on SQLite)
 * keeps each statement's query, and the SQLite connection under it, open until the whole command
 * ends, and each statement's write takes one more connection, from a pool of 100 per database
 * (its `update` handler defers each query's close to the command's end). So a command of 100
 * statements never ends, and commands whose statements add up to about 100 at once wait on each
 * other for good, with every later update (measured: two 50-statement commands at once hung the
 * notifier benchmark; 99 statements alone are answered in 60 ms). With 10 a command, and one such
 * command at a time in a process, nine processes would have to write bulk updates at the same
 * moment to meet it. Deletes close their query first: they go 50 a command.
 */
export const UPDATES_PER_COMMAND = 10;

/** Bulk updates of this process, one command at a time (see `UPDATES_PER_COMMAND`). */
const updateCommands = serializedInProcess<'updates'>();

const isUpdate = (operation: AnyBulkWriteOperation<Document>) =>
  'updateOne' in operation || 'updateMany' in operation || 'replaceOne' in operation;

/**
 * The operations in bulk writes of at most `BULK_WRITE_CHUNK` (`UPDATES_PER_COMMAND` where a chunk
 * holds updates), one after another; the counts summed.
 */
export async function chunkedBulkWrite<T extends Document>(
  collection: Collection<T>,
  operations: readonly AnyBulkWriteOperation<T>[],
  options: BulkWriteOptions = { ordered: false },
): Promise<{ matchedCount: number; modifiedCount: number; upsertedCount: number; deletedCount: number }> {
  const counts = { matchedCount: 0, modifiedCount: 0, upsertedCount: 0, deletedCount: 0 };
  for (let start = 0; start < operations.length; ) {
    const updates = operations
      .slice(start, start + BULK_WRITE_CHUNK)
      .some((operation) => isUpdate(operation as AnyBulkWriteOperation<Document>));
    const chunk = operations.slice(start, start + (updates ? UPDATES_PER_COMMAND : BULK_WRITE_CHUNK));
    start += chunk.length;
    const write = () => collection.bulkWrite(chunk, options);
    const written = updates ? await updateCommands('updates', write) : await write();
    counts.matchedCount += written.matchedCount;
    counts.modifiedCount += written.modifiedCount;
    counts.upsertedCount += written.upsertedCount;
    counts.deletedCount += written.deletedCount;
  }
  return counts;
}
