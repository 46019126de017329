import { customerLock } from '../customers/index.js';
import { conflict, invalidInput, notFound } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import { hashPassword } from '../people/index.js';
import { type PageAccess, PUBLIC_ACCESS } from './access/access-decision.js';
import type { PageSection } from './page-model.js';
import type { StatusPageRevisions } from './page-revisions.js';
import {
  MAX_STATUS_PAGES_PER_ORGANIZATION,
  type StatusPageDocument,
  type StatusPageRepository,
} from './status-page.repository.js';
import type { CreateStatusPageInput, StatusPageAccessInput, StatusPagePatch } from './status-page.schema.js';

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
      /** How a page's password is hashed (default: scrypt, as people's passwords are). */
      hashPassword?: (password: string) => Promise<string>;
      /** The page's own domains: a PATCH's `domains` checked before anything is written, replaced after. */
      domains?: {
        checkHosts(organizationId: number, pageId: number, hosts: readonly string[]): Promise<unknown>;
        replace(organizationId: number, pageId: number, hosts: readonly string[]): Promise<unknown>;
      };
      /** What goes with a deleted page (its domains, posts, subscribers), each told after it is gone. */
      pageGone?: ReadonlyArray<(organizationId: number, pageId: number) => Promise<unknown>>;
    },
  ) {}

  /** The password hashed, if one is given (~0.1 s: before any lock is taken). */
  private async hashed(input: StatusPageAccessInput | undefined): Promise<string | undefined> {
    return input?.password === undefined
      ? undefined
      : (this.deps.hashPassword ?? hashPassword)(input.password);
  }

  /**
   * The access a page has after `input`: a new password's hash replaces the former (a new hash,
   * with a new salt, ends every page session of the former one); ranges left out are kept. A
   * password page needs a password, set now or before, and a range page a range (either would let
   * nobody in).
   */
  private accessAfter(
    current: PageAccess,
    input: StatusPageAccessInput | undefined,
    newHash: string | undefined,
  ): PageAccess {
    if (!input) return current;
    const passwordHash = newHash ?? current.passwordHash;
    const cidrs = input.cidrs ?? current.cidrs;
    if (input.mode === 'password' && passwordHash === null)
      throw invalidInput('A password page needs a password', [
        { path: 'access.password', message: 'set a password to protect the page with' },
      ]);
    if (input.mode === 'cidr' && cidrs.length === 0)
      throw invalidInput('A page for address ranges needs at least one range', [
        { path: 'access.cidrs', message: 'list the client address ranges that may see the page' },
      ]);
    return { mode: input.mode, passwordHash, cidrs };
  }

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

  /**
   * The customer is locked (so it cannot be deleted meanwhile), its websites are the ones listed,
   * and the sections' websites are the page's (`shown`: the page's list, or null for all the
   * customer's).
   */
  private withCustomer<T>(
    organizationId: number,
    customerId: number,
    websiteIds: number[] | null,
    work: () => Promise<T>,
    sections?: { list: readonly PageSection[]; shown: number[] | null },
  ): Promise<T> {
    return this.deps.mutex.withLock(customerLock(customerId), async () => {
      if (!(await this.deps.owners.customerExists(organizationId, customerId)))
        throw invalidInput(`Unknown customer ${customerId}`, [
          { path: 'customerId', message: `No customer ${customerId} in your organization` },
        ]);
      if (sections && sections.list.length > 0) {
        const onPage = new Set(
          sections.shown ?? (await this.deps.owners.websiteIdsOf(organizationId, customerId)),
        );
        const problems = sections.list.flatMap((section, i) =>
          section.websiteIds.flatMap((id, j) =>
            onPage.has(id)
              ? []
              : [{ path: `sections.${i}.websiteIds.${j}`, message: `website ${id} is not on this page` }],
          ),
        );
        if (problems.length > 0)
          throw invalidInput('A section lists websites that are not on the page', problems);
      }
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

  async create(organizationId: number, input: CreateStatusPageInput): Promise<StatusPageDocument> {
    const { access: accessInput, ...fields } = input;
    const access = this.accessAfter(PUBLIC_ACCESS, accessInput, await this.hashed(accessInput));
    return this.withCustomer(
      organizationId,
      input.customerId,
      input.websiteIds,
      async () => {
        if ((await this.deps.pages.count(organizationId)) >= MAX_STATUS_PAGES_PER_ORGANIZATION)
          throw conflict(`An organization may have ${MAX_STATUS_PAGES_PER_ORGANIZATION} status pages`);
        return this.changed(await this.deps.pages.create({ organizationId, ...fields, access }));
      },
      { list: input.sections, shown: input.websiteIds },
    );
  }

  async update(organizationId: number, id: number, patch: StatusPagePatch): Promise<StatusPageDocument> {
    const before = await this.get(organizationId, id);
    const { customerId } = before;
    // Hashed before the customer's lock is taken (~0.1 s), then applied to the page as it is then.
    const newHash = await this.hashed(patch.access);
    // Sections given are checked against the page's websites after the patch.
    const sectionCheck =
      patch.sections === undefined
        ? undefined
        : {
            list: patch.sections,
            shown: patch.websiteIds === undefined ? before.websiteIds : patch.websiteIds,
          };
    return this.withCustomer(
      organizationId,
      customerId,
      patch.websiteIds ?? null,
      async () => {
        if (patch.domains !== undefined)
          await this.deps.domains?.checkHosts(organizationId, id, patch.domains);
        const current = await this.get(organizationId, id);
        const access = this.accessAfter(current.access ?? PUBLIC_ACCESS, patch.access, newHash);
        const updated = await this.deps.pages.replace({
          ...current,
          slug: patch.slug ?? current.slug,
          title: patch.title ?? current.title,
          websiteIds: patch.websiteIds === undefined ? current.websiteIds : patch.websiteIds,
          branding: { ...current.branding, ...patch.branding },
          public: patch.public ?? current.public,
          showResponseTimes: patch.showResponseTimes ?? current.showResponseTimes,
          embedAllowedOrigins: patch.embedAllowedOrigins ?? current.embedAllowedOrigins ?? [],
          maintenanceNoticeDays: patch.maintenanceNoticeDays ?? current.maintenanceNoticeDays ?? 7,
          access,
          language: patch.language ?? current.language ?? 'en',
          timezone: patch.timezone ?? current.timezone ?? 'UTC',
          sections: patch.sections ?? current.sections ?? [],
        });
        if (patch.domains !== undefined) await this.deps.domains?.replace(organizationId, id, patch.domains);
        return this.changed(updated, current.slug);
      },
      sectionCheck,
    );
  }

  /** A customer deleted (under its lock): its pages go, and every API process drops them at once. */
  async deleteByCustomer(organizationId: number, customerId: number): Promise<void> {
    const pages = await this.deps.pages.list(organizationId, { customerId });
    const slugs = await this.deps.pages.deleteByCustomer(organizationId, customerId);
    await this.deps.revisions.changed({ slugs, organizationId, customerId });
    for (const page of pages) await this.gone(organizationId, page.id);
  }

  /** What went with the page goes: each part on its own (one failing leaves the others done). */
  private async gone(organizationId: number, pageId: number): Promise<void> {
    const outcomes = await Promise.allSettled(
      (this.deps.pageGone ?? []).map((drop) => drop(organizationId, pageId)),
    );
    const failed = outcomes.find(
      (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
    );
    if (failed) throw failed.reason;
  }

  /** Reads the page once: the repository answers the page it deleted (its slug and customer are dropped). */
  async delete(organizationId: number, id: number): Promise<void> {
    const page = await this.deps.pages.delete(organizationId, id);
    if (!page) throw notFound(`No status page ${id}`);
    await this.changed(page);
    await this.gone(organizationId, id);
  }
}
