import { ConcurrencyLimit } from '../runtime/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import type { MonitoringReads, PageBuilder } from './page-builder.js';
import { type ShownStatus, uptimeBetween } from './page-model.js';
import { REVISION_UNKNOWN, type StatusPageRevisions } from './page-revisions.js';
import { RevisedCache } from './revised-cache.js';
import type { PublishedPage, SharedPublishedPages } from './shared-pages.js';
import type { StatusPageRepository } from './status-page.repository.js';

const DAY_MS = 86_400_000;
/** How long a page's data (and a badge's) is served again before it is read anew, unchanged. */
export const PUBLIC_CACHE_SECONDS = 30;
/**
 * How long past that a page whose revision holds is still served while one process rebuilds it in
 * the background (its footer says when it was made): visitors never wait for a periodic rebuild,
 * and through a MongoDB outage the last page stays up this long.
 */
export const PAGE_STALE_SECONDS = 10 * 60;

export interface PublicPagesDeps extends MonitoringReads {
  /** What the rendered pages kept in memory may take together, bytes (`STATUS_PAGE_CACHE_MIB`). */
  pageCacheBytes: number;
  pages: Pick<StatusPageRepository, 'publicPagesOf' | 'findBySlug'>;
  revisions: StatusPageRevisions;
  /** Pages built by any API process (Redis). */
  shared: Pick<SharedPublishedPages, 'get' | 'claimRebuild' | 'forget'>;
  builder: PageBuilder;
  websites: { findByPublicId(publicId: string): Promise<WebsiteDocument | null> };
}

export interface PublicBadge {
  status: ShownStatus;
  uptimePercent: number | null;
}

/**
 * Pages and badges built at once, and how many more may wait: a build reads a few documents per
 * website (hundreds for a page of 50), so a flood of requests for pages not cached (every public
 * slug in turn) is built a few at a time, the rest answered 503 at once, instead of every build
 * slowing every other and the API with them (32 at once took 90 s each on two cores).
 */
const BUILDS_AT_ONCE = 2;
const BUILDS_WAITING = 32;
/**
 * Refreshes of pages still served run one at a time beside those, none waiting: keeping every
 * visited page of a large install fresh can take more than the machine has (200 pages of 50
 * websites every 30 s: ~100 s of builds), and then pages age (up to `PAGE_STALE_SECONDS`) rather
 * than a visitor of a page never built waiting behind refreshes.
 */
const REFRESHES_AT_ONCE = 1;

/**
 * What the public sees: a public page by its slug and badges of the websites on public pages,
 * read from rollups, incidents and monitor states (never raw results). Both are cached while the
 * page's revision (badges: the customer's pages' revision) is current, and 30 s at most.
 */
export class PublicStatusPages {
  private readonly builds = new ConcurrencyLimit(BUILDS_AT_ONCE, {
    maxWaiting: BUILDS_WAITING,
    resource: 'The status page builder',
  });
  private readonly refreshes = new ConcurrencyLimit(REFRESHES_AT_ONCE, {
    maxWaiting: 0,
    resource: 'The status page refresher',
  });
  private readonly pagesCache: RevisedCache<PublishedPage>;
  /** A website's badge (null: on no public page) under its customer's pages' revision. */
  private readonly badgeCache = new RevisedCache<{
    organizationId: number;
    customerId: number;
    badge: PublicBadge | null;
  }>(PUBLIC_CACHE_SECONDS * 1000);

  constructor(private readonly deps: PublicPagesDeps) {
    this.pagesCache = new RevisedCache(
      { maxAgeMs: PUBLIC_CACHE_SECONDS * 1000, staleWhileRefreshMs: PAGE_STALE_SECONDS * 1000 },
      { maxBytes: deps.pageCacheBytes, sizeOf: publishedBytes },
    );
  }

  /**
   * The page rendered, or null when no public page has that slug now: from this process's memory,
   * else as another process built it under the same revision, else built here (and shared).
   */
  page(slug: string): Promise<PublishedPage | null> {
    const revisionOf = () => this.deps.revisions.ofSlug(slug);
    return this.pagesCache.get(slug, revisionOf, async ({ afterChange, background }) => {
      // Both at once (one round trip); Redis not answering, the page is built here, as without sharing.
      const [revision, shared] = await Promise.all([
        revisionOf(),
        this.deps.shared.get(slug).catch(() => null),
      ]);
      const shareable = revision !== REVISION_UNKNOWN;
      if (shareable && shared && shared.revision === revision) {
        const age = Date.now() - shared.madeAt;
        const servable = background ? PUBLIC_CACHE_SECONDS : PUBLIC_CACHE_SECONDS + PAGE_STALE_SECONDS;
        if (age >= 0 && age < servable * 1000) return { revision, value: shared.page, madeAt: shared.madeAt };
      }
      // Looked up here, before the builders' bulkhead: a flood of made-up slugs costs a lookup each.
      const page = await this.deps.pages.findBySlug(slug, { afterChange });
      // The slug check guards against a lookup that still knew the slug's former owner.
      if (!page?.public || page.slug !== slug) {
        // A snapshot left from before (its revision change lost) is served by nobody then.
        if (shared) await this.deps.shared.forget(slug).catch(() => {});
        return { revision, value: null };
      }
      const build = () => this.deps.builder.build({ page, revision: shareable ? revision : undefined });
      const built = background
        ? await this.refreshes.run(async () => {
            // One process refreshes a page at a time: the others serve what it shares.
            if (shareable && !(await this.deps.shared.claimRebuild(slug).catch(() => true)))
              throw new Error('another API process rebuilds this page');
            return build();
          })
        : await this.builds.run(build);
      return { revision, value: built.page, madeAt: built.madeAt };
    });
  }

  /**
   * A website's status and its uptime over `periodDays`, if it is on a public page (a badge of
   * any other website is not found, whether or not it exists).
   */
  badge(publicId: string, periodDays: number): Promise<PublicBadge | null> {
    return this.badgeCache
      .get(
        `${publicId}:${periodDays}`,
        // A website that was not found is looked for again after 30 s (a website change).
        async (found) =>
          found ? this.deps.revisions.ofCustomer(found.organizationId, found.customerId) : null,
        async () => {
          const website = await this.deps.websites.findByPublicId(publicId);
          if (!website) return { revision: null, value: null };
          const { organizationId, customerId } = website;
          const revision = await this.deps.revisions.ofCustomer(organizationId, customerId);
          return {
            revision,
            value: {
              organizationId,
              customerId,
              badge: await this.builds.run(() => this.badgeOf(website, periodDays)),
            },
          };
        },
      )
      .then((found) => found?.badge ?? null);
  }

  /**
   * A website's heartbeats, DNS and port checks for its monitors badge (live: their health is read
   * from Redis each time, one read), or null for a website on no public page.
   */
  async monitorsBadge(publicId: string): Promise<{ total: number; down: number; degraded: number } | null> {
    if (!(await this.badge(publicId, 1))) return null;
    const website = await this.deps.websites.findByPublicId(publicId);
    if (!website) return null;
    const monitors = (await this.deps.monitors([website.id])).get(website.id) ?? [];
    return {
      total: monitors.length,
      down: monitors.filter((monitor) => monitor.health === 'down').length,
      degraded: monitors.filter((monitor) => monitor.health === 'degraded').length,
    };
  }

  private async badgeOf(website: WebsiteDocument, periodDays: number): Promise<PublicBadge | null> {
    const pages = await this.deps.pages.publicPagesOf(website.organizationId, website.customerId);
    if (!pages.some((page) => page.websiteIds === null || page.websiteIds.includes(website.id))) return null;
    const now = new Date();
    const from = new Date(now.getTime() - periodDays * DAY_MS);
    const [statuses, days, incidents] = await Promise.all([
      this.deps.statuses(website.organizationId, [website]),
      this.deps.rollups.since(website.organizationId, [website.id], 'day', new Date(from.getTime() - DAY_MS)),
      this.deps.incidents(website.organizationId, [website.id], from),
    ]);
    return {
      status: statuses.get(website.id)?.status ?? 'unknown',
      uptimePercent: days.some((day) => day.checks > 0)
        ? uptimeBetween(incidents, Math.max(from.getTime(), website.createdAt.getTime()), now.getTime())
        : null,
    };
  }
}

/** What a published page holds in memory: each of its bodies' forms made so far. */
const publishedBytes = (page: PublishedPage) => page.html.heldBytes + page.json.heldBytes;
