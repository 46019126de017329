import { customerLock } from '../customers/index.js';
import { conflict, invalidInput, notFound } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { StatusPageRevisions } from './page-revisions.js';
import {
  MAX_STATUS_PAGES_PER_ORGANIZATION,
  type StatusPageDocument,
  type StatusPageRepository,
} from './status-page.repository.js';
import type { CreateStatusPageInput, StatusPagePatch } from './status-page.schema.js';

/** What status pages need of customers and websites. */
export interface StatusPageOwnersPort {
  customerExists(organizationId: number, customerId: number): Promise<boolean>;
  /** The ids of the customer's websites. */
  websiteIdsOf(organizationId: number, customerId: number): Promise<number[]>;
}

/**
 * Status pages: one customer's websites, shown to its clients. Each change replaces the page's
 * revisions once MongoDB has it, so every API process drops what it cached of the page.
 */
export class StatusPageService {
  constructor(
    private readonly deps: {
      pages: StatusPageRepository;
      owners: StatusPageOwnersPort;
      mutex: RedisMutex;
      revisions: StatusPageRevisions;
    },
  ) {}

  private async changed(page: StatusPageDocument, formerSlug = page.slug): Promise<StatusPageDocument> {
    await this.deps.revisions.changed({
      slugs: [formerSlug, page.slug],
      organizationId: page.organizationId,
      customerId: page.customerId,
    });
    return page;
  }

  list(organizationId: number, filter: { customerId?: number }): Promise<StatusPageDocument[]> {
    return this.deps.pages.list(organizationId, filter);
  }

  async get(organizationId: number, id: number): Promise<StatusPageDocument> {
    const page = await this.deps.pages.findById(organizationId, id);
    if (!page) throw notFound(`No status page ${id}`);
    return page;
  }

  /** The customer is locked (so it cannot be deleted meanwhile) and its websites are the ones listed. */
  private withCustomer<T>(
    organizationId: number,
    customerId: number,
    websiteIds: number[] | null,
    work: () => Promise<T>,
  ): Promise<T> {
    return this.deps.mutex.withLock(customerLock(customerId), async () => {
      if (!(await this.deps.owners.customerExists(organizationId, customerId)))
        throw invalidInput(`Unknown customer ${customerId}`, [
          { path: 'customerId', message: `No customer ${customerId} in your organization` },
        ]);
      if (websiteIds) {
        const own = new Set(await this.deps.owners.websiteIdsOf(organizationId, customerId));
        const foreign = websiteIds.filter((id) => !own.has(id));
        if (foreign.length > 0)
          throw invalidInput(`Websites not of customer ${customerId}: ${foreign.join(', ')}`, [
            {
              path: 'websiteIds',
              message: `${foreign.join(', ')} are not websites of customer ${customerId}`,
            },
          ]);
      }
      return work();
    });
  }

  create(organizationId: number, input: CreateStatusPageInput): Promise<StatusPageDocument> {
    return this.withCustomer(organizationId, input.customerId, input.websiteIds, async () => {
      if ((await this.deps.pages.count(organizationId)) >= MAX_STATUS_PAGES_PER_ORGANIZATION)
        throw conflict(`An organization may have ${MAX_STATUS_PAGES_PER_ORGANIZATION} status pages`);
      return this.changed(await this.deps.pages.create({ organizationId, ...input }));
    });
  }

  async update(organizationId: number, id: number, patch: StatusPagePatch): Promise<StatusPageDocument> {
    const { customerId } = await this.get(organizationId, id);
    return this.withCustomer(organizationId, customerId, patch.websiteIds ?? null, async () => {
      const current = await this.get(organizationId, id);
      const updated = await this.deps.pages.replace({
        ...current,
        slug: patch.slug ?? current.slug,
        title: patch.title ?? current.title,
        websiteIds: patch.websiteIds === undefined ? current.websiteIds : patch.websiteIds,
        branding: { ...current.branding, ...patch.branding },
        public: patch.public ?? current.public,
        showResponseTimes: patch.showResponseTimes ?? current.showResponseTimes,
        embedAllowedOrigins: patch.embedAllowedOrigins ?? current.embedAllowedOrigins ?? [],
      });
      return this.changed(updated, current.slug);
    });
  }

  /** A customer deleted (under its lock): its pages go, and every API process drops them at once. */
  async deleteByCustomer(organizationId: number, customerId: number): Promise<void> {
    const slugs = await this.deps.pages.deleteByCustomer(organizationId, customerId);
    await this.deps.revisions.changed({ slugs, organizationId, customerId });
  }

  /** Reads the page once: the repository answers the page it deleted (its slug and customer are dropped). */
  async delete(organizationId: number, id: number): Promise<void> {
    const page = await this.deps.pages.delete(organizationId, id);
    if (!page) throw notFound(`No status page ${id}`);
    await this.changed(page);
  }
}
