import type { Db } from 'mongodb';
import {
  DeliveryRepository,
  DeliveryRequests,
  deliveryIndexes,
  NotificationQueue,
  OwedAttempts,
  owedAttemptIndexes,
} from '../alerts/index.js';
import {
  ApiTokenRepository,
  apiTokenIndexes,
  OrganizationRepository,
  organizationIndexes,
} from '../auth/index.js';
import { type AppConfig, appLink, requireSecretsKey } from '../config/index.js';
import {
  CustomerCache,
  CustomerLifecycleQueue,
  CustomerRepository,
  CustomerService,
  customerIndexes,
  customerRevisions,
  loadCustomerWithPackage,
} from '../customers/index.js';
import { type CollectionIndexes, type ListRevisions, ownersWithLists } from '../db/index.js';
import { EventOutbox, eventIndexes } from '../events/index.js';
import { buildExport, type ExportSources, exportDocument } from '../exports/index.js';
import { MailBudget } from '../fair-share/index.js';
import { checkPorts, ImportJobs } from '../imports/index.js';
import { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import {
  createMaintenanceWindow,
  MAINTENANCE_WINDOWS,
  MaintenanceQueue,
  MaintenanceWindowRepository,
  maintenanceWindowIndexes,
} from '../maintenance/index.js';
import {
  CHECK_PATH_MONGO_TIMEOUT_MS,
  checkResultIndexes,
  IncidentTimelines,
  listedStatuses,
  MonitorStateRepository,
  MonitorTransitions,
  monitoringIndexes,
  PlacementStatus,
  ResultRepository,
  RollupRepository,
  rollupIndexes,
  rollupMonthIndexes,
} from '../monitoring/index.js';
import {
  HeartbeatTokens,
  MonitorRepository,
  MonitorService,
  MonitorSummaries,
  monitorHistories,
  monitorIndexes,
  monitorRevisions,
  WEBSITE_MONITORS,
} from '../monitors/index.js';
import { MonitoringNodeRepository, monitoringNodeIndexes } from '../nodes/index.js';
import { ChannelRepository, ChannelService, channelIndexes } from '../notifications/index.js';
import { LogoStore } from '../organizations/index.js';
import {
  createPackage,
  includesFeature,
  PackageCache,
  PackageRepository,
  packageIndexes,
  packageRevisions,
} from '../packages/index.js';
import { invitationIndexes, SessionStore, smtpMailer, UserRepository, userIndexes } from '../people/index.js';
import { probeOptionsFrom } from '../probe/index.js';
import { type Redis, Revisions } from '../redis/index.js';
import {
  PdfRenderer,
  ReportMailings,
  type ReportSources,
  reportMailingIndexes,
  repositoryReportSources,
} from '../reports/index.js';
import { SERVICE_VERSION } from '../runtime/index.js';
import { CheckScheduler, DueSet, heartbeatDeadlinesKey, regionDueKey } from '../scheduler/index.js';
import { SecretBox } from '../secrets/index.js';
import {
  LocalPageBuilder,
  type MonitoringReads,
  type PageBuilder,
  PublicStatusPages,
  SharedPublishedPages,
  StatusPageRepository,
  StatusPageRevisions,
  StatusPageService,
  statusPageIndexes,
} from '../status-pages/index.js';
import {
  ScheduleReconciler,
  WebsiteCache,
  WebsiteRepository,
  WebsiteScheduling,
  WebsiteSearchIndex,
  WebsiteService,
  websiteIndexes,
  websiteRevisions,
} from '../websites/index.js';
import { storedNamesCleaning } from './stored-names.js';

/**
 * Websites an API process keeps in memory for its lists (the app's overview polls them every few
 * seconds): ~3 KB each, so about 60 MB at most.
 */
const LISTED_WEBSITES_KEPT = 20_000;

/** Customers an API process keeps in memory for its lists (~1 KB each). */
const LISTED_CUSTOMERS_KEPT = 20_000;

/** Packages a process keeps in memory for its website writes (~0.5 KB each). */
const PACKAGES_KEPT = 5_000;

/** Every collection's indexes, created at start by each process. */
export const ALL_INDEXES: readonly CollectionIndexes[] = [
  organizationIndexes,
  apiTokenIndexes,
  userIndexes,
  invitationIndexes,
  monitoringNodeIndexes,
  packageIndexes,
  customerIndexes,
  websiteIndexes,
  checkResultIndexes,
  rollupIndexes,
  rollupMonthIndexes,
  statusPageIndexes,
  ...monitoringIndexes,
  ...monitorIndexes,
  eventIndexes,
  maintenanceWindowIndexes,
  channelIndexes,
  ...deliveryIndexes,
  owedAttemptIndexes,
  reportMailingIndexes,
  // Last: it reads the named collections.
  storedNamesCleaning,
];

export interface Services {
  secrets: SecretBox;
  customerRepository: CustomerRepository;
  /** The customers the API's lists read (their revisions in Redis, the customers in memory). */
  listedCustomers: CustomerCache;
  websiteRepository: WebsiteRepository;
  websiteRevisions: Revisions;
  tokens: ApiTokenRepository;
  users: UserRepository;
  /** Signed-in people's sessions (Redis). */
  sessions: SessionStore;
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
  /** The events outbox: transitions append to it, the notifier reads it. */
  events: EventOutbox;
  /** The one path by which monitor states change (checks, placement, maintenance). */
  transitions: MonitorTransitions;
  /** Incidents' timelines (transitions, the notifier and the API add steps). */
  timelines: IncidentTimelines;
  /** Imports of other tools' monitors and of exports (run in the API process). */
  imports: ImportJobs;
  /** What an export reads, each scoped to the organization (the export route and an import's plan). */
  exportSources: ExportSources;
  organizations: OrganizationRepository;
  logos: LogoStore;
  /** What a client report reads (rollups, incidents, maintenance; never raw results). */
  reportSources: ReportSources;
  /** Prints reports as PDF: one Chromium, started at the first report (closed with the services). */
  reportPrinter: PdfRenderer;
  /** Reports e-mailed on schedule or on request, with their attempts. */
  reportMailings: ReportMailings;
  /** Mail budgets per organization and per recipient an hour (Redis: every API process shares them). */
  mailBudget: MailBudget;
  results: ResultRepository;
  rollups: RollupRepository;
  statusPageRepository: StatusPageRepository;
  statusPages: StatusPageService;
  statusPageRevisions: StatusPageRevisions;
  publicStatusPages: PublicStatusPages;
  /** Builds public pages in this thread (the API's page-builder thread runs one). */
  statusPageBuilder: PageBuilder;
  /** States, rollups and incidents of many websites at once (status pages, the dashboard). */
  monitoringReads: MonitoringReads;
  monitorRepository: MonitorRepository;
  /** Each website's monitors' names and health (Redis), as lists of websites read them. */
  monitorSummaries: MonitorSummaries;
  heartbeatTokens: HeartbeatTokens;
  /** A website's heartbeats, DNS, port and probe checks (their routes and a webmon-json import). */
  monitors: MonitorService;
  /** What this process has built so far (diagnostics: which services a process uses). */
  built(): Array<keyof Services>;
  close(): Promise<void>;
}

/**
 * The repositories and services of the control plane over one process's connections, each built
 * on first use: a process builds what it uses (the notifier never builds the check scheduler's
 * queues, the worker never builds the channel or customer services), and nothing twice.
 */
export interface ServicesDeps {
  db: Db;
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  /** Where public pages are built (the API: a thread of their own); default, in this thread. */
  pageBuilder?: PageBuilder;
}

export function createServices(deps: ServicesDeps): Services {
  return new LazyServices(deps);
}

class LazyServices implements Services {
  private readonly instances = new Map<keyof Services, unknown>();
  /** The websites the API's reads keep in memory (absent in processes that serve none). */
  private listedWebsites: WebsiteCache | undefined;
  /** The customers the API's lists keep in memory (absent in processes that serve none). */
  private listedCustomersKept: CustomerCache | undefined;
  private customerRevisionsOf: Revisions | undefined;
  /** The packages website writes keep in memory (absent in processes that write none). */
  private packagesKept: PackageCache | undefined;
  private packageRevisionsOf: Revisions | undefined;

  constructor(private readonly deps: ServicesDeps) {}

  private once<K extends keyof Services>(key: K, build: () => Services[K]): Services[K] {
    if (!this.instances.has(key)) this.instances.set(key, build());
    return this.instances.get(key) as Services[K];
  }

  private get prefix() {
    return this.deps.config.REDIS_KEY_PREFIX;
  }

  private get guard() {
    return {
      allowPrivateTargets: this.deps.config.ALLOW_PRIVATE_TARGETS,
      exemptAddresses: this.deps.config.PROBE_EXEMPT_ADDRESSES,
    };
  }

  get secrets(): Services['secrets'] {
    const { config } = this.deps;
    return this.once('secrets', () => new SecretBox(requireSecretsKey(config), config.SECRETS_KEYS_PREVIOUS));
  }
  get mutex(): Services['mutex'] {
    return this.once('mutex', () => new RedisMutex(this.deps.redis, this.prefix));
  }
  get nodes(): Services['nodes'] {
    return this.once('nodes', () => new MonitoringNodeRepository(this.deps.db));
  }
  get packages(): Services['packages'] {
    return this.once(
      'packages',
      () =>
        new PackageRepository(this.deps.db, async (id, written) => {
          const revision = await this.bumpOrWarn(this.packageRevisions, id, 'package');
          if (written && revision) this.packagesKept?.written(written, revision);
        }),
    );
  }
  private get packageRevisions(): Revisions {
    this.packageRevisionsOf ??= packageRevisions(this.deps.redis, this.prefix);
    return this.packageRevisionsOf;
  }
  /** The packages website writes check against, kept in memory under their revisions. */
  private get packageCopies(): PackageCache {
    this.packagesKept ??= new PackageCache(this.packages, this.packageRevisions, PACKAGES_KEPT);
    return this.packagesKept;
  }
  get tokens(): Services['tokens'] {
    return this.once('tokens', () => new ApiTokenRepository(this.deps.db));
  }
  get users(): Services['users'] {
    return this.once('users', () => new UserRepository(this.deps.db));
  }
  get sessions(): Services['sessions'] {
    const { config } = this.deps;
    return this.once(
      'sessions',
      () =>
        new SessionStore(this.deps.redis, this.prefix, {
          idleMs: config.SESSION_IDLE_SECONDS * 1000,
          absoluteMs: config.SESSION_LIFETIME_SECONDS * 1000,
          maxPerUser: config.SESSION_MAX_PER_USER,
        }),
    );
  }
  get customerRepository(): Services['customerRepository'] {
    return this.once(
      'customerRepository',
      () =>
        new CustomerRepository(this.deps.db, async (id, written) => {
          const revision = await this.bumpOrWarn(this.customerRevisions, id, 'customer');
          if (written && revision) this.listedCustomersKept?.written(written, revision);
        }),
    );
  }
  /**
   * A revision moved after a write; a failure is logged rather than failing the write, which is
   * stored: the copies kept in memory then show the record as before for their few minutes at most.
   */
  private async bumpOrWarn(revisions: Revisions, id: number, what: string): Promise<string | null> {
    try {
      return await revisions.bump(id);
    } catch (error) {
      this.deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error), record: what, id },
        `could not move the ${what}'s revision: copies kept in memory may show it as before for a few minutes`,
      );
      return null;
    }
  }
  /** Each organization's website list's revision (its copies kept by the API's list pages). */
  private get websiteListRevisions(): ListRevisions {
    const revisions = new Revisions(this.deps.redis, `${this.prefix}:website-list-rev`);
    return {
      current: (organizationId) => revisions.current(organizationId),
      bump: (organizationId) => this.bumpOrWarn(revisions, organizationId, 'website list'),
    };
  }
  private get customerRevisions(): Revisions {
    this.customerRevisionsOf ??= customerRevisions(this.deps.redis, this.prefix);
    return this.customerRevisionsOf;
  }
  get listedCustomers(): Services['listedCustomers'] {
    this.listedCustomersKept ??= new CustomerCache(
      this.customerRepository,
      this.customerRevisions,
      LISTED_CUSTOMERS_KEPT,
    );
    return this.listedCustomersKept;
  }
  get websiteRevisions(): Services['websiteRevisions'] {
    return this.once('websiteRevisions', () => websiteRevisions(this.deps.redis, this.prefix));
  }
  private websiteCacheOfApi(): WebsiteCache {
    this.listedWebsites ??= new WebsiteCache(
      { websites: this.websiteRepository, revisions: this.websiteRevisions, staleWhileUnavailable: false },
      LISTED_WEBSITES_KEPT,
    );
    return this.listedWebsites;
  }
  get websiteRepository(): Services['websiteRepository'] {
    return this.once(
      'websiteRepository',
      () =>
        new WebsiteRepository(
          this.deps.db,
          async (id, written) => {
            const revision = await this.websiteRevisions.bump(id);
            if (written) this.listedWebsites?.written(written, revision);
          },
          // Each organization's list of website ids is written by one process at a time.
          (organizationId, work) => this.mutex.withLock(`website-list:${organizationId}`, work),
          this.websiteListRevisions,
        ),
    );
  }
  get scheduler(): Services['scheduler'] {
    return this.once('scheduler', () => new CheckScheduler(this.deps.redis, this.prefix));
  }
  get lifecycle(): Services['lifecycle'] {
    return this.once('lifecycle', () => new CustomerLifecycleQueue(this.deps.redis, this.prefix));
  }
  get maintenanceWindows(): Services['maintenanceWindows'] {
    return this.once('maintenanceWindows', () => new MaintenanceWindowRepository(this.deps.db));
  }
  get maintenanceQueue(): Services['maintenanceQueue'] {
    return this.once('maintenanceQueue', () => new MaintenanceQueue(this.deps.redis, this.prefix));
  }
  get notificationQueue(): Services['notificationQueue'] {
    return this.once('notificationQueue', () => new NotificationQueue(this.deps.redis, this.prefix));
  }
  get states(): Services['states'] {
    return this.once(
      'states',
      () =>
        new MonitorStateRepository(this.deps.db, this.deps.redis, this.prefix, {
          timeoutMS: CHECK_PATH_MONGO_TIMEOUT_MS,
        }),
    );
  }
  get events(): Services['events'] {
    return this.once(
      'events',
      () =>
        new EventOutbox(this.deps.db, {
          announce: (eventId) => this.notificationQueue.announce(eventId),
          logger: this.deps.logger,
          timeoutMS: CHECK_PATH_MONGO_TIMEOUT_MS,
        }),
    );
  }
  get transitions(): Services['transitions'] {
    return this.once(
      'transitions',
      () =>
        new MonitorTransitions({
          states: this.states,
          outbox: this.events,
          timelines: this.timelines,
          mutex: this.mutex,
          logger: this.deps.logger,
          // Without PUBLIC_URL the app's address as people reach it is unknown: alerts carry no link.
          ...(this.deps.config.PUBLIC_URL
            ? { incidentLink: (id: string) => appLink(this.deps.config, `/incidents/${id}`).toString() }
            : {}),
        }),
    );
  }
  get imports(): Services['imports'] {
    return this.once(
      'imports',
      () =>
        new ImportJobs(this.deps.db, {
          customers: (organizationId) => this.customers.list(organizationId),
          owner: (organizationId, customerId) =>
            loadCustomerWithPackage(this.customerRepository, this.packages, organizationId, customerId),
          // Through the API's cache, as its lists: a website unchanged since its last read costs no read.
          websitesOf: (organizationId, customerId) =>
            this.websiteRepository.listPage(organizationId, { customerId }, (org, ids) =>
              this.websiteCacheOfApi().getMany(org, ids),
            ),
          website: (organizationId, ref) => this.websites.get(organizationId, ref),
          checks: checkPorts(this.monitors, this.guard),
          createMany: (organizationId, items, options) =>
            this.websites.createMany(organizationId, items, options),
          configuration: {
            current: async (organizationId) =>
              exportDocument.parse(await buildExport(this.exportSources, organizationId)),
            createPackage: (organizationId, input) => createPackage(this.packages, organizationId, input),
            createCustomer: (organizationId, input) => this.customers.create(organizationId, input),
            createChannel: async (organizationId, input) =>
              (await this.channels.create(organizationId, input)).channel,
            createWindow: (organizationId, input) =>
              createMaintenanceWindow(
                {
                  windows: this.maintenanceWindows,
                  websites: this.websiteRepository,
                  mutex: this.mutex,
                  queue: this.maintenanceQueue,
                },
                organizationId,
                input,
              ),
            createStatusPage: (organizationId, input) => this.statusPages.create(organizationId, input),
            createWebsites: (organizationId, items) =>
              this.websites.createMany(organizationId, items, { dryRun: false, partial: true }),
            monitors: this.monitors,
          },
          logger: this.deps.logger,
        }),
    );
  }
  get organizations(): Services['organizations'] {
    return this.once('organizations', () => new OrganizationRepository(this.deps.db));
  }
  get logos(): Services['logos'] {
    return this.once('logos', () => new LogoStore(this.deps.db));
  }
  get reportSources(): Services['reportSources'] {
    return this.once('reportSources', () =>
      repositoryReportSources({
        db: this.deps.db,
        organizations: this.organizations,
        customers: this.customerRepository,
        websites: this.websiteRepository,
        rollups: this.rollups,
        states: this.states,
        monitors: this.monitorRepository,
        redis: this.deps.redis,
        windows: this.maintenanceWindows,
        logos: this.logos,
      }),
    );
  }
  get reportPrinter(): Services['reportPrinter'] {
    return this.once(
      'reportPrinter',
      () =>
        new PdfRenderer({
          executablePath: this.deps.config.CHROMIUM_PATH,
          perOrganization: this.deps.config.PDFS_PER_ORGANIZATION,
          logLevel: this.deps.config.LOG_LEVEL,
          logFormat: this.deps.config.LOG_FORMAT,
        }),
    );
  }
  get mailBudget(): Services['mailBudget'] {
    return this.once(
      'mailBudget',
      () =>
        new MailBudget({
          redis: this.deps.redis,
          prefix: this.prefix,
          perOrganization: this.deps.config.MAIL_PER_ORGANIZATION_PER_HOUR,
          perRecipient: this.deps.config.MAIL_PER_RECIPIENT_PER_HOUR,
        }),
    );
  }
  get reportMailings(): Services['reportMailings'] {
    const smtp = smtpMailer(this.deps.config);
    return this.once(
      'reportMailings',
      () =>
        new ReportMailings(this.deps.db, {
          sources: this.reportSources,
          pdf: this.reportPrinter,
          scheduledCustomers: async () => {
            const customers = await this.customerRepository.listScheduled();
            const packages = new Map<string, boolean>();
            const allowed = async (organizationId: number, packageId: number) => {
              const key = `${organizationId}:${packageId}`;
              if (!packages.has(key)) {
                const pkg = await this.packages.findById(organizationId, packageId);
                packages.set(key, pkg !== null && includesFeature(pkg, 'reports'));
              }
              return packages.get(key) === true;
            };
            const scheduled = [];
            for (const customer of customers)
              if (customer.reportSchedule && (await allowed(customer.organizationId, customer.packageId)))
                scheduled.push({
                  ...customer,
                  reportSchedule: customer.reportSchedule,
                  reportScheduledAt: customer.reportScheduledAt ?? new Date(0),
                });
            return scheduled;
          },
          // The organization's own e-mail channel (its SMTP server and sender), else the operator's SMTP_URL.
          mailerFor: async (organizationId) =>
            (await this.channels.organizationMailer(
              organizationId,
              this.deps.config.DELIVERY_TIMEOUT_SECONDS * 1000,
            )) ?? smtp,
          logger: this.deps.logger,
        }),
    );
  }
  get exportSources(): Services['exportSources'] {
    return this.once('exportSources', () => ({
      packages: (organizationId) => this.packages.list(organizationId),
      customers: (organizationId) => this.customers.list(organizationId),
      // Through the API's cache, as its lists: an export of 3,000 websites read 3,000 by primary key.
      websites: (organizationId, customerId, page) =>
        this.websiteRepository.listPage(organizationId, { customerId, ...page }, (org, ids) =>
          this.websiteCacheOfApi().getMany(org, ids),
        ),
      maintenanceWindows: (organizationId, websiteIds) =>
        this.maintenanceWindows.listByWebsites(organizationId, websiteIds),
      monitors: (organizationId, websiteId) =>
        this.monitorRepository.listByWebsite(organizationId, websiteId),
      // The lists the two repositories keep per website (`IdLists` of `<collection>.websiteId`).
      listedWebsites: async (atMost) => {
        const [windows, monitors] = [`${MAINTENANCE_WINDOWS}.websiteId`, `${WEBSITE_MONITORS}.websiteId`];
        const owners = await ownersWithLists(this.deps.db, [windows, monitors], atMost);
        return (
          owners && { windows: owners.get(windows) ?? new Set(), monitors: owners.get(monitors) ?? new Set() }
        );
      },
      channels: (organizationId, customerId) =>
        this.channelRepository.list(organizationId, customerId === undefined ? {} : { customerId }),
      statusPages: (organizationId, customerId) =>
        this.statusPages.list(organizationId, customerId === undefined ? {} : { customerId }),
    }));
  }
  get timelines(): Services['timelines'] {
    return this.once('timelines', () => new IncidentTimelines(this.deps.db));
  }
  get results(): Services['results'] {
    return this.once('results', () => new ResultRepository(this.deps.db));
  }
  get rollups(): Services['rollups'] {
    return this.once('rollups', () => new RollupRepository(this.deps.db));
  }
  get statusPageRepository(): Services['statusPageRepository'] {
    return this.once('statusPageRepository', () => new StatusPageRepository(this.deps.db));
  }
  get statusPages(): Services['statusPages'] {
    return this.once(
      'statusPages',
      () =>
        new StatusPageService({
          pages: this.statusPageRepository,
          mutex: this.mutex,
          revisions: this.statusPageRevisions,
          owners: {
            customerExists: async (organizationId, customerId) =>
              (await this.customerRepository.findById(organizationId, customerId)) !== null,
            websiteIdsOf: async (organizationId, customerId) =>
              (await this.websiteRepository.listByCustomer(organizationId, customerId)).map((w) => w.id),
          },
        }),
    );
  }
  get statusPageRevisions(): Services['statusPageRevisions'] {
    return this.once('statusPageRevisions', () => new StatusPageRevisions(this.deps.redis, this.prefix));
  }
  get monitorRepository(): Services['monitorRepository'] {
    return this.once('monitorRepository', () => new MonitorRepository(this.deps.db));
  }
  get monitorSummaries(): Services['monitorSummaries'] {
    return this.once('monitorSummaries', () => new MonitorSummaries(this.deps.redis, this.prefix));
  }
  get heartbeatTokens(): Services['heartbeatTokens'] {
    return this.once('heartbeatTokens', () => new HeartbeatTokens(this.deps.redis, this.prefix));
  }
  get monitors(): Services['monitors'] {
    const { config, redis } = this.deps;
    return this.once(
      'monitors',
      () =>
        new MonitorService({
          repository: this.monitorRepository,
          website: (organizationId, ref) => this.websites.get(organizationId, ref),
          owner: (website) =>
            loadCustomerWithPackage(
              this.customerRepository,
              this.packages,
              website.organizationId,
              website.customerId,
            ),
          states: this.states,
          mutex: this.mutex,
          secrets: this.secrets,
          tokens: this.heartbeatTokens,
          deadlines: new DueSet(redis, heartbeatDeadlinesKey(this.prefix)),
          regionDue: (region, lane) => new DueSet(redis, regionDueKey(this.prefix, region, lane)),
          guard: this.guard,
          pingUrl: (token) => appLink(config, `/ping/${token}`).href,
          summaries: this.monitorSummaries,
          probe: probeOptionsFrom({
            allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
            exemptAddresses: config.PROBE_EXEMPT_ADDRESSES,
            extraCaFile: config.PROBE_EXTRA_CA_FILE,
            version: SERVICE_VERSION,
          }),
          dnsResolvers: config.DNS_RESOLVERS,
          revisions: monitorRevisions(redis, this.prefix),
        }),
    );
  }
  get monitoringReads(): Services['monitoringReads'] {
    return this.once('monitoringReads', () => ({
      statuses: listedStatuses({ states: this.states, customers: this.listedCustomers }),
      rollups: this.rollups,
      incidents: (organizationId: number, ids: readonly number[], since: Date) =>
        this.states.incidentsOfWebsites(organizationId, ids, since),
      monitors: (ids: readonly number[]) => new MonitorSummaries(this.deps.redis, this.prefix).of(ids),
    }));
  }
  get statusPageBuilder(): Services['statusPageBuilder'] {
    return this.once(
      'statusPageBuilder',
      () =>
        new LocalPageBuilder({
          ...this.monitoringReads,
          monitorHistories: (organizationId, ids, since) =>
            monitorHistories(
              { repository: this.monitorRepository, states: this.states },
              organizationId,
              ids,
              since,
            ),
          websites: this.websiteRepository,
          maintenanceWindows: (organizationId, ids) =>
            this.maintenanceWindows.listByWebsites(organizationId, ids),
          shared: this.sharedPublishedPages,
        }),
    );
  }
  private get sharedPublishedPages() {
    return new SharedPublishedPages(this.deps.redis, this.prefix);
  }
  get publicStatusPages(): Services['publicStatusPages'] {
    return this.once(
      'publicStatusPages',
      () =>
        new PublicStatusPages({
          ...this.monitoringReads,
          pageCacheBytes: this.deps.config.STATUS_PAGE_CACHE_MIB * 1024 * 1024,
          pages: this.statusPageRepository,
          revisions: this.statusPageRevisions,
          shared: this.sharedPublishedPages,
          builder: this.deps.pageBuilder ?? this.statusPageBuilder,
          websites: this.websiteRepository,
        }),
    );
  }
  get scheduling(): Services['scheduling'] {
    return this.once('scheduling', () => {
      const placement = new PlacementStatus({
        transitions: this.transitions,
        results: this.results,
        recheckDelayMs: this.deps.config.RECHECK_DELAY_SECONDS * 1000,
      });
      return new WebsiteScheduling({
        scheduler: this.scheduler,
        websites: this.websiteRepository,
        nodes: this.nodes,
        preferredRegion: this.deps.config.PREFERRED_REGION,
        onPlacement: (change) => placement.changed(change),
      });
    });
  }
  get channelRepository(): Services['channelRepository'] {
    return this.once('channelRepository', () => new ChannelRepository(this.deps.db));
  }
  get deliveries(): Services['deliveries'] {
    return this.once('deliveries', () => new DeliveryRepository(this.deps.db));
  }
  get owedAttempts(): Services['owedAttempts'] {
    return this.once('owedAttempts', () => new OwedAttempts(this.deps.db));
  }
  get deliveryRequests(): Services['deliveryRequests'] {
    return this.once(
      'deliveryRequests',
      () =>
        new DeliveryRequests({
          channels: this.channelRepository,
          deliveries: this.deliveries,
          owed: this.owedAttempts,
          queue: this.notificationQueue,
          mailBudget: this.mailBudget,
        }),
    );
  }
  get channels(): Services['channels'] {
    return this.once(
      'channels',
      () =>
        new ChannelService({
          channels: this.channelRepository,
          secrets: this.secrets,
          mutex: this.mutex,
          guard: this.guard,
          customers: {
            exists: async (organizationId, customerId) =>
              (await this.customerRepository.findById(organizationId, customerId)) !== null,
          },
          // The website service needs the channels too: each reaches the other when called.
          websites: {
            detachChannel: (organizationId, channelId) =>
              this.websites.detachChannel(organizationId, channelId),
            countListingOutsideCustomer: (organizationId, channelId, customerId) =>
              this.websites.countListingChannelOutsideCustomer(organizationId, channelId, customerId),
          },
        }),
    );
  }
  get websites(): Services['websites'] {
    return this.once(
      'websites',
      () =>
        new WebsiteService({
          websites: this.websiteRepository,
          search: new WebsiteSearchIndex(this.deps.redis, this.prefix),
          cache: this.websiteCacheOfApi(),
          customers: this.customerRepository,
          packages: this.packages,
          // A write's customer and package: a Redis GET each, not two MongoDB reads.
          owners: { customers: this.listedCustomers, packages: this.packageCopies },
          secrets: this.secrets,
          mutex: this.mutex,
          scheduling: this.scheduling,
          channels: this.channels,
          guard: this.guard,
          afterDelete: async (website) => {
            await this.maintenanceWindows.deleteByWebsite(website.organizationId, website.id);
            // Drops the planned boundary job and the website's maintenance state.
            await this.maintenanceQueue.syncSoon(website.organizationId, website.id);
          },
        }),
    );
  }
  get reconciler(): Services['reconciler'] {
    return this.once(
      'reconciler',
      () =>
        new ScheduleReconciler({
          websites: this.websiteRepository,
          customers: this.customerRepository,
          packages: this.packages,
          scheduling: this.scheduling,
          scheduler: this.scheduler,
          mutex: this.mutex,
          redis: this.deps.redis,
          prefix: this.prefix,
          logger: this.deps.logger,
        }),
    );
  }
  get customers(): Services['customers'] {
    return this.once(
      'customers',
      () =>
        new CustomerService({
          customers: this.customerRepository,
          packages: this.packages,
          mutex: this.mutex,
          lifecycle: this.lifecycle,
          websites: this.websites,
          channels: this.channels,
          statusPages: this.statusPages,
          logger: this.deps.logger,
        }),
    );
  }

  built(): Array<keyof Services> {
    return [...this.instances.keys()];
  }

  /** Closes the queues this process built. */
  async close(): Promise<void> {
    const queues = (['scheduler', 'lifecycle', 'maintenanceQueue', 'notificationQueue'] as const)
      .map((key) => this.instances.get(key) as { close(): Promise<void> } | undefined)
      .filter((queue) => queue !== undefined);
    await Promise.all(queues.map((queue) => queue.close()));
    await (this.instances.get('reportPrinter') as PdfRenderer | undefined)?.close();
  }
}
