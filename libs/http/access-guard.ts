import type { Middleware } from 'koa';
import { type Authenticate, hasScope } from '../contract/index.js';
import type { RateLimitDecision, RateLimiter } from '../redis/index.js';
import { AppError } from './app-error.js';
import type { AppContext, AppState } from './context.js';
import type { Access } from './route.js';

const REALM = 'Bearer realm="webmon"';
const BEARER = /^Bearer +([^\s]+) *$/i;

function unauthorized(detail: string, error?: 'invalid_request' | 'invalid_token'): AppError {
  return new AppError('unauthorized', {
    detail,
    headers: { 'WWW-Authenticate': error ? `${REALM}, error="${error}"` : REALM },
  });
}

/** Tells the client its budget (`RateLimit-*` headers); 429 with `Retry-After` once it is used up. */
export function applyRateLimit(ctx: AppContext, decision: RateLimitDecision, budget: string): void {
  ctx.set('RateLimit-Limit', String(decision.limit));
  ctx.set('RateLimit-Remaining', String(decision.remaining));
  ctx.set('RateLimit-Reset', String(decision.resetSeconds));
  ctx.set('RateLimit-Policy', `${decision.limit};w=${decision.windowSeconds}`);
  if (!decision.allowed) {
    throw new AppError('rate-limited', {
      detail: `${budget} may make ${decision.limit} requests per ${decision.windowSeconds} s; retry in ${decision.resetSeconds} s.`,
      headers: { 'Retry-After': String(decision.resetSeconds) },
    });
  }
}

/**
 * The middleware in front of every non-public route: failed authentications per client address
 * (429 once over their limit, before any token is looked up), bearer token (401), per-token rate
 * limit (429) and scope (403), in that order. The client address is the peer's, or with
 * TRUST_PROXY the first of X-Forwarded-For.
 */
export function createAccessGuard(options: {
  authenticate: Authenticate;
  rateLimiter: RateLimiter;
  authFailureLimiter: RateLimiter;
}) {
  return (access: Access): Middleware<AppState> =>
    async (ctx, next) => {
      if (access === 'public') return next();
      const client = `auth-failures:${ctx.ip}`;
      const failures = await options.authFailureLimiter.peek(client);
      if (!failures.allowed) {
        throw new AppError('rate-limited', {
          detail: `${failures.limit} failed authentications from this address in ${failures.windowSeconds} s; retry in ${failures.resetSeconds} s.`,
          headers: { 'Retry-After': String(failures.resetSeconds) },
        });
      }
      const failed = async (error: AppError): Promise<never> => {
        await options.authFailureLimiter.consume(client);
        throw error;
      };
      const header = ctx.get('authorization');
      if (!header) return failed(unauthorized('Send an API token as `Authorization: Bearer <token>`.'));
      const token = BEARER.exec(header)?.[1];
      if (!token)
        return failed(unauthorized('The Authorization header must be `Bearer <token>`.', 'invalid_request'));
      const auth = await options.authenticate(token);
      if (!auth) return failed(unauthorized('The token is unknown or revoked.', 'invalid_token'));
      ctx.state.auth = auth;

      applyRateLimit(ctx, await options.rateLimiter.consume(`token:${auth.tokenId}`), 'This token');

      if (!hasScope(auth.scopes, access)) {
        throw new AppError('forbidden', {
          detail: `This request needs a token with the '${access}' scope.`,
          headers: { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${access}"` },
        });
      }
      await next();
    };
}
