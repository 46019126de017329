import type { Db } from 'mongodb';
import { DeliveryIds, DeliveryRepository, DeliveryRequests, OwedAttempts } from '../../libs/alerts/index.js';
import { ApiTokenRepository, OrganizationRepository, organizationRevisions } from '../../libs/auth/index.js';
import { type AppConfig, appLink, requireSecretsKey } from '../../libs/config/index.js';
import { GuardedHttp } from '../../libs/connectors/index.js';
import {
  CustomerLifecycleQueue,
  CustomerService,
  loadCustomerWithPackage,
} from '../../libs/customers/index.js';
import { MailBudget } from '../../libs/fair-share/index.js';
import { JourneyBrowser } from '../../libs/journeys/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { MaintenanceQueue, MaintenanceWindowRepository } from '../../libs/maintenance/index.js';
import { RollupRepository } from '../../libs/monitoring/index.js';
import {
  HeartbeatTokens,
  MonitorRepository,
  MonitorService,
  MonitorSummaries,
  monitorRevisions,
  RunArtifacts,
} from '../../libs/monitors/index.js';
import {
  ChannelRepository,
  ChannelService,
  channelListRevisions,
  channelRevisionWarning,
} from '../../libs/notifications/index.js';
import { LogoStore } from '../../libs/organizations/index.js';
import { PackageCache } from '../../libs/packages/index.js';
import { SessionStore, UserRepository, userRevisions } from '../../libs/people/index.js';
import { probeOptionsFrom } from '../../libs/probe/index.js';
import type { Redis } from '../../libs/redis/index.js';
import { SERVICE_VERSION } from '../../libs/runtime/index.js';
import { DueSet, heartbeatDeadlinesKey, regionDueKey } from '../../libs/scheduler/index.js';
import { ScimStore, ScimTokenRepository } from '../../libs/scim/index.js';
import { SecretBox } from '../../libs/secrets/index.js';
import { createCheckPath, createReports } from '../../libs/services/index.js';
import {
  LighthouseHistory,
  SiteFindings,
  SiteHealthRecorder,
  SiteHealthSummaries,
  SiteRunBoard,
} from '../../libs/site-health/index.js';
import { IdentityProviderRepository, ServiceProviderKeys } from '../../libs/sso/index.js';
import {
  PageAccessLookup,
  type PageBuilder,
  PublicPostPages,
  PublicStatusPages,
  SharedPublishedPages,
  StatusPageDomainRepository,
  StatusPageDomains,
  StatusPageRepository,
  StatusPageRevisions,
  StatusPageService,
  VerifiedHostIndex,
} from '../../libs/status-pages/index.js';
import { PostReads, StatusPostRepository, StatusPostService } from '../../libs/status-posts/index.js';
import {
  NoticeQueue,
  NoticeRepository,
  PageFeeds,
  PageNotices,
  SubscriberRepository,
} from '../../libs/status-subscriptions/index.js';
import {
  ChannelListings,
  WebsiteCache,
  WebsiteSearchIndex,
  WebsiteService,
} from '../../libs/websites/index.js';
import { composeImports } from './compose-imports.js';
import { composeOnCallStores } from './compose-oncall-stores.js';
import { listedCustomersOf, localPageBuilder, monitoringReadsOf } from './compose-pages.js';

/**
 * Websites an API process keeps in memory for its lists (the app's overview reads them every few
 * seconds): ~3 KB each, so about 60 MB at most.
 */
const LISTED_WEBSITES_KEPT = 20_000;

/** Packages a process keeps in memory for its website writes (~0.5 KB each). */
const PACKAGES_KEPT = 5_000;

export interface ApiDeps {
  db: Db;
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  /** Where public pages are built (the API: a thread of their own); default, in this thread. */
  pageBuilder?: PageBuilder;
}

/**
 * What the API serves, built once and explicitly: each piece is given what it needs, in an order
 * where nothing reaches a piece built after it. The channels' port into websites (ChannelListings)
 * is built from the repository alone, so the channel service comes before the website service
 * that lists channels.
 */
export function composeApi(deps: ApiDeps) {
  const { db, redis, config } = deps;
  const prefix = config.REDIS_KEY_PREFIX;
  const guard = {
    allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
    exemptAddresses: config.PROBE_EXEMPT_ADDRESSES,
  };
  const secrets = new SecretBox(requireSecretsKey(config), config.SECRETS_KEYS_PREVIOUS);
  // The guard, resolver and trusted roots outside requests go with (checks, identity providers).
  const probe = probeOptionsFrom({
    ...guard,
    extraCaFile: config.PROBE_EXTRA_CA_FILE,
    version: SERVICE_VERSION,
  });
  const checkPath = createCheckPath(deps);
  const { records, states, notificationQueue } = checkPath;
  const { mutex } = records;
  // Writes move revisions: notifiers keep organizations and people they read at every alert.
  const organizations = new OrganizationRepository(db, organizationRevisions(redis, prefix));
  const rollups = new RollupRepository(db);
  const maintenanceWindows = new MaintenanceWindowRepository(db);
  const maintenanceQueue = new MaintenanceQueue(redis, prefix);
  const lifecycle = new CustomerLifecycleQueue(redis, prefix);
  const listedCustomers = listedCustomersOf(records);
  const listedWebsites = records.copies.websites.keptBy(
    new WebsiteCache(
      { websites: records.websites, revisions: records.revisions.websites, staleWhileUnavailable: false },
      LISTED_WEBSITES_KEPT,
    ),
  );
  const packageCopies = records.copies.packages.keptBy(
    new PackageCache(records.packages, records.revisions.packages, PACKAGES_KEPT),
  );
  const customerExists = async (organizationId: number, customerId: number) =>
    (await records.customers.findById(organizationId, customerId)) !== null;

  // Its writes move the organization's channel list's revision: the notifiers keep lists.
  const channelRepository = new ChannelRepository(db, {
    revisions: channelListRevisions(redis, config.REDIS_KEY_PREFIX),
    onRevisionError: channelRevisionWarning(deps.logger),
  });
  const onCallStores = composeOnCallStores({ db, redis, prefix, secrets, mutex });
  const { policies } = onCallStores;
  const channels = new ChannelService({
    channels: channelRepository,
    secrets,
    mutex,
    guard,
    customers: { exists: customerExists },
    websites: new ChannelListings({ websites: records.websites, mutex }),
  });
  const websites = new WebsiteService({
    websites: records.websites,
    search: new WebsiteSearchIndex(redis, prefix),
    cache: listedWebsites,
    customers: records.customers,
    packages: records.packages,
    // A write's customer and package: a Redis GET each, not two MongoDB reads.
    owners: { customers: listedCustomers, packages: packageCopies },
    secrets,
    mutex,
    scheduling: checkPath.scheduling,
    channels,
    policies,
    guard,
    afterDelete: async (website) => {
      await maintenanceWindows.deleteByWebsite(website.organizationId, website.id);
      // Drops the planned boundary job and the website's maintenance state.
      await maintenanceQueue.syncSoon(website.organizationId, website.id);
    },
  });
  const statusPageRepository = new StatusPageRepository(db);
  const statusPageRevisions = new StatusPageRevisions(redis, prefix);
  const statusPageDomainRepository = new StatusPageDomainRepository(db);
  // Custom domains of pages: verified through the resolvers DNS checks use, served by Host (the
  // page service replaces a page's domains and drops them with the page).
  const statusPageDomains = new StatusPageDomains({
    domains: statusPageDomainRepository,
    verified: new VerifiedHostIndex(redis, prefix, () => statusPageDomainRepository.allHeld()),
    pages: statusPageRepository,
    revisions: statusPageRevisions,
    mutex,
    resolvers: config.DNS_RESOLVERS,
    statusPagesHost: config.STATUS_PAGES_HOST,
    agencyHosts: [
      ...(config.PUBLIC_URL
        ? [new URL(config.PUBLIC_URL).hostname.toLowerCase().replace(/^\[|\]$/g, '')]
        : []),
      ...(config.STATUS_PAGES_HOST ? [config.STATUS_PAGES_HOST] : []),
    ],
  });
  const statusPostRepository = new StatusPostRepository(db);
  const subscribers = new SubscriberRepository(db);
  const statusPages = new StatusPageService({
    pages: statusPageRepository,
    mutex,
    revisions: statusPageRevisions,
    owners: {
      customerExists,
      websiteIdsOf: async (organizationId, customerId) =>
        (await records.websites.listByCustomer(organizationId, customerId)).map((w) => w.id),
    },
    domains: statusPageDomains,
    // A deleted page's domains stop being served and certified; its posts and subscribers go.
    pageGone: [
      (organizationId, pageId) => statusPageDomains.removeAllOf(organizationId, pageId),
      (organizationId, pageId) => statusPostRepository.deleteOfPage(organizationId, pageId),
      (organizationId, pageId) => subscribers.removeAllOf(organizationId, pageId),
    ],
  });
  const statusPosts = new StatusPostService({
    posts: statusPostRepository,
    pages: statusPageRepository,
    websites: records.websites,
    incidents: states,
    mutex,
    revisions: statusPageRevisions,
  });
  // Webhooks subscribing to pages are challenged from here, as deliveries are posted: guarded.
  const subscriptionHttp = new GuardedHttp(
    { allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS, exemptAddresses: config.PROBE_EXEMPT_ADDRESSES },
    config.DELIVERY_TIMEOUT_SECONDS * 1000,
    `webmon-api/${SERVICE_VERSION}`,
  );
  // Each incident post's update is news for the page's subscribers: stored once, mailed by a notifier.
  const noticeQueue = new NoticeQueue(redis, prefix);
  const pageNotices = new PageNotices({
    notices: new NoticeRepository(db),
    queue: noticeQueue,
    websiteNames: async (organizationId, customerId) =>
      new Map((await records.websites.listByCustomer(organizationId, customerId)).map((w) => [w.id, w.name])),
  });
  statusPosts.onChange((change) => pageNotices.postChanged(change));
  const customers = new CustomerService({
    customers: records.customers,
    packages: records.packages,
    mutex,
    lifecycle,
    websites,
    channels,
    statusPages,
    policies,
  });
  const monitorRepository = new MonitorRepository(db);
  const monitorSummaries = new MonitorSummaries(redis, prefix);
  const heartbeatTokens = new HeartbeatTokens(redis, prefix);
  const runArtifacts = new RunArtifacts(db);
  const siteFindings = new SiteFindings(db);
  const lighthouseHistory = new LighthouseHistory(db);
  const siteHealthSummaries = new SiteHealthSummaries(db);
  const siteHealth = new SiteHealthRecorder({
    findings: siteFindings,
    lighthouse: lighthouseHistory,
    summaries: siteHealthSummaries,
  });
  // A journey run on request plays here, one at a time (the workers play the scheduled ones).
  const journeys = new JourneyBrowser({
    executablePath: config.CHROMIUM_PATH,
    concurrency: 1,
    logger: deps.logger,
  });
  const monitors = new MonitorService({
    repository: monitorRepository,
    website: (organizationId, ref) => websites.get(organizationId, ref),
    owner: (website) =>
      loadCustomerWithPackage(
        records.customers,
        records.packages,
        website.organizationId,
        website.customerId,
      ),
    states,
    mutex,
    secrets,
    tokens: heartbeatTokens,
    deadlines: new DueSet(redis, heartbeatDeadlinesKey(prefix)),
    regionDue: (region, lane) => new DueSet(redis, regionDueKey(prefix, region, lane)),
    guard,
    pingUrl: (token) => appLink(config, `/ping/${token}`).href,
    summaries: monitorSummaries,
    probe,
    dnsResolvers: config.DNS_RESOLVERS,
    revisions: monitorRevisions(redis, prefix),
    journeys,
    artifacts: runArtifacts,
    siteRuns: new SiteRunBoard(redis, prefix),
    siteData: siteHealth,
    logger: deps.logger,
  });
  const logos = new LogoStore(db);
  const reports = createReports({
    ...deps,
    records,
    organizations,
    rollups,
    states,
    monitors: monitorRepository,
    windows: maintenanceWindows,
    logos,
    organizationMailer: (organizationId) =>
      channels.organizationMailer(organizationId, config.DELIVERY_TIMEOUT_SECONDS * 1000),
  });
  const mailBudget = new MailBudget({
    redis,
    prefix,
    perOrganization: config.MAIL_PER_ORGANIZATION_PER_HOUR,
    perRecipient: config.MAIL_PER_RECIPIENT_PER_HOUR,
  });
  const deliveries = new DeliveryRepository(db, new DeliveryIds(db, redis, prefix));
  const monitoringReads = monitoringReadsOf({ ...deps, states, rollups, listedCustomers });
  const pages = { states, monitors: monitorRepository, windows: maintenanceWindows };
  const { imports, exportSources } = composeImports({
    ...deps,
    records,
    listedWebsites,
    guard,
    customers,
    websites,
    channels,
    channelRepository,
    statusPages,
    monitors,
    monitorRepository,
    maintenanceWindows,
    maintenanceQueue,
  });
  return {
    ...checkPath,
    secrets,
    guard,
    probe,
    channelRepository,
    ...onCallStores,
    mutex,
    customerExists,
    customerRepository: records.customers,
    websiteRepository: records.websites,
    websiteRevisions: records.revisions.websites,
    packages: records.packages,
    listedCustomers,
    organizations,
    tokens: new ApiTokenRepository(db),
    users: new UserRepository(db, userRevisions(redis, prefix)),
    /** Organizations' OIDC and SAML providers and the people linked to them. */
    identityProviders: new IdentityProviderRepository(db),
    /** Each SAML provider's own SP key pair (its private key sealed). */
    samlKeys: new ServiceProviderKeys(db, secrets),
    /** SCIM: its tokens, and what it says of people and groups beyond webmon's users. */
    scimTokens: new ScimTokenRepository(db),
    scimStore: new ScimStore(db),
    /** Signed-in people's sessions (Redis). */
    sessions: new SessionStore(redis, prefix, {
      idleMs: config.SESSION_IDLE_SECONDS * 1000,
      absoluteMs: config.SESSION_LIFETIME_SECONDS * 1000,
      maxPerUser: config.SESSION_MAX_PER_USER,
    }),
    rollups,
    maintenanceWindows,
    maintenanceQueue,
    lifecycle,
    channels,
    websites,
    customers,
    statusPages,
    statusPageRepository,
    /** Visitors subscribed to pages by e-mail. */
    subscribers,
    subscriptionHttp,
    /** Pages' own domains: verification, serving by Host, the TLS ask. */
    statusPageDomains,
    /** Incident posts of status pages, and their public history and permalinks. */
    statusPosts,
    /** Feeds of published pages' incident posts and maintenance. */
    pageFeeds: new PageFeeds({
      pages: statusPageRepository,
      revisions: statusPageRevisions,
      posts: new PostReads(statusPostRepository),
      websites: records.websites,
      windows: (organizationId, websiteIds) => maintenanceWindows.listByWebsites(organizationId, websiteIds),
    }),
    publicPostPages: new PublicPostPages({
      pages: statusPageRepository,
      revisions: statusPageRevisions,
      posts: new PostReads(statusPostRepository),
      websites: records.websites,
    }),
    /** Who may see each published page (the gate in front of its routes reads it). */
    statusPageAccess: new PageAccessLookup({ pages: statusPageRepository, revisions: statusPageRevisions }),
    publicStatusPages: new PublicStatusPages({
      ...monitoringReads,
      pageCacheBytes: config.STATUS_PAGE_CACHE_MIB * 1024 * 1024,
      pages: statusPageRepository,
      revisions: statusPageRevisions,
      shared: new SharedPublishedPages(redis, prefix),
      builder: deps.pageBuilder ?? localPageBuilder({ ...deps, records, reads: monitoringReads, ...pages }),
      websites: records.websites,
    }),
    monitoringReads,
    monitorRepository,
    /** Each website's monitors' names and health (Redis), as lists of websites read them. */
    monitorSummaries,
    heartbeatTokens,
    monitors,
    /** Journeys' screenshots and traces and Lighthouse's reports, by run. */
    runArtifacts,
    /** Crawls' findings and Lighthouse's history. */
    siteFindings,
    lighthouseHistory,
    siteHealthSummaries,
    logos,
    reportSources: reports.sources,
    reportPrinter: reports.printer,
    reportMailings: reports.mailings,
    mailBudget,
    deliveries,
    deliveryRequests: new DeliveryRequests({
      channels: channelRepository,
      deliveries,
      owed: new OwedAttempts(db, { redis, prefix }),
      queue: notificationQueue,
      mailBudget,
    }),
    imports,
    exportSources,
    /** Closes the queues and the report printer (the connections are the process's). */
    async close() {
      await Promise.all([
        checkPath.close(),
        lifecycle.close(),
        maintenanceQueue.close(),
        noticeQueue.close(),
      ]);
      await Promise.all([reports.printer.close(), journeys.close()]);
    },
  };
}

export type ApiServices = ReturnType<typeof composeApi>;
