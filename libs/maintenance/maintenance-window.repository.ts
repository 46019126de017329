import type { Db } from 'mongodb';
import {
  type CollectionIndexes,
  IdLists,
  readFanOut,
  TenantResources,
  WITHOUT_MONGO_ID,
} from '../db/index.js';
import type { Recurrence } from './recurrence.js';

export interface MaintenanceWindowDocument {
  id: number;
  organizationId: number;
  websiteId: number;
  title: string;
  startsAt: Date;
  endsAt: Date;
  timezone: string;
  recurrence: Recurrence | null;
  createdAt: Date;
  updatedAt: Date;
}

export const MAINTENANCE_WINDOWS = 'maintenance_windows';
/** Windows one website may have. */
export const MAX_WINDOWS_PER_WEBSITE = 100;

/** Reads of windows (and of websites' lists) going at once. */
const READS_AT_ONCE = 16;

/** Each website's window ids (`id_lists`, `maintenance_windows.websiteId/<websiteId>`). */
const windowLists = (db: Db) => new IdLists(db, `${MAINTENANCE_WINDOWS}.websiteId`);

export const maintenanceWindowIndexes: CollectionIndexes = {
  collection: MAINTENANCE_WINDOWS,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, websiteId: 1 }, name: 'organization_website' },
  ],
  // Windows stored before the lists were kept: one scan, once per database; each window's id is
  // entered too (the lists are read through those entries alone).
  backfill: (db) => {
    const windows = new TenantResources<MaintenanceWindowDocument>(db, MAINTENANCE_WINDOWS);
    return windowLists(db).backfill(async () => {
      const stored = await db
        .collection<MaintenanceWindowDocument>(MAINTENANCE_WINDOWS)
        .find({}, { projection: { _id: 1, id: 1, websiteId: 1 } })
        .toArray();
      for (const window of stored) await windows.enter(window.id, window._id);
      return stored.map((window) => ({ owner: window.websiteId, id: window.id }));
    });
  },
};

/**
 * Maintenance windows. A website's windows are read by primary key from the list of their ids kept
 * per website (`IdLists`): a filter on `websiteId` reads every window of every organization on
 * FerretDB 1.24. Writers hold the website's `maintenance:<websiteId>` lock (one writer per list).
 */

export class MaintenanceWindowRepository {
  private readonly windows: TenantResources<MaintenanceWindowDocument>;

  private readonly lists: IdLists;

  constructor(db: Db) {
    this.windows = new TenantResources(db, MAINTENANCE_WINDOWS);
    this.lists = windowLists(db);
  }

  /** Listed under its website before it is stored (the caller holds the website's maintenance lock). */
  async create(
    input: Omit<MaintenanceWindowDocument, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<MaintenanceWindowDocument> {
    const id = await this.windows.allocateId();
    await this.lists.add(input.websiteId, id);
    return this.windows.create(input, undefined, id);
  }

  findById(organizationId: number, id: number): Promise<MaintenanceWindowDocument | null> {
    return this.windows.findById(organizationId, id);
  }

  /** The website's windows, by id: its list, then each window by primary key. */
  listByWebsite(organizationId: number, websiteId: number): Promise<MaintenanceWindowDocument[]> {
    return this.listByWebsites(organizationId, [websiteId]);
  }

  /** Every window of these websites, by id (status pages, the batch check); a few reads at a time. */
  async listByWebsites(
    organizationId: number,
    websiteIds: readonly number[],
  ): Promise<MaintenanceWindowDocument[]> {
    const reads = readFanOut(READS_AT_ONCE);
    const listed = await Promise.all(
      [...new Set(websiteIds)].map(async (websiteId) => {
        const ids = await reads.run(() => this.lists.get(websiteId));
        const found = await Promise.all(
          // By the ids' entries alone: an id left by a crash has no entry (never a scan).
          ids.map((id) => reads.run(() => this.windows.findEntered(organizationId, id))),
        );
        // An id left by a crash, or of a window since deleted, is skipped.
        return found.filter(
          (window): window is MaintenanceWindowDocument => window !== null && window.websiteId === websiteId,
        );
      }),
    );
    return listed.flat().sort((a, b) => a.id - b.id);
  }

  async countByWebsite(organizationId: number, websiteId: number): Promise<number> {
    return (await this.listByWebsite(organizationId, websiteId)).length;
  }

  replace(document: MaintenanceWindowDocument): Promise<MaintenanceWindowDocument> {
    return this.windows.replace(document);
  }

  /** Deleted, then left out of its website's list (the caller holds the website's maintenance lock). */
  async delete(organizationId: number, id: number): Promise<boolean> {
    const window = await this.windows.findById(organizationId, id);
    if (!window || !(await this.windows.delete(organizationId, id))) return false;
    await this.lists.remove(window.websiteId, id);
    return true;
  }

  /**
   * Removes every window of a website (the website is gone), then its list. By the scanning
   * `{organizationId, websiteId}` filter on purpose: rare, and it must not leave a window its list
   * lost behind.
   */
  async deleteByWebsite(organizationId: number, websiteId: number): Promise<void> {
    await this.windows.scoped.collection.deleteMany({ organizationId, websiteId });
    await this.lists.drop(websiteId);
  }

  /** Every window of every organization, in no particular order (the reconciler groups them). */
  all(): AsyncIterable<MaintenanceWindowDocument> {
    return this.windows.scoped.collection.find({}, WITHOUT_MONGO_ID);
  }
}
