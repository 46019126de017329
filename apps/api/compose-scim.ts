import type { AuditEventRepository } from '../../libs/audit/index.js';
import { type AppConfig, appLink } from '../../libs/config/index.js';
import type { Route } from '../../libs/http/index.js';
import type { Logger } from '../../libs/logging/index.js';
import type { UserAdministration } from '../../libs/people/index.js';
import { createRedisRateLimiter, type Redis } from '../../libs/redis/index.js';
import { type ProvisioningDeps, ScimGroups, ScimUsers } from '../../libs/scim/index.js';
import type { ApiServices } from './compose.js';
import { scimRoutes } from './routes/scim.js';
import { scimTokenRoutes } from './routes/scim-tokens.js';

/** The organization's identity providers, as SCIM links the people it makes to one. */
export interface IdentityProviderLinks {
  exists(organizationId: number, id: number): Promise<boolean>;
  link(providerId: number, subject: string, organizationId: number, userId: number): Promise<void>;
}

/** SCIM 2.0 under `/scim/v2/` and its tokens under `/api/scim-tokens`, built on the people's services. */
export function scimRoutesOf(deps: {
  config: AppConfig;
  redis: Redis;
  services: ApiServices;
  administration: UserAdministration;
  identityProviders: IdentityProviderLinks;
  auditEvents: AuditEventRepository;
  logger: Logger;
}): { tokenRoutes: Route[]; scimRoutes: Route[] } {
  const { config, redis, services } = deps;
  const tokens = services.scimTokens;
  const provisioning: ProvisioningDeps = {
    users: services.users,
    administration: deps.administration,
    store: services.scimStore,
    mutex: services.mutex,
    customerExists: services.customerExists,
    // The provider's rules, as signing in through it applies them.
    providerMapping: (organizationId, id) => services.identityProviders.findById(organizationId, id),
    linkIdentity: (providerId, subject, organizationId, userId) =>
      deps.identityProviders.link(providerId, subject, organizationId, userId),
  };
  const baseUrl = (origin: string) =>
    config.PUBLIC_URL ? appLink(config, 'scim/v2').href : `${origin}/scim/v2`;
  const limiter = (limit: number) =>
    createRedisRateLimiter({ redis, keyPrefix: config.REDIS_KEY_PREFIX, limit });
  return {
    tokenRoutes: scimTokenRoutes({
      tokens,
      customerExists: services.customerExists,
      identityProvider: (organizationId, id) => services.identityProviders.findById(organizationId, id),
      baseUrl,
    }),
    scimRoutes: scimRoutes({
      tokens,
      users: new ScimUsers(provisioning),
      groups: new ScimGroups(provisioning),
      baseUrl,
      // The access guard's key and limit: one budget of failed authentications per address.
      authFailures: limiter(config.AUTH_FAILURES_PER_MINUTE),
      perToken: limiter(config.RATE_LIMIT_PER_MINUTE),
      audit: async (event) => {
        await deps.auditEvents.append(event);
      },
      logger: deps.logger,
      makerOf: (organizationId, userId) => services.users.findById(organizationId, userId),
    }),
  };
}
