import type { Middleware } from 'koa';
import {
  type AuthContext,
  type Authenticate,
  type AuthenticateSession,
  hasScope,
  SESSION_COOKIE,
} from '../contract/index.js';
import type { RateLimitDecision, RateLimiter } from '../redis/index.js';
import { AppError } from './app-error.js';
import type { AppContext, AppState } from './context.js';
import type { Access } from './route.js';

const REALM = 'Bearer realm="webmon"';
const BEARER = /^Bearer +([^\s]+) *$/i;
/** Methods that change nothing, which a cross-site page may make anyway (links, images). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
 * The origin a browser says the request came from: `Origin`, or the origin of `Referer` when a
 * browser sent no `Origin` (some do not on same-origin requests); undefined when neither is there.
 */
function claimedOrigin(ctx: AppContext): string | undefined {
  const origin = ctx.get('origin');
  if (origin) return origin;
  const referer = ctx.get('referer');
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'an unreadable Referer';
  }
}

/**
 * 403 unless a write made with a session cookie comes from this site: a cookie goes along with a
 * cross-site form post (SameSite=Lax stops it only for some), a bearer token never does.
 */
export function requireSameOrigin(ctx: AppContext): void {
  const claimed = claimedOrigin(ctx);
  // PUBLIC_URL when it is set: a Host header is the client's to write. Else not ctx.origin (Koa 3
  // answers the request's Origin header there): behind TRUST_PROXY, what the load balancer was asked for.
  if (claimed === (ctx.state.publicOrigin ?? `${ctx.protocol}://${ctx.host}`)) return;
  throw new AppError('forbidden', {
    detail: claimed
      ? `A request signed in with a session cookie from another site (${claimed.slice(0, 100)}) is refused: cross-site request.`
      : 'A write signed in with a session cookie needs an Origin (or Referer) header of this site: cross-site request refused.',
    extensions: { reason: 'cross-site-request' },
  });
}

/**
 * Whether what a request asks for belongs to the caller's customer (a route's check for a caller
 * bound to one customer). It may narrow the request to that customer (a list's filter).
 */
export type CustomerGate = (
  ctx: AppContext,
  caller: { organizationId: number; customerId: number },
) => Promise<boolean>;

export interface AccessGuardOptions {
  authenticate: Authenticate;
  /** Callers signed in with the session cookie; without it only bearer tokens are accepted. */
  authenticateSession?: AuthenticateSession;
  /** Whether a session is still going, without using it (a long answer such as a stream asks again). */
  sessionGoing?: (sessionId: string) => Promise<boolean>;
  rateLimiter: RateLimiter;
  authFailureLimiter: RateLimiter;
  /**
   * The routes a caller bound to one customer (a `client` user) may use, by path, each with its
   * check that the request concerns that customer. Every other route, and a request the check
   * refuses, answers such a caller 404, as an unknown id does.
   */
  customerCallerRoutes?: ReadonlyMap<string, CustomerGate>;
}

/**
 * The middleware in front of every non-public route: failed authentications per client address
 * (429 once over their limit, before any token is looked up), the caller from a bearer token or the
 * session cookie (401), same-origin writes with a cookie (403), the caller's rate limit (429), scope
 * (403) and customer binding (404), in that order. The client address is the peer's, or with
 * TRUST_PROXY the last of X-Forwarded-For (the one the proxy appended).
 */
export function createAccessGuard(options: AccessGuardOptions) {
  const customerRoutes = options.customerCallerRoutes ?? new Map<string, CustomerGate>();
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
      const sessionId = options.authenticateSession ? ctx.cookies.get(SESSION_COOKIE) : undefined;
      let auth: AuthContext | null;
      if (header) {
        const token = BEARER.exec(header)?.[1];
        if (!token)
          return failed(
            unauthorized('The Authorization header must be `Bearer <token>`.', 'invalid_request'),
          );
        auth = await options.authenticate(token);
        if (!auth) return failed(unauthorized('The token is unknown or revoked.', 'invalid_token'));
        ctx.state.stillSignedIn = async () => (await options.authenticate(token)) !== null;
      } else if (sessionId && options.authenticateSession) {
        auth = await options.authenticateSession(sessionId, {
          address: ctx.ip,
          userAgent: ctx.get('user-agent').slice(0, 200),
        });
        if (!auth)
          return failed(unauthorized('The session has ended or is unknown; sign in again.', 'invalid_token'));
        const { sessionGoing } = options;
        if (sessionGoing) ctx.state.stillSignedIn = () => sessionGoing(sessionId);
        if (!SAFE_METHODS.has(ctx.method)) requireSameOrigin(ctx);
      } else {
        return failed(
          unauthorized('Send an API token as `Authorization: Bearer <token>`, or sign in (session cookie).'),
        );
      }
      ctx.state.auth = auth;

      const [budgetKey, budget] =
        auth.userId !== undefined
          ? [`user:${auth.userId}`, 'This user']
          : [`token:${auth.tokenId}`, 'This token'];
      applyRateLimit(ctx, await options.rateLimiter.consume(budgetKey), budget);

      if (!hasScope(auth.scopes, access)) {
        throw new AppError('forbidden', {
          detail: auth.role
            ? `This request needs the '${access}' scope, which the role '${auth.role}' does not have.`
            : `This request needs a token with the '${access}' scope.`,
          headers: { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${access}"` },
        });
      }
      if (auth.customerId !== undefined) {
        const gate = customerRoutes.get((ctx as { _matchedRoute?: string })._matchedRoute ?? '');
        const caller = { organizationId: auth.organizationId, customerId: auth.customerId };
        if (!(gate && (await gate(ctx, caller))))
          throw new AppError('not-found', { detail: 'No such resource.' });
      }
      await next();
    };
}
