import type { RecentCheck } from '../monitoring/index.js';
import {
  hourlyAverages,
  type MonitoringReads,
  type ShownStatus,
  statusText,
  uptimeBetween,
} from '../status-pages/index.js';
import type { WebsiteDocument } from '../websites/index.js';

const DAY_MS = 86_400_000;
/** Websites an answer holds unless `limit` says otherwise, and at most; more are paged with `afterId`. */
export const OVERVIEW_PAGE = 100;
export const OVERVIEW_PAGE_MAX = 1000;
/** Websites asked for by id at most (the rows a screen shows at first). */
export const OVERVIEW_IDS_MAX = 200;

/** Which websites an overview answers: a page by id, or these ids; a client user's customer only. */
export type OverviewSelection = (
  | { afterId?: number | undefined; limit?: number | undefined }
  | { ids: readonly number[] }
) & { customerId?: number | undefined };

export interface OverviewDeps extends MonitoringReads {
  websites: {
    listPage(
      organizationId: number,
      options: { afterId?: number | undefined; limit?: number | undefined; customerId?: number | undefined },
    ): Promise<WebsiteDocument[]>;
    /** The organization's websites of these ids (those gone or another's: absent), each by primary key. */
    byIds(organizationId: number, ids: readonly number[]): Promise<WebsiteDocument[]>;
  };
  /** Each website's last checks, newest first (the worker's capped lists: `CheckFeed.recent`). */
  recentChecks(websiteIds: readonly number[]): Promise<Map<number, RecentCheck[]>>;
  customers: {
    findByIds(organizationId: number, ids: readonly number[]): Promise<Array<{ id: number; name: string }>>;
  };
}

export interface WebsiteOverview {
  id: number;
  name: string;
  url: string;
  customerId: number;
  customerName: string;
  status: ShownStatus;
  statusText: string;
  lastCheckedAt: string | null;
  uptime24hPercent: number | null;
  uptime30dPercent: number | null;
  /** The last check's response time (null: none, or it got no answer). */
  lastResponseMs: number | null;
  /** The last checks (up to 30), oldest first. */
  recentChecks: Array<{ at: string; status: RecentCheck['status']; responseMs: number | null }>;
  /** 24 hourly average response times, oldest first (null: no answer that hour). */
  responseTimes24h: Array<number | null>;
  /** Its heartbeats, DNS and port checks: how many, and how many are down. */
  monitors: { total: number; down: number };
}

/** The websites an overview answers, and whether more follow (a page by id). */
async function selected(
  deps: OverviewDeps,
  organizationId: number,
  selection: OverviewSelection,
): Promise<{ websites: WebsiteDocument[]; more: boolean }> {
  const { customerId } = selection;
  if ('ids' in selection) {
    const found = await deps.websites.byIds(organizationId, [...new Set(selection.ids)]);
    return {
      websites: found.filter((website) => customerId === undefined || website.customerId === customerId),
      more: false,
    };
  }
  const limit = selection.limit ?? OVERVIEW_PAGE;
  const page = await deps.websites.listPage(organizationId, {
    afterId: selection.afterId,
    limit: limit + 1,
    customerId,
  });
  return { websites: page.slice(0, limit), more: page.length > limit };
}

/**
 * The agency's view of every website at once: status, the last checks, response times of the last
 * 24 hours and uptime over 24 hours and 30 days, read from the last checks' lists, hourly rollups
 * and incidents (a read by key each, for the websites of the page only).
 */
export async function websiteOverview(
  deps: OverviewDeps,
  organizationId: number,
  selection: OverviewSelection = {},
  now = new Date(),
): Promise<{ items: WebsiteOverview[]; nextAfterId: number | null }> {
  const { websites, more } = await selected(deps, organizationId, selection);
  const ids = websites.map((website) => website.id);
  const from = new Date(now.getTime() - DAY_MS);
  const from30d = new Date(now.getTime() - 30 * DAY_MS);
  const [statuses, customers, hours, incidents, monitors, recent] = await Promise.all([
    deps.statuses(organizationId, websites),
    deps.customers.findByIds(organizationId, [...new Set(websites.map((website) => website.customerId))]),
    deps.rollups.since(organizationId, ids, 'hour', new Date(from.getTime() - 3_600_000)),
    deps.incidents(organizationId, ids, from30d),
    deps.monitors(ids),
    deps.recentChecks(ids),
  ]);
  const customerName = new Map(customers.map((customer) => [customer.id, customer.name]));
  const items = websites.map((website) => {
    const own = hours.filter((rollup) => rollup.websiteId === website.id);
    const state = statuses.get(website.id);
    const status = state?.status ?? 'unknown';
    const checks = recent.get(website.id) ?? [];
    const checked = own.some((rollup) => rollup.checks > 0) || checks.some((c) => c.at >= from.getTime());
    const checked30d = checked || (state?.lastCheckedAt ?? new Date(0)) >= from30d;
    const ownIncidents = incidents.filter((incident) => incident.websiteId === website.id);
    const uptimeSince = (start: Date) =>
      uptimeBetween(ownIncidents, Math.max(start.getTime(), website.createdAt.getTime()), now.getTime());
    return {
      id: website.id,
      name: website.name,
      url: website.url,
      customerId: website.customerId,
      customerName: customerName.get(website.customerId) ?? `Customer ${website.customerId}`,
      status,
      statusText: statusText(status),
      lastCheckedAt: state?.lastCheckedAt?.toISOString() ?? null,
      monitors: {
        total: monitors.get(website.id)?.length ?? 0,
        down: monitors.get(website.id)?.filter((monitor) => monitor.health === 'down').length ?? 0,
      },
      uptime24hPercent: checked ? uptimeSince(from) : null,
      uptime30dPercent: checked30d ? uptimeSince(from30d) : null,
      lastResponseMs: checks[0]?.responseMs ?? null,
      recentChecks: checks
        .map((check) => ({
          at: new Date(check.at).toISOString(),
          status: check.status,
          responseMs: check.responseMs,
        }))
        .reverse(),
      responseTimes24h: hourlyAverages(own, now).map((point) => point.averageMs),
    };
  });
  const last = websites.at(-1);
  return { items, nextAfterId: more && last ? last.id : null };
}
