import type { AuditEventRepository } from '../../libs/audit/index.js';
import { tokenFitsRole } from '../../libs/auth/index.js';
import { type AppConfig, appLink } from '../../libs/config/index.js';
import { errorMessage } from '../../libs/errors/index.js';
import type { Logger } from '../../libs/logging/index.js';
import type { Redis } from '../../libs/redis/index.js';
import {
  IdentityProviders,
  PendingLinks,
  providerFetch,
  SsoFlowStore,
  SsoSignIn,
} from '../../libs/sso/index.js';
import type { ApiServices } from './compose.js';
import type { composePeople } from './compose-people.js';

/**
 * Single sign-on: the organization's identity providers, the sign-ins under way (Redis) and the
 * one completion OIDC's callback and SAML's ACS end in.
 */
export function composeSso(deps: {
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  services: ApiServices;
  people: ReturnType<typeof composePeople>;
  auditEvents: AuditEventRepository;
}) {
  const { redis, config, services, logger } = deps;
  const prefix = config.REDIS_KEY_PREFIX;
  const providers = services.identityProviders;
  const timeoutMs = config.DELIVERY_TIMEOUT_SECONDS * 1000;
  const io = { fetch: providerFetch(services.probe, timeoutMs), guard: services.guard, timeoutMs };
  const publicUrl = (path: string) => appLink(config, path).href;
  const service = new IdentityProviders({
    providers,
    secrets: services.secrets,
    guard: services.guard,
    io,
    customerExists: services.customerExists,
    spKeys: services.samlKeys,
    publicUrl,
    ssoRequired: async (organizationId) =>
      (await services.organizations.ssoRequirement(organizationId)).requireSso,
  });
  const completion = new SsoSignIn({
    users: services.users,
    providers,
    pendingLinks: new PendingLinks(redis, prefix),
    openSession: (user, client) => deps.people.signIn.openSession(user, client),
    mutex: services.mutex,
    customerExists: services.customerExists,
    revokePersonalTokens: (organizationId, userId, now) =>
      services.tokens.revokePersonal(organizationId, userId, (token) => tokenFitsRole(token, now)),
    // As the route recorder does: a sign-in never fails for its audit event.
    audit: async (event) => {
      await deps.auditEvents.append(event).catch((error: unknown) => {
        logger.warn({ err: errorMessage(error), action: event.action }, 'audit event not recorded');
      });
    },
  });
  return {
    providers,
    service,
    completion,
    flows: new SsoFlowStore(redis, prefix),
    io,
    publicUrl,
    sessionMs: services.sessions.absoluteMs,
  };
}
