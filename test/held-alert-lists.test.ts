import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIndexes } from '../libs/db/index.js';
import { DependencyRepository, dependencyIndexes, type HeldAlert } from '../libs/dependencies/index.js';
import { uniqueMongoUrl } from './support/harness.js';

const heldAlert = (incident: string, websiteId: number, heldBy: string[]): HeldAlert => ({
  _id: incident,
  organizationId: 1,
  websiteId,
  payload: {
    id: `event-${incident}`,
    type: 'website.down',
    createdAt: '2026-11-30T10:00:00.000Z',
    organizationId: 1,
    data: { website: null, previousStatus: 'up', status: 'down', incident, result: null },
  },
  heldBy,
  heldAt: new Date('2026-11-30T10:00:00.000Z'),
});

// A parent's recovery asks what it holds; most hold nothing, and must know it without a query on
// `heldBy` (a scan of every held alert on FerretDB): each parent lists the children it held.
describe('held alerts listed by their parents', { timeout: 30_000 }, () => {
  let client: MongoClient;
  let db: Db;
  let repository: DependencyRepository;

  beforeAll(async () => {
    client = await new MongoClient(uniqueMongoUrl()).connect();
    db = client.db();
    await ensureIndexes(db, dependencyIndexes);
    repository = new DependencyRepository(db);
  });
  afterAll(() => client.close());

  it('finds an alert held by a website or a monitor from its parents, and nothing for a parent holding none', async () => {
    expect(await repository.hold(heldAlert('inc-a', 11, ['w1', 'm7']))).toBe(true);
    expect((await repository.heldBy({ websiteId: 1 })).map((held) => held._id)).toEqual(['inc-a']);
    expect((await repository.heldBy({ monitorId: 7 })).map((held) => held._id)).toEqual(['inc-a']);
    expect(await repository.heldBy({ websiteId: 2 })).toEqual([]);
    expect(await repository.release('inc-a')).toBe(true);
    expect(await repository.heldBy({ websiteId: 1 })).toEqual([]);
  });

  it('lists alerts held before parents listed them once, at start', async () => {
    // As a version before the lists left it: the alert stored alone.
    await db.collection<HeldAlert>('held_alerts').insertOne(heldAlert('inc-old', 12, ['w3']));
    await db
      .collection<{ _id: string }>('key_lookups')
      .deleteOne({ _id: '~backfilled/held_alerts.byParent' });
    expect(await repository.heldBy({ websiteId: 3 })).toEqual([]);
    await ensureIndexes(db, dependencyIndexes);
    expect((await repository.heldBy({ websiteId: 3 })).map((held) => held._id)).toEqual(['inc-old']);
  });
});
