import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../libs/config/index.js';
import { createLogger } from '../libs/logging/index.js';
import { createServices } from '../libs/services/index.js';
import { uniqueMongoUrl } from './support/harness.js';

describe('services of a process', () => {
  const mongo = new MongoClient(uniqueMongoUrl());
  const redis = new Redis(inject('redisUrl'));
  beforeAll(() => mongo.connect());
  afterAll(async () => {
    await mongo.db().dropDatabase();
    await mongo.close();
    redis.disconnect();
  });

  it('are built on first use, with what they need and nothing else', async () => {
    const config = loadConfig({ SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') });
    const services = createServices({
      db: mongo.db(),
      redis,
      config,
      logger: createLogger('test', 'silent'),
    });
    expect(services.built()).toEqual([]);
    // What the notifier reaches for: delivery requests and what they are made of (the mail budget
    // the deliveries hold for e-mail channels' test sends: a Redis key prefix, nothing opened).
    expect(services.deliveryRequests).toBeDefined();
    expect(services.built().sort()).toEqual(
      [
        'channelRepository',
        'deliveries',
        'deliveryRequests',
        'mailBudget',
        'notificationQueue',
        'owedAttempts',
      ].sort(),
    );
    expect(services.built()).not.toContain('scheduler');
    // The same instance each time.
    expect(services.websites).toBe(services.websites);
    expect(services.built()).toEqual(
      expect.arrayContaining(['websites', 'scheduler', 'channels', 'secrets']),
    );
    await services.close();
  });
});
