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

export interface OverviewDeps extends MonitoringReads {
  websites: {
    listPage(
      organizationId: number,
      options: { afterId?: number; limit?: number },
    ): Promise<WebsiteDocument[]>;
  };
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
  /** 24 hourly average response times, oldest first (null: no answer that hour). */
  responseTimes24h: Array<number | null>;
  /** Its heartbeats, DNS and port checks: how many, and how many are down. */
  monitors: { total: number; down: number };
}

/**
 * The agency's view of every website at once: status, last check, uptime and response times of
 * the last 24 hours, read from hourly rollups and incidents (one query each for the whole page).
 */
export async function websiteOverview(
  deps: OverviewDeps,
  organizationId: number,
  options: { afterId?: number | undefined; limit?: number | undefined; now?: Date } = {},
): Promise<{ items: WebsiteOverview[]; nextAfterId: number | null }> {
  const now = options.now ?? new Date();
  const limit = options.limit ?? OVERVIEW_PAGE;
  const page = await deps.websites.listPage(organizationId, { afterId: options.afterId, limit: limit + 1 });
  const websites = page.slice(0, limit);
  const ids = websites.map((website) => website.id);
  const from = new Date(now.getTime() - DAY_MS);
  const [statuses, customers, hours, incidents, monitors] = await Promise.all([
    deps.statuses(organizationId, websites),
    deps.customers.findByIds(organizationId, [...new Set(websites.map((website) => website.customerId))]),
    deps.rollups.since(organizationId, ids, 'hour', new Date(from.getTime() - 3_600_000)),
    deps.incidents(organizationId, ids, from),
    deps.monitors(ids),
  ]);
  const customerName = new Map(customers.map((customer) => [customer.id, customer.name]));
  const items = websites.map((website) => {
    const own = hours.filter((rollup) => rollup.websiteId === website.id);
    const state = statuses.get(website.id);
    const status = state?.status ?? 'unknown';
    const checked = own.some((rollup) => rollup.checks > 0);
    const windowStart = Math.max(from.getTime(), website.createdAt.getTime());
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
      uptime24hPercent: checked
        ? uptimeBetween(
            incidents.filter((incident) => incident.websiteId === website.id),
            windowStart,
            now.getTime(),
          )
        : null,
      responseTimes24h: hourlyAverages(own, now).map((point) => point.averageMs),
    };
  });
  const last = websites.at(-1);
  return { items, nextAfterId: page.length > limit && last ? last.id : null };
}
