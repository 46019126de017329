import type {
  Collection,
  Document,
  Filter,
  FindOptions,
  OptionalUnlessRequiredId,
  UpdateFilter,
  WithId,
} from 'mongodb';

/** Every tenant-owned document carries the id of its organization. */
export interface TenantDocument extends Document {
  organizationId: number;
}

/**
 * A collection that can only be queried for one organization at a time: each method takes the
 * organization id and adds it to the filter, so no query can forget it.
 */
export class TenantCollection<T extends TenantDocument> {
  constructor(readonly collection: Collection<T>) {}

  private scoped(organizationId: number, filter: Filter<T>): Filter<T> {
    return { ...filter, organizationId } as Filter<T>;
  }

  findOne(organizationId: number, filter: Filter<T>, options?: FindOptions): Promise<WithId<T> | null> {
    return this.collection.findOne(this.scoped(organizationId, filter), options);
  }

  find(organizationId: number, filter: Filter<T>, options?: FindOptions) {
    return this.collection.find(this.scoped(organizationId, filter), options);
  }

  /**
   * The document whose string `_id` is `key`, if it belongs to the organization. The filter is the
   * `_id` alone (checked against the organization here): the one query FerretDB 1.24 runs from its
   * primary key instead of scanning the collection, and MongoDB's primary key lookup.
   */
  async findOneByKey(organizationId: number, key: string, options?: FindOptions): Promise<WithId<T> | null> {
    const found = (await this.collection.findOne({ _id: key } as Filter<T>, options)) as WithId<T> | null;
    return found?.organizationId === organizationId ? found : null;
  }

  countDocuments(organizationId: number, filter: Filter<T>): Promise<number> {
    return this.collection.countDocuments(this.scoped(organizationId, filter));
  }

  async insertOne(document: OptionalUnlessRequiredId<T>): Promise<void> {
    await this.collection.insertOne(document);
  }

  findOneAndUpdate(
    organizationId: number,
    filter: Filter<T>,
    update: UpdateFilter<T>,
  ): Promise<WithId<T> | null> {
    return this.collection.findOneAndUpdate(this.scoped(organizationId, filter), update, {
      returnDocument: 'after',
    });
  }

  async updateOne(organizationId: number, filter: Filter<T>, update: UpdateFilter<T>): Promise<boolean> {
    const result = await this.collection.updateOne(this.scoped(organizationId, filter), update);
    return result.matchedCount > 0;
  }

  async deleteOne(organizationId: number, filter: Filter<T>): Promise<boolean> {
    const result = await this.collection.deleteOne(this.scoped(organizationId, filter));
    return result.deletedCount > 0;
  }
}
