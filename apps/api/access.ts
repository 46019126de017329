import { createAuthenticator } from '../../libs/auth/index.js';
import type { AppConfig } from '../../libs/config/index.js';
import { notFound } from '../../libs/errors/index.js';
import { createAccessGuard } from '../../libs/http/index.js';
import type { Logger } from '../../libs/logging/index.js';
import type { SignIn } from '../../libs/people/index.js';
import { createRedisRateLimiter, type RateLimiter, type Redis } from '../../libs/redis/index.js';
import type { ApiServices } from './compose.js';
import { customerCallerRoutes } from './customer-gates.js';
import { withTwoFactorEnrolment } from './enrolment-gate.js';

/**
 * Who may call what: API tokens and people's sessions, rate limits per caller, the routes a client
 * user may call for its customer; a person the organization requires two-factor of, not yet
 * enrolled, reaches only the enrolment.
 */
export function apiGuard(deps: {
  services: ApiServices;
  signIn: SignIn;
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  /** Failed authentications per client address: the access guard's and failed sign-ins together. */
  authFailureLimiter: RateLimiter;
  packageOfCustomer: (organizationId: number, customerId: number) => Promise<number | null>;
}) {
  const { services, signIn, redis, config, logger, authFailureLimiter, packageOfCustomer } = deps;
  return withTwoFactorEnrolment(
    createAccessGuard({
      authenticate: createAuthenticator(services.tokens, logger),
      authenticateSession: (sessionId, client) => signIn.authenticate(sessionId, client),
      sessionGoing: (sessionId) => signIn.sessionGoing(sessionId),
      customerCallerRoutes: customerCallerRoutes({
        website: (organizationId, ref) => services.websites.get(organizationId, ref),
        incident: async (organizationId, ref) => {
          const incident = await services.states.incident(organizationId, ref);
          if (!incident) throw notFound('No such incident');
          return services.websites.get(organizationId, String(incident.websiteId));
        },
        statusPage: (organizationId, id) => services.statusPages.get(organizationId, Number(id)),
        monitor: async (organizationId, id) => {
          if (!/^\d{1,15}$/.test(id)) throw notFound('No such monitor');
          const monitor = await services.monitors.getAny(organizationId, Number(id));
          return services.websites.get(organizationId, String(monitor.websiteId));
        },
        packageOfCustomer,
      }),
      rateLimiter: createRedisRateLimiter({
        redis,
        keyPrefix: config.REDIS_KEY_PREFIX,
        limit: config.RATE_LIMIT_PER_MINUTE,
      }),
      authFailureLimiter,
    }),
  );
}
