import { type Db, type Filter, ObjectId } from 'mongodb';
import {
  ABSENT_KEY_TTL_MS,
  type CollectionIndexes,
  IdLists,
  isDuplicateKey,
  KeyLookup,
  KeyTakenError,
  type LookupRef,
  publicReads,
  readFanOut,
  TenantResources,
  WITHOUT_MONGO_ID,
} from '../db/index.js';
import { conflict } from '../errors/index.js';
import type { PageAccess } from './access/access-decision.js';
import type { PageLanguage } from './i18n/index.js';
import type { PageSection } from './page-model.js';

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
  /** How many days ahead maintenance is announced; absent on pages stored before it existed (7). */
  maintenanceNoticeDays?: number;
  /** Who may see the published page; absent on pages stored before it existed (anyone). */
  access?: PageAccess;
  /** Its visitors' language, their time zone and its websites' sections; absent on pages stored before (en, UTC, none). */
  language?: PageLanguage;
  timezone?: string;
  sections?: PageSection[];
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

/**
 * Each customer's page ids (`id_lists`, `status_pages.customerId/<customerId>`), so a badge finds
 * the customer's public pages by primary key: a filter on `customerId` reads every page of every
 * organization on FerretDB 1.24. A page joins under its customer's lock (the only writer); a
 * deleted page's id stays listed (a delete takes no customer lock, and FerretDB's non-atomic
 * update could then lose a concurrent create's id) and readers skip it; the list goes with the
 * customer.
 */
const pageLists = (db: Db) => new IdLists(db, `${STATUS_PAGES}.customerId`);

/** Page reads going at once. */
const READS_AT_ONCE = 16;

export const statusPageIndexes: CollectionIndexes = {
  collection: STATUS_PAGES,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { slug: 1 }, unique: true, name: 'slug_unique' },
    { key: { organizationId: 1, customerId: 1 }, name: 'organization_customer' },
  ],
  backfill: async (db) => {
    await slugLookup(db).backfill();
    // Pages stored before the lists were kept: one scan, once per database; each page's id is
    // entered too (the lists are read through those entries alone).
    const pages = new TenantResources<StatusPageDocument>(db, STATUS_PAGES);
    await pageLists(db).backfill(async () => {
      const stored = await db
        .collection<StatusPageDocument>(STATUS_PAGES)
        .find({}, { projection: { _id: 1, id: 1, customerId: 1 } })
        .toArray();
      for (const page of stored) await pages.enter(page.id, page._id as LookupRef);
      return stored.map((page) => ({ owner: page.customerId, id: page.id }));
    });
  },
};

/**
 * Pages by id: the `status_pages.id/<id>` entries `TenantResources` keeps (created with each page),
 * read here for the page's `_id`, which its slug's entry points at too.
 */
const idLookup = (db: Db) =>
  new KeyLookup<StatusPageDocument>(db, { collection: STATUS_PAGES, keyField: 'id' });

type StoredPage = StatusPageDocument & { _id: LookupRef };

const withoutMongoId = ({ _id, ...page }: StoredPage): StatusPageDocument => page;

const slugTaken = (slug: string) => conflict(`The slug "${slug}" is taken; choose another`);
const asSlugTaken = (slug: string) => (error: unknown) => {
  throw error instanceof KeyTakenError || isDuplicateKey(error) ? slugTaken(slug) : error;
};

export class StatusPageRepository {
  private readonly pages: TenantResources<StatusPageDocument>;
  private readonly slugs: KeyLookup<StatusPageDocument>;
  private readonly ids: KeyLookup<StatusPageDocument>;
  private readonly lists: IdLists;

  constructor(private readonly db: Db) {
    this.pages = new TenantResources(db, STATUS_PAGES);
    this.slugs = slugLookup(db);
    this.ids = idLookup(db);
    this.lists = pageLists(db);
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

  /**
   * The page as stored, its MongoDB `_id` included (what its slug's lookup entry points at), if it is
   * the organization's: its id's lookup entry, then the document by `_id` (two primary-key reads; a
   * filter on `id` scans the collection on FerretDB 1.24), checked against the organization here. A
   * page stored without an entry (before entries were kept) is found by its id once and entered.
   */
  private async stored(organizationId: number, id: number): Promise<StoredPage | null> {
    const byKey = (await this.ids.find(String(id))) as StoredPage | null;
    if (byKey) return byKey.organizationId === organizationId ? byKey : null;
    const found = (await this.collection.findOne({ organizationId, id })) as StoredPage | null;
    if (found) await this.ids.point(String(id), found._id);
    return found;
  }

  /**
   * The public pages of a customer (published, anyone may see them: a badge is served for a website on one of them): its list of
   * page ids, then each page by primary key, a few at a time.
   */
  async publicPagesOf(organizationId: number, customerId: number): Promise<StatusPageDocument[]> {
    const reads = readFanOut(READS_AT_ONCE);
    const ids = await this.lists.get(customerId);
    const pages = await Promise.all(
      // By the ids' entries alone: a deleted page's id stays listed, and its entry is gone.
      ids.map((id) => reads.run(() => this.pages.findEntered(organizationId, id))),
    );
    return (
      pages
        // A page only some may see lends its websites no public badge.
        .filter(
          (page): page is StatusPageDocument =>
            page?.customerId === customerId && page.public && (page.access?.mode ?? 'public') === 'public',
        )
        .sort((a, b) => a.id - b.id)
    );
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
    // Listed under its customer before it is stored (the caller holds the customer's lock).
    const id = await this.pages.allocateId();
    await this.lists.add(input.customerId, id);
    return this.slugs
      .claim(input.slug, mongoId, () => this.pages.create(input, mongoId, id))
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

  /**
   * Deletes the page (by `_id` and organization: a primary-key write), then its slug's and its id's
   * lookup entries; answers the page deleted, or null when the organization has no such page.
   */
  async delete(organizationId: number, id: number): Promise<StatusPageDocument | null> {
    const current = await this.stored(organizationId, id);
    if (!current) return null;
    const { deletedCount } = await this.collection.deleteOne({
      _id: current._id,
      organizationId,
    } as Filter<StatusPageDocument>);
    if (deletedCount === 0) return null;
    await this.slugs.release(current.slug, current._id);
    await this.ids.release(String(id), current._id);
    return withoutMongoId(current);
  }

  /**
   * A customer deleted: its pages go with it, then their slugs' and ids' lookup entries and its list
   * of pages; says which slugs they had. By the scanning `{organizationId, customerId}` filter on
   * purpose: rare, and no page its list lost may outlive the customer.
   */
  async deleteByCustomer(organizationId: number, customerId: number): Promise<string[]> {
    const pages = await this.collection
      .find<{ _id: LookupRef; id: number; slug: string }>(
        { organizationId, customerId },
        { projection: { _id: 1, id: 1, slug: 1 } },
      )
      .toArray();
    await this.collection.deleteMany({ organizationId, customerId });
    for (const page of pages) {
      await this.slugs.release(page.slug, page._id);
      await this.ids.release(String(page.id), page._id);
    }
    await this.lists.drop(customerId);
    return pages.map((page) => page.slug);
  }
}
