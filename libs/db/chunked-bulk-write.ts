import type { AnyBulkWriteOperation, BulkWriteOptions, Collection, Document } from 'mongodb';

/**
 * How many operations one bulk write carries at most. FerretDB 1.24 (on SQLite) never answers an
 * `update` command that modifies 100 or more existing documents, and stops answering later
 * updates too (measured: 99 answered in 60 ms, 100 never); MongoDB takes 100,000. 50 keeps well
 * clear of it, still one request for many operations.
 */
export const BULK_WRITE_CHUNK = 50;

/** The operations in bulk writes of at most `BULK_WRITE_CHUNK`, one after another; the counts summed. */
export async function chunkedBulkWrite<T extends Document>(
  collection: Collection<T>,
  operations: readonly AnyBulkWriteOperation<T>[],
  options: BulkWriteOptions = { ordered: false },
): Promise<{ matchedCount: number; modifiedCount: number; upsertedCount: number; deletedCount: number }> {
  const counts = { matchedCount: 0, modifiedCount: 0, upsertedCount: 0, deletedCount: 0 };
  for (let start = 0; start < operations.length; start += BULK_WRITE_CHUNK) {
    const written = await collection.bulkWrite(operations.slice(start, start + BULK_WRITE_CHUNK), options);
    counts.matchedCount += written.matchedCount;
    counts.modifiedCount += written.modifiedCount;
    counts.upsertedCount += written.upsertedCount;
    counts.deletedCount += written.deletedCount;
  }
  return counts;
}
