import type { Db } from 'mongodb';
import { type CollectionIndexes, isDuplicateKey, nextId, TenantCollection } from '../db/index.js';
import type { Alerting, Features, Limits } from './package.schema.js';

/** An organization's package config: what its customers may use, and their alerting defaults. */
export interface PackageDocument {
  id: number;
  organizationId: number;
  key: string;
  displayName: string;
  features: Features;
  limits: Limits;
  alerting: Alerting;
  createdAt: Date;
  updatedAt: Date;
}

export const PACKAGES = 'packages';

export const packageIndexes: CollectionIndexes = {
  collection: PACKAGES,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, key: 1 }, unique: true, name: 'organization_key_unique' },
  ],
};

/** Another package of the organization already has this key. */
export class DuplicatePackageKeyError extends Error {
  constructor(readonly key: string) {
    super(`a package with key "${key}" already exists`);
  }
}

const NO_MONGO_ID = { projection: { _id: 0 } } as const;

function rethrowDuplicate(error: unknown, key: string): never {
  if (isDuplicateKey(error)) throw new DuplicatePackageKeyError(key);
  throw error;
}

export class PackageRepository {
  private readonly packages: TenantCollection<PackageDocument>;

  constructor(private readonly db: Db) {
    this.packages = new TenantCollection(db.collection<PackageDocument>(PACKAGES));
  }

  async create(input: Omit<PackageDocument, 'id' | 'createdAt' | 'updatedAt'>): Promise<PackageDocument> {
    if (await this.findByKey(input.organizationId, input.key)) throw new DuplicatePackageKeyError(input.key);
    const now = new Date();
    const document: PackageDocument = {
      ...input,
      id: await nextId(this.db, PACKAGES),
      createdAt: now,
      updatedAt: now,
    };
    await this.packages
      .insertOne({ ...document })
      .catch((error: unknown) => rethrowDuplicate(error, input.key));
    return document;
  }

  list(organizationId: number): Promise<PackageDocument[]> {
    return this.packages.find(organizationId, {}, { ...NO_MONGO_ID, sort: { id: 1 } }).toArray();
  }

  findById(organizationId: number, id: number): Promise<PackageDocument | null> {
    return this.packages.findOne(organizationId, { id }, NO_MONGO_ID);
  }

  findByKey(organizationId: number, key: string): Promise<PackageDocument | null> {
    return this.packages.findOne(organizationId, { key }, NO_MONGO_ID);
  }

  /** Several packages of one organization at once (for lists that show package names). */
  findByIds(organizationId: number, ids: number[]): Promise<PackageDocument[]> {
    return this.packages.find(organizationId, { id: { $in: ids } }, NO_MONGO_ID).toArray();
  }

  /** Replaces the editable fields; the caller holds the package's lock. */
  async replace(document: PackageDocument): Promise<PackageDocument> {
    const other = await this.findByKey(document.organizationId, document.key);
    if (other && other.id !== document.id) throw new DuplicatePackageKeyError(document.key);
    const updated = { ...document, updatedAt: new Date() };
    const { id, organizationId, createdAt: _createdAt, ...fields } = updated;
    await this.packages
      .updateOne(organizationId, { id }, { $set: fields })
      .catch((error: unknown) => rethrowDuplicate(error, document.key));
    return updated;
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.packages.deleteOne(organizationId, { id });
  }
}
