import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeliveryIds } from '../libs/alerts/index.js';
import { useStores } from './support/stores.js';

/**
 * Delivery ids from a Redis counter within ranges reserved in MongoDB, on real FerretDB and Redis:
 * unique across processes, in the order asked, past the ids of the MongoDB counter before them,
 * and never handed out twice when Redis loses its counter.
 */
describe('delivery ids', () => {
  const stores = useStores();
  const prefix = `delivery-ids-${randomUUID()}`;

  const counters = () => stores.client.db().collection<{ _id: string; seq: number }>('counters');
  const many = async (ids: DeliveryIds, count: number) => {
    const got: number[] = [];
    for (let i = 0; i < count; i++) got.push(await ids.next());
    return got;
  };

  it('hands each id out once across processes, in order, past the counter kept before, and again past it after Redis lost its own', async () => {
    // Ids the MongoDB counter handed out one by one before this way of handing them out.
    await counters().insertOne({ _id: 'deliveries', seq: 5000 });
    const processes = [0, 1, 2].map(() => new DeliveryIds(stores.client.db(), stores.redis, prefix));
    const handed = await Promise.all(processes.map((ids) => many(ids, 1200)));
    const all = handed.flat();
    expect(new Set(all).size).toBe(3600);
    expect(Math.min(...all)).toBeGreaterThan(5000);
    for (const ids of handed) expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // MongoDB's counter is at or past every id handed out, written once per thousand ids or so
    // (each process reserves when it finds the range used up).
    const seq = (await counters().findOne({ _id: 'deliveries' }))?.seq ?? 0;
    expect(seq).toBeGreaterThanOrEqual(Math.max(...all));
    expect((seq - 5000) / 1000).toBeLessThanOrEqual(9);
    // Redis flushed: its counter starts again above MongoDB's.
    expect(await stores.redis.del(`${prefix}:ids:deliveries`)).toBe(1);
    const after = await many(processes[0] as DeliveryIds, 10);
    expect(Math.min(...after)).toBeGreaterThan(Math.max(...all));
  });
});
