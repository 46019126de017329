import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuditEventRepository } from '../../libs/audit/index.js';
import type { AppConfig } from '../../libs/config/index.js';
import { OverviewStreams, redisCheckFeed } from '../../libs/dashboard/index.js';
import { isMongoUnavailable, pingMongo, watchMongoHealth } from '../../libs/db/index.js';
import {
  buildOpenApiDocument,
  createHttpApp,
  createMetricsRegistry,
  type Route,
  systemRoutes,
} from '../../libs/http/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { monitoringGauges } from '../../libs/monitoring/index.js';
import { PINGS_PER_TOKEN, PingIntake } from '../../libs/monitors/index.js';
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
import { composeRoutes } from './compose-routes.js';
import { customDomainMiddleware } from './custom-domains.js';
import { startApiHousekeeping } from './housekeeping.js';
import { scimErrorDocuments } from './routes/scim-gate.js';
import { statusPageDomainRoutes, tlsAskRoutes } from './routes/status-page-domains.js';
import { statusPagesBehindAccess } from './status-page-access.js';

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
  const people = composePeople({
    db: mongo.db,
    redis,
    config,
    logger,
    metrics,
    services,
    authFailureLimiter,
  });
  const { signIn, invitations } = people;
  // Built with the services (a webmon-json import makes monitors too); pings answered from Redis alone.
  const { heartbeatTokens } = services;
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
  // Built once, at the first request (every route is declared by then), not per request: the
  // document is public and converting every schema took ~100 ms a request (now ~11 ms to send).
  let openApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;
  const openApi = () =>
    (openApiDocument ??= buildOpenApiDocument(routes, {
      title: 'Website Monitoring Service API',
      version: SERVICE_VERSION,
      description: 'Configuration, checks, maintenance windows and alerting for monitored websites.',
    }));
  const system = systemRoutes({
    metrics,
    openApiDocument: openApi,
    readinessChecks: [
      // Known down: at once; else asked now, within 2.5 s (a stall not yet noticed is then).
      { name: 'mongodb', isReady: async () => mongoHealth.available && (await pingMongo(mongo, 2500)) },
      { name: 'redis', isReady: () => pingRedis(redis) },
    ],
  });
  routes.push(
    ...composeRoutes({
      config,
      redis,
      services,
      people,
      system,
      auditEvents,
      pingIntake,
      overviewStreams,
      packageOfCustomer,
      logger,
    }),
  );
  routes.push(
    ...statusPageDomainRoutes(services.statusPageDomains),
    ...tlsAskRoutes(services.statusPageDomains),
  );
  // Every route of a published page, whoever added it, behind the page's access (private pages).
  routes.splice(0, routes.length, ...statusPagesBehindAccess(routes, { services, signIn, redis, config }));
  const app = createHttpApp({
    logger,
    metrics,
    routes,
    trustProxy: config.TRUST_PROXY,
    publicUrl: config.PUBLIC_URL,
    errorDocuments: scimErrorDocuments(),
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

  // Before everything else: a page's own domain is routed (and logged) as its /status/<slug> path.
  app.middleware.unshift(
    customDomainMiddleware({
      domains: services.statusPageDomains,
      strict: config.PUBLIC_URL !== undefined || config.STATUS_PAGES_HOST !== undefined,
      logger,
    }),
  );
  await services.statusPageDomains.prepare();
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
