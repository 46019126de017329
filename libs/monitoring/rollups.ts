import type { Collection, Db } from 'mongodb';
import type { CollectionIndexes, MongoHealth } from '../db/index.js';
import { FlushedIncrements, isDuplicateKey, type ReadFanOut, readFanOut } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { ConcurrencyLimit } from '../runtime/index.js';
import { foldLegacy, LEGACY_FOLD_BATCH, LEGACY_ROLLUPS, type LegacyRollup } from './legacy-rollups.js';
import {
  addToIncrements,
  bucketsBetween,
  mergeIncrement,
  nextBucket,
  type ResultRollup,
  ROLLUP_RETENTION_MS,
  type RolledResult,
  type RollupBucketDocument,
  type RollupIncrement,
  type RollupPeriod,
  rollupDocumentId,
  rollupRows,
  rollupUpdate,
} from './rollup-cells.js';
import {
  EVERY_REGION,
  foldable,
  foldLastMonths,
  RollupMonths,
  unfoldsFold,
  type WebsitesAfter,
} from './rollup-months.js';

export const WEBSITE_ROLLUPS = 'website_rollups';
/** The regions that have written rollups, one document each (`_id`: the region): inserts only. */
export const ROLLUP_REGIONS = 'rollup_regions';

/**
 * How often a worker writes its rollups: one upsert per website and region each time, so at 10 s
 * intervals one upsert per 60 checks. Status pages' response times and day bars lag by at most
 * this. `npm run bench:rollups` measures a flush's cost on the embedded FerretDB.
 */
export const ROLLUP_FLUSH_MS = 10 * 60_000;
/** How long the list of regions is reused: a region's first rollups show on pages within this. */
const REGIONS_REUSED_MS = 5_000;
/** The longest a bucket lasts: a day of hours, a month of days. */
const BUCKET_MS: Record<RollupPeriod, number> = { hour: 86_400_000, day: 31 * 86_400_000 };
/** Documents read at once for one page or badge. */
const READ_CONCURRENCY = 16;
/**
 * A bucket ended this long ago gets no more writes from a worker that flushes on time (two
 * flushes), so its rows are kept in memory instead of read again for every page built; each is
 * read anew after SETTLED_REREAD_MS all the same, for a worker that flushed late (after a MongoDB
 * outage). At most SETTLED_KEPT buckets (~3 KB each), the least recently stored go first.
 */
const SETTLED_AFTER_MS = 2 * ROLLUP_FLUSH_MS;
const SETTLED_REREAD_MS = 3_600_000;
const SETTLED_KEPT = 10_000;

export const rollupIndexes: CollectionIndexes = {
  collection: WEBSITE_ROLLUPS,
  indexes: [{ key: { expiresAt: 1 }, name: 'expires_at' }],
};

/**
 * A worker's rollups: results are added as they are stored and written together every
 * `flushEveryMs` (an upsert per website, region and bucket, not one per check) and at shutdown. A worker
 * killed without a shutdown loses at most that much of the rollups (never a result).
 */
export class RollupRecorder {
  private readonly increments: FlushedIncrements<RollupIncrement>;
  private readonly regionsKnown = new Set<string>();

  constructor(
    private readonly store: Pick<RollupRepository, 'collection' | 'registerRegion' | 'unfold'>,
    options: {
      logger: Logger;
      /** Written only while MongoDB answers; a write it stops answering is given up (and kept). */
      mongo: Pick<MongoHealth, 'available' | 'onLost'>;
      flushEveryMs?: number;
      /** A write not answered within this is given up (and kept for the next flush). */
      writeTimeoutMs?: number;
    },
  ) {
    this.increments = new FlushedIncrements({
      what: 'rollups',
      write: (entry) => this.write(entry),
      merge: mergeIncrement,
      logger: options.logger,
      mongo: options.mongo,
      flushEveryMs: options.flushEveryMs ?? ROLLUP_FLUSH_MS,
      writeTimeoutMs: options.writeTimeoutMs,
    });
  }

  add(result: RolledResult): void {
    this.increments.add((pending) => addToIncrements(pending, result));
  }

  /** Writes what was added so far; a failed write keeps it for the next flush. */
  flush(): Promise<void> {
    return this.increments.flush();
  }

  close(): Promise<void> {
    return this.increments.close();
  }

  private async write(entry: RollupIncrement): Promise<void> {
    if (!this.regionsKnown.has(entry.region)) {
      await this.store.registerRegion(entry.region);
      this.regionsKnown.add(entry.region);
    }
    await this.store.collection.updateOne({ _id: entry._id }, rollupUpdate(entry), { upsert: true });
    if (entry.period === 'day' && unfoldsFold(entry.bucketStart, new Date()))
      await this.store.unfold(entry.websiteId, entry.bucketStart);
  }
}

/** Reading rollups (status pages, badges, the dashboard) and their retention. */
export class RollupRepository {
  readonly collection: Collection<RollupBucketDocument>;
  private readonly regionsCollection: Collection<{ _id: string }>;
  private regionsRead: { at: number; regions: Promise<string[]> } | undefined;
  /** Rows of buckets that no longer change (every cell; null: no document), by document id. */
  private readonly settled = new Map<
    string,
    { at: number; organizationId: number; rows: ResultRollup[] | null }
  >();

  private readonly months: RollupMonths;
  private readonly folds = new ConcurrencyLimit(2);
  private readonly folding = new Set<string>();

  constructor(private readonly db: Db) {
    this.collection = db.collection<RollupBucketDocument>(WEBSITE_ROLLUPS);
    this.regionsCollection = db.collection<{ _id: string }>(ROLLUP_REGIONS);
    this.months = new RollupMonths(db, this.collection);
  }

  /** Notes that `region` writes rollups (idempotent: an insert, a second one is refused). */
  async registerRegion(region: string): Promise<void> {
    try {
      await this.regionsCollection.insertOne({ _id: region });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /**
   * The regions that ever wrote rollups: a read of a collection as small as the number of regions,
   * reused a few seconds.
   */
  private regions(): Promise<string[]> {
    const now = Date.now();
    if (!this.regionsRead || now - this.regionsRead.at > REGIONS_REUSED_MS) {
      const regions = this.regionsCollection
        .find({}, { projection: { _id: 1 } })
        .toArray()
        .then((found) => found.map((region) => region._id).sort());
      regions.catch(() => {
        this.regionsRead = undefined;
      });
      this.regionsRead = { at: now, regions };
    }
    return this.regionsRead.regions;
  }

  /**
   * The rollups of one period of these websites starting at `from` or later, every region, oldest
   * first per website and region: one primary-key read per website, region and bucket (a UTC day
   * of hours, a month of days) from `from` to now.
   */
  async since(
    organizationId: number,
    websiteIds: readonly number[],
    period: RollupPeriod,
    from: Date,
    /** Rows starting before this only (a past period's report reads no bucket after it). @defaultValue now */
    until?: Date,
  ): Promise<ResultRollup[]> {
    if (websiteIds.length === 0) return [];
    const regions = await this.regions();
    const now = new Date();
    // Nothing older than the retention is kept: a period starting before it reads only what is.
    const kept = new Date(now.getTime() - ROLLUP_RETENTION_MS[period] - BUCKET_MS[period]);
    const end = until && until < now ? new Date(until.getTime() - 1) : now;
    const buckets = bucketsBetween(period, from > kept ? from : kept, end);
    const reads = readFanOut(READ_CONCURRENCY);
    const regionRows = (websiteId: number, bucket: Date) =>
      Promise.all(
        regions.map((region) =>
          reads.run(() => this.bucketRows(organizationId, websiteId, region, period, bucket, now)),
        ),
      ).then((rows) => rows.flat());
    const rows = await Promise.all(
      websiteIds.flatMap((websiteId) =>
        buckets.map(async (bucket) => {
          const found =
            period === 'day' && foldable(bucket, now)
              ? await this.monthRows(organizationId, websiteId, bucket, now, reads, () =>
                  regionRows(websiteId, bucket),
                )
              : await regionRows(websiteId, bucket);
          return found.filter((row) => row.start >= from && row.start <= end);
        }),
      ),
    );
    return rows.flat();
  }

  /**
   * A settled month's day rows of a website: its fold (one read, every region summed), else its
   * regions' documents, after which the month is folded in the background for the next reader.
   */
  private async monthRows(
    organizationId: number,
    websiteId: number,
    month: Date,
    now: Date,
    reads: ReadFanOut,
    fromRegions: () => Promise<ResultRollup[]>,
  ): Promise<ResultRollup[]> {
    const key = rollupDocumentId(websiteId, EVERY_REGION, 'day', month);
    const known = this.settled.get(key);
    if (known && now.getTime() - known.at < SETTLED_REREAD_MS)
      return known.organizationId === organizationId ? (known.rows ?? []) : [];
    const cells = await reads.run(() => this.months.cells(organizationId, websiteId, month));
    if (!cells) {
      const rows = await fromRegions();
      this.foldLater(organizationId, websiteId, month);
      return rows;
    }
    const rows = rollupRows(
      { organizationId, websiteId, region: EVERY_REGION, period: 'day', cells },
      month,
      month,
    );
    this.keepSettled(key, organizationId, rows, now);
    return rows;
  }

  /**
   * Folds a month in the background, a few at a time: a fold only saves later reads, so one not
   * made (too many waiting, MongoDB busy) is made by a later read or the worker's monthly pass.
   */
  private foldLater(organizationId: number, websiteId: number, month: Date): void {
    const key = rollupDocumentId(websiteId, EVERY_REGION, 'day', month);
    if (this.folding.has(key) || this.folds.waitingCount >= FOLDS_WAITING) return;
    this.folding.add(key);
    this.folds
      .run(async () => this.months.fold(organizationId, websiteId, month, await this.regions()))
      .catch(() => false)
      .finally(() => this.folding.delete(key));
  }

  /** Every website's last two settled months folded (the worker's pass after a month's turn). */
  foldSettledMonths(
    now: Date,
    websitesAfter: WebsitesAfter,
    oneAtATime: <T>(work: () => Promise<T>) => Promise<T | undefined>,
  ): Promise<number> {
    return foldLastMonths(
      { db: this.db, months: this.months, regions: () => this.regions() },
      now,
      websitesAfter,
      oneAtATime,
    );
  }

  /** Every row of one bucket of the organization's website: from memory once the bucket is settled. */
  private async bucketRows(
    organizationId: number,
    websiteId: number,
    region: string,
    period: RollupPeriod,
    bucket: Date,
    now: Date,
  ): Promise<ResultRollup[]> {
    const _id = rollupDocumentId(websiteId, region, period, bucket);
    const known = this.settled.get(_id);
    if (known && now.getTime() - known.at < SETTLED_REREAD_MS)
      return known.organizationId === organizationId ? (known.rows ?? []) : [];
    const document = await this.collection.findOne({ _id });
    const rows = document ? rollupRows(document, bucket, bucket) : null;
    if (nextBucket(period, bucket).getTime() + SETTLED_AFTER_MS < now.getTime())
      this.keepSettled(_id, document?.organizationId ?? organizationId, rows, now);
    // Website ids are global, so another organization's document cannot answer; checked all the same.
    return document && document.organizationId === organizationId ? (rows ?? []) : [];
  }

  private keepSettled(id: string, organizationId: number, rows: ResultRollup[] | null, now: Date): void {
    this.settled.delete(id);
    if (this.settled.size >= SETTLED_KEPT) this.settled.delete(this.settled.keys().next().value as string);
    this.settled.set(id, { at: now.getTime(), organizationId, rows });
  }

  /** Documents (and folds) of websites no longer checked from their region, past their retention. */
  async deleteExpired(now: Date): Promise<number> {
    const [days, months] = await Promise.all([
      this.collection.deleteMany({ expiresAt: { $lt: now } }),
      this.months.deleteExpired(now),
    ]);
    return days.deletedCount + months;
  }

  /** A day document of a month already folded was written late: the fold is made again. */
  unfold(websiteId: number, month: Date): Promise<void> {
    return this.months.unfold(websiteId, month);
  }

  /**
   * Folds rollups kept the former way (a document per website, region, period and start) into the
   * documents per website and region, `LEGACY_FOLD_BATCH` at a time, each batch deleted once
   * written; the collection is dropped when empty. Returns how many were folded. One process at a
   * time (`oneAtATime`: a lock); a process that dies between a batch's writes and its delete counts
   * that batch twice, never loses it.
   */
  async foldLegacyRollups(
    oneAtATime: <T>(work: () => Promise<T>) => Promise<T | undefined>,
  ): Promise<number> {
    const legacy = this.db.collection<LegacyRollup>(LEGACY_ROLLUPS);
    let folded = 0;
    for (;;) {
      const batch = await oneAtATime(async () => {
        const documents = await legacy.find({}, { limit: LEGACY_FOLD_BATCH }).toArray();
        const increments = new Map<string, RollupIncrement>();
        for (const document of documents) foldLegacy(increments, document);
        for (const increment of increments.values()) {
          await this.registerRegion(increment.region);
          await this.collection.updateOne({ _id: increment._id }, rollupUpdate(increment), {
            upsert: true,
          });
        }
        for (const document of documents) await legacy.deleteOne({ _id: document._id });
        return documents.length;
      });
      if (batch === undefined) return folded; // another process is at it
      folded += batch;
      if (batch < LEGACY_FOLD_BATCH) break;
    }
    if (folded > 0 || (await this.db.listCollections({ name: LEGACY_ROLLUPS }).hasNext()))
      await legacy.drop().catch(() => false);
    return folded;
  }
}

/** Months waiting to be folded in the background, at most (each a few reads and a write). */
const FOLDS_WAITING = 1_000;
