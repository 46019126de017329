import type { AppConfig } from '../../libs/config/index.js';
import { SESSION_COOKIE } from '../../libs/contract/index.js';
import type { Route } from '../../libs/http/index.js';
import { PasswordHasher, type SignIn } from '../../libs/people/index.js';
import { createRedisRateLimiter, type Redis } from '../../libs/redis/index.js';
import { PageSessions } from '../../libs/status-pages/index.js';
import type { ApiServices } from './compose.js';
import { PUBLIC_ONLY_STATUS_PATHS } from './routes/public-status.js';
import { clientOf } from './routes/sessions.js';
import { statusPageAccessRoute } from './routes/status-page-access.js';
import { StatusPageGate } from './routes/status-page-gate.js';

/** Password attempts a client address may make at one page per window. */
const ATTEMPTS_PER_WINDOW = 10;
const ATTEMPT_WINDOW_MS = 5 * 60_000;

/**
 * The API's routes with every route of a published page (`/status/:slug…`, whoever added it) behind
 * the page's access, and the password pages' way in (`POST /status/:slug/access`) after them.
 */
export function statusPagesBehindAccess(
  routes: readonly Route[],
  deps: { services: ApiServices; signIn: SignIn; redis: Redis; config: AppConfig },
): Route[] {
  const { services, signIn, redis, config } = deps;
  const gate = new StatusPageGate({
    lookup: services.statusPageAccess,
    sessions: new PageSessions(redis, config.REDIS_KEY_PREFIX),
    person: async (ctx) => {
      const sessionId = ctx.cookies.get(SESSION_COOKIE);
      if (!sessionId) return null;
      const auth = await signIn.authenticate(sessionId, clientOf(ctx));
      // One not yet enrolled in two-factor the organization requires reaches only the enrolment.
      if (!auth || auth.mustEnrolTwoFactor) return null;
      return {
        organizationId: auth.organizationId,
        ...(auth.customerId !== undefined ? { customerId: auth.customerId } : {}),
      };
    },
    attempts: createRedisRateLimiter({
      redis,
      keyPrefix: config.REDIS_KEY_PREFIX,
      limit: ATTEMPTS_PER_WINDOW,
      windowMs: ATTEMPT_WINDOW_MS,
    }),
    passwords: new PasswordHasher({
      concurrency: config.PASSWORD_HASH_CONCURRENCY,
      queue: config.PASSWORD_HASH_QUEUE,
    }),
    publicUrl: config.PUBLIC_URL,
  });
  const access = statusPageAccessRoute(gate);
  const gated = gate.behind(routes, { publicOnly: PUBLIC_ONLY_STATUS_PATHS, open: [access.path] });
  // Listed (OpenAPI) after the last route of the pages.
  const last = gated.findLastIndex((route) => route.path.startsWith('/status/'));
  gated.splice(last + 1, 0, access);
  return gated;
}
