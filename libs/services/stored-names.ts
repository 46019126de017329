import type { Db } from 'mongodb';
import { apiTokenIndexes, organizationIndexes } from '../auth/index.js';
import { cleanName, isNameText } from '../contract/index.js';
import { customerIndexes } from '../customers/index.js';
import { type CollectionIndexes, isDuplicateKey, KEY_LOOKUPS } from '../db/index.js';
import { maintenanceWindowIndexes } from '../maintenance/index.js';
import { WEBSITE_MONITORS } from '../monitors/index.js';
import { channelIndexes } from '../notifications/index.js';
import { packageIndexes } from '../packages/index.js';
import { userIndexes } from '../people/index.js';
import { statusPageIndexes } from '../status-pages/index.js';
import { websiteIndexes } from '../websites/index.js';

/** Every stored name and title that `nameText` takes when it is written, by collection. */
const NAME_FIELDS: ReadonlyArray<readonly [collection: string, field: string]> = [
  [organizationIndexes.collection, 'name'],
  [apiTokenIndexes.collection, 'name'],
  [userIndexes.collection, 'name'],
  [packageIndexes.collection, 'displayName'],
  [customerIndexes.collection, 'name'],
  [websiteIndexes.collection, 'name'],
  [WEBSITE_MONITORS, 'name'],
  [statusPageIndexes.collection, 'title'],
  [maintenanceWindowIndexes.collection, 'title'],
  [channelIndexes.collection, 'name'],
];

const NAMES_CLEANED = '~backfilled/names.text';

/**
 * Names stored before control characters and bidirectional overrides were refused, made text as
 * `cleanName` says; once per database (a marker in `key_lookups`), idempotent. Says how many changed.
 */
export async function cleanStoredNames(db: Db): Promise<number> {
  const markers = db.collection<{ _id: string }>(KEY_LOOKUPS);
  if (await markers.findOne({ _id: NAMES_CLEANED })) return 0;
  let changed = 0;
  for (const [collection, field] of NAME_FIELDS) {
    const documents = db.collection<Record<string, unknown>>(collection);
    // Read whole first: a cursor held open across the updates keeps FerretDB's SQLite from committing.
    const named = await documents.find({}, { projection: { _id: 1, [field]: 1 } }).toArray();
    for (const document of named) {
      const name = document[field];
      if (typeof name !== 'string' || isNameText(name)) continue;
      await documents.updateOne({ _id: document._id }, { $set: { [field]: cleanName(name) } });
      changed += 1;
    }
  }
  await markers.insertOne({ _id: NAMES_CLEANED }).catch((error: unknown) => {
    if (!isDuplicateKey(error)) throw error;
  });
  return changed;
}

/** Run at start after every collection's indexes (`ensureIndexes`), as the other backfills are. */
export const storedNamesCleaning: CollectionIndexes = {
  collection: KEY_LOOKUPS,
  indexes: [],
  backfill: cleanStoredNames,
};
