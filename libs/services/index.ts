import type { Db } from 'mongodb';
import {
  DeliveryRepository,
  DeliveryRequests,
  deliveryIndexes,
  NotificationQueue,
  OwedAttempts,
  owedAttemptIndexes,
} from '../alerts/index.js';
import { ApiTokenRepository, apiTokenIndexes, organizationIndexes } from '../auth/index.js';
import { type AppConfig, requireSecretsKey } from '../config/index.js';
import {
  CustomerLifecycleQueue,
  CustomerRepository,
  CustomerService,
  customerIndexes,
} from '../customers/index.js';
import type { CollectionIndexes } from '../db/index.js';
import { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import {
  MaintenanceQueue,
  MaintenanceWindowRepository,
  maintenanceWindowIndexes,
} from '../maintenance/index.js';
import {
  checkResultIndexes,
  MonitorStateRepository,
  monitoringIndexes,
  PlacementStatus,
  ResultRepository,
} from '../monitoring/index.js';
import { MonitoringNodeRepository, monitoringNodeIndexes } from '../nodes/index.js';
import { ChannelRepository, ChannelService, channelIndexes } from '../notifications/index.js';
import { PackageRepository, packageIndexes } from '../packages/index.js';
import type { Redis } from '../redis/index.js';
import { CheckScheduler } from '../scheduler/index.js';
import { SecretBox } from '../secrets/index.js';
import {
  ScheduleReconciler,
  WebsiteRepository,
  WebsiteRevisions,
  WebsiteScheduling,
  WebsiteService,
  websiteIndexes,
} from '../websites/index.js';

/** Every collection's indexes, created at start by each process. */
export const ALL_INDEXES: readonly CollectionIndexes[] = [
  organizationIndexes,
  apiTokenIndexes,
  monitoringNodeIndexes,
  packageIndexes,
  customerIndexes,
  websiteIndexes,
  checkResultIndexes,
  ...monitoringIndexes,
  maintenanceWindowIndexes,
  channelIndexes,
  ...deliveryIndexes,
  owedAttemptIndexes,
];

export interface Services {
  secrets: SecretBox;
  customerRepository: CustomerRepository;
  websiteRepository: WebsiteRepository;
  websiteRevisions: WebsiteRevisions;
  tokens: ApiTokenRepository;
  nodes: MonitoringNodeRepository;
  packages: PackageRepository;
  customers: CustomerService;
  websites: WebsiteService;
  mutex: RedisMutex;
  scheduler: CheckScheduler;
  lifecycle: CustomerLifecycleQueue;
  reconciler: ScheduleReconciler;
  scheduling: WebsiteScheduling;
  maintenanceWindows: MaintenanceWindowRepository;
  maintenanceQueue: MaintenanceQueue;
  channels: ChannelService;
  channelRepository: ChannelRepository;
  deliveries: DeliveryRepository;
  owedAttempts: OwedAttempts;
  deliveryRequests: DeliveryRequests;
  notificationQueue: NotificationQueue;
  states: MonitorStateRepository;
  results: ResultRepository;
  close(): Promise<void>;
}

/** The repositories and services of the control plane, built once per process over its connections. */
export function createServices(deps: { db: Db; redis: Redis; config: AppConfig; logger: Logger }): Services {
  const { db, redis, config, logger } = deps;
  const secrets = new SecretBox(requireSecretsKey(config), config.SECRETS_KEYS_PREVIOUS);
  const mutex = new RedisMutex(redis, config.REDIS_KEY_PREFIX);
  const nodes = new MonitoringNodeRepository(db);
  const packages = new PackageRepository(db);
  const customerRepository = new CustomerRepository(db);
  const websiteRevisions = new WebsiteRevisions(redis, config.REDIS_KEY_PREFIX);
  const websiteRepository = new WebsiteRepository(db, (id) => websiteRevisions.bump(id));
  const scheduler = new CheckScheduler(redis, config.REDIS_KEY_PREFIX);
  const lifecycle = new CustomerLifecycleQueue(redis, config.REDIS_KEY_PREFIX);
  const maintenanceWindows = new MaintenanceWindowRepository(db);
  const maintenanceQueue = new MaintenanceQueue(redis, config.REDIS_KEY_PREFIX);
  const notificationQueue = new NotificationQueue(redis, config.REDIS_KEY_PREFIX);
  const states = new MonitorStateRepository(db, redis, config.REDIS_KEY_PREFIX, (eventId) =>
    notificationQueue.announce(eventId),
  );
  const results = new ResultRepository(db);
  const placement = new PlacementStatus({
    states,
    results,
    mutex,
    recheckDelayMs: config.RECHECK_DELAY_SECONDS * 1000,
  });
  const scheduling = new WebsiteScheduling({
    scheduler,
    websites: websiteRepository,
    nodes,
    preferredRegion: config.PREFERRED_REGION,
    onPlacement: (change) => placement.changed(change),
  });
  const guard = {
    allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
    exemptAddresses: config.PROBE_EXEMPT_ADDRESSES,
  };
  const channelRepository = new ChannelRepository(db);
  const deliveries = new DeliveryRepository(db);
  const owedAttempts = new OwedAttempts(db);
  const channels: ChannelService = new ChannelService({
    channels: channelRepository,
    secrets,
    mutex,
    guard,
    customers: {
      exists: async (organizationId, customerId) =>
        (await customerRepository.findById(organizationId, customerId)) !== null,
    },
    // Called only once requests run, after `websites` below exists.
    websites: {
      detachChannel: (organizationId, channelId) => websites.detachChannel(organizationId, channelId),
      countListingOutsideCustomer: (organizationId, channelId, customerId) =>
        websites.countListingChannelOutsideCustomer(organizationId, channelId, customerId),
    },
  });
  const websites: WebsiteService = new WebsiteService({
    websites: websiteRepository,
    customers: customerRepository,
    packages,
    secrets,
    mutex,
    scheduling,
    channels,
    guard,
    afterDelete: async (website) => {
      await maintenanceWindows.deleteByWebsite(website.organizationId, website.id);
      // Drops the planned boundary job and the website's maintenance state.
      await maintenanceQueue.syncSoon(website.organizationId, website.id);
    },
  });
  const reconciler = new ScheduleReconciler({
    websites: websiteRepository,
    customers: customerRepository,
    packages,
    scheduling,
    scheduler,
    mutex,
    redis,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
  });
  const customers = new CustomerService({
    customers: customerRepository,
    packages,
    mutex,
    lifecycle,
    websites,
    channels,
    logger,
  });
  return {
    secrets,
    customerRepository,
    websiteRepository,
    websiteRevisions,
    tokens: new ApiTokenRepository(db),
    nodes,
    packages,
    customers,
    websites,
    mutex,
    scheduler,
    lifecycle,
    reconciler,
    scheduling,
    maintenanceWindows,
    maintenanceQueue,
    channels,
    channelRepository,
    deliveries,
    owedAttempts,
    deliveryRequests: new DeliveryRequests({
      channels: channelRepository,
      deliveries,
      owed: owedAttempts,
      queue: notificationQueue,
    }),
    notificationQueue,
    states,
    results,
    async close() {
      await Promise.all([
        scheduler.close(),
        lifecycle.close(),
        maintenanceQueue.close(),
        notificationQueue.close(),
      ]);
    },
  };
}
