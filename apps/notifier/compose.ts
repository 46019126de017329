import type { Db } from 'mongodb';
import {
  DeliveryIds,
  DeliveryRepository,
  DeliveryRequests,
  NotificationQueue,
  OwedAttempts,
} from '../../libs/alerts/index.js';
import { OrganizationRepository } from '../../libs/auth/index.js';
import { type AppConfig, requireSecretsKey } from '../../libs/config/index.js';
import { CustomerCache } from '../../libs/customers/index.js';
import { MailBudget } from '../../libs/fair-share/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { MaintenanceWindowRepository } from '../../libs/maintenance/index.js';
import { IncidentTimelines, RollupRepository, timelineHints } from '../../libs/monitoring/index.js';
import { MonitorRepository } from '../../libs/monitors/index.js';
import {
  ChannelRepository,
  ChannelService,
  channelListRevisions,
  channelRevisionWarning,
} from '../../libs/notifications/index.js';
import { LogoStore } from '../../libs/organizations/index.js';
import type { Redis } from '../../libs/redis/index.js';
import { SecretBox } from '../../libs/secrets/index.js';
import { createRecords, createReports, monitorStates } from '../../libs/services/index.js';
import { ChannelListings, WebsiteCache } from '../../libs/websites/index.js';

/** Websites, and customers, the notifier keeps in memory at most (those whose events it read lately). */
const RECORDS_KEPT = 20_000;

/**
 * What the notifier runs, built once: deliveries of the outbox's events to their channels, and
 * client reports mailed when due (through the organization's own e-mail channel, else SMTP_URL).
 */
export function composeNotifier(deps: { db: Db; redis: Redis; config: AppConfig; logger: Logger }) {
  const { db, redis, config } = deps;
  const prefix = config.REDIS_KEY_PREFIX;
  const secrets = new SecretBox(requireSecretsKey(config), config.SECRETS_KEYS_PREVIOUS);
  const records = createRecords(deps);
  const { mutex } = records;
  // Every event reads its organization's channels, every attempt its channel: kept while unchanged.
  const channelRepository = new ChannelRepository(db, {
    revisions: channelListRevisions(redis, prefix),
    keepLists: true,
    onRevisionError: channelRevisionWarning(deps.logger),
  });
  // Only its organizations' mailers are asked for here; it writes no channel.
  const channels = new ChannelService({
    channels: channelRepository,
    secrets,
    mutex,
    guard: {
      allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
      exemptAddresses: config.PROBE_EXEMPT_ADDRESSES,
    },
    customers: {
      exists: async (organizationId, customerId) =>
        (await records.customers.findById(organizationId, customerId)) !== null,
    },
    websites: new ChannelListings({ websites: records.websites, mutex }),
  });
  const reports = createReports({
    ...deps,
    records,
    organizations: new OrganizationRepository(db),
    rollups: new RollupRepository(db),
    states: monitorStates(db, redis, config),
    monitors: new MonitorRepository(db),
    windows: new MaintenanceWindowRepository(db),
    logos: new LogoStore(db),
    organizationMailer: (organizationId) =>
      channels.organizationMailer(organizationId, config.DELIVERY_TIMEOUT_SECONDS * 1000),
  });
  const notificationQueue = new NotificationQueue(redis, prefix);
  const deliveries = new DeliveryRepository(db, new DeliveryIds(db, redis, prefix));
  const owedAttempts = new OwedAttempts(db, { redis, prefix });
  return {
    secrets,
    channelRepository,
    websiteRepository: records.websites,
    customerCache: records.copies.customers.keptBy(
      new CustomerCache(records.customers, records.revisions.customers, RECORDS_KEPT),
    ),
    // Escalations and dependencies read each event's website (and its customer): kept while its revision holds.
    websiteCache: records.copies.websites.keptBy(
      new WebsiteCache(
        { websites: records.websites, revisions: records.revisions.websites, staleWhileUnavailable: false },
        RECORDS_KEPT,
      ),
    ),
    mutex,
    deliveries,
    owedAttempts,
    notificationQueue,
    deliveryRequests: new DeliveryRequests({
      channels: channelRepository,
      deliveries,
      owed: owedAttempts,
      queue: notificationQueue,
      // The deliveries hold it for e-mail channels' test sends (a Redis key prefix, nothing opened).
      mailBudget: new MailBudget({
        redis,
        prefix,
        perOrganization: config.MAIL_PER_ORGANIZATION_PER_HOUR,
        perRecipient: config.MAIL_PER_RECIPIENT_PER_HOUR,
      }),
    }),
    // Its first step of an incident starts after the worker's, from the hint the worker left in Redis.
    timelines: new IncidentTimelines(db, { busy: true, hints: timelineHints(redis, prefix) }),
    /** The organization's own e-mail channel as a mailer (null: none). */
    organizationMailer: (organizationId: number) =>
      channels.organizationMailer(organizationId, config.DELIVERY_TIMEOUT_SECONDS * 1000),
    reportMailings: reports.mailings,
    /** Closes the queue and the report printer (the connections are the process's). */
    async close() {
      await notificationQueue.close();
      await reports.printer.close();
    },
  };
}
