import type { Db } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { IdLists } from '../libs/db/index.js';
import { useStores } from './support/stores.js';

/**
 * Id lists on real FerretDB: many writers making one owner's list at once (children of one parent
 * held together, as in the notifier benchmark, where a refused upsert failed the dispatch) all
 * succeed, and the list is there with their ids.
 */
describe('id lists made by many writers at once', () => {
  const stores = useStores();
  let db: Db;

  beforeAll(() => {
    db = stores.client.db();
  });

  it('makes each new list once, refusing none of the writers', async () => {
    const lists = new IdLists(db, 'things.ownerId');
    const owners = Array.from({ length: 20 }, (_, n) => n + 1);
    const outcomes = await Promise.allSettled(
      owners.flatMap((owner) => Array.from({ length: 8 }, (_, n) => lists.add(owner, owner * 100 + n))),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    for (const owner of owners) {
      // FerretDB's update is a read and a write: concurrent adds may lose some ids (callers that
      // need every one write under the owner's lock); the list itself is always made.
      const ids = await lists.get(owner);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => Math.floor(id / 100) === owner)).toBe(true);
    }
  });
});
