import { StoredBody } from '../compression/index.js';
import { type MaintenanceWindowDocument, occurrences } from '../maintenance/index.js';
import type { RollupPeriod, RollupRepository } from '../monitoring/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { renderStatusPage } from './page-html.js';
import {
  BAR_DAYS,
  buildStatusPage,
  type IncidentInput,
  type MaintenanceInput,
  type PageWebsiteInput,
  RECENT_INCIDENT_DAYS,
  type ShownStatus,
  type StatusPageData,
} from './page-model.js';
import type { PostInput } from './post-view.js';
import { type PublishedPage, packedPage, type SharedPublishedPages, unpackedPage } from './shared-pages.js';
import type { StatusPageDocument } from './status-page.repository.js';
import { publicStatusPageView } from './status-page.schema.js';

const DAY_MS = 86_400_000;
/** Maintenance shown ahead unless the page says (`maintenanceNoticeDays`), and how many occurrences of one window. */
export const DEFAULT_MAINTENANCE_NOTICE_DAYS = 7;
const OCCURRENCES_PER_WINDOW = 3;

/** A page's incident posts as its pages show them (libs/status-posts reads them). */
export interface PagePosts {
  /** The open posts and those resolved since `since`. */
  shown(organizationId: number, pageId: number, since: Date): Promise<PostInput[]>;
  /** Those begun in `[from, to)`. */
  month(organizationId: number, pageId: number, from: Date, to: Date): Promise<PostInput[]>;
  one(organizationId: number, pageId: number, postId: number): Promise<PostInput | null>;
}

/** What pages about many websites at once read: states, rollups and incidents, a query each. */
export interface MonitoringReads {
  statuses(
    organizationId: number,
    websites: readonly WebsiteDocument[],
  ): Promise<Map<number, { status: ShownStatus; lastCheckedAt: Date | null }>>;
  rollups: Pick<RollupRepository, 'since'>;
  incidents(organizationId: number, websiteIds: readonly number[], since: Date): Promise<IncidentInput[]>;
  /** The websites' heartbeats, DNS and port checks with their health (websites without: absent). */
  monitors(
    websiteIds: readonly number[],
  ): Promise<
    Map<number, Array<Omit<NonNullable<PageWebsiteInput['monitors']>[number], 'history'> & { id: number }>>
  >;
}

/** A monitor's creation and its incidents since a moment (the bars of its days), by `<kind>:<id>`. */
export type MonitorHistories = (
  organizationId: number,
  websiteIds: readonly number[],
  since: Date,
) => Promise<Map<string, NonNullable<NonNullable<PageWebsiteInput['monitors']>[number]['history']>>>;

/** A build asked for: the public page as read under the slug, and the slug's revision read before. */
export interface PageBuildRequest {
  page: StatusPageDocument;
  /** Undefined when Redis could not tell: the page is then not shared. */
  revision: string | null | undefined;
}

export interface BuiltPage {
  madeAt: number;
  page: PublishedPage;
}

/** Builds public pages. */
export interface PageBuilder {
  build(request: PageBuildRequest): Promise<BuiltPage>;
  close(): Promise<void>;
}

export interface PageBuildDeps extends MonitoringReads {
  monitorHistories: MonitorHistories;
  websites: { listByCustomer(organizationId: number, customerId: number): Promise<WebsiteDocument[]> };
  maintenanceWindows(organizationId: number, websiteIds: number[]): Promise<MaintenanceWindowDocument[]>;
  posts: PagePosts;
  shared: Pick<SharedPublishedPages, 'put'>;
}

/** The next occurrences of the windows: under way now or starting within `noticeDays`. */
export function upcomingMaintenance(
  windows: readonly MaintenanceWindowDocument[],
  now: Date,
  noticeDays = DEFAULT_MAINTENANCE_NOTICE_DAYS,
): MaintenanceInput[] {
  const horizon = now.getTime() + noticeDays * DAY_MS;
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
 * Builds a page in this thread: its websites, their states, rollups, incidents and maintenance,
 * each by primary key (hundreds of reads for 50 websites), rendered as HTML and JSON and
 * compressed both ways, then shared with every API process.
 */
export class LocalPageBuilder implements PageBuilder {
  constructor(private readonly deps: PageBuildDeps) {}

  async build({ page, revision }: PageBuildRequest): Promise<BuiltPage> {
    const now = new Date();
    // Kept as its compressed forms only, which another thread or process takes as they are.
    const published = unpackedPage(await packedPage(publish(page, await this.data(page, now))));
    const built = { madeAt: now.getTime(), page: published };
    // Sharing is a saving, not a duty: a failure leaves the page served from this process.
    if (revision !== undefined) this.deps.shared.put(page.slug, { revision, ...built }).catch(() => {});
    return built;
  }

  async close(): Promise<void> {}

  private async websitesOf(page: StatusPageDocument): Promise<WebsiteDocument[]> {
    const all = await this.deps.websites.listByCustomer(page.organizationId, page.customerId);
    if (!page.websiteIds) return all;
    const listed = new Set(page.websiteIds);
    return all.filter((website) => listed.has(website.id));
  }

  private async data(page: StatusPageDocument, now: Date): Promise<StatusPageData> {
    const { organizationId } = page;
    const websites = await this.websitesOf(page);
    const ids = websites.map((website) => website.id);
    const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const since = (period: RollupPeriod, ms: number) =>
      this.deps.rollups.since(organizationId, ids, period, new Date(ms));
    const barsFrom = new Date(now.getTime() - BAR_DAYS * DAY_MS);
    const recentFrom = new Date(now.getTime() - RECENT_INCIDENT_DAYS * DAY_MS);
    const [statuses, days, hours, incidents, windows, monitors, histories, posts] = await Promise.all([
      this.deps.statuses(organizationId, websites),
      since('day', today - (BAR_DAYS - 1) * DAY_MS),
      page.showResponseTimes ? since('hour', now.getTime() - DAY_MS) : Promise.resolve([]),
      this.deps.incidents(organizationId, ids, barsFrom),
      this.deps.maintenanceWindows(organizationId, ids),
      this.deps.monitors(ids),
      this.deps.monitorHistories(organizationId, ids, barsFrom),
      this.deps.posts.shown(organizationId, page.id, recentFrom),
    ]);
    return buildStatusPage({
      now,
      page,
      websites: websites.map((website) => ({
        id: website.id,
        name: website.name,
        status: statuses.get(website.id)?.status ?? 'unknown',
        lastCheckedAt: statuses.get(website.id)?.lastCheckedAt ?? null,
        createdAt: website.createdAt,
        monitors: (monitors.get(website.id) ?? []).map((monitor) => {
          const history = histories.get(`${monitor.kind}:${monitor.id}`);
          return history ? { ...monitor, history } : monitor;
        }),
      })),
      days,
      hours,
      incidents,
      maintenance: upcomingMaintenance(
        windows,
        now,
        page.maintenanceNoticeDays ?? DEFAULT_MAINTENANCE_NOTICE_DAYS,
      ),
      posts,
    });
  }
}

/** Renders a page's data once, as HTML and as JSON (parsed by its schema: nothing unlisted leaves). */
function publish(page: StatusPageDocument, data: StatusPageData): PublishedPage {
  return {
    embedAllowedOrigins: page.embedAllowedOrigins ?? [],
    html: new StoredBody(
      Buffer.from(renderStatusPage(data, { slug: page.slug })),
      'text/html; charset=utf-8',
    ),
    json: new StoredBody(
      Buffer.from(JSON.stringify(publicStatusPageView.parse(data))),
      'application/json; charset=utf-8',
    ),
  };
}
