import { type Db, type Filter, ObjectId, type Sort } from 'mongodb';
import { nextId } from './counters.js';
import { KeyLookup, type LookupRef } from './key-lookup.js';
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
 * reads are scoped to the organization and leave `_id` out. A resource is found by its id in two
 * primary-key reads (a `key_lookups` entry `<collection>.id/<id>`, then the document), as a filter
 * on `id` scans the collection on FerretDB 1.24; one stored without an entry (before entries were
 * kept, or inserted past `create`) is found by that filter once and entered for the next time.
 */
export class TenantResources<T extends TenantResource> {
  readonly scoped: TenantCollection<T>;
  private readonly ids: KeyLookup<T>;

  constructor(
    private readonly db: Db,
    private readonly collectionName: string,
  ) {
    this.scoped = new TenantCollection(db.collection<T>(collectionName));
    this.ids = new KeyLookup<T>(db, { collection: collectionName, keyField: 'id' });
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
    const ref = mongoId ?? new ObjectId();
    await this.ids.claim(String(document.id), ref, () =>
      this.scoped.insertOne({ ...document, _id: ref } as Parameters<TenantCollection<T>['insertOne']>[0]),
    );
    return document;
  }

  /** Writes every field but id, organization and creation time, with `updatedAt` now; the caller holds the resource's lock. */
  async replace(document: T): Promise<T> {
    const updated = { ...document, updatedAt: new Date() };
    const { id, organizationId, createdAt: _createdAt, ...fields } = updated;
    await this.scoped.updateOne(organizationId, { id } as Filter<T>, { $set: fields as Partial<T> });
    return updated;
  }

  async findById(organizationId: number, id: number): Promise<T | null> {
    // `_id` is projected out, so what comes back is the resource itself.
    const byKey = (await this.ids.find(String(id), WITHOUT_MONGO_ID)) as T | null;
    if (byKey) return byKey.organizationId === organizationId ? byKey : null;
    const found = await this.scoped.findOne(organizationId, { id } as Filter<T>);
    if (!found) return null;
    await this.ids.point(String(id), found._id as LookupRef);
    const { _id, ...resource } = found;
    return resource as unknown as T;
  }

  findByIds(organizationId: number, ids: readonly number[]): Promise<T[]> {
    return this.findMany(organizationId, { id: { $in: [...ids] } } as Filter<T>);
  }

  /** The organization's resources matching `filter`, by id unless `sort` says otherwise. */
  findMany(organizationId: number, filter: Filter<T> = {}, sort: Sort = { id: 1 }): Promise<T[]> {
    return this.scoped.find(organizationId, filter, { ...WITHOUT_MONGO_ID, sort }).toArray() as Promise<T[]>;
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const deleted = await this.scoped.deleteOne(organizationId, { id } as Filter<T>);
    if (deleted) await this.ids.forget(String(id));
    return deleted;
  }
}
