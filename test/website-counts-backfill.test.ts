import { type Db, type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureIndexes, KEY_LOOKUPS } from '../libs/db/index.js';
import { WebsiteRepository, websiteIndexes } from '../libs/websites/index.js';
import { uniqueMongoUrl } from './support/harness.js';
import { connectRecordingFinds } from './support/recorded-finds.js';

const COUNTERS = 'website_counts';
const WEBSITES = 'websites';

/**
 * The counters' website ids, and the counters of customers with websites but none, are backfilled
 * at the first start on data an older version left, and later starts skip it with primary-key
 * reads (the backfill scans the counters, and reads every website).
 */
describe('website counters: the website-ids backfill runs once per database', () => {
  const url = uniqueMongoUrl();
  let client: MongoClient;
  let db: Db;
  const finds: Document[] = [];

  beforeAll(async () => {
    client = await connectRecordingFinds(url, finds);
    db = client.db();
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await client?.close();
  });

  /** As an older version left it: websites, counters without ids, no `key_lookups` at all. */
  beforeEach(async () => {
    await db.collection(KEY_LOOKUPS).deleteMany({});
    await db.collection(WEBSITES).deleteMany({});
    await db.collection(COUNTERS).deleteMany({});
    await db.collection(WEBSITES).insertMany(
      [
        [1, 10],
        [2, 10],
        [3, 20],
      ].map(([id, customerId]) => ({
        _id: `w${id}` as never,
        id,
        publicId: `public-${id}`,
        organizationId: 1,
        customerId,
      })),
    );
    await db.collection(COUNTERS).insertMany([
      { _id: 'c10' as never, organizationId: 1, customerId: 10, count: 2 },
      { _id: 'c20' as never, organizationId: 1, customerId: 20, count: 1 },
    ]);
  });

  const websiteIds = async () =>
    Object.fromEntries(
      (await db.collection<{ _id: string; websiteIds?: number[] }>(COUNTERS).find({}).toArray()).map(
        (counter) => [counter._id, [...(counter.websiteIds ?? [])].sort()],
      ),
    );
  const scansOf = () => finds.filter((find) => [WEBSITES, COUNTERS].includes(find.find as string));

  it('backfills a database an older version left, then skips it at later starts', async () => {
    await ensureIndexes(db, [websiteIndexes]);
    expect(await websiteIds()).toEqual({ c10: [1, 2], c20: [3] });

    // A counter of another customer made meanwhile without ids (not by this version): later starts
    // do not look for such counters any more.
    await db
      .collection(COUNTERS)
      .insertOne({ _id: 'c30' as never, organizationId: 1, customerId: 30, count: 0 });
    finds.length = 0;
    await ensureIndexes(db, [websiteIndexes]);
    expect(scansOf()).toEqual([]);
    for (const find of finds) expect(Object.keys(find.filter as Document)).toEqual(['_id']);
    expect(await websiteIds()).toEqual({ c10: [1, 2], c20: [3], c30: [] });
  });

  it('backfills again after data an older version left (its key_lookups gone, the ids unset)', async () => {
    await ensureIndexes(db, [websiteIndexes]);
    await db.collection(KEY_LOOKUPS).deleteMany({});
    await db.collection(COUNTERS).updateMany({}, { $unset: { websiteIds: '' } });
    await ensureIndexes(db, [websiteIndexes]);
    expect(await websiteIds()).toEqual({ c10: [1, 2], c20: [3] });
  });

  it('starts the counters of customers whose websites an older version stored without one, once; a customer without websites then starts its own at 0 by primary key', async () => {
    await db.collection(COUNTERS).deleteOne({ _id: 'c20' as never });
    await ensureIndexes(db, [websiteIndexes]);
    expect(await websiteIds()).toEqual({ c10: [1, 2], c20: [3] });
    expect(await db.collection(COUNTERS).findOne({ _id: 'c20' as never })).toMatchObject({ count: 1 });
    finds.length = 0;
    await ensureIndexes(db, [websiteIndexes]);
    expect(scansOf()).toEqual([]);
    const websites = new WebsiteRepository(db);
    expect(await websites.countByCustomer(1, 40)).toBe(0);
    expect(await websites.listByCustomer(1, 41)).toEqual([]);
    for (const find of finds) expect(Object.keys(find.filter as Document)).toEqual(['_id']);
    expect(await websiteIds()).toEqual({ c10: [1, 2], c20: [3], c40: [] });
  });

  it('is correct when two processes start at once', async () => {
    // Another process: its own client on the same database.
    const other = new MongoClient(url);
    await other.connect();
    try {
      await Promise.all([ensureIndexes(db, [websiteIndexes]), ensureIndexes(other.db(), [websiteIndexes])]);
    } finally {
      await other.close();
    }
    expect(await websiteIds()).toEqual({ c10: [1, 2], c20: [3] });
    finds.length = 0;
    await ensureIndexes(db, [websiteIndexes]);
    expect(scansOf()).toEqual([]);
  });
});
