import { type Db, type Filter, ObjectId, type Sort, type UpdateFilter } from 'mongodb';
import { readFanOut } from './bulk-reads.js';
import { nextId } from './counters.js';
import { KeyLookup, KeyTakenError, type LookupRef } from './key-lookup.js';
import { TenantCollection, type TenantDocument } from './tenant-collection.js';

/** Reads `findByIds` has going at once: enough to overlap them, few enough to leave the pool to others. */
const FIND_BY_IDS_AT_ONCE = 16;

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
    // A resource keeps its id for life and its `_id` is never used again: an id found once is one read.
    this.ids = new KeyLookup<T>(db, { collection: collectionName, keyField: 'id', refsNeverMove: true });
  }

  /** The next id of the collection's sequence (for a resource that needs its id before it is stored). */
  allocateId(): Promise<number> {
    return nextId(this.db, this.collectionName);
  }

  /**
   * Stores a new resource under the next id (or `id`), created and updated now; under `mongoId`
   * when given (a key lookup pointing at it is written before it).
   */
  async create(
    input: Omit<T, 'id' | 'createdAt' | 'updatedAt'>,
    mongoId?: LookupRef,
    /** An id `allocateId` gave (listed somewhere before the resource is stored). */
    id?: number,
  ): Promise<T> {
    const now = new Date();
    const document = { ...input, id: id ?? (await this.allocateId()), createdAt: now, updatedAt: now } as T;
    const ref = mongoId ?? new ObjectId();
    await this.ids.claim(String(document.id), ref, () =>
      this.scoped.insertOne({ ...document, _id: ref } as Parameters<TenantCollection<T>['insertOne']>[0]),
    );
    return document;
  }

  /**
   * The `_id` of the organization's resource `id` through its entry (two primary-key reads), or
   * null when it has no entry (stored before entries were kept) or is another organization's.
   */
  private async refOf(organizationId: number, id: number): Promise<LookupRef | null> {
    const found = await this.ids.find(String(id), { projection: { _id: 1, id: 1, organizationId: 1 } });
    return found && found.organizationId === organizationId ? (found._id as LookupRef) : null;
  }

  /**
   * Writes every field but id, organization and creation time, with `updatedAt` now; the caller holds
   * the resource's lock. By `_id` (through the id's entry): a filter on `{organizationId, id}` reads
   * the whole collection on FerretDB 1.24; a resource without an entry is written by that filter.
   */
  async replace(document: T): Promise<T> {
    const updated = { ...document, updatedAt: new Date() };
    const { id, organizationId, createdAt: _createdAt, ...fields } = updated;
    const ref = await this.refOf(organizationId, id);
    if (ref === null)
      await this.scoped.updateOne(organizationId, { id } as Filter<T>, { $set: fields as Partial<T> });
    else await this.scoped.collection.updateOne({ _id: ref } as Filter<T>, { $set: fields as Partial<T> });
    return updated;
  }

  /**
   * Applies `update` ($set, $max …) to the resource alone, by `_id` through its id's entry (for a
   * few fields a worker keeps, without rewriting what a concurrent edit changed).
   */
  async updateFields(organizationId: number, id: number, update: UpdateFilter<T>): Promise<void> {
    await this.updateFieldsIf(organizationId, id, {}, update);
  }

  /** As `updateFields`, only while the resource matches `condition` (a compare-and-set): whether it did. */
  async updateFieldsIf(
    organizationId: number,
    id: number,
    condition: Filter<T>,
    update: UpdateFilter<T>,
  ): Promise<boolean> {
    const ref = await this.refOf(organizationId, id);
    if (ref === null) return this.scoped.updateOne(organizationId, { ...condition, id } as Filter<T>, update);
    const done = await this.scoped.collection.updateOne({ ...condition, _id: ref } as Filter<T>, update);
    return done.matchedCount > 0;
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

  /**
   * The resource by its id's entry alone, never by the scanning `{organizationId, id}` filter: null
   * when it has no entry. For ids a list keeps (which may name resources since deleted, whose
   * entries went with them); the lists' backfill enters the resources stored before entries were kept.
   */
  async findEntered(organizationId: number, id: number): Promise<T | null> {
    const byKey = (await this.ids.find(String(id), WITHOUT_MONGO_ID)) as T | null;
    return byKey?.organizationId === organizationId ? byKey : null;
  }

  /** Enters a resource stored without its id's entry (a backfill); one entered already is left as it is. */
  async enter(id: number, ref: LookupRef): Promise<void> {
    await this.ids.point(String(id), ref).catch((error: unknown) => {
      if (!(error instanceof KeyTakenError)) throw error;
    });
  }

  /**
   * The organization's resources of these ids (those that exist), by id: each by its entry and
   * `_id` (`findById`), a few at a time; `{id: {$in}}` reads the whole collection on FerretDB 1.24.
   */
  async findByIds(organizationId: number, ids: readonly number[]): Promise<T[]> {
    const reads = readFanOut(FIND_BY_IDS_AT_ONCE);
    const found = await Promise.all(
      [...new Set(ids)].map((id) => reads.run(() => this.findById(organizationId, id))),
    );
    return found.filter((resource): resource is Awaited<T> => resource !== null).sort((a, b) => a.id - b.id);
  }

  /** The organization's resources matching `filter`, by id unless `sort` says otherwise. */
  findMany(organizationId: number, filter: Filter<T> = {}, sort: Sort = { id: 1 }): Promise<T[]> {
    return this.scoped.find(organizationId, filter, { ...WITHOUT_MONGO_ID, sort }).toArray() as Promise<T[]>;
  }

  /** Deletes by `_id` through the id's entry (or by `{organizationId, id}` without one), then the entry. */
  async delete(organizationId: number, id: number): Promise<boolean> {
    const ref = await this.refOf(organizationId, id);
    const deleted =
      ref === null
        ? await this.scoped.deleteOne(organizationId, { id } as Filter<T>)
        : (await this.scoped.collection.deleteOne({ _id: ref } as Filter<T>)).deletedCount > 0;
    if (deleted) await this.ids.forget(String(id));
    return deleted;
  }
}
