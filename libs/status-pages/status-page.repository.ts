import type { Db } from 'mongodb';
import { type CollectionIndexes, isDuplicateKey, TenantResources, WITHOUT_MONGO_ID } from '../db/index.js';
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
  createdAt: Date;
  updatedAt: Date;
}

export const STATUS_PAGES = 'status_pages';
export const MAX_STATUS_PAGES_PER_ORGANIZATION = 500;

export const statusPageIndexes: CollectionIndexes = {
  collection: STATUS_PAGES,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { slug: 1 }, unique: true, name: 'slug_unique' },
    { key: { organizationId: 1, customerId: 1 }, name: 'organization_customer' },
  ],
};

const slugTaken = (slug: string) => conflict(`The slug "${slug}" is taken; choose another`);

export class StatusPageRepository {
  private readonly pages: TenantResources<StatusPageDocument>;

  constructor(private readonly db: Db) {
    this.pages = new TenantResources(db, STATUS_PAGES);
  }

  private get collection() {
    return this.db.collection<StatusPageDocument>(STATUS_PAGES);
  }

  /** Any organization's page by its slug (the public page has no token to scope it by). */
  findBySlug(slug: string): Promise<StatusPageDocument | null> {
    return this.collection.findOne({ slug }, WITHOUT_MONGO_ID);
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
    if (await this.findBySlug(input.slug)) throw slugTaken(input.slug);
    return this.pages.create(input).catch((error: unknown) => {
      throw isDuplicateKey(error) ? slugTaken(input.slug) : error;
    });
  }

  async replace(page: StatusPageDocument): Promise<StatusPageDocument> {
    const other = await this.findBySlug(page.slug);
    if (other && other.id !== page.id) throw slugTaken(page.slug);
    return this.pages.replace(page).catch((error: unknown) => {
      throw isDuplicateKey(error) ? slugTaken(page.slug) : error;
    });
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.pages.delete(organizationId, id);
  }

  /** A customer deleted: its pages go with it. */
  async deleteByCustomer(organizationId: number, customerId: number): Promise<void> {
    await this.collection.deleteMany({ organizationId, customerId });
  }
}
