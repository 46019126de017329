import type { Db } from 'mongodb';
import { ABSENT_KEY_TTL_MS, type CollectionIndexes, KeyLookup } from '../db/index.js';
import { type CountedWebsite, WebsiteCounts } from './website-counts.js';
import type { WebsiteDocument } from './website-document.js';

export const WEBSITES = 'websites';

/** Websites by publicId (badges, `/api/websites/{publicId}`) in two primary-key reads. */
export const publicIdLookup = (db: Db) =>
  new KeyLookup<WebsiteDocument>(db, {
    collection: WEBSITES,
    keyField: 'publicId',
    absentTtlMs: ABSENT_KEY_TTL_MS,
    // A website keeps its publicId for life, and its `_id` (`w<id>`) is never used again.
    refsNeverMove: true,
  });

export const websiteIndexes: CollectionIndexes = {
  collection: WEBSITES,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { publicId: 1 }, unique: true, name: 'public_id_unique' },
    { key: { organizationId: 1, customerId: 1, id: 1 }, name: 'organization_customer' },
  ],
  backfill: async (db) => {
    await publicIdLookup(db).backfill();
    const counts = new WebsiteCounts(db);
    // One scan of the websites for both backfills of the counters, when either runs.
    let listed: Promise<CountedWebsite[]> | undefined;
    const everyWebsite = () =>
      (listed ??= db
        .collection<WebsiteDocument>(WEBSITES)
        .find<CountedWebsite>({}, { projection: { _id: 0, id: 1, customerId: 1, organizationId: 1 } })
        .toArray());
    await counts.backfillWebsiteIds(everyWebsite);
    await counts.backfillCounters(everyWebsite);
  },
};
