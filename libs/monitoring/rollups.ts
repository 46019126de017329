import type { Collection, Db, UpdateFilter } from 'mongodb';
import type { HealthStatus } from '../checks/index.js';
import type { CollectionIndexes, MongoHealth } from '../db/index.js';
import type { Logger } from '../logging/index.js';

/**
 * Rollups of check results per website, region and hour or UTC day: how many checks, of which
 * status, and their response times. Status pages, badges and the dashboard read these (24 hourly
 * and one daily document a website and region a day) instead of the raw results, of which a
 * website checked every 10 s has 8,640 a day.
 */
export type RollupPeriod = 'hour' | 'day';

export interface ResultRollup {
  /** `<websiteId>:<region>:<period>:<start ISO>`: one writer per region, so increments do not race. */
  _id: string;
  organizationId: number;
  websiteId: number;
  region: string;
  period: RollupPeriod;
  start: Date;
  checks: number;
  up: number;
  degraded: number;
  down: number;
  /** Response times of the checks that got an answer (not down). */
  responseMsSum: number;
  responseMsCount: number;
  responseMsMax: number;
  /** Removed after this: hours after two days, days after the 90 of the uptime bars and today. */
  expiresAt: Date;
}

export const RESULT_ROLLUPS = 'result_rollups';
const HOUR_MS = 3_600_000;
/**
 * How often a worker writes its rollups: an upsert per website, region and period each time, so at
 * 10 s intervals one upsert per 30 checks. Status pages' response times and day bars lag by at most
 * this. `npm run bench:rollups` measured a flush every 5 minutes at 0.14 CPU-s per 1,000 checks on
 * the embedded FerretDB (~1.6 ms per upsert), 4–8 % of a whole check: every 10 minutes halves that.
 */
export const ROLLUP_FLUSH_MS = 10 * 60_000;
const DAY_MS = 24 * HOUR_MS;
const RETENTION_MS: Record<RollupPeriod, number> = { hour: 2 * DAY_MS, day: 91 * DAY_MS };
const PERIOD_MS: Record<RollupPeriod, number> = { hour: HOUR_MS, day: DAY_MS };

export const rollupIndexes: CollectionIndexes = {
  collection: RESULT_ROLLUPS,
  indexes: [
    { key: { organizationId: 1, websiteId: 1, period: 1, start: 1 }, name: 'website_period_start' },
    { key: { expiresAt: 1 }, name: 'expires_at' },
  ],
};

type Counted = Pick<
  ResultRollup,
  'checks' | 'up' | 'degraded' | 'down' | 'responseMsSum' | 'responseMsCount' | 'responseMsMax'
>;
type Increment = Pick<ResultRollup, '_id' | 'organizationId' | 'websiteId' | 'region' | 'period' | 'start'> &
  Counted;

/** What a rollup needs of a result. */
export interface RolledResult {
  organizationId: number;
  websiteId: number;
  region: string;
  startedAt: Date;
  status: HealthStatus;
  timings: { total: number };
}

/** The start of the hour or UTC day `at` falls in. */
export const periodStart = (period: RollupPeriod, at: Date) =>
  new Date(Math.floor(at.getTime() / PERIOD_MS[period]) * PERIOD_MS[period]);

/** Adds a result to its hour's and its day's increments waiting to be written (pure: the map is the caller's). */
export function addToIncrements(increments: Map<string, Increment>, result: RolledResult): void {
  for (const period of ['hour', 'day'] as const) addTo(increments, period, result);
}

function addTo(increments: Map<string, Increment>, period: RollupPeriod, result: RolledResult): void {
  const start = periodStart(period, result.startedAt);
  const id = `${result.websiteId}:${result.region}:${period}:${start.toISOString()}`;
  const entry = increments.get(id) ?? {
    _id: id,
    organizationId: result.organizationId,
    websiteId: result.websiteId,
    region: result.region,
    period,
    start,
    checks: 0,
    up: 0,
    degraded: 0,
    down: 0,
    responseMsSum: 0,
    responseMsCount: 0,
    responseMsMax: 0,
  };
  entry.checks++;
  entry[result.status]++;
  if (result.status !== 'down') {
    entry.responseMsSum += result.timings.total;
    entry.responseMsCount++;
    entry.responseMsMax = Math.max(entry.responseMsMax, result.timings.total);
  }
  increments.set(id, entry);
}

/**
 * A worker's rollups: results are added as they are stored and written together every
 * `flushEveryMs` (an upsert per website, region and period, not one per check) and at shutdown. A worker
 * killed without a shutdown loses at most that much of the rollups (never a result).
 */
export class RollupRecorder {
  private increments = new Map<string, Increment>();
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly rollups: Collection<ResultRollup>,
    private readonly options: {
      logger: Logger;
      /** Written only while MongoDB answers; a write it stops answering is given up (and kept). */
      mongo: Pick<MongoHealth, 'available' | 'onLost'>;
      flushEveryMs?: number;
      /** A write not answered within this is given up (and kept for the next flush). */
      writeTimeoutMs?: number;
    },
  ) {
    this.timer = setInterval(() => void this.flush(), options.flushEveryMs ?? ROLLUP_FLUSH_MS);
    this.timer.unref();
  }

  add(result: RolledResult): void {
    addToIncrements(this.increments, result);
  }

  /** Writes what was added so far; a failed write keeps it for the next flush. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private async write(): Promise<void> {
    const batch = this.increments;
    if (batch.size === 0 || !this.options.mongo.available) return;
    this.increments = new Map();
    const updateOf = (entry: Increment): UpdateFilter<ResultRollup> => ({
      $setOnInsert: {
        organizationId: entry.organizationId,
        websiteId: entry.websiteId,
        region: entry.region,
        period: entry.period,
        start: entry.start,
        expiresAt: new Date(entry.start.getTime() + RETENTION_MS[entry.period]),
      },
      $inc: {
        checks: entry.checks,
        up: entry.up,
        degraded: entry.degraded,
        down: entry.down,
        responseMsSum: entry.responseMsSum,
        responseMsCount: entry.responseMsCount,
      },
      $max: { responseMsMax: entry.responseMsMax },
    });
    // One upsert at a time, not a bulk write: FerretDB 1.24 on SQLite was seen to hang for good
    // (and every other command with it) on an unordered bulk of upserts after a restart.
    const writeAll = async (lost: Promise<never>) => {
      for (const entry of [...batch.values()]) {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('a write was not answered in time')),
            this.options.writeTimeoutMs ?? 10_000,
          );
        });
        try {
          await Promise.race([
            this.rollups.updateOne({ _id: entry._id }, updateOf(entry), { upsert: true }),
            lost,
            late,
          ]);
        } finally {
          clearTimeout(timer);
          late.catch(() => undefined);
        }
        batch.delete(entry._id);
      }
    };
    let unsubscribe = () => {};
    // A stalled or vanished MongoDB can leave a write unanswered for good: it must not hold the
    // flushes behind it (nor the shutdown).
    const lost = new Promise<never>((_, reject) => {
      unsubscribe = this.options.mongo.onLost(() => reject(new Error('MongoDB became unavailable')));
    });
    lost.catch(() => undefined);
    try {
      await writeAll(lost);
    } catch (error) {
      // What was not written is kept for the next flush (a write given up that lands later
      // counts twice: after an outage counts can come out a little high, never low).
      for (const entry of batch.values()) this.merge(entry);
      this.options.logger.warn(
        { err: error instanceof Error ? error.message : String(error), rollups: batch.size },
        'rollups not written; retrying with the next flush',
      );
    } finally {
      unsubscribe();
    }
  }

  private merge(entry: Increment): void {
    const current = this.increments.get(entry._id);
    if (!current) {
      this.increments.set(entry._id, entry);
      return;
    }
    for (const field of ['checks', 'up', 'degraded', 'down', 'responseMsSum', 'responseMsCount'] as const)
      current[field] += entry[field];
    current.responseMsMax = Math.max(current.responseMsMax, entry.responseMsMax);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

/** Reading rollups (status pages, badges, the dashboard) and their retention. */
export class RollupRepository {
  readonly collection: Collection<ResultRollup>;

  constructor(db: Db) {
    this.collection = db.collection<ResultRollup>(RESULT_ROLLUPS);
  }

  /** The rollups of one period of these websites starting at `from` or later, every region. */
  since(
    organizationId: number,
    websiteIds: readonly number[],
    period: RollupPeriod,
    from: Date,
  ): Promise<ResultRollup[]> {
    if (websiteIds.length === 0) return Promise.resolve([]);
    return this.collection
      .find(
        { organizationId, websiteId: { $in: [...websiteIds] }, period, start: { $gte: from } },
        { projection: { _id: 0 } },
      )
      .toArray();
  }

  async deleteExpired(now: Date): Promise<number> {
    return (await this.collection.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
  }
}
