import type { Middleware } from 'koa';
import { z } from 'zod';
import type { NewAuditEvent } from '../../../libs/audit/index.js';
import { isMongoUnavailable } from '../../../libs/db/index.js';
import { DomainError } from '../../../libs/errors/index.js';
import {
  type AppContext,
  AppError,
  type AppState,
  applyRateLimit,
  type Route,
} from '../../../libs/http/index.js';
import type { Logger } from '../../../libs/logging/index.js';
import type { User } from '../../../libs/people/index.js';
import { isRedisUnavailable, type RateLimiter } from '../../../libs/redis/index.js';
import {
  currentGrant,
  type MakerRefusal,
  SCIM_CONTENT_TYPE,
  type ScimCaller,
  type ScimErrorBody,
  type ScimTokenRepository,
  type ScimWrite,
  scimErrorBody,
  scimErrorOf,
} from '../../../libs/scim/index.js';

/** SCIM's paths: every answer under them is SCIM's, its errors too. */
const SCIM_PREFIX = /^\/scim\/v2(?:\/|$)/;

/**
 * Under `/scim/v2`, the problem documents answered before a SCIM route runs (an unknown path, 405,
 * 413, 415) become SCIM's error document (RFC 7644 §3.12), as a SCIM client reads every error. An
 * app middleware outside the problem middleware; a body the compression middleware already
 * encoded (over 1 KB: never these short refusals) is left as it is.
 */
export function scimErrorDocuments(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (!SCIM_PREFIX.test(ctx.path) || ctx.response.get('Content-Encoding')) return;
    if (ctx.response.type !== 'application/problem+json') return;
    const body = Buffer.isBuffer(ctx.body) ? JSON.parse(ctx.body.toString('utf8')) : ctx.body;
    const { status, detail } = body as { status: number; detail: string };
    ctx.body = scimErrorBody(status, detail);
    ctx.type = SCIM_CONTENT_TYPE;
  };
}

/** SCIM bodies: a group of thousands of members fits; Entra ID sends a few KB. */
const BODY = { maxBytes: 4 * 1024 * 1024, limitBytes: 4 * 1024 * 1024 };
const BEARER = /^Bearer +([^\s]+) *$/i;

const scimError = z
  .object({
    schemas: z.array(z.string()),
    status: z.string(),
    scimType: z.string().optional(),
    detail: z.string(),
  })
  .meta({ id: 'ScimError' });
/** Every refusal is SCIM's error document (RFC 7644 §3.12), not a problem document. */
const ERROR_ANSWERS = Object.fromEntries(
  [400, 401, 403, 404, 409, 429, 500, 503].map((status) => [
    status,
    { description: 'SCIM error', body: { schema: scimError, contentType: SCIM_CONTENT_TYPE } },
  ]),
);

export interface ScimGateDeps {
  tokens: ScimTokenRepository;
  /** The SCIM base URL resources' locations are under: PUBLIC_URL's, else this request's origin. */
  baseUrl(origin: string): string;
  /** Failed authentications per client address, the access guard's budget. */
  authFailures: RateLimiter;
  /** Requests per SCIM token (the API's per-caller budget). */
  perToken: RateLimiter;
  audit(event: NewAuditEvent): Promise<void>;
  logger: Logger;
  /** The person who made a token, as they are now (null: removed). */
  makerOf(organizationId: number, userId: number): Promise<Pick<User, 'role' | 'disabledAt'> | null>;
}

const MAKER_REFUSALS: Record<MakerRefusal, string> = {
  'maker-gone': 'The person who made this SCIM token is no longer in the organization',
  'maker-deactivated': 'The person who made this SCIM token is deactivated',
  'maker-not-admin': 'The person who made this SCIM token is no longer an owner or admin',
};

/**
 * What stands in front of every SCIM route in place of the API's access guard: the SCIM token
 * (401 as RFC 7644 says, the failure counted per address as the guard counts its own), the
 * token's request budget, the body read as JSON whatever its media type (Entra ID sends
 * application/scim+json), every answer and refusal in SCIM's media type and error document, and
 * the organization's audit log for every call of a known token (never the token).
 */
export function scimGate(deps: ScimGateDeps) {
  const callers = new WeakMap<AppContext, ScimCaller>();
  const writes = new WeakMap<AppContext, ScimWrite<unknown>>();
  const callerOf = (ctx: AppContext) => callers.get(ctx) as ScimCaller;
  /** Keeps what a write did for the audit log; answers its resource. */
  const noted = <T>(ctx: AppContext, write: ScimWrite<T>): T => {
    writes.set(ctx, write);
    return write.resource;
  };

  const unauthorized = (detail: string) => new DomainError('unauthenticated', detail);

  async function authenticate(ctx: AppContext): Promise<ScimCaller> {
    const key = `auth-failures:${ctx.ip}`;
    const failures = await deps.authFailures.peek(key);
    if (!failures.allowed)
      throw new AppError('rate-limited', {
        detail: `Too many failed authentications from this address; retry in ${failures.resetSeconds} s.`,
        headers: { 'Retry-After': String(failures.resetSeconds) },
      });
    const token = BEARER.exec(ctx.get('authorization'))?.[1];
    const found = token ? await deps.tokens.authenticate(token) : null;
    if (!found) {
      await deps.authFailures.consume(key);
      ctx.set('WWW-Authenticate', 'Bearer realm="webmon-scim"');
      throw unauthorized(
        token
          ? 'The SCIM token is unknown or revoked; ask your webmon admin for a new one (organization settings, SCIM).'
          : 'Send the SCIM token as Authorization: Bearer <token>.',
      );
    }
    applyRateLimit(ctx, await deps.perToken.consume(`scim:${found.id}`), 'This SCIM token');
    const origin = ctx.state.publicOrigin ?? `${ctx.protocol}://${ctx.host}`;
    return { token: found, base: deps.baseUrl(origin) };
  }

  /**
   * The caller with its maker's authority now (`grant`); refused, with the reason audited, once the
   * maker cannot lend it any.
   */
  async function withMakersAuthority(ctx: AppContext, caller: ScimCaller): Promise<ScimCaller> {
    const { token } = caller;
    const authority = currentGrant(token.grant, await deps.makerOf(token.organizationId, token.createdBy));
    if ('grant' in authority) return { ...caller, token: { ...token, grant: authority.grant } };
    writes.set(ctx, {
      resource: null,
      changes: [{ path: 'refusedBecause', old: null, new: authority.refused }],
      roleChanges: [],
    });
    throw new DomainError(
      'not-allowed',
      `${MAKER_REFUSALS[authority.refused]}; ask your webmon admin for a new SCIM token (organization settings, SCIM).`,
    );
  }

  /** A thrown error as SCIM's error document; anything unforeseen is a 500 naming the request only. */
  function errorOf(
    ctx: AppContext,
    error: unknown,
  ): { body: ScimErrorBody; headers: Record<string, string> } {
    if (error instanceof DomainError) {
      const headers: Record<string, string> = error.retryAfterSeconds
        ? { 'Retry-After': String(error.retryAfterSeconds) }
        : {};
      return { body: scimErrorOf(error), headers };
    }
    if (error instanceof AppError)
      return { body: scimErrorBody(error.status, error.detail), headers: error.headers };
    if (isMongoUnavailable(error) || isRedisUnavailable(error)) {
      ctx.state.log.warn({ err: String(error) }, 'dependency unavailable');
      return {
        body: scimErrorBody(503, 'webmon is briefly unavailable; retry shortly.'),
        headers: { 'Retry-After': '5' },
      };
    }
    ctx.state.log.error({ err: error }, 'unhandled error');
    return {
      body: scimErrorBody(
        500,
        `An unexpected error occurred; quote request id ${ctx.state.requestId} when reporting it.`,
      ),
      headers: {},
    };
  }

  async function record(ctx: AppContext, route: Route, caller: ScimCaller, status: number): Promise<void> {
    const { token } = caller;
    const write = writes.get(ctx);
    const created =
      ctx.status === 201 && ctx.body && typeof ctx.body === 'object'
        ? (ctx.body as { id?: unknown }).id
        : undefined;
    const base: NewAuditEvent = {
      organizationId: token.organizationId,
      at: new Date(),
      // The authority it acted with: its maker's now (see withMakersAuthority).
      actor: { type: 'token', id: token.id, role: token.grant, scopes: ['scim'] },
      action: route.operationId,
      method: route.method.toUpperCase(),
      route: route.path,
      resource: route.path.includes('/Groups')
        ? 'scim-groups'
        : route.path.includes('/Users')
          ? 'scim-users'
          : 'scim',
      resourceId:
        (ctx.params as { ref?: string }).ref?.slice(0, 64) ??
        (created === undefined ? null : String(created)),
      outcome: status < 400 ? 'succeeded' : 'failed',
      status,
      address: ctx.ip,
      requestId: ctx.state.requestId,
      changes: write?.changes ?? [],
    };
    try {
      await deps.audit(base);
      // Each role decided again is a change of its own person, recorded as the users API's are.
      for (const change of write?.roleChanges ?? [])
        await deps.audit({
          ...base,
          action: 'scimRoleChange',
          resource: 'users',
          resourceId: String(change.userId),
          outcome: change.outcome === 'changed' ? 'succeeded' : 'failed',
          status: change.outcome === 'changed' ? 200 : 409,
          changes: [
            { path: 'role', old: change.from.role, new: change.to.role },
            ...(change.from.customerId !== change.to.customerId
              ? [{ path: 'customerId', old: change.from.customerId, new: change.to.customerId }]
              : []),
            ...(change.reason ? [{ path: 'refusedBecause', new: change.reason }] : []),
          ],
        });
    } catch (error) {
      deps.logger.warn({ err: String(error), operation: route.operationId }, 'audit event not recorded');
    }
  }

  /** A route of the SCIM API: public to the access guard, let in by a SCIM token, answered in SCIM's media type. */
  const scim = (route: Route): Route => ({
    ...route,
    // Public to the API's access guard (its own SCIM token instead): said where clients read it.
    description: `${route.description ? `${route.description} ` : ''}Authorization: Bearer <SCIM token> (an organization's, from POST /api/scim-tokens); see docs/scim.md.`,
    access: 'public',
    unaudited: true,
    rawBody: BODY,
    problems: [400, 401, 403, 404, 409, 429, 503],
    otherResponses: ERROR_ANSWERS,
    async run(ctx) {
      let caller: ScimCaller | undefined;
      try {
        caller = await authenticate(ctx);
        caller = await withMakersAuthority(ctx, caller);
        callers.set(ctx, caller);
        const { bytes } = ctx.state.rawBody ?? { bytes: Buffer.alloc(0) };
        if (bytes.length > 0) {
          try {
            ctx.request.body = JSON.parse(bytes.toString('utf8'));
          } catch {
            throw new DomainError('invalid', 'The body is not JSON', { code: 'invalidSyntax' });
          }
        }
        await route.run(ctx);
        ctx.type = SCIM_CONTENT_TYPE;
      } catch (error) {
        const { body, headers } = errorOf(ctx, error);
        ctx.status = Number(body.status);
        for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
        ctx.type = SCIM_CONTENT_TYPE;
        ctx.body = body;
      } finally {
        if (caller) await record(ctx, route, caller, ctx.status);
      }
    },
  });

  return {
    wrap: scim,
    callerOf,
    noted,
  };
}
