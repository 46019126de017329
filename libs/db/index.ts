export { BatchInserter } from './batch-inserter.js';
export { asBulkWork, BULK_READS_AT_ONCE, type ReadFanOut, readFanOut } from './bulk-reads.js';
export { BULK_WRITE_CHUNK, chunkedBulkWrite, UPDATES_PER_COMMAND } from './chunked-bulk-write.js';
export { isDuplicateKey, nextId, nextIds, upsertRacingFirstWriters } from './counters.js';
export { FlushedIncrements, type FlushedIncrementsOptions } from './flushed-increments.js';
export { type BatchOutcome, GroupedWrites, type GroupedWritesOptions } from './grouped-writes.js';
export { ID_LISTS, IdLists, ownersWithLists } from './id-lists.js';
export { type CollectionIndexes, ensureIndexes } from './indexes.js';
export {
  ABSENT_KEY_TTL_MS,
  KEY_LOOKUPS,
  KeyLookup,
  type KeyLookupOptions,
  KeyTakenError,
  type LookupRef,
} from './key-lookup.js';
export { LastReadCache } from './last-read-cache.js';
export { connectMongo, databaseNameOf, type Mongo, pingMongo, redactUrl } from './mongo.js';
export { type MongoHealth, watchMongoHealth } from './mongo-health.js';
export { type ListHints, NumberedLists } from './numbered-lists.js';
export {
  type ListRevisions,
  OrderedIdChunks,
  type OrderedIdChunksOptions,
  type OwnerSerializer,
} from './ordered-id-chunks.js';
export { publicReads } from './public-reads.js';
export { serializedInProcess } from './serialized-in-process.js';
export { TenantCollection, type TenantDocument } from './tenant-collection.js';
export { type TenantResource, TenantResources, WITHOUT_MONGO_ID } from './tenant-resources.js';
export { isMongoUnavailable, MongoDeadlineError, withinDeadline } from './unavailable.js';
export { WriteBehind } from './write-behind.js';
