import { type CommandStartedEvent, type Db, type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../libs/logging/index.js';
import {
  RollupRecorder,
  RollupRepository,
  WEBSITE_ROLLUP_MONTHS,
  WEBSITE_ROLLUPS,
} from '../libs/monitoring/index.js';
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
    // Asked from long ago, only the buckets the retention keeps are read. (On a month's first day
    // the day read above folds last month in the background: its reads of day documents may land
    // meanwhile, so only hour documents are counted.)
    commands.length = 0;
    expect(await repository.since(2, [1], 'hour', new Date(0))).toEqual([]);
    const hourReads = commands.filter(
      (command) => command.find === WEBSITE_ROLLUPS && String(command.filter?._id).includes(':hour:'),
    );
    expect(hourReads.length).toBeGreaterThan(0);
    expect(hourReads.length).toBeLessThanOrEqual(2 * 4);
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

  it("folds a settled month's regions into one document per website: read once, removed by a late write, made again", async () => {
    const repository = new RollupRepository(db);
    const now = new Date();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
    const writer = recorder(repository);
    const add = (
      websiteId: number,
      region: string,
      day: number,
      total: number,
      status: 'up' | 'down' = 'up',
    ) =>
      writer.add({
        organizationId: 9,
        websiteId,
        region,
        startedAt: new Date(month.getTime() + (day - 1) * DAY_MS + HOUR_MS),
        status,
        timings: { total },
        ...(region === 'us' && { ssl: { validTo: new Date(month.getTime() + 90 * DAY_MS) } }),
      });
    for (const websiteId of [101, 102]) {
      add(websiteId, 'eu', 3, 100);
      add(websiteId, 'us', 3, 400);
      add(websiteId, 'ap', 3, 0, 'down');
      add(websiteId, 'eu', 4, 50);
    }
    await writer.flush();
    const summed = (rows: Awaited<ReturnType<RollupRepository['since']>>) =>
      rows.map((r) => ({
        websiteId: r.websiteId,
        day: r.start.toISOString().slice(0, 10),
        checks: r.checks,
        down: r.down,
        responseMsSum: r.responseMsSum,
        responseMsMax: r.responseMsMax,
        sslValidTo: r.sslValidTo,
        latency: r.latency,
      }));
    const byDay = (rows: Awaited<ReturnType<RollupRepository['since']>>) => {
      const days = new Map<string, ReturnType<typeof summed>[number]>();
      for (const row of summed(rows)) {
        const key = `${row.websiteId}:${row.day}`;
        const day = days.get(key);
        if (!day) days.set(key, { ...row, latency: { ...row.latency } });
        else {
          day.checks += row.checks;
          day.down += row.down;
          day.responseMsSum += row.responseMsSum;
          day.responseMsMax = Math.max(day.responseMsMax, row.responseMsMax);
          day.sslValidTo = Math.max(day.sslValidTo ?? 0, row.sslValidTo ?? 0) || undefined;
          for (const [bucket, count] of Object.entries(row.latency ?? {}))
            (day.latency as Record<string, number>)[bucket] = (day.latency?.[bucket] ?? 0) + count;
        }
      }
      return [...days.values()].sort((a, b) =>
        `${a.websiteId}${a.day}`.localeCompare(`${b.websiteId}${b.day}`),
      );
    };
    const until = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    // First read: each region's document, then the month folded in the background.
    const fromRegions = await repository.since(9, [101, 102], 'day', month, until);
    expect(new Set(fromRegions.map((r) => r.region))).toEqual(new Set(['eu', 'us', 'ap']));
    const expected = byDay(fromRegions);
    expect(expected[0]).toMatchObject({ checks: 3, down: 1, responseMsSum: 500, responseMsMax: 400 });
    const months = db.collection(WEBSITE_ROLLUP_MONTHS);
    await expect.poll(() => months.countDocuments({ websiteId: { $in: [101, 102] } })).toBe(2);

    // A process that never read it reads one document per website, every region summed, the same figures.
    commands.length = 0;
    const folded = await new RollupRepository(db).since(9, [101, 102], 'day', month, until);
    expect(new Set(folded.map((r) => r.region))).toEqual(new Set(['*']));
    expect(byDay(folded)).toEqual(expected);
    expect(commands.filter((c) => c.find === WEBSITE_ROLLUPS)).toHaveLength(0);
    expect(commands.filter((c) => c.find === WEBSITE_ROLLUP_MONTHS)).toHaveLength(2);
    // Another organization asking for these ids gets nothing.
    expect(await new RollupRepository(db).since(8, [101], 'day', month, until)).toEqual([]);

    // A worker that flushes late (after an outage) writes the month again: its fold goes, the figures count it.
    add(101, 'eu', 4, 70);
    await writer.close();
    expect(await months.countDocuments({ websiteId: 101 })).toBe(0);
    const afterLate = byDay(await new RollupRepository(db).since(9, [101], 'day', month, until));
    expect(afterLate.find((d) => d.day.endsWith('-04'))).toMatchObject({ checks: 2, responseMsSum: 120 });
    await expect.poll(() => months.countDocuments({ websiteId: 101 })).toBe(1);
    expect(byDay(await new RollupRepository(db).since(9, [101], 'day', month, until))).toEqual(afterLate);
  });

  it("the worker's pass folds every website's last two months once, in batches, and leaves it to a process already at it", async () => {
    const repository = new RollupRepository(db);
    const today = new Date();
    // The pass's clock on the 2nd of last month: the month before settled for the pass and for the
    // read below, which goes by the real clock (in a month's first hour, last month is not yet).
    const now = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 2));
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const writer = recorder(repository);
    const websites = Array.from({ length: 130 }, (_, n) => ({
      organizationId: 20 + (n % 2),
      websiteId: 1_000 + n,
    }));
    for (const { organizationId, websiteId } of websites)
      for (const region of ['eu', 'us'])
        writer.add({
          organizationId,
          websiteId,
          region,
          startedAt: new Date(month.getTime() + 5 * DAY_MS),
          status: 'up',
          timings: { total: 42 },
        });
    await writer.close();
    const ordered = [...websites].sort(
      (a, b) => a.organizationId - b.organizationId || a.websiteId - b.websiteId,
    );
    const websitesAfter = async (after: { organizationId: number; websiteId: number }, limit: number) =>
      ordered
        .filter(
          (w) =>
            w.organizationId > after.organizationId ||
            (w.organizationId === after.organizationId && w.websiteId > after.websiteId),
        )
        .slice(0, limit);
    expect(await repository.foldSettledMonths(now, websitesAfter, async () => undefined)).toBe(0);
    // The last month and the one before (nothing written then: folds of nothing, so no read falls back).
    expect(await repository.foldSettledMonths(now, websitesAfter, (work) => work())).toBe(260);
    expect(await repository.foldSettledMonths(now, websitesAfter, (work) => work())).toBe(0);
    const months = db.collection(WEBSITE_ROLLUP_MONTHS);
    expect(await months.countDocuments({ websiteId: { $gte: 1_000, $lt: 1_130 } })).toBe(260);
    const rows = await new RollupRepository(db).since(21, [1_001], 'day', month, today);
    expect(rows.filter((r) => r.start < new Date(month.getTime() + 31 * DAY_MS))).toMatchObject([
      { region: '*', checks: 2, responseMsSum: 84 },
    ]);
  });
});
