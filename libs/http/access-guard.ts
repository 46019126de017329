import type { Middleware } from 'koa';
import { AppError } from './app-error.js';
import { type AppState, type AuthContext, hasScope } from './context.js';
import type { RateLimiter } from './rate-limit.js';
import type { Access } from './route.js';

/** Looks a presented token up; null when it is unknown or revoked. */
export type Authenticate = (token: string) => Promise<AuthContext | null>;

const REALM = 'Bearer realm="webmon"';
const BEARER = /^Bearer +([^\s]+) *$/i;

function unauthorized(detail: string, error?: 'invalid_request' | 'invalid_token'): AppError {
  return new AppError('unauthorized', {
    detail,
    headers: { 'WWW-Authenticate': error ? `${REALM}, error="${error}"` : REALM },
  });
}

/**
 * The middleware in front of every non-public route: bearer token (401), per-token rate limit (429)
 * and scope (403), in that order.
 */
export function createAccessGuard(options: { authenticate: Authenticate; rateLimiter: RateLimiter }) {
  return (access: Access): Middleware<AppState> =>
    async (ctx, next) => {
      if (access === 'public') return next();
      const header = ctx.get('authorization');
      if (!header) throw unauthorized('Send an API token as `Authorization: Bearer <token>`.');
      const token = BEARER.exec(header)?.[1];
      if (!token) throw unauthorized('The Authorization header must be `Bearer <token>`.', 'invalid_request');
      const auth = await options.authenticate(token);
      if (!auth) throw unauthorized('The token is unknown or revoked.', 'invalid_token');
      ctx.state.auth = auth;

      const decision = await options.rateLimiter.consume(`token:${auth.tokenId}`);
      ctx.set('RateLimit-Limit', String(decision.limit));
      ctx.set('RateLimit-Remaining', String(decision.remaining));
      ctx.set('RateLimit-Reset', String(decision.resetSeconds));
      ctx.set('RateLimit-Policy', `${decision.limit};w=${decision.windowSeconds}`);
      if (!decision.allowed) {
        throw new AppError('rate-limited', {
          detail: `This token may make ${decision.limit} requests per ${decision.windowSeconds} s; retry in ${decision.resetSeconds} s.`,
          headers: { 'Retry-After': String(decision.resetSeconds) },
        });
      }

      if (!hasScope(auth.scopes, access)) {
        throw new AppError('forbidden', {
          detail: `This request needs a token with the '${access}' scope.`,
          headers: { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${access}"` },
        });
      }
      await next();
    };
}
