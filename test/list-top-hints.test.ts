import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { NumberedLists } from '../libs/db/index.js';
import { ListTopHints } from '../libs/redis/index.js';
import { findsDuring, useStores } from './support/stores.js';

// A notifier's first step of an incident read the timeline's counter and probed past it (two
// MongoDB reads per incident, 11,300 in the notifier benchmark) though the worker had just written
// its first steps. Writers now leave each list's last number in Redis.
describe('numbered lists with last numbers shared through Redis', () => {
  const stores = useStores({ monitorCommands: true });
  let db: Db;
  const prefix = `hints-${randomUUID().slice(0, 8)}`;

  beforeAll(() => {
    db = stores.client.db();
  });

  const lists = () =>
    new NumberedLists<{ v: number }>(db, 'hinted_lists', {
      raiseTopEvery: 16,
      hints: new ListTopHints(stores.redis, `${prefix}:list-top:hinted_lists`),
    });

  const listFinds = (run: () => Promise<unknown>) => findsDuring(stores.client, 'hinted_lists', run);

  it('a writer new to a list appends after the last entry another wrote, without reading MongoDB', async () => {
    const worker = lists();
    await worker.appendMany('incident-a', [{ v: 1 }, { v: 2 }]);
    const notifier = lists();
    let n = 0;
    expect(
      await listFinds(async () => {
        n = await notifier.append('incident-a', { v: 3 });
      }),
    ).toBe(0);
    expect(n).toBe(3);
  });

  it('a hint that lags (another writer appended since) or is lost still finds the next free number', async () => {
    const first = lists();
    for (let v = 1; v <= 3; v++) await first.append('incident-b', { v });
    // Another writer appends without leaving a hint (Redis did not answer): the hint says 3.
    const unhinted = new NumberedLists<{ v: number }>(db, 'hinted_lists', { raiseTopEvery: 16 });
    expect(await unhinted.append('incident-b', { v: 4 })).toBe(4);
    expect(await lists().append('incident-b', { v: 5 })).toBe(5);
    await stores.redis.del(`${prefix}:list-top:hinted_lists:incident-b`);
    expect(await lists().append('incident-b', { v: 6 })).toBe(6);
    const values: number[] = [];
    for await (const entry of lists().newestFirst('incident-b', 16)) values.push(entry.v);
    expect(values).toEqual([6, 5, 4, 3, 2, 1]);
  });
});
