import { type MaintenanceWindowDocument, occurrences } from '../maintenance/index.js';
import type { RollupPeriod, RollupRepository } from '../monitoring/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import {
  BAR_DAYS,
  buildStatusPage,
  type IncidentInput,
  type MaintenanceInput,
  type ShownStatus,
  type StatusPageData,
  uptimeBetween,
} from './page-model.js';
import type { StatusPageDocument, StatusPageRepository } from './status-page.repository.js';

const DAY_MS = 86_400_000;
/** How long a page's data (and a badge's) is served again before it is read anew. */
export const PUBLIC_CACHE_SECONDS = 30;
/** Maintenance shown ahead, and how many occurrences of one window. */
const MAINTENANCE_AHEAD_DAYS = 30;
const OCCURRENCES_PER_WINDOW = 3;
const CACHE_ENTRIES = 1000;

/** What pages about many websites at once read: states, rollups and incidents, a query each. */
export interface MonitoringReads {
  statuses(
    organizationId: number,
    websites: readonly WebsiteDocument[],
  ): Promise<Map<number, { status: ShownStatus; lastCheckedAt: Date | null }>>;
  rollups: Pick<RollupRepository, 'since'>;
  incidents(organizationId: number, websiteIds: readonly number[], since: Date): Promise<IncidentInput[]>;
}

export interface PublicPagesDeps extends MonitoringReads {
  pages: StatusPageRepository;
  websites: {
    listByCustomer(organizationId: number, customerId: number): Promise<WebsiteDocument[]>;
    findByPublicId(publicId: string): Promise<WebsiteDocument | null>;
  };
  maintenanceWindows(organizationId: number, websiteIds: number[]): Promise<MaintenanceWindowDocument[]>;
}

/** The next occurrences of the windows: under way now or starting within 30 days. */
export function upcomingMaintenance(
  windows: readonly MaintenanceWindowDocument[],
  now: Date,
): MaintenanceInput[] {
  const horizon = now.getTime() + MAINTENANCE_AHEAD_DAYS * DAY_MS;
  const upcoming: MaintenanceInput[] = [];
  for (const window of windows) {
    let taken = 0;
    for (const occurrence of occurrences(window, now)) {
      if (occurrence.startsAt.getTime() > horizon || taken >= OCCURRENCES_PER_WINDOW) break;
      if (occurrence.endsAt <= now) continue;
      upcoming.push({ websiteId: window.websiteId, title: window.title, ...occurrence });
      taken++;
    }
  }
  return upcoming;
}

/**
 * A small time-bounded cache: a public page is read by many visitors at once. "Not found" is not
 * kept, so a page made public shows at once.
 */
class ShortCache<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  get(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached && Date.now() - cached.at < PUBLIC_CACHE_SECONDS * 1000) return cached.value;
    if (this.entries.size >= CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    const value = load();
    value.then(
      (found) => found === null && this.entries.delete(key),
      () => this.entries.delete(key),
    );
    this.entries.set(key, { at: Date.now(), value });
    return value;
  }
}

/**
 * What the public sees: a public page by its slug and badges of the websites on public pages,
 * read from rollups, incidents and monitor states (never raw results) and cached 30 s.
 */
export class PublicStatusPages {
  private readonly pagesCache = new ShortCache<StatusPageData | null>();
  private readonly badgeCache = new ShortCache<{
    status: ShownStatus;
    uptimePercent: number | null;
  } | null>();

  constructor(private readonly deps: PublicPagesDeps) {}

  /** The page's data, or null when there is no public page by that slug. */
  page(slug: string): Promise<StatusPageData | null> {
    return this.pagesCache.get(slug, async () => {
      const page = await this.deps.pages.findBySlug(slug);
      return page?.public ? this.build(page, new Date()) : null;
    });
  }

  private async websitesOf(page: StatusPageDocument): Promise<WebsiteDocument[]> {
    const all = await this.deps.websites.listByCustomer(page.organizationId, page.customerId);
    if (!page.websiteIds) return all;
    const listed = new Set(page.websiteIds);
    return all.filter((website) => listed.has(website.id));
  }

  private async build(page: StatusPageDocument, now: Date): Promise<StatusPageData> {
    const { organizationId } = page;
    const websites = await this.websitesOf(page);
    const ids = websites.map((website) => website.id);
    const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const since = (period: RollupPeriod, ms: number) =>
      this.deps.rollups.since(organizationId, ids, period, new Date(ms));
    const [statuses, days, hours, incidents, windows] = await Promise.all([
      this.deps.statuses(organizationId, websites),
      since('day', today - (BAR_DAYS - 1) * DAY_MS),
      page.showResponseTimes ? since('hour', now.getTime() - DAY_MS) : Promise.resolve([]),
      this.deps.incidents(organizationId, ids, new Date(now.getTime() - BAR_DAYS * DAY_MS)),
      this.deps.maintenanceWindows(organizationId, ids),
    ]);
    return buildStatusPage({
      now,
      page,
      websites: websites.map((website) => ({
        id: website.id,
        publicId: website.publicId,
        name: website.name,
        status: statuses.get(website.id)?.status ?? 'unknown',
        lastCheckedAt: statuses.get(website.id)?.lastCheckedAt ?? null,
        createdAt: website.createdAt,
      })),
      days,
      hours,
      incidents,
      maintenance: upcomingMaintenance(windows, now),
    });
  }

  /**
   * A website's status and its uptime over `periodDays`, if it is on a public page (a badge of
   * any other website is not found, whether or not it exists).
   */
  badge(
    publicId: string,
    periodDays: number,
  ): Promise<{ status: ShownStatus; uptimePercent: number | null } | null> {
    return this.badgeCache.get(`${publicId}:${periodDays}`, async () => {
      const website = await this.deps.websites.findByPublicId(publicId);
      if (!website) return null;
      const pages = await this.deps.pages.publicPagesOf(website.organizationId, website.customerId);
      if (!pages.some((page) => page.websiteIds === null || page.websiteIds.includes(website.id)))
        return null;
      const now = new Date();
      const from = new Date(now.getTime() - periodDays * DAY_MS);
      const [statuses, days, incidents] = await Promise.all([
        this.deps.statuses(website.organizationId, [website]),
        this.deps.rollups.since(
          website.organizationId,
          [website.id],
          'day',
          new Date(from.getTime() - DAY_MS),
        ),
        this.deps.incidents(website.organizationId, [website.id], from),
      ]);
      return {
        status: statuses.get(website.id)?.status ?? 'unknown',
        uptimePercent: days.some((day) => day.checks > 0)
          ? uptimeBetween(incidents, Math.max(from.getTime(), website.createdAt.getTime()), now.getTime())
          : null,
      };
    });
  }
}
