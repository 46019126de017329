// Every route the API serves, in the order the OpenAPI document lists them, wired to what composeApi built.

import type { AuditEventRepository } from '../../libs/audit/index.js';
import { tokenFitsRole } from '../../libs/auth/index.js';
import type { AppConfig } from '../../libs/config/index.js';
import { loadCustomerWithPackage } from '../../libs/customers/index.js';
import type { OverviewStreams } from '../../libs/dashboard/index.js';
import { DomainError } from '../../libs/errors/index.js';
import { OrganizationShare } from '../../libs/fair-share/index.js';
import { limitedPerAddress, type Route } from '../../libs/http/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { CheckFeed, listedStatuses } from '../../libs/monitoring/index.js';
import type { PingIntake } from '../../libs/monitors/index.js';
import { UserAdministration } from '../../libs/people/index.js';
import { createRedisRateLimiter, type Redis } from '../../libs/redis/index.js';
import type { ApiServices } from './compose.js';
import { onCallRoutesOf } from './compose-oncall.js';
import type { composePeople } from './compose-people.js';
import { composeSaml } from './compose-saml.js';
import { scimRoutesOf } from './compose-scim.js';
import { composeSso } from './compose-sso.js';
import { subscriptionRoutesOf } from './compose-subscriptions.js';
import { accountLinkRoutes } from './routes/account-links.js';
import { asCodeRoutes } from './routes/as-code.js';
import { auditRoutes } from './routes/audit.js';
import { channelRoutes } from './routes/channels.js';
import { customerRoutes } from './routes/customers.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { exportRoutes } from './routes/exports.js';
import { identityProviderRoutes } from './routes/identity-providers.js';
import { importRoutes } from './routes/imports.js';
import { type IncidentActionDeps, incidentAcknowledger } from './routes/incident-actions.js';
import { incidentRoutes } from './routes/incidents.js';
import { invitationRoutes } from './routes/invitations.js';
import { journeyRoutes } from './routes/journeys.js';
import { maintenanceRoutes } from './routes/maintenance.js';
import { monitoringRoutes } from './routes/monitoring.js';
import { monitorRoutes } from './routes/monitors.js';
import { monitoringNodeRoutes } from './routes/nodes.js';
import { organizationRoutes } from './routes/organization.js';
import { packageRoutes } from './routes/packages.js';
import { pingRoutes } from './routes/ping.js';
import { publicStatusRoutes } from './routes/public-status.js';
import { publicStatusPostRoutes } from './routes/public-status-posts.js';
import { reportRoutes } from './routes/reports.js';
import { scheduleFeedRoutes, scheduleRoutes } from './routes/schedules.js';
import { sessionRoutes } from './routes/sessions.js';
import { siteHealthRoutes } from './routes/site-health.js';
import { ssoRoutes } from './routes/sso.js';
import { statusPagePostRoutes } from './routes/status-page-posts.js';
import { statusPageRoutes } from './routes/status-pages.js';
import { personalTokenRoutes, tokenRoutes } from './routes/tokens.js';
import { twoFactorRoutes } from './routes/two-factor.js';
import { userRoutes } from './routes/users.js';
import { websiteRoutes } from './routes/websites.js';

/** How long an export, a report build and the reading of an import's file take, guessed until timed (Retry-After). */
const TYPICAL_EXPORT_MS = 5_000;
const TYPICAL_REPORT_MS = 2_000;
const TYPICAL_IMPORT_READ_MS = 1_000;

/**
 * The API's routes, each module given what it needs. Their order is the OpenAPI document's (and
 * the app's types generated from it): a route added goes where its neighbours are.
 */
export function composeRoutes(deps: {
  config: AppConfig;
  redis: Redis;
  services: ApiServices;
  people: ReturnType<typeof composePeople>;
  /** The process's own routes (probes, metrics, this OpenAPI document), built where its connections are. */
  system: Route[];
  auditEvents: AuditEventRepository;
  /** Answers pings from Redis alone (the API closes it when it stops). */
  pingIntake: PingIntake;
  /** The overview's live streams (the API closes them when it stops). */
  overviewStreams: OverviewStreams;
  packageOfCustomer: (organizationId: number, customerId: number) => Promise<number | null>;
  logger: Logger;
}): Route[] {
  const { config, redis, services, auditEvents, pingIntake, overviewStreams, packageOfCustomer } = deps;
  const { twoFactor, passwords, signIn, invitations, passwordReset, organizationName } = deps.people;
  const { organizations, customerExists } = services;
  const { monitorRepository, monitorSummaries, monitors: monitorService } = services;
  const ownerOf = (website: { organizationId: number; customerId: number }) =>
    loadCustomerWithPackage(
      services.customerRepository,
      services.packages,
      website.organizationId,
      website.customerId,
    );
  const sso = composeSso({ redis, config, logger: deps.logger, services, people: deps.people, auditEvents });
  const saml = composeSaml({ redis, config, services, sso });
  // People changed and removed by admins and by SCIM alike, under the owner rules.
  const administration = new UserAdministration({
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
  });
  const scim = scimRoutesOf({
    config,
    redis,
    services,
    administration,
    identityProviders: {
      exists: async (organizationId, id) =>
        (await services.identityProviders.findById(organizationId, id)) !== null,
      link: (providerId, subject, organizationId, userId) =>
        services.identityProviders.link(providerId, subject, organizationId, userId),
    },
    auditEvents,
    logger: deps.logger,
  });
  const incidentDeps: IncidentActionDeps = {
    states: services.states,
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
  };
  return [
    ...asCodeRoutes(),
    ...deps.system,
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
    ...userRoutes({ users: services.users, administration }),
    ...invitationRoutes(invitations),
    ...scim.tokenRoutes,
    ...scim.scimRoutes,
    ...identityProviderRoutes(sso.service, (provider) => saml.saml.metadata(provider)),
    // Signing in with a provider is anyone's: a budget per client address, as account links have.
    ...limitedPerAddress(
      {
        name: 'single-sign-on',
        limiter: createRedisRateLimiter({
          redis,
          keyPrefix: config.REDIS_KEY_PREFIX,
          limit: config.AUTH_FAILURES_PER_MINUTE,
        }),
      },
      [...ssoRoutes({ ...sso, signIn, sessions: services.sessions, samlStart: saml.start }), ...saml.routes],
    ),
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
    ...journeyRoutes({
      website: (organizationId, ref) => services.websites.get(organizationId, ref),
      artifacts: services.runArtifacts,
    }),
    ...incidentRoutes({ ...incidentDeps, results: services.results }),
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
    ...organizationRoutes({
      organizations,
      logos: services.logos,
      escalationPolicyExists: services.policies.escalationPolicyExists,
      roleOfUser: async (organizationId, userId) =>
        (await services.users.findById(organizationId, userId))?.role ?? null,
      enabledIdentityProviders: (organizationId) => services.identityProviders.countEnabled(organizationId),
    }),
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
    ...channelRoutes(services.channels, { websites: services.websiteRepository, config }),
    ...deliveryRoutes({
      requests: services.deliveryRequests,
      deliveries: services.deliveries,
      requireChannel: async (organizationId, channelId) => {
        await services.channels.get(organizationId, channelId);
      },
    }),
    ...scheduleRoutes({ onCall: services.onCall, feeds: services.onCallFeeds }),
    // Calendar apps read people's feeds without a session: a budget per client address.
    ...limitedPerAddress(
      {
        name: 'calendar-feeds',
        limiter: createRedisRateLimiter({
          redis,
          keyPrefix: config.REDIS_KEY_PREFIX,
          limit: config.PUBLIC_PAGES_PER_MINUTE,
        }),
      },
      scheduleFeedRoutes({ onCall: services.onCall, feeds: services.onCallFeeds }),
    ),
    ...monitorRoutes({ service: monitorService, repository: monitorRepository }),
    ...siteHealthRoutes({
      service: monitorService,
      summaries: services.siteHealthSummaries,
      website: (organizationId, id) =>
        services.websites.get(organizationId, String(id)).catch((error: unknown) => {
          if (error instanceof DomainError && error.kind === 'not-found') return null;
          throw error;
        }),
      findings: services.siteFindings,
      lighthouse: services.lighthouseHistory,
      artifacts: services.runArtifacts,
    }),
    ...pingRoutes(pingIntake),
    ...monitoringNodeRoutes(services.nodes),
    ...statusPageRoutes(services.statusPages),
    ...statusPagePostRoutes(services.statusPosts),
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
      [
        ...publicStatusRoutes(services.publicStatusPages),
        ...publicStatusPostRoutes(services.publicPostPages),
      ],
    ),
    // Subscribing has its own bounds (per client address and per address mailed).
    ...onCallRoutesOf({
      config,
      redis,
      services,
      mail: deps.people.peopleMail,
      logger: deps.logger,
      schedules: services.onCall,
      acknowledge: incidentAcknowledger(incidentDeps),
    }),
    ...subscriptionRoutesOf({ config, redis, services, mail: deps.people.peopleMail, logger: deps.logger }),
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
  ];
}
