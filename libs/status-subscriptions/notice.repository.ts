import type { Collection, Db } from 'mongodb';
import { type CollectionIndexes, isDuplicateKey } from '../db/index.js';
import type { PageNotice } from './notice.js';

export const STATUS_PAGE_NOTICES = 'status_page_notices';

export const noticeIndexes: CollectionIndexes = {
  collection: STATUS_PAGE_NOTICES,
  indexes: [{ key: { state: 1, createdAt: 1 }, name: 'state_created' }],
};

/** How long notices are kept after they were mailed (the page's staff see how many were told). */
export const NOTICE_RETENTION_DAYS = 90;

/** Pages' notices, each stored once under the id that says what it tells. */
export class NoticeRepository {
  private readonly collection: Collection<PageNotice>;

  constructor(db: Db) {
    this.collection = db.collection<PageNotice>(STATUS_PAGE_NOTICES);
  }

  /** Stores a notice; false when one with its id was stored before (the same news told again). */
  async add(notice: PageNotice): Promise<boolean> {
    try {
      await this.collection.insertOne(notice);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  find(id: string): Promise<PageNotice | null> {
    return this.collection.findOne({ _id: id });
  }

  /** How many were told, and the last subscriber of the batches told whole (where a mailing taken over goes on). */
  async progress(id: string, sent: number, through: string | null): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { sent, through } });
  }

  async finish(id: string, sent: number, at: Date): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: { sent, state: 'done', finishedAt: at } });
  }

  /** Notices not yet mailed to the end (their job lost with Redis's data): a scan, at a notifier's start. */
  unfinished(): Promise<Array<Pick<PageNotice, '_id'>>> {
    return this.collection.find({ state: 'mailing' }, { projection: { _id: 1 } }).toArray();
  }

  /** A page's latest notices, newest first (its staff see what was told). */
  latestOfPage(organizationId: number, pageId: number, limit: number): Promise<PageNotice[]> {
    return this.collection.find({ organizationId, pageId }).sort({ createdAt: -1 }).limit(limit).toArray();
  }

  async removeFinishedBefore(before: Date): Promise<number> {
    return (await this.collection.deleteMany({ state: 'done', finishedAt: { $lt: before } })).deletedCount;
  }
}
