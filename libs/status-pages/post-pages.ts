import { translator } from './i18n/index.js';
import type { PagePosts } from './page-builder.js';
import type { StatusPageRevisions } from './page-revisions.js';
import { orderedPosts, shownPost } from './post-model.js';
import { renderHistoryPage, renderPostPage } from './post-pages-html.js';
import { PUBLIC_CACHE_SECONDS } from './public-pages.js';
import { RevisedCache } from './revised-cache.js';
import type { StatusPageDocument, StatusPageRepository } from './status-page.repository.js';

/** A page under a public status page, and the page it is of (its access and framing). */
export interface PostPageAnswer {
  html: string;
  page: StatusPageDocument;
}

export interface PublicPostPagesDeps {
  pages: Pick<StatusPageRepository, 'findBySlug'>;
  revisions: Pick<StatusPageRevisions, 'ofSlug'>;
  posts: PagePosts;
  websites: {
    listByCustomer(organizationId: number, customerId: number): Promise<Array<{ id: number; name: string }>>;
  };
}

const translatorOf = (page: StatusPageDocument) =>
  translator({ language: page.language, timezone: page.timezone });

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
const monthOf = (date: Date) => date.toISOString().slice(0, 7);
const monthStart = (month: string) => new Date(`${month}-01T00:00:00Z`);
function shiftMonth(month: string, by: number): string {
  const start = monthStart(month);
  return monthOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + by, 1)));
}

/**
 * A public page's history by month and each post's permalink, rendered on request (a few posts
 * each) and kept while the page's revision holds (a post's change moves it) and 30 s at most.
 */
export class PublicPostPages {
  private readonly cache = new RevisedCache<PostPageAnswer>(PUBLIC_CACHE_SECONDS * 1000);

  constructor(private readonly deps: PublicPostPagesDeps) {}

  private async published(slug: string, afterChange: boolean) {
    const page = await this.deps.pages.findBySlug(slug, { afterChange });
    return page?.public && page.slug === slug ? page : null;
  }

  private async namesOf(page: StatusPageDocument): Promise<Map<number, string>> {
    const all = await this.deps.websites.listByCustomer(page.organizationId, page.customerId);
    const listed = page.websiteIds ? new Set(page.websiteIds) : null;
    return new Map(all.filter((w) => !listed || listed.has(w.id)).map((w) => [w.id, w.name]));
  }

  private cached(key: string, slug: string, make: (page: StatusPageDocument) => Promise<string | null>) {
    const revisionOf = () => this.deps.revisions.ofSlug(slug);
    return this.cache.get(`${slug}|${key}`, revisionOf, async ({ afterChange }) => {
      const revision = await revisionOf();
      const page = await this.published(slug, afterChange);
      const html = page ? await make(page) : null;
      return { revision, value: page && html !== null ? { html, page } : null };
    });
  }

  /** The posts begun in `month` (YYYY-MM, UTC); null: no public page, or a month outside the page's life. */
  history(slug: string, month: string, now = new Date()): Promise<PostPageAnswer | null> {
    return this.cached(`history:${month}`, slug, async (page) => {
      const current = monthOf(now);
      if (month > current || month < monthOf(page.createdAt)) return null;
      const from = monthStart(month);
      const to = monthStart(shiftMonth(month, 1));
      const [posts, names] = await Promise.all([
        this.deps.posts.month(page.organizationId, page.id, from, to),
        this.namesOf(page),
      ]);
      const previous = shiftMonth(month, -1);
      return renderHistoryPage({
        look: page,
        month,
        previous: previous < monthOf(page.createdAt) ? null : previous,
        next: month < current ? shiftMonth(month, 1) : null,
        posts: orderedPosts(posts.map((post) => shownPost(post, names, page.slug, translatorOf(page)))).sort(
          (a, b) => b.startedAt.localeCompare(a.startedAt),
        ),
      });
    });
  }

  /** One post's page; null: no public page, or no such post on it. */
  post(slug: string, postId: number): Promise<PostPageAnswer | null> {
    return this.cached(`post:${postId}`, slug, async (page) => {
      const [post, names] = await Promise.all([
        this.deps.posts.one(page.organizationId, page.id, postId),
        this.namesOf(page),
      ]);
      return post
        ? renderPostPage({ look: page, post: shownPost(post, names, page.slug, translatorOf(page)) })
        : null;
    });
  }
}
