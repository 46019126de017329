import { type Db, type IndexDescription, MongoServerError } from 'mongodb';

/** The indexes one collection needs; repositories declare theirs next to their queries. */
export interface CollectionIndexes {
  collection: string;
  indexes: IndexDescription[];
  /** Run after the indexes: fills what reads now rely on for documents stored before (key lookups). */
  backfill?: (db: Db) => Promise<unknown>;
}

const NAMESPACE_NOT_FOUND = 26;

async function existingIndexNames(db: Db, collection: string): Promise<Set<string>> {
  try {
    const indexes = await db.collection(collection).listIndexes().toArray();
    return new Set(indexes.map((index) => String(index.name)));
  } catch (error) {
    if (error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND) return new Set();
    throw error;
  }
}

/**
 * Creates the declared indexes that do not exist yet, so every process may run it at start. One
 * index per call: FerretDB 1.24 drops the connection when one `createIndexes` names several indexes
 * that already exist (which another process may have just created). Then each collection's backfill.
 */
export async function ensureIndexes(db: Db, specs: readonly CollectionIndexes[]): Promise<void> {
  for (const spec of specs) {
    const existing = await existingIndexNames(db, spec.collection);
    for (const index of spec.indexes) {
      if (!index.name) throw new Error(`an index of ${spec.collection} has no name`);
      if (!existing.has(index.name)) await db.collection(spec.collection).createIndexes([index]);
    }
    await spec.backfill?.(db);
  }
}
