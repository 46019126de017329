import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '../db/index.js';
import {
  nextBucket,
  ROLLUP_RETENTION_MS,
  type RollupBucketDocument,
  type RollupCounts,
  rollupDocumentId,
  summedCells,
} from './rollup-cells.js';

/** A settled month of one website's day rollups, every region summed into one document. */
export const WEBSITE_ROLLUP_MONTHS = 'website_rollup_months';

/**
 * A month is folded once it ended this long ago: a worker flushes every 10 minutes, so a month's
 * day documents get no more writes by then unless a worker flushes late (after a MongoDB outage);
 * such a late write removes the fold (`unfold`), which is then made again.
 */
export const FOLD_AFTER_MS = 60 * 60_000;

/** The region rows read from a fold carry: every region, summed. */
export const EVERY_REGION = '*';

/**
 * One website's month of day cells, every region summed, so a report (or a status page's 90 days)
 * reads one document per website and month instead of one per region: a 31-day report of 200
 * websites from three regions read 1,200 day documents. The cells are kept as one JSON string: the
 * embedded store converts every field of a document on each read, and a string is one field.
 */
interface RollupMonthDocument {
  /** `<websiteId>:<yyyy-MM>`. */
  _id: string;
  organizationId: number;
  websiteId: number;
  /** `JSON.stringify` of the cells by day of the month (`"24"`), as in a day document. */
  cells: string;
  /** Each region's day document's `writes` when folded: a fold that missed a write is removed. */
  writes: Record<string, number>;
  expiresAt: Date;
}

export const rollupMonthIndexes = {
  collection: WEBSITE_ROLLUP_MONTHS,
  indexes: [{ key: { expiresAt: 1 }, name: 'expires_at' }],
};

const monthId = (websiteId: number, month: Date) => `${websiteId}:${month.toISOString().slice(0, 7)}`;

/** Whether the UTC month starting at `month` is folded (or to be) by `now`. */
export const foldable = (month: Date, now: Date) =>
  nextBucket('day', month).getTime() + FOLD_AFTER_MS <= now.getTime();

/** A late write to a day document ended this long ago removes its month's fold (clocks may differ). */
export const unfoldsFold = (month: Date, now: Date) =>
  nextBucket('day', month).getTime() + FOLD_AFTER_MS / 2 <= now.getTime();

export class RollupMonths {
  private readonly collection: Collection<RollupMonthDocument>;
  private readonly days: Collection<RollupBucketDocument>;

  constructor(db: Db, days: Collection<RollupBucketDocument>) {
    this.collection = db.collection<RollupMonthDocument>(WEBSITE_ROLLUP_MONTHS);
    this.days = days;
  }

  /** The month's cells of the organization's website, every region summed; null when not folded. */
  async cells(
    organizationId: number,
    websiteId: number,
    month: Date,
  ): Promise<Record<string, RollupCounts> | null> {
    const document = await this.collection.findOne({ _id: monthId(websiteId, month) });
    if (!document) return null;
    // Website ids are global, so another organization's document cannot answer; checked all the same.
    return document.organizationId === organizationId ? parseCells(document.cells) : {};
  }

  /**
   * Folds a settled month of one website from its regions' day documents (a fold already made is
   * kept). The regions' write counts are read again after the fold is stored: a write landing in
   * between removes it here, one landing later removes it itself (`unfold`), so a fold never stays
   * without a write. Returns whether a fold was stored and kept.
   */
  async fold(
    organizationId: number,
    websiteId: number,
    month: Date,
    regions: readonly string[],
  ): Promise<boolean> {
    const _id = monthId(websiteId, month);
    const ids = regions.map((region) => rollupDocumentId(websiteId, region, 'day', month));
    const documents = await Promise.all(ids.map((id) => this.days.findOne({ _id: id })));
    // A document of another organization's website cannot be (ids are global); none is folded in.
    const own = documents.filter((d): d is RollupBucketDocument => d?.organizationId === organizationId);
    const writes = Object.fromEntries(own.map((d) => [d.region, d.writes ?? 0]));
    try {
      await this.collection.insertOne({
        _id,
        organizationId,
        websiteId,
        cells: JSON.stringify(summedCells(own.map((d) => d.cells))),
        writes,
        expiresAt: new Date(nextBucket('day', month).getTime() + ROLLUP_RETENTION_MS.day),
      });
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    const again = await Promise.all(
      ids.map((id) => this.days.findOne({ _id: id }, { projection: { writes: 1 } })),
    );
    const changed = again.some((d, i) => {
      const region = regions[i] as string;
      return d !== null && (writes[region] === undefined || (d.writes ?? 0) !== writes[region]);
    });
    if (changed) await this.unfold(websiteId, month);
    return !changed;
  }

  /** Removes a month's fold (a day document of it was written after all). */
  async unfold(websiteId: number, month: Date): Promise<void> {
    await this.collection.deleteOne({ _id: monthId(websiteId, month) });
  }

  async deleteExpired(now: Date): Promise<number> {
    return (await this.collection.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
  }
}

function parseCells(cells: string): Record<string, RollupCounts> {
  const parsed: unknown = JSON.parse(cells);
  return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, RollupCounts>) : {};
}

/** Up to `limit` websites after `after` (by organization, then website id), ascending. */
export type WebsitesAfter = (
  after: { organizationId: number; websiteId: number },
  limit: number,
) => Promise<Array<{ organizationId: number; websiteId: number }>>;

/** Where the pass over a month's websites is: the last website folded, or done. */
interface MonthFoldProgress {
  _id: string;
  organizationId: number;
  websiteId: number;
  done: boolean;
}

const MONTH_FOLD_PROGRESS = 'rollup_month_folds';
/** Websites folded under one holding of the pass's lock (a fold is ~7 primary-key reads and writes). */
const FOLD_BATCH = 100;

/**
 * Folds the last two settled months of every website (a month's report compares it with the one
 * before), `FOLD_BATCH` websites at a time under `oneAtATime` (a lock), each month's progress
 * stored after each batch: so a report of the last month, the one asked for most, reads one
 * document per website and month even the first time. Returns how many were folded.
 */
export async function foldLastMonths(
  deps: { db: Db; months: RollupMonths; regions: () => Promise<string[]> },
  now: Date,
  websitesAfter: WebsitesAfter,
  oneAtATime: <T>(work: () => Promise<T>) => Promise<T | undefined>,
): Promise<number> {
  let folded = 0;
  for (const back of [1, 2]) {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    if (foldable(month, now)) folded += await foldMonth(deps, month, websitesAfter, oneAtATime);
  }
  return folded;
}

async function foldMonth(
  deps: { db: Db; months: RollupMonths; regions: () => Promise<string[]> },
  month: Date,
  websitesAfter: WebsitesAfter,
  oneAtATime: <T>(work: () => Promise<T>) => Promise<T | undefined>,
): Promise<number> {
  const progress = deps.db.collection<MonthFoldProgress>(MONTH_FOLD_PROGRESS);
  const _id = month.toISOString().slice(0, 7);
  let folded = 0;
  for (;;) {
    const batch = await oneAtATime(async () => {
      const at = (await progress.findOne({ _id })) ?? { _id, organizationId: 0, websiteId: 0, done: false };
      if (at.done) return 0;
      const websites = await websitesAfter(at, FOLD_BATCH);
      const regions = await deps.regions();
      for (const website of websites)
        if (await deps.months.fold(website.organizationId, website.websiteId, month, regions)) folded++;
      const last = websites.at(-1) ?? at;
      await progress.replaceOne(
        { _id },
        {
          organizationId: last.organizationId,
          websiteId: last.websiteId,
          done: websites.length < FOLD_BATCH,
        },
        { upsert: true },
      );
      return websites.length;
    });
    // Another process is at it, or every website is folded.
    if (batch === undefined || batch < FOLD_BATCH) return folded;
  }
}
