import type { Db } from 'mongodb';
import type { AppConfig } from '../../libs/config/index.js';
import { CustomerCache } from '../../libs/customers/index.js';
import type { MaintenanceWindowRepository } from '../../libs/maintenance/index.js';
import {
  listedStatuses,
  type MonitorStateRepository,
  type RollupRepository,
} from '../../libs/monitoring/index.js';
import { type MonitorRepository, MonitorSummaries, monitorHistories } from '../../libs/monitors/index.js';
import type { Redis } from '../../libs/redis/index.js';
import type { Records } from '../../libs/services/index.js';
import {
  LocalPageBuilder,
  type MonitoringReads,
  SharedPublishedPages,
} from '../../libs/status-pages/index.js';
import { PostReads, StatusPostRepository } from '../../libs/status-posts/index.js';

/** Customers an API process keeps in memory for its lists (~1 KB each). */
const LISTED_CUSTOMERS_KEPT = 20_000;

/** The customers the API's lists read (their revisions in Redis, the customers in memory). */
export const listedCustomersOf = (records: Records): CustomerCache =>
  records.copies.customers.keptBy(
    new CustomerCache(records.customers, records.revisions.customers, LISTED_CUSTOMERS_KEPT),
  );

/** States, rollups and incidents of many websites at once (status pages, the dashboard). */
export function monitoringReadsOf(deps: {
  redis: Redis;
  config: AppConfig;
  states: MonitorStateRepository;
  rollups: RollupRepository;
  listedCustomers: CustomerCache;
}): MonitoringReads {
  const { states } = deps;
  const summaries = new MonitorSummaries(deps.redis, deps.config.REDIS_KEY_PREFIX);
  return {
    statuses: listedStatuses({ states, customers: deps.listedCustomers }),
    rollups: deps.rollups,
    incidents: (organizationId, ids, since) => states.incidentsOfWebsites(organizationId, ids, since),
    monitors: (ids) => summaries.of(ids),
  };
}

/** Builds public pages in this thread (the API's page-builder thread runs one). */
export function localPageBuilder(deps: {
  db: Db;
  redis: Redis;
  config: AppConfig;
  records: Records;
  reads: MonitoringReads;
  states: MonitorStateRepository;
  monitors: MonitorRepository;
  windows: MaintenanceWindowRepository;
}): LocalPageBuilder {
  const { states, windows } = deps;
  return new LocalPageBuilder({
    ...deps.reads,
    monitorHistories: (organizationId, ids, since) =>
      monitorHistories({ repository: deps.monitors, states }, organizationId, ids, since),
    websites: deps.records.websites,
    maintenanceWindows: (organizationId, ids) => windows.listByWebsites(organizationId, ids),
    posts: new PostReads(new StatusPostRepository(deps.db)),
    shared: new SharedPublishedPages(deps.redis, deps.config.REDIS_KEY_PREFIX),
  });
}
