import type { Db, IndexDescription } from 'mongodb';

/** The indexes one collection needs; repositories declare theirs next to their queries. */
export interface CollectionIndexes {
  collection: string;
  indexes: IndexDescription[];
}

/** Creates every declared index; idempotent, so every process may run it at start. */
export async function ensureIndexes(db: Db, specs: readonly CollectionIndexes[]): Promise<void> {
  for (const spec of specs) {
    if (spec.indexes.length > 0) await db.collection(spec.collection).createIndexes(spec.indexes);
  }
}
