import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultRepository } from '../libs/monitoring/index.js';
import { uniqueMongoUrl } from './support/harness.js';

describe('result retention', () => {
  let client: MongoClient;
  beforeAll(async () => {
    client = new MongoClient(uniqueMongoUrl());
    await client.connect();
  });
  afterAll(async () => {
    await client.db().dropDatabase();
    await client.close();
  });

  it('deletes results past their retainUntil and keeps the rest', async () => {
    const results = new ResultRepository(client.db());
    const now = Date.now();
    await results.collection.insertMany(
      [-3, -2, -1, 1, 2].map((days) => ({
        websiteId: 1,
        organizationId: 1,
        retainUntil: new Date(now + days * 86_400_000),
      })) as never,
    );
    expect(await results.deleteExpired(new Date(now))).toBe(3);
    expect(await results.collection.countDocuments({})).toBe(2);
  });
});
