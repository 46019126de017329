import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Db, Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ID_LISTS, type ListRevisions, OrderedIdChunks, serializedInProcess } from '../libs/db/index.js';
import { Revisions } from '../libs/redis/index.js';
import { uniqueMongoUrl } from './support/harness.js';
import { connectRecordingFinds } from './support/recorded-finds.js';

/** An owner's ids in chunks (of 50 here, 500 in use), paged by primary key, on the embedded FerretDB. */
describe('ordered id chunks', () => {
  const url = uniqueMongoUrl();
  let client: MongoClient;
  let db: Db;
  const finds: Document[] = [];
  let scans = 0;

  let redis: Redis;
  const list = (namespace: string, stored: number[] = [], revisions?: ListRevisions) =>
    new OrderedIdChunks(db, namespace, {
      serialize: serializedInProcess(),
      ...(revisions ? { revisions } : {}),
      listNow: async () => {
        scans++;
        return stored;
      },
      chunkIds: 50,
    });
  const everything = (chunks: OrderedIdChunks, owner: number) => chunks.page(owner, 0, 1_000_000);

  beforeAll(async () => {
    client = await connectRecordingFinds(url, finds);
    db = client.db();
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await db?.dropDatabase();
    await client?.close();
  });

  it('pages 130 ids added at once, out of order, in ascending pages by primary-key reads only', async () => {
    const chunks = list('things.owner');
    const ids = Array.from({ length: 130 }, (_, i) => i * 3 + 1);
    const shuffled = [...ids].sort(() => Math.random() - 0.5);
    await Promise.all(shuffled.map((id) => chunks.add(7, id)));
    expect(await everything(chunks, 7)).toEqual(ids);

    const paged: number[] = [];
    let after = 0;
    for (;;) {
      finds.length = 0;
      const page = await chunks.page(7, after, 10);
      // The head, then the chunk or two holding the page: each by `_id` alone.
      expect(finds.length).toBeLessThanOrEqual(3);
      for (const find of finds) expect(Object.keys(find.filter)).toEqual(['_id']);
      paged.push(...page);
      if (page.length < 10) break;
      after = page.at(-1) as number;
    }
    expect(paged).toEqual(ids);
    expect(await chunks.page(7, 100, 3)).toEqual([103, 106, 109]);
    // Another owner's list is its own.
    expect(await everything(chunks, 8)).toEqual([]);
  });

  it('keeps chunks at their size (pages stay a few reads however many ids)', async () => {
    const chunks = list('sized.owner');
    for (let id = 1; id <= 160; id++) await chunks.add(1, id);
    const head = await db
      .collection(ID_LISTS)
      .findOne<{ chunks: Array<{ size: number }> }>({ _id: 'sized.owner/1' as never });
    expect(head?.chunks.map((c) => c.size)).toEqual([50, 50, 50, 10]);
  });

  it('removes ids; a page past removed ones reads on', async () => {
    const chunks = list('removed.owner');
    for (let id = 1; id <= 110; id++) await chunks.add(1, id);
    for (let id = 2; id <= 100; id++) await chunks.remove(1, id);
    expect(await chunks.page(1, 0, 5)).toEqual([1, 101, 102, 103, 104]);
    await chunks.remove(1, 999_999);
    expect((await everything(chunks, 1)).length).toBe(11);
  });

  it('builds a list never written from its documents once (one scan), then keeps it', async () => {
    scans = 0;
    const chunks = list('built.owner', [9, 3, 1_200, 3]);
    expect(await everything(chunks, 4)).toEqual([3, 9, 1_200]);
    await chunks.add(4, 1_300);
    await chunks.add(4, 5);
    expect(await everything(chunks, 4)).toEqual([3, 5, 9, 1_200, 1_300]);
    expect(scans).toBe(1);
  });

  it('drops an owner with its chunks', async () => {
    const chunks = list('dropped.owner');
    for (let id = 1; id <= 60; id++) await chunks.add(2, id);
    await chunks.drop(2);
    expect(
      await db.collection(ID_LISTS).countDocuments({ _id: { $regex: '^dropped\\.owner/' } as never }),
    ).toBe(0);
  });

  it('with revisions, a reader pages from memory until a writer (another process) changes the list', async () => {
    const revisions = new Revisions(redis, `test-${randomUUID()}:list-rev`);
    const [writer, reader] = [list('revised.owner', [], revisions), list('revised.owner', [], revisions)];
    for (let id = 1; id <= 120; id++) await writer.add(3, id);
    expect(await reader.page(3, 0, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(await reader.page(3, 60, 3)).toEqual([61, 62, 63]);
    // Read once: the next pages of what it read need no MongoDB read.
    finds.length = 0;
    expect(await reader.page(3, 0, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(await reader.page(3, 60, 3)).toEqual([61, 62, 63]);
    expect(finds).toEqual([]);

    // Written by the other process: the reader's next page reads the list again.
    await writer.remove(3, 2);
    await writer.add(3, 500);
    expect(await reader.page(3, 0, 5)).toEqual([1, 3, 4, 5, 6]);
    expect((await everything(reader, 3)).at(-1)).toBe(500);
    // Another owner's list is kept apart.
    expect(await everything(reader, 4)).toEqual([]);
  });
});
