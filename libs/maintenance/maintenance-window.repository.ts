import type { Db } from 'mongodb';
import { type CollectionIndexes, TenantResources, WITHOUT_MONGO_ID } from '../db/index.js';
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

export class MaintenanceWindowRepository {
  private readonly windows: TenantResources<MaintenanceWindowDocument>;

  constructor(db: Db) {
    this.windows = new TenantResources(db, MAINTENANCE_WINDOWS);
  }

  create(
    input: Omit<MaintenanceWindowDocument, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<MaintenanceWindowDocument> {
    return this.windows.create(input);
  }

  findById(organizationId: number, id: number): Promise<MaintenanceWindowDocument | null> {
    return this.windows.findById(organizationId, id);
  }

  listByWebsite(organizationId: number, websiteId: number): Promise<MaintenanceWindowDocument[]> {
    return this.windows.findMany(organizationId, { websiteId });
  }

  /** Every window of these websites, in one query (the batch check). */
  listByWebsites(organizationId: number, websiteIds: number[]): Promise<MaintenanceWindowDocument[]> {
    return this.windows.findMany(organizationId, { websiteId: { $in: websiteIds } });
  }

  countByWebsite(organizationId: number, websiteId: number): Promise<number> {
    return this.windows.scoped.countDocuments(organizationId, { websiteId });
  }

  replace(document: MaintenanceWindowDocument): Promise<MaintenanceWindowDocument> {
    return this.windows.replace(document);
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.windows.delete(organizationId, id);
  }

  /** Removes every window of a website (the website is gone). */
  async deleteByWebsite(organizationId: number, websiteId: number): Promise<void> {
    await this.windows.scoped.collection.deleteMany({ organizationId, websiteId });
  }

  /** Every window of every organization, in no particular order (the reconciler groups them). */
  all(): AsyncIterable<MaintenanceWindowDocument> {
    return this.windows.scoped.collection.find({}, WITHOUT_MONGO_ID);
  }
}
