import type { Db } from 'mongodb';
import { type CollectionIndexes, isDuplicateKey, TenantResources } from '../db/index.js';
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

function rethrowDuplicate(error: unknown, key: string): never {
  if (isDuplicateKey(error)) throw new DuplicatePackageKeyError(key);
  throw error;
}

export class PackageRepository {
  private readonly packages: TenantResources<PackageDocument>;

  constructor(
    db: Db,
    /** Told after every write to a package (its revision for the `PackageCache`s). */
    private readonly changed: (packageId: number, written?: PackageDocument) => Promise<void> = async () =>
      undefined,
  ) {
    this.packages = new TenantResources(db, PACKAGES);
  }

  async create(input: Omit<PackageDocument, 'id' | 'createdAt' | 'updatedAt'>): Promise<PackageDocument> {
    if (await this.findByKey(input.organizationId, input.key)) throw new DuplicatePackageKeyError(input.key);
    const created = await this.packages
      .create(input)
      .catch((error: unknown) => rethrowDuplicate(error, input.key));
    await this.changed(created.id, created);
    return created;
  }

  list(organizationId: number): Promise<PackageDocument[]> {
    return this.packages.findMany(organizationId);
  }

  findById(organizationId: number, id: number): Promise<PackageDocument | null> {
    return this.packages.findById(organizationId, id);
  }

  async findByKey(organizationId: number, key: string): Promise<PackageDocument | null> {
    return (await this.packages.findMany(organizationId, { key }))[0] ?? null;
  }

  /** Several packages of one organization at once (for lists that show package names). */
  findByIds(organizationId: number, ids: readonly number[]): Promise<PackageDocument[]> {
    return this.packages.findByIds(organizationId, ids);
  }

  /** Replaces the editable fields; the caller holds the package's lock. */
  async replace(document: PackageDocument): Promise<PackageDocument> {
    const other = await this.findByKey(document.organizationId, document.key);
    if (other && other.id !== document.id) throw new DuplicatePackageKeyError(document.key);
    const replaced = await this.packages
      .replace(document)
      .catch((error: unknown) => rethrowDuplicate(error, document.key));
    await this.changed(replaced.id, replaced);
    return replaced;
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const deleted = await this.packages.delete(organizationId, id);
    if (deleted) await this.changed(id);
    return deleted;
  }
}
