import { type PageLanguage, pageLanguage } from '../i18n/index.js';
import type { StatusPageRevisions } from '../page-revisions.js';
import { PUBLIC_CACHE_SECONDS } from '../public-pages.js';
import { RevisedCache } from '../revised-cache.js';
import type { StatusPageRepository } from '../status-page.repository.js';
import { type PageAccess, PUBLIC_ACCESS } from './access-decision.js';

/** What the gate in front of a page's routes needs of it: who it is and who may see it. */
export interface PageAccessEntry {
  id: number;
  organizationId: number;
  customerId: number;
  slug: string;
  access: PageAccess;
  /** The language its gate's pages speak. */
  language: PageLanguage;
}

/**
 * The access of each published page by slug, kept in memory under the slug's revision (as the
 * rendered page is): a request reads one Redis key, and a change of access (a new password, a
 * range) applies on every API process at the next request. Null: no published page by that slug.
 */
export class PageAccessLookup {
  private readonly cache = new RevisedCache<PageAccessEntry>(PUBLIC_CACHE_SECONDS * 1000);

  constructor(
    private readonly deps: {
      pages: Pick<StatusPageRepository, 'findBySlug'>;
      revisions: Pick<StatusPageRevisions, 'ofSlug'>;
    },
  ) {}

  published(slug: string): Promise<PageAccessEntry | null> {
    const revisionOf = () => this.deps.revisions.ofSlug(slug);
    return this.cache.get(slug, revisionOf, async ({ afterChange }) => {
      const revision = await revisionOf();
      const page = await this.deps.pages.findBySlug(slug, { afterChange });
      // The slug check guards against a lookup that still knew the slug's former owner.
      if (!page?.public || page.slug !== slug) return { revision, value: null };
      const { id, organizationId, customerId } = page;
      return {
        revision,
        value: {
          id,
          organizationId,
          customerId,
          slug,
          access: page.access ?? PUBLIC_ACCESS,
          language: pageLanguage(page.language),
        },
      };
    });
  }
}
