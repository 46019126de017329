import type { Db, Filter, Sort } from 'mongodb';
import { nextId } from './counters.js';
import type { LookupRef } from './key-lookup.js';
import { TenantCollection, type TenantDocument } from './tenant-collection.js';

/** Reads leave MongoDB's `_id` out: resources are known by their integer `id`. */
export const WITHOUT_MONGO_ID = { projection: { _id: 0 } } as const;

/** A resource of one organization with an integer id and its timestamps. */
export interface TenantResource extends TenantDocument {
  id: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * What every organization-owned resource's repository does the same way: a new resource takes the
 * collection's next id and both timestamps; an update writes every field but the identity ones;
 * reads are scoped to the organization and leave `_id` out.
 */
export class TenantResources<T extends TenantResource> {
  readonly scoped: TenantCollection<T>;

  constructor(
    private readonly db: Db,
    private readonly collectionName: string,
  ) {
    this.scoped = new TenantCollection(db.collection<T>(collectionName));
  }

  /** The next id of the collection's sequence (for a resource that needs its id before it is stored). */
  allocateId(): Promise<number> {
    return nextId(this.db, this.collectionName);
  }

  /**
   * Stores a new resource under the next id, created and updated now; under `mongoId` when given
   * (a key lookup pointing at it is written before it).
   */
  async create(input: Omit<T, 'id' | 'createdAt' | 'updatedAt'>, mongoId?: LookupRef): Promise<T> {
    const now = new Date();
    const document = { ...input, id: await this.allocateId(), createdAt: now, updatedAt: now } as T;
    // A copy: the driver adds `_id` to the document it is given.
    await this.scoped.insertOne({
      ...document,
      ...(mongoId === undefined ? {} : { _id: mongoId }),
    } as Parameters<TenantCollection<T>['insertOne']>[0]);
    return document;
  }

  /** Writes every field but id, organization and creation time, with `updatedAt` now; the caller holds the resource's lock. */
  async replace(document: T): Promise<T> {
    const updated = { ...document, updatedAt: new Date() };
    const { id, organizationId, createdAt: _createdAt, ...fields } = updated;
    await this.scoped.updateOne(organizationId, { id } as Filter<T>, { $set: fields as Partial<T> });
    return updated;
  }

  // `_id` is projected out, so what comes back is the resource itself.
  findById(organizationId: number, id: number): Promise<T | null> {
    return this.scoped.findOne(organizationId, { id } as Filter<T>, WITHOUT_MONGO_ID) as Promise<T | null>;
  }

  findByIds(organizationId: number, ids: readonly number[]): Promise<T[]> {
    return this.findMany(organizationId, { id: { $in: [...ids] } } as Filter<T>);
  }

  /** The organization's resources matching `filter`, by id unless `sort` says otherwise. */
  findMany(organizationId: number, filter: Filter<T> = {}, sort: Sort = { id: 1 }): Promise<T[]> {
    return this.scoped.find(organizationId, filter, { ...WITHOUT_MONGO_ID, sort }).toArray() as Promise<T[]>;
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.scoped.deleteOne(organizationId, { id } as Filter<T>);
  }
}
