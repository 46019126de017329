import type { Db } from 'mongodb';
import { type CustomerService, loadCustomerWithPackage } from '../../libs/customers/index.js';
import { ownersWithLists } from '../../libs/db/index.js';
import { buildExport, type ExportSources, exportDocument } from '../../libs/exports/index.js';
import { checkPorts, ImportJobs } from '../../libs/imports/index.js';
import type { Logger } from '../../libs/logging/index.js';
import {
  createMaintenanceWindow,
  MAINTENANCE_WINDOWS,
  type MaintenanceQueue,
  type MaintenanceWindowRepository,
} from '../../libs/maintenance/index.js';
import { type MonitorRepository, type MonitorService, WEBSITE_MONITORS } from '../../libs/monitors/index.js';
import type { ChannelRepository, ChannelService } from '../../libs/notifications/index.js';
import { createPackage } from '../../libs/packages/index.js';
import type { Records } from '../../libs/services/index.js';
import type { StatusPageService } from '../../libs/status-pages/index.js';
import type { TargetGuard } from '../../libs/targets/index.js';
import type { WebsiteCache, WebsiteService } from '../../libs/websites/index.js';

/**
 * What an export reads and what an import makes things with: the same services the create routes
 * call, so an imported thing is judged as one created through the API.
 */
export function composeImports(deps: {
  db: Db;
  logger: Logger;
  records: Records;
  /** The API's website cache: an export of 3,000 websites read 3,000 by primary key without it. */
  listedWebsites: WebsiteCache;
  guard: TargetGuard;
  customers: CustomerService;
  websites: WebsiteService;
  channels: ChannelService;
  channelRepository: ChannelRepository;
  statusPages: StatusPageService;
  monitors: MonitorService;
  monitorRepository: MonitorRepository;
  maintenanceWindows: MaintenanceWindowRepository;
  maintenanceQueue: MaintenanceQueue;
}): { imports: ImportJobs; exportSources: ExportSources } {
  const { records, customers, websites, channels, statusPages, maintenanceWindows } = deps;
  const cached = (organizationId: number, ids: readonly number[]) =>
    deps.listedWebsites.getMany(organizationId, ids);
  const exportSources: ExportSources = {
    packages: (organizationId) => records.packages.list(organizationId),
    customers: (organizationId) => customers.list(organizationId),
    websites: (organizationId, customerId, page) =>
      records.websites.listPage(organizationId, { customerId, ...page }, cached),
    maintenanceWindows: (organizationId, websiteIds) =>
      maintenanceWindows.listByWebsites(organizationId, websiteIds),
    monitors: (organizationId, websiteId) => deps.monitorRepository.listByWebsite(organizationId, websiteId),
    // The lists the two repositories keep per website (`IdLists` of `<collection>.websiteId`).
    listedWebsites: async (atMost) => {
      const [windows, monitors] = [`${MAINTENANCE_WINDOWS}.websiteId`, `${WEBSITE_MONITORS}.websiteId`];
      const owners = await ownersWithLists(deps.db, [windows, monitors], atMost);
      return (
        owners && { windows: owners.get(windows) ?? new Set(), monitors: owners.get(monitors) ?? new Set() }
      );
    },
    channels: (organizationId, customerId) =>
      deps.channelRepository.list(organizationId, customerId === undefined ? {} : { customerId }),
    statusPages: (organizationId, customerId) =>
      statusPages.list(organizationId, customerId === undefined ? {} : { customerId }),
  };
  const imports = new ImportJobs(deps.db, {
    customers: (organizationId) => customers.list(organizationId),
    owner: (organizationId, customerId) =>
      loadCustomerWithPackage(records.customers, records.packages, organizationId, customerId),
    // Through the API's cache, as its lists: a website unchanged since its last read costs no read.
    websitesOf: (organizationId, customerId) =>
      records.websites.listPage(organizationId, { customerId }, cached),
    website: (organizationId, ref) => websites.get(organizationId, ref),
    checks: checkPorts(deps.monitors, deps.guard),
    createMany: (organizationId, items, options) => websites.createMany(organizationId, items, options),
    configuration: {
      current: async (organizationId) =>
        exportDocument.parse(await buildExport(exportSources, organizationId)),
      createPackage: (organizationId, input) => createPackage(records.packages, organizationId, input),
      createCustomer: (organizationId, input) => customers.create(organizationId, input),
      createChannel: async (organizationId, input) => (await channels.create(organizationId, input)).channel,
      createWindow: (organizationId, input) =>
        createMaintenanceWindow(
          {
            windows: maintenanceWindows,
            websites: records.websites,
            mutex: records.mutex,
            queue: deps.maintenanceQueue,
          },
          organizationId,
          input,
        ),
      createStatusPage: (organizationId, input) => statusPages.create(organizationId, input),
      createWebsites: (organizationId, items) =>
        websites.createMany(organizationId, items, { dryRun: false, partial: true }),
      monitors: deps.monitors,
    },
    mutex: records.mutex,
    logger: deps.logger,
  });
  return { imports, exportSources };
}
