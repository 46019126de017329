import { type CommandStartedEvent, type Db, type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../libs/logging/index.js';
import { RollupRecorder, RollupRepository, WEBSITE_ROLLUPS } from '../libs/monitoring/index.js';
import { uniqueMongoUrl } from './support/harness.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe('rollups on the embedded store: documents per website, region and bucket, read by primary key', () => {
  let client: MongoClient;
  let db: Db;
  const commands: Document[] = [];

  beforeAll(async () => {
    client = new MongoClient(uniqueMongoUrl(), { monitorCommands: true });
    client.on('commandStarted', (event: CommandStartedEvent) => {
      if (event.commandName === 'find') commands.push(event.command);
    });
    await client.connect();
    db = client.db();
  });
  afterAll(async () => {
    await client?.close();
  });

  const recorder = (repository: RollupRepository) =>
    new RollupRecorder(repository, {
      logger: createLogger('test', 'silent'),
      mongo: { available: true, onLost: () => () => undefined },
      flushEveryMs: HOUR_MS,
    });

  it('flushes add to the cells already written; pages read one document per website, region and bucket', async () => {
    const repository = new RollupRepository(db);
    const now = Date.now();
    const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    const writer = recorder(repository);
    const add = (
      websiteId: number,
      region: string,
      at: number,
      total: number,
      status: 'up' | 'down' = 'up',
    ) =>
      writer.add({
        organizationId: 1,
        websiteId,
        region,
        startedAt: new Date(at),
        status,
        timings: { total },
      });
    add(1, 'eu', hour, 100);
    add(1, 'us', hour, 300);
    add(2, 'eu', hour - DAY_MS, 50);
    await writer.flush();
    add(1, 'eu', hour + 1, 500);
    add(1, 'eu', hour + 2, 9_000, 'down');
    await writer.close();
    // Two websites' hours and days: 1/eu, 1/us, 2/eu (yesterday's hours and perhaps last month's days).
    expect(await db.collection(WEBSITE_ROLLUPS).countDocuments()).toBeGreaterThanOrEqual(6);

    commands.length = 0;
    const hours = await new RollupRepository(db).since(1, [1, 2, 3], 'hour', new Date(hour - 2 * DAY_MS));
    const eu = hours.find((row) => row.websiteId === 1 && row.region === 'eu');
    expect(eu).toMatchObject({
      checks: 3,
      up: 2,
      down: 1,
      responseMsSum: 600,
      responseMsCount: 2,
      responseMsMax: 500,
      start: new Date(hour),
    });
    expect(hours.filter((row) => row.websiteId === 1).map((row) => row.region)).toEqual(['eu', 'us']);
    expect(hours.filter((row) => row.websiteId === 2)).toHaveLength(1);
    const reads = commands.filter((command) => command.find === WEBSITE_ROLLUPS);
    // Three websites × two regions × the three days from `from` to now, each by `_id`, nothing else.
    expect(reads).toHaveLength(18);
    for (const read of reads) expect(Object.keys(read.filter)).toEqual(['_id']);

    const days = await repository.since(1, [1], 'day', new Date(hour - DAY_MS));
    expect(days.map((row) => [row.region, row.checks])).toEqual([
      ['eu', 3],
      ['us', 1],
    ]);
    // Asked from long ago, only the buckets the retention keeps are read.
    commands.length = 0;
    expect(await repository.since(2, [1], 'hour', new Date(0))).toEqual([]);
    expect(commands.filter((command) => command.find === WEBSITE_ROLLUPS).length).toBeLessThanOrEqual(2 * 4);
    expect(await repository.since(1, [2], 'hour', new Date(hour))).toEqual([]);
  });

  it('folds rollups kept the former way into the documents, once, and drops the old collection', async () => {
    const legacyDb = client.db(`${db.databaseName}_legacy`);
    const repository = new RollupRepository(legacyDb);
    const day = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const counts = (checks: number) => ({
      checks,
      up: checks,
      degraded: 0,
      down: 0,
      responseMsSum: checks * 10,
      responseMsCount: checks,
      responseMsMax: 10,
    });
    const legacy = Array.from({ length: 1_200 }, (_, n) => {
      const websiteId = 1 + (n % 40);
      const start = new Date(day - Math.floor(n / 40) * DAY_MS);
      return {
        _id: `${websiteId}:eu:day:${start.toISOString()}`,
        organizationId: 5,
        websiteId,
        region: 'eu',
        period: 'day',
        start,
        ...counts(2),
        expiresAt: new Date(start.getTime() + 91 * DAY_MS),
      };
    });
    await legacyDb.collection('result_rollups').insertMany(legacy as never[]);
    expect(await repository.foldLegacyRollups((work) => work())).toBe(1_200);
    expect(await legacyDb.listCollections({ name: 'result_rollups' }).hasNext()).toBe(false);
    expect(await repository.foldLegacyRollups((work) => work())).toBe(0);
    const days = await repository.since(5, [7], 'day', new Date(day - 40 * DAY_MS));
    expect(days).toHaveLength(30);
    expect(days.every((row) => row.checks === 2 && row.responseMsSum === 20)).toBe(true);
    // Another process folding already: this one leaves it to that one.
    await legacyDb.collection('result_rollups').insertOne(legacy[0] as never);
    expect(await repository.foldLegacyRollups(async () => undefined)).toBe(0);
    expect(await legacyDb.collection('result_rollups').countDocuments()).toBe(1);
    await legacyDb.dropDatabase();
  });
});
