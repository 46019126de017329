import type { Collection, Db } from 'mongodb';
import { type CollectionIndexes, nextId } from '../db/index.js';

export interface Organization {
  id: number;
  name: string;
  createdAt: Date;
}

export const ORGANIZATIONS = 'organizations';

export const organizationIndexes: CollectionIndexes = {
  collection: ORGANIZATIONS,
  indexes: [{ key: { id: 1 }, unique: true, name: 'id_unique' }],
};

export class OrganizationRepository {
  private readonly collection: Collection<Organization>;

  constructor(private readonly db: Db) {
    this.collection = db.collection<Organization>(ORGANIZATIONS);
  }

  async create(name: string): Promise<Organization> {
    const organization: Organization = {
      id: await nextId(this.db, ORGANIZATIONS),
      name,
      createdAt: new Date(),
    };
    await this.collection.insertOne({ ...organization });
    return organization;
  }

  findById(id: number): Promise<Organization | null> {
    return this.collection.findOne({ id }, { projection: { _id: 0 } });
  }
}
