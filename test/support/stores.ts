import { Redis } from 'ioredis';
import { type CommandStartedEvent, MongoClient, type MongoClientOptions } from 'mongodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { uniqueMongoUrl } from './harness.js';

/**
 * A database of its own on the suite's FerretDB and a client of the suite's Redis, opened before
 * the file's tests and closed after them (read them inside tests: they are set in `beforeAll`).
 */
export function useStores(options: MongoClientOptions = {}): { client: MongoClient; redis: Redis } {
  const stores = {} as { client: MongoClient; redis: Redis };
  beforeAll(async () => {
    stores.client = await new MongoClient(uniqueMongoUrl(), options).connect();
    stores.redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await stores.client?.close();
    stores.redis?.disconnect();
  });
  return stores;
}

/** The finds of `collection` a client (made with `monitorCommands`) sends while `run` runs. */
export async function findsDuring(
  client: MongoClient,
  collection: string,
  run: () => Promise<unknown>,
): Promise<number> {
  let finds = 0;
  const seen = (event: CommandStartedEvent) => {
    if (event.command.find === collection) finds++;
  };
  client.on('commandStarted', seen);
  try {
    await run();
  } finally {
    client.off('commandStarted', seen);
  }
  return finds;
}
