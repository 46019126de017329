import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { watchMongoHealth } from '../libs/db/index.js';
import { createLogger } from '../libs/logging/index.js';
import { uniqueMongoUrl } from './support/harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('MongoDB health: a ping only where nothing else answered', () => {
  let client: MongoClient;
  let pings = 0;
  beforeAll(async () => {
    client = new MongoClient(uniqueMongoUrl(inject('mongoUrl')), { monitorCommands: true });
    client.on('commandStarted', (event) => {
      if (event.commandName === 'ping') pings++;
    });
    await client.connect();
  });
  afterAll(() => client.close());

  it("skips its pings while the process's own requests are answered, and pings again when they stop", async () => {
    const health = watchMongoHealth(
      { client, db: client.db() },
      { logger: createLogger('t', 'silent'), intervalMs: 100 },
    );
    try {
      await sleep(550);
      // Idle: a ping every interval.
      expect(pings).toBeGreaterThanOrEqual(3);
      const before = pings;
      // Busy: each answer within the interval stands for a ping.
      for (let i = 0; i < 12; i++) {
        await client.db().collection('health').insertOne({ i });
        health.answered();
        await sleep(40);
      }
      expect(pings - before).toBeLessThanOrEqual(1);
      expect(health.available).toBe(true);
      const quiet = pings;
      await sleep(550);
      expect(pings - quiet).toBeGreaterThanOrEqual(3);
    } finally {
      health.stop();
    }
  });
});
