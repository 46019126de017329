import { type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchInserter,
  type CollectionIndexes,
  ensureIndexes,
  NumberedLists,
  nextId,
  TenantCollection,
  type TenantDocument,
} from '../libs/db/index.js';
import { uniqueMongoUrl } from './support/harness.js';
import { connectRecordingFinds } from './support/recorded-finds.js';

interface Note extends TenantDocument {
  id: number;
  text: string;
}

describe('MongoDB layer (real FerretDB/MongoDB)', () => {
  let client: MongoClient;
  beforeAll(async () => {
    client = new MongoClient(uniqueMongoUrl());
    await client.connect();
  });
  afterAll(async () => {
    await client.db().dropDatabase();
    await client.close();
  });

  it('NumberedLists raising its counter every 8th entry: readers and other writers still find every entry, none numbered twice', async () => {
    const db = client.db();
    const writer = new NumberedLists<{ v: number }>(db, 'sparse_lists', { raiseTopEvery: 8 });
    for (let v = 1; v <= 11; v++) expect(await writer.append('log', { v })).toBe(v);
    const counter = await db
      .collection<{ _id: string; n: number }>('sparse_lists')
      .findOne({ _id: 'log/top' });
    // Raised at the 8th only: 3 writes saved, and a reader probes past it.
    expect(counter?.n).toBe(8);
    const other = new NumberedLists<{ v: number }>(db, 'sparse_lists', { raiseTopEvery: 8 });
    expect(await other.top('log')).toBe(11);
    expect(await other.append('log', { v: 12 })).toBe(12);
    expect(await writer.append('log', { v: 13 })).toBe(13);
    const values: number[] = [];
    for await (const entry of other.newestFirst('log', 16)) values.push(entry.v);
    expect(values).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('NumberedLists raising every 16th: appends of several entries raise the counter only past a 16th, and readers probe past it', async () => {
    const db = client.db();
    const counter = () =>
      db.collection<{ _id: string; n: number }>('rare_lists').findOne({ _id: 'steps/top' });
    const writer = new NumberedLists<{ v: number }>(db, 'rare_lists', { raiseTopEvery: 16 });
    await writer.appendMany('steps', [{ v: 1 }, { v: 2 }, { v: 3 }]);
    expect(await counter()).toBeNull();
    for (let v = 4; v <= 17; v++) await writer.append('steps', { v });
    expect((await counter())?.n).toBe(16);
    await writer.appendMany('steps', [{ v: 18 }, { v: 19 }]);
    expect((await counter())?.n).toBe(16);
    await writer.appendMany(
      'steps',
      Array.from({ length: 14 }, (_, i) => ({ v: 20 + i })),
    );
    expect((await counter())?.n).toBe(33);
    await writer.append('steps', { v: 34 });
    const reader = new NumberedLists<{ v: number }>(db, 'rare_lists', { raiseTopEvery: 16 });
    expect(await reader.top('steps')).toBe(34);
    const values: number[] = [];
    for await (const entry of reader.newestFirst('steps', 16)) values.push(entry.v);
    expect(values).toEqual(Array.from({ length: 34 }, (_, i) => 34 - i));
    // Another writer, new to the list, appends after the last entry.
    expect(await reader.append('steps', { v: 35 })).toBe(35);
  });

  it('NumberedLists with a group commit: appends made at once, to many lists and to one, each written once in its own number', async () => {
    const db = client.db();
    const lists = new NumberedLists<{ v: number }>(db, 'grouped_lists', { groupCommit: { timeoutMS: 5000 } });
    // A first append of each list reads its counter; after that, appends at once go together.
    await Promise.all(['a', 'b', 'c'].map((list) => lists.append(list, { v: 0 })));
    const numbers = await Promise.all(
      Array.from({ length: 60 }, (_, v) => lists.append(['a', 'b', 'c'][v % 3] as string, { v: v + 1 })),
    );
    for (const list of ['a', 'b', 'c']) {
      const stored: number[] = [];
      for await (const entry of lists.newestFirst(list, 32)) stored.push(entry.n);
      // 21 entries each, numbered 1…21 without a gap or a second copy.
      expect(stored).toEqual(Array.from({ length: 21 }, (_, i) => 21 - i));
    }
    expect(new Set(numbers.map((n, i) => `${i % 3}:${n}`)).size).toBe(60);
  });

  it('BatchInserter as a group commit: an insert alone goes out at once, those meanwhile together', async () => {
    const collection = client.db().collection<{ _id: string; n: number }>('group_commit');
    const inserter = new BatchInserter(collection, { flushEveryMs: 0 });
    const started = performance.now();
    await inserter.insert({ _id: 'alone', n: 0 });
    // A timed batch would have waited its 100 ms; a group commit only the insert itself.
    expect(performance.now() - started).toBeLessThan(80);
    await Promise.all(Array.from({ length: 50 }, (_, n) => inserter.insert({ _id: `k${n}`, n })));
    expect(await collection.countDocuments()).toBe(51);
    // Each insert settles with its own outcome: a duplicate fails alone.
    const outcomes = await Promise.allSettled([
      inserter.insert({ _id: 'k1', n: 1 }),
      inserter.insert({ _id: 'fresh', n: 99 }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
    expect(await collection.countDocuments()).toBe(52);
  });

  it('hands out unique ids under concurrency', async () => {
    const ids = await Promise.all(Array.from({ length: 200 }, () => nextId(client.db(), 'concurrent')));
    expect(new Set(ids).size).toBe(200);
    expect(Math.min(...ids)).toBe(1);
    expect(Math.max(...ids)).toBeGreaterThanOrEqual(200);
  });

  it('serves those who ask at once with one allocation, in the order they asked', async () => {
    const commands: Array<{ name: string; command: Document }> = [];
    const recording = await connectRecordingFinds(uniqueMongoUrl(), [], commands);
    try {
      const ids = await Promise.all(Array.from({ length: 50 }, () => nextId(recording.db(), 'together')));
      expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      // All asked before the first allocation started: one increment and one claim, not 50 of each.
      expect(commands.filter(({ name }) => name === 'findAndModify')).toHaveLength(1);
      expect(commands.filter(({ name }) => name === 'insert')).toHaveLength(1);
    } finally {
      await recording.close();
    }
  });

  it('never reissues an id when the counter lags behind (a lost update from another process)', async () => {
    for (let i = 0; i < 5; i++) await nextId(client.db(), 'lagging');
    await client
      .db()
      .collection<{ _id: string; seq: number }>('counters')
      .updateOne({ _id: 'lagging' }, { $set: { seq: 2 } });
    expect(await nextId(client.db(), 'lagging')).toBe(6);
  });

  it('keeps separate sequences per collection', async () => {
    expect(await nextId(client.db(), 'a')).toBe(1);
    expect(await nextId(client.db(), 'b')).toBe(1);
    expect(await nextId(client.db(), 'a')).toBe(2);
  });

  it('tenant collection never returns or changes another organization’s documents', async () => {
    const notes = new TenantCollection<Note>(client.db().collection<Note>('notes'));
    await notes.insertOne({ organizationId: 1, id: 1, text: 'one' });
    await notes.insertOne({ organizationId: 2, id: 1, text: 'two' });

    expect((await notes.findOne(1, { id: 1 }))?.text).toBe('one');
    expect((await notes.findOne(2, { id: 1 }))?.text).toBe('two');
    expect(await notes.find(3, {}).toArray()).toEqual([]);
    // A filter that names another organization is overridden by the scoped one.
    expect(await notes.findOne(1, { organizationId: 2, id: 1 } as never)).toMatchObject({ text: 'one' });
    expect(await notes.updateOne(3, { id: 1 }, { $set: { text: 'hijacked' } })).toBe(false);
    expect(await notes.deleteOne(3, { id: 1 })).toBe(false);
    expect(await notes.countDocuments(1, {})).toBe(1);
    expect((await notes.findOneAndUpdate(2, { id: 1 }, { $set: { text: 'changed' } }))?.text).toBe('changed');
    expect((await notes.findOne(1, { id: 1 }))?.text).toBe('one');
  });
});

describe('ensureIndexes', () => {
  it('can run again and again, from several processes at once (FerretDB 1.24 regression)', async () => {
    const client = new MongoClient(uniqueMongoUrl());
    await client.connect();
    const spec: CollectionIndexes = {
      collection: 'things',
      indexes: [
        { key: { a: 1 }, name: 'a', unique: true },
        { key: { b: 1 }, name: 'b' },
        { key: { c: 1, a: 1 }, name: 'c_a' },
      ],
    };
    try {
      await ensureIndexes(client.db(), [spec]);
      await Promise.all([ensureIndexes(client.db(), [spec]), ensureIndexes(client.db(), [spec])]);
      const names = (await client.db().collection('things').listIndexes().toArray())
        .map((i) => i.name)
        .sort();
      expect(names).toEqual(['_id_', 'a', 'b', 'c_a']);
    } finally {
      await client.db().dropDatabase();
      await client.close();
    }
  });
});
