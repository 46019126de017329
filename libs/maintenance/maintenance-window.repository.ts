import type { Db } from 'mongodb';
import { type CollectionIndexes, nextId, TenantCollection } from '../db/index.js';
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

export const maintenanceWindowIndexes: CollectionIndexes = {
  collection: MAINTENANCE_WINDOWS,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, websiteId: 1 }, name: 'organization_website' },
  ],
};

const NO_MONGO_ID = { projection: { _id: 0 } } as const;

export class MaintenanceWindowRepository {
  private readonly windows: TenantCollection<MaintenanceWindowDocument>;

  constructor(private readonly db: Db) {
    this.windows = new TenantCollection(db.collection<MaintenanceWindowDocument>(MAINTENANCE_WINDOWS));
  }

  async create(
    input: Omit<MaintenanceWindowDocument, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<MaintenanceWindowDocument> {
    const now = new Date();
    const document = {
      ...input,
      id: await nextId(this.db, MAINTENANCE_WINDOWS),
      createdAt: now,
      updatedAt: now,
    };
    await this.windows.insertOne({ ...document });
    return document;
  }

  findById(organizationId: number, id: number): Promise<MaintenanceWindowDocument | null> {
    return this.windows.findOne(organizationId, { id }, NO_MONGO_ID);
  }

  listByWebsite(organizationId: number, websiteId: number): Promise<MaintenanceWindowDocument[]> {
    return this.windows.find(organizationId, { websiteId }, { ...NO_MONGO_ID, sort: { id: 1 } }).toArray();
  }

  /** Every window of these websites, in one query (the batch check). */
  listByWebsites(organizationId: number, websiteIds: number[]): Promise<MaintenanceWindowDocument[]> {
    return this.windows.find(organizationId, { websiteId: { $in: websiteIds } }, NO_MONGO_ID).toArray();
  }

  countByWebsite(organizationId: number, websiteId: number): Promise<number> {
    return this.windows.countDocuments(organizationId, { websiteId });
  }

  async replace(document: MaintenanceWindowDocument): Promise<MaintenanceWindowDocument> {
    const updated = { ...document, updatedAt: new Date() };
    const { id, organizationId, createdAt: _createdAt, ...fields } = updated;
    await this.windows.updateOne(organizationId, { id }, { $set: fields });
    return updated;
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.windows.deleteOne(organizationId, { id });
  }

  /** Removes every window of a website (the website is gone). */
  async deleteByWebsite(organizationId: number, websiteId: number): Promise<void> {
    await this.windows.collection.deleteMany({ organizationId, websiteId });
  }

  /** Every window of every organization, in no particular order (the reconciler groups them). */
  all(): AsyncIterable<MaintenanceWindowDocument> {
    return this.windows.collection.find({}, NO_MONGO_ID);
  }
}
