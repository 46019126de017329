import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuditEventRepository } from '../../libs/audit/index.js';
import { tokenFitsRole } from '../../libs/auth/index.js';
import type { AppConfig } from '../../libs/config/index.js';
import { loadCustomerWithPackage } from '../../libs/customers/index.js';
import { OverviewStreams, redisCheckFeed } from '../../libs/dashboard/index.js';
import { isMongoUnavailable, pingMongo, watchMongoHealth } from '../../libs/db/index.js';
import { OrganizationShare } from '../../libs/fair-share/index.js';
import {
  buildOpenApiDocument,
  createHttpApp,
  createMetricsRegistry,
  limitedPerAddress,
  type Route,
  systemRoutes,
} from '../../libs/http/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { CheckFeed, listedStatuses, monitoringGauges } from '../../libs/monitoring/index.js';
import { PINGS_PER_TOKEN, PingIntake } from '../../libs/monitors/index.js';
import { UserAdministration } from '../../libs/people/index.js';
import {
  createRedisRateLimiter,
  isRedisUnavailable,
  pingRedis,
  watchRedisData,
} from '../../libs/redis/index.js';
import { type RunningService, SERVICE_VERSION } from '../../libs/runtime/index.js';
import { openConnections } from '../../libs/services/index.js';
import { ThreadPageBuilder } from '../../libs/status-pages/index.js';
import { startFleetWatcher } from '../../libs/websites/index.js';
import { apiGuard } from './access.js';
import { auditRecorder } from './audit-recorder.js';
import { composeApi } from './compose.js';
import { composePeople } from './compose-people.js';
import { startApiHousekeeping } from './housekeeping.js';
import { accountLinkRoutes } from './routes/account-links.js';
import { asCodeRoutes } from './routes/as-code.js';
import { auditRoutes } from './routes/audit.js';
import { channelRoutes } from './routes/channels.js';
import { customerRoutes } from './routes/customers.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { exportRoutes } from './routes/exports.js';
import { importRoutes } from './routes/imports.js';
import { incidentRoutes } from './routes/incidents.js';
import { invitationRoutes } from './routes/invitations.js';
import { maintenanceRoutes } from './routes/maintenance.js';
import { monitoringRoutes } from './routes/monitoring.js';
import { monitorRoutes } from './routes/monitors.js';
import { monitoringNodeRoutes } from './routes/nodes.js';
import { organizationRoutes } from './routes/organization.js';
import { packageRoutes } from './routes/packages.js';
import { pingRoutes } from './routes/ping.js';
import { publicStatusRoutes } from './routes/public-status.js';
import { reportRoutes } from './routes/reports.js';
import { sessionRoutes } from './routes/sessions.js';
import { statusPageRoutes } from './routes/status-pages.js';
import { personalTokenRoutes, tokenRoutes } from './routes/tokens.js';
import { twoFactorRoutes } from './routes/two-factor.js';
import { userRoutes } from './routes/users.js';
import { websiteRoutes } from './routes/websites.js';

/** How long an export, a report build and the reading of an import's file take, guessed until timed (Retry-After). */
const TYPICAL_EXPORT_MS = 5_000;
const TYPICAL_REPORT_MS = 2_000;
const TYPICAL_IMPORT_READ_MS = 1_000;

export interface ApiServer extends RunningService {
  /** Base URL the API listens on, e.g. http://127.0.0.1:8080 */
  url: string;
  server: Server;
}

/** Connects to MongoDB and Redis, creates indexes, and serves the API on HOST:PORT. */
export async function startApi(
  config: AppConfig,
  logger: Logger,
  options: { signal?: AbortSignal; defaultMetrics?: boolean } = {},
): Promise<ApiServer> {
  // Public pages are built on a thread of their own, so a build's CPU never holds up a request.
  const pageBuilder = config.STATUS_PAGE_BUILD_THREAD
    ? new ThreadPageBuilder({
        entry: new URL(`./page-builder.thread${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
        // A page reads no secret: the keys and the mail server's credentials stay here.
        workerData: {
          config: { ...config, SECRETS_KEY: undefined, SECRETS_KEYS_PREVIOUS: [], SMTP_URL: undefined },
        },
      })
    : undefined;
  const connections = await openConnections({
    name: 'api',
    config,
    logger,
    jobs: false,
    signal: options.signal,
  });
  const { mongo, redis } = connections;
  const services = composeApi({ db: mongo.db, redis, config, logger, pageBuilder });
  // Credential headers of websites stored before they were sealed (idempotent; none after the first start).
  const sealedHeaders = await services.websiteRepository.sealCredentialHeaders(services.secrets);
  if (sealedHeaders > 0)
    logger.info({ websites: sealedHeaders }, 'credential headers of older websites sealed');
  const mongoHealth = watchMongoHealth(mongo, { logger });
  const metrics = createMetricsRegistry({ service: 'api', defaultMetrics: options.defaultMetrics ?? false });
  monitoringGauges(metrics, {
    states: services.states,
    websites: () => services.websiteRepository.statusFieldsOfAll(),
    unmonitoredCustomerIds: () => services.customerRepository.unmonitoredIds(),
  });
  const routes: Route[] = [];
  const auditEvents = new AuditEventRepository(mongo.db);
  // Failed authentications per client address: the access guard's and failed sign-ins together.
  const authFailureLimiter = createRedisRateLimiter({
    redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    limit: config.AUTH_FAILURES_PER_MINUTE,
  });
  const { organizations } = services;
  const { twoFactor, passwords, signIn, invitations, passwordReset, organizationName } = composePeople({
    db: mongo.db,
    redis,
    config,
    logger,
    metrics,
    services,
    authFailureLimiter,
  });
  const ownerOf = (website: { organizationId: number; customerId: number }) =>
    loadCustomerWithPackage(
      services.customerRepository,
      services.packages,
      website.organizationId,
      website.customerId,
    );
  // Built with the services (a webmon-json import makes monitors too); pings answered from Redis alone.
  const { monitorRepository, monitorSummaries, heartbeatTokens, monitors: monitorService } = services;
  const pingIntake = new PingIntake({
    redis,
    prefix: config.REDIS_KEY_PREFIX,
    tokens: heartbeatTokens,
    limiter: createRedisRateLimiter({
      redis,
      keyPrefix: config.REDIS_KEY_PREFIX,
      limit: PINGS_PER_TOKEN.limit,
      windowMs: PINGS_PER_TOKEN.windowMs,
    }),
  });
  // The overview's live streams: one subscription to the workers' check feed, fanned out per tab.
  const overviewStreams = new OverviewStreams({
    source: redisCheckFeed(redis, config.REDIS_KEY_PREFIX, logger),
  });
  const packageOfCustomer = async (organizationId: number, customerId: number) =>
    (await services.customerRepository.findById(organizationId, customerId))?.packageId ?? null;
  const { customerExists } = services;
  // Built once, at the first request (every route is declared by then), not per request: the
  // document is public and converting every schema took ~100 ms a request (now ~11 ms to send).
  let openApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;
  const openApi = () =>
    (openApiDocument ??= buildOpenApiDocument(routes, {
      title: 'Website Monitoring Service API',
      version: SERVICE_VERSION,
      description: 'Configuration, checks, maintenance windows and alerting for monitored websites.',
    }));
  routes.push(
    ...asCodeRoutes(),
    ...systemRoutes({
      metrics,
      openApiDocument: openApi,
      readinessChecks: [
        // Known down: at once; else asked now, within 2.5 s (a stall not yet noticed is then).
        { name: 'mongodb', isReady: async () => mongoHealth.available && (await pingMongo(mongo, 2500)) },
        { name: 'redis', isReady: () => pingRedis(redis) },
      ],
    }),
    ...tokenRoutes(services.tokens, { exists: customerExists }),
    ...personalTokenRoutes(
      services.tokens,
      { exists: customerExists },
      {
        current: async (organizationId, userId) => {
          const user = await services.users.findById(organizationId, userId);
          return user && { role: user.role, customerId: user.customerId };
        },
      },
    ),
    ...sessionRoutes({
      signIn,
      sessions: services.sessions,
      users: services.users,
      passwords,
      tokens: services.tokens,
      organizationName,
    }),
    ...twoFactorRoutes({ twoFactor, users: services.users, sessions: services.sessions }),
    ...userRoutes({
      users: services.users,
      administration: new UserAdministration({
        users: services.users,
        sessions: services.sessions,
        mutex: services.mutex,
        customerExists,
        revokePersonalTokens: (organizationId, userId, now) =>
          services.tokens.revokePersonal(
            organizationId,
            userId,
            (token) => now !== null && tokenFitsRole(token, now),
          ),
      }),
    }),
    ...invitationRoutes(invitations),
    // Anyone may call these: a budget per client address, the size of the failed-authentication one.
    ...limitedPerAddress(
      {
        name: 'account-links',
        limiter: createRedisRateLimiter({
          redis,
          keyPrefix: config.REDIS_KEY_PREFIX,
          limit: config.AUTH_FAILURES_PER_MINUTE,
        }),
      },
      accountLinkRoutes({ invitations, passwordReset, sessions: services.sessions }),
    ),
    ...packageRoutes({
      packages: services.packages,
      mutex: services.mutex,
      countCustomersOn: (organizationId, packageId) =>
        services.customers.countOnPackage(organizationId, packageId),
      reschedule: (organizationId, packageId) =>
        services.customers.reschedulePackage(organizationId, packageId),
      packageOfCustomer,
    }),
    ...customerRoutes(services.customers),
    ...websiteRoutes(
      services.websites,
      listedStatuses({ states: services.states, customers: services.listedCustomers }),
    ),
    ...monitoringRoutes({
      website: (organizationId, ref) => services.websites.get(organizationId, ref),
      results: services.results,
      states: services.states,
      owner: ownerOf,
      recheckDelayMs: config.RECHECK_DELAY_SECONDS * 1000,
      monitors: async (websiteId) => (await monitorSummaries.of([websiteId])).get(websiteId) ?? [],
      resultSources: (website, filter, window) => monitorService.resultSources(website, filter, window),
    }),
    ...incidentRoutes({
      states: services.states,
      results: services.results,
      timelines: services.timelines,
      transitions: services.transitions,
      website: (organizationId, ref) => services.websites.get(organizationId, ref),
      actorOf: async (auth) => {
        if (auth.userId !== undefined) {
          const user = await services.users.findById(auth.organizationId, auth.userId);
          return { type: 'user', id: auth.userId, name: user?.name || `user ${auth.userId}` };
        }
        const tokenId = auth.tokenId ?? 0;
        const token = await services.tokens.findById(auth.organizationId, tokenId);
        return { type: 'token', id: tokenId, name: token ? `token “${token.name}”` : `token ${tokenId}` };
      },
    }),
    ...exportRoutes(
      services.exportSources,
      new OrganizationShare({
        name: 'exports',
        perOrganization: config.EXPORTS_PER_ORGANIZATION,
        typicalMs: TYPICAL_EXPORT_MS,
      }),
    ),
    ...reportRoutes({
      builds: new OrganizationShare({
        name: 'reports',
        perOrganization: config.REPORTS_PER_ORGANIZATION,
        typicalMs: TYPICAL_REPORT_MS,
      }),
      mailBudget: services.mailBudget,
      pdf: services.reportPrinter,
      sources: services.reportSources,
      mailings: services.reportMailings,
      customerSchedule: async (organizationId, customerId) => {
        const customer = await services.customerRepository.findById(organizationId, customerId);
        return (
          customer && {
            reportSchedule: customer.reportSchedule ?? null,
            notificationEmail: customer.notificationEmail,
          }
        );
      },
    }),
    ...organizationRoutes({ organizations, logos: services.logos }),
    ...importRoutes({
      jobs: services.imports,
      share: new OrganizationShare({
        name: 'imports',
        perOrganization: config.IMPORTS_PER_ORGANIZATION,
        typicalMs: TYPICAL_IMPORT_READ_MS,
      }),
      hasCustomer: async (organizationId, customerId) =>
        (await services.customerRepository.findById(organizationId, customerId)) !== null,
    }),
    ...maintenanceRoutes({
      windows: services.maintenanceWindows,
      websites: services.websiteRepository,
      mutex: services.mutex,
      queue: services.maintenanceQueue,
    }),
    ...channelRoutes(services.channels),
    ...deliveryRoutes({
      requests: services.deliveryRequests,
      deliveries: services.deliveries,
      requireChannel: async (organizationId, channelId) => {
        await services.channels.get(organizationId, channelId);
      },
    }),
    ...monitorRoutes({ service: monitorService, repository: monitorRepository }),
    ...pingRoutes(pingIntake),
    ...monitoringNodeRoutes(services.nodes),
    ...statusPageRoutes(services.statusPages),
    // Their own budget per client address: a flood of them must not use up the API's.
    ...limitedPerAddress(
      {
        name: 'public-pages',
        limiter: createRedisRateLimiter({
          redis,
          keyPrefix: config.REDIS_KEY_PREFIX,
          limit: config.PUBLIC_PAGES_PER_MINUTE,
        }),
      },
      publicStatusRoutes(services.publicStatusPages),
    ),
    ...auditRoutes(auditEvents),
    ...dashboardRoutes({
      ...services.monitoringReads,
      // Through the API's website cache, as the lists are: a page costs the same at any fleet size.
      websites: {
        listPage: async (organizationId, options) =>
          (await services.websites.list(organizationId, options)).websites,
        byIds: (organizationId, ids) => services.websiteRepository.findByIds(organizationId, ids),
      },
      customers: services.listedCustomers,
      recentChecks: (ids) => new CheckFeed(redis, config.REDIS_KEY_PREFIX).recent(ids),
      streams: overviewStreams,
    }),
  );
  const app = createHttpApp({
    logger,
    metrics,
    routes,
    trustProxy: config.TRUST_PROXY,
    publicUrl: config.PUBLIC_URL,
    dependencies: [mongoHealth],
    outages: [
      { name: 'MongoDB', causes: isMongoUnavailable },
      { name: 'Redis', causes: isRedisUnavailable },
    ],
    audit: auditRecorder({
      events: auditEvents,
      routes,
      logger,
      metrics,
      organizationOfEmail: async (email) => (await services.users.findByEmail(email))?.organizationId ?? null,
    }),
    // A person the organization requires two-factor of, not yet enrolled, reaches only the enrolment.
    guard: apiGuard({ services, signIn, redis, config, logger, authFailureLimiter, packageOfCustomer }),
  });

  const server = app.listen(config.PORT, config.HOST);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url }, 'API listening');
  // The API watches the fleet too: with every worker gone, someone must tell websites are unmonitored.
  const fleet = startFleetWatcher({
    scheduling: services.scheduling,
    reconciler: services.reconciler,
    logger,
  });
  const housekeeping = startApiHousekeeping({ auditEvents, invitations, logger });
  // The API keeps nothing in Redis that it must rebuild (the workers and the notifier do); it says so.
  const redisData = await watchRedisData({
    redis,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
    onLost: async () => {},
  });

  return {
    url,
    server,
    async stop() {
      // Stop accepting, let in-flight requests finish, drop idle keep-alive sockets; streams end first.
      await overviewStreams.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await housekeeping.stop();
      await redisData.stop();
      mongoHealth.stop();
      await fleet.stop();
      await pageBuilder?.close();
      await pingIntake.close();
      await services.close();
      await connections.close();
    },
  };
}
