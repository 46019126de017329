import type { MaintenanceWindowDocument } from '../maintenance/index.js';
import {
  DEFAULT_MAINTENANCE_NOTICE_DAYS,
  type PagePosts,
  PUBLIC_CACHE_SECONDS,
  RevisedCache,
  type StatusPageDocument,
  type StatusPageRevisions,
  upcomingMaintenance,
} from '../status-pages/index.js';
import { type FeedFormat, pageFeed } from './page-feed.js';

const DAY_MS = 86_400_000;
/** How far back a feed's resolved posts go (open ones always). */
const FEED_DAYS = 90;

export interface PageFeedsDeps {
  pages: {
    findBySlug(slug: string, options?: { afterChange?: boolean }): Promise<StatusPageDocument | null>;
  };
  revisions: Pick<StatusPageRevisions, 'ofSlug'>;
  posts: Pick<PagePosts, 'shown'>;
  websites: {
    listByCustomer(organizationId: number, customerId: number): Promise<Array<{ id: number; name: string }>>;
  };
  windows(organizationId: number, websiteIds: number[]): Promise<MaintenanceWindowDocument[]>;
}

/**
 * The RSS and Atom feeds of published pages, kept while the page's revision holds (a post moves it)
 * and 30 s at most (maintenance starting, a window changed): a feed reader polling every minute
 * costs a revision read.
 */
export class PageFeeds {
  private readonly cache = new RevisedCache<string>(PUBLIC_CACHE_SECONDS * 1000);

  constructor(private readonly deps: PageFeedsDeps) {}

  /** The feed, or null when no published page has that slug. `pageUrl`: the page's address the reader used. */
  feed(slug: string, format: FeedFormat, pageUrl: string): Promise<string | null> {
    const revisionOf = () => this.deps.revisions.ofSlug(slug);
    return this.cache.get(`${slug}|${format}|${pageUrl}`, revisionOf, async ({ afterChange }) => {
      const revision = await revisionOf();
      const page = await this.deps.pages.findBySlug(slug, { afterChange });
      if (!page?.public || page.slug !== slug) return { revision, value: null };
      return { revision, value: await this.build(page, format, pageUrl) };
    });
  }

  private async build(page: StatusPageDocument, format: FeedFormat, pageUrl: string): Promise<string> {
    const now = new Date();
    const all = await this.deps.websites.listByCustomer(page.organizationId, page.customerId);
    const listed = page.websiteIds ? new Set(page.websiteIds) : null;
    const websites = all.filter((website) => !listed || listed.has(website.id));
    const [posts, windows] = await Promise.all([
      this.deps.posts.shown(page.organizationId, page.id, new Date(now.getTime() - FEED_DAYS * DAY_MS)),
      this.deps.windows(
        page.organizationId,
        websites.map((website) => website.id),
      ),
    ]);
    return pageFeed(
      {
        title: page.title,
        pageUrl,
        posts,
        maintenance: upcomingMaintenance(
          windows,
          now,
          page.maintenanceNoticeDays ?? DEFAULT_MAINTENANCE_NOTICE_DAYS,
        ),
        websiteNames: new Map(websites.map((website) => [website.id, website.name])),
        now,
        language: page.language,
        timezone: page.timezone,
      },
      format,
    );
  }
}
