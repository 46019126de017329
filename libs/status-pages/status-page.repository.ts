import { type Db, ObjectId } from 'mongodb';
import {
  ABSENT_KEY_TTL_MS,
  type CollectionIndexes,
  isDuplicateKey,
  KeyLookup,
  KeyTakenError,
  type LookupRef,
  publicReads,
  TenantResources,
  WITHOUT_MONGO_ID,
} from '../db/index.js';
import { conflict } from '../errors/index.js';

export interface StatusPageDocument {
  id: number;
  organizationId: number;
  slug: string;
  title: string;
  customerId: number;
  websiteIds: number[] | null;
  branding: { logoUrl: string | null; accentColor: string | null; footerText: string | null };
  public: boolean;
  showResponseTimes: boolean;
  /** Origins that may frame the page; absent on pages stored before it existed (none may). */
  embedAllowedOrigins?: string[];
  createdAt: Date;
  updatedAt: Date;
}

export const STATUS_PAGES = 'status_pages';
export const MAX_STATUS_PAGES_PER_ORGANIZATION = 500;

/** Pages by slug (`/status/<slug>`) in two primary-key reads; the entry follows a renamed slug. */
const slugLookup = (db: Db) =>
  new KeyLookup<StatusPageDocument>(db, {
    collection: STATUS_PAGES,
    keyField: 'slug',
    absentTtlMs: ABSENT_KEY_TTL_MS,
  });

export const statusPageIndexes: CollectionIndexes = {
  collection: STATUS_PAGES,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { slug: 1 }, unique: true, name: 'slug_unique' },
    { key: { organizationId: 1, customerId: 1 }, name: 'organization_customer' },
  ],
  backfill: (db) => slugLookup(db).backfill(),
};

const slugTaken = (slug: string) => conflict(`The slug "${slug}" is taken; choose another`);
const asSlugTaken = (slug: string) => (error: unknown) => {
  throw error instanceof KeyTakenError || isDuplicateKey(error) ? slugTaken(slug) : error;
};

export class StatusPageRepository {
  private readonly pages: TenantResources<StatusPageDocument>;
  private readonly slugs: KeyLookup<StatusPageDocument>;

  constructor(private readonly db: Db) {
    this.pages = new TenantResources(db, STATUS_PAGES);
    this.slugs = slugLookup(db);
  }

  private get collection() {
    return this.db.collection<StatusPageDocument>(STATUS_PAGES);
  }

  /**
   * Any organization's page by its slug (the public page has no token to scope it by). After a
   * change of the slug's revision (`afterChange`), read even if this process found none lately: the
   * page may have been created through another API process.
   */
  async findBySlug(
    slug: string,
    options: { afterChange?: boolean } = {},
  ): Promise<StatusPageDocument | null> {
    if (options.afterChange) this.slugs.forgetAbsence(slug);
    // `_id` is projected out, so what comes back is the page itself.
    return (await this.slugs.find(slug, WITHOUT_MONGO_ID, publicReads)) as StatusPageDocument | null;
  }

  /** The page's MongoDB `_id` and its slug as stored (what its slug's lookup entry points at). */
  private stored(organizationId: number, id: number) {
    return this.collection.findOne<{ _id: LookupRef; slug: string }>(
      { organizationId, id },
      { projection: { _id: 1, slug: 1 } },
    );
  }

  /** The public pages of a customer (a badge is served for a website on one of them). */
  publicPagesOf(organizationId: number, customerId: number): Promise<StatusPageDocument[]> {
    return this.pages.findMany(organizationId, { customerId, public: true });
  }

  list(organizationId: number, filter: { customerId?: number }): Promise<StatusPageDocument[]> {
    return this.pages.findMany(organizationId, filter.customerId === undefined ? {} : filter);
  }

  count(organizationId: number): Promise<number> {
    return this.pages.scoped.countDocuments(organizationId, {});
  }

  findById(organizationId: number, id: number): Promise<StatusPageDocument | null> {
    return this.pages.findById(organizationId, id);
  }

  async create(
    input: Omit<StatusPageDocument, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<StatusPageDocument> {
    const mongoId = new ObjectId();
    return this.slugs
      .claim(input.slug, mongoId, () => this.pages.create(input, mongoId))
      .catch(asSlugTaken(input.slug));
  }

  /** A new slug is claimed before the page takes it and the old one released after, so one always answers. */
  async replace(page: StatusPageDocument): Promise<StatusPageDocument> {
    const current = await this.stored(page.organizationId, page.id);
    if (!current || current.slug === page.slug) return this.pages.replace(page).catch(asSlugTaken(page.slug));
    const replaced = await this.slugs
      .claim(page.slug, current._id, () => this.pages.replace(page))
      .catch(asSlugTaken(page.slug));
    await this.slugs.release(current.slug, current._id);
    return replaced;
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const current = await this.stored(organizationId, id);
    if (!current) return false;
    const deleted = await this.pages.delete(organizationId, id);
    await this.slugs.release(current.slug, current._id);
    return deleted;
  }

  /** A customer deleted: its pages go with it, then their slugs; says which slugs they had. */
  async deleteByCustomer(organizationId: number, customerId: number): Promise<string[]> {
    const pages = await this.collection
      .find<{ _id: LookupRef; slug: string }>(
        { organizationId, customerId },
        { projection: { _id: 1, slug: 1 } },
      )
      .toArray();
    await this.collection.deleteMany({ organizationId, customerId });
    for (const page of pages) await this.slugs.release(page.slug, page._id);
    return pages.map((page) => page.slug);
  }
}
