import { z } from 'zod';
import { noteForAudit } from '../../../libs/audit/index.js';
import { type ApiTokenRepository, toTokenView } from '../../../libs/auth/index.js';
import { type AuthContext, type ClientInfo, SESSION_COOKIE } from '../../../libs/contract/index.js';
import { notAllowed, notFound } from '../../../libs/errors/index.js';
import { type AppContext, defineRoute, type Route, requireSameOrigin } from '../../../libs/http/index.js';
import type { AccountPasswords, SessionStore, SignIn, UserRepository } from '../../../libs/people/index.js';
import {
  DEVICE_COOKIE,
  DEVICE_REMEMBERED_MS,
  loginBody,
  meView,
  newPassword,
  sessionView,
  signedInView,
  toUserView,
} from '../../../libs/people/index.js';

const TAGS = ['People'];

/** The session id's cookie: never readable by scripts; from other sites sent only with top-level GET navigation (Lax). */
export function setSessionCookie(ctx: AppContext, value: string | null, maxAgeMs: number): void {
  ctx.cookies.set(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    // ctx.secure: HTTPS, or with TRUST_PROXY `X-Forwarded-Proto: https` from the load balancer.
    secure: ctx.secure,
    maxAge: maxAgeMs,
    overwrite: true,
  });
}

/**
 * The browser's device cookie: opaque (only its hash is kept), never readable by scripts, sent
 * only with same-site requests to the sign-in routes. It lets its holder past a lock of the account.
 */
function setDeviceCookie(ctx: AppContext, deviceId: string): void {
  ctx.cookies.set(DEVICE_COOKIE, deviceId, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/api/auth',
    secure: ctx.secure,
    maxAge: DEVICE_REMEMBERED_MS,
    overwrite: true,
  });
}

export const clientOf = (ctx: AppContext): ClientInfo => ({
  address: ctx.ip,
  userAgent: ctx.get('user-agent').slice(0, 200),
});

/** The signed-in person behind a caller; an API token has none. */
export function personOf(auth: AuthContext): { userId: number; sessionHandle: string } {
  if (auth.userId === undefined || auth.sessionHandle === undefined)
    throw notAllowed('This is for a person signed in with the session cookie; an API token has no user.');
  return { userId: auth.userId, sessionHandle: auth.sessionHandle };
}

/** Named `handle`, not `id`: ids in this API are integers, and generated clients rely on it. */
const passwordChangeBody = z
  .strictObject({ currentPassword: z.string().min(1).max(256), newPassword })
  .meta({ id: 'PasswordChange' });

const sessionParams = z.object({
  handle: z.string().regex(/^[A-Za-z0-9_-]{16}$/, 'a session handle from GET /api/me/sessions'),
});

/** Routes a client user (bound to a customer) may use as well: each concerns the caller alone. */
/** The person's own password change: for people only (an API token has no password). */
export const PASSWORD_CHANGE_PATH = '/api/me/password';

export const SELF_ROUTE_PATHS = [
  '/api/auth/logout',
  '/api/me',
  PASSWORD_CHANGE_PATH,
  '/api/me/sessions',
  '/api/me/sessions/:handle',
];

/** Signing in and out, the signed-in person and their sessions. */
export function sessionRoutes(deps: {
  signIn: SignIn;
  sessions: SessionStore;
  users: UserRepository;
  passwords: AccountPasswords;
  /** The token `GET /api/me` describes when an API token calls. */
  tokens: Pick<ApiTokenRepository, 'findById'>;
  /** The organization's name, shown by `GET /api/me`. */
  organizationName(organizationId: number): Promise<string | null>;
}): Route[] {
  /** The person or the API token behind a request, as `GET /api/me` names them. */
  const whoCalls = async (auth: AuthContext) => {
    if (auth.tokenId !== undefined) {
      const token = await deps.tokens.findById(auth.organizationId, auth.tokenId);
      if (!token) throw notFound('No such token');
      return { kind: 'token' as const, token: toTokenView(token) };
    }
    const user = await deps.users.findById(auth.organizationId, personOf(auth).userId);
    if (!user) throw notFound('No such user');
    return { kind: 'person' as const, user: toUserView(user) };
  };
  return [
    defineRoute({
      method: 'post',
      path: '/api/auth/login',
      operationId: 'login',
      summary: 'Sign in: answers the user and sets the session cookie',
      description:
        'Sets `webmon_session` (HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS) and the device cookie `webmon_device` (HttpOnly, SameSite=Strict, Path=/api/auth). A wrong e-mail and a wrong password answer the same 401. Budgets (429 with Retry-After and `reason`): successful sign-ins per account and per address, failed ones per account (the account is locked: only a browser with its device cookie, or the password with a second factor, passes), per address and service-wide. 503 with Retry-After when the password-hash queue is full.',
      tags: TAGS,
      access: 'public',
      body: loginBody,
      problems: [401, 403, 429, 503],
      success: {
        status: 200,
        description: 'Signed in',
        schema: signedInView,
        headers: ['Cache-Control', 'Set-Cookie'],
      },
      handle: async ({ body, ctx }) => {
        // Signing a browser in to the attacker's account from another site is refused too.
        if (ctx.get('origin')) requireSameOrigin(ctx);
        const { sessionId, deviceId, user, method, recoveryCodesLeft } = await deps.signIn.signIn(
          body,
          clientOf(ctx),
          ctx.cookies.get(DEVICE_COOKIE),
        );
        noteForAudit(ctx, {
          signIn: { method },
          ...(recoveryCodesLeft === undefined
            ? {}
            : { recoveryCodeUsed: { userId: user.id, recoveryCodesLeft } }),
        });
        setSessionCookie(ctx, sessionId, deps.sessions.absoluteMs);
        setDeviceCookie(ctx, deviceId);
        ctx.set('Cache-Control', 'no-store');
        return { user: toUserView(user) };
      },
    }),
    defineRoute({
      method: 'post',
      path: PASSWORD_CHANGE_PATH,
      operationId: 'changeMyPassword',
      summary: 'Change your password: every session of yours ends, this browser gets a new one',
      description:
        'A wrong `currentPassword` is 400 naming it and counts as a failed sign-in of the account (429 past the budget); a new password the policy refuses is 400 naming `newPassword`.',
      tags: TAGS,
      access: 'read',
      body: passwordChangeBody,
      problems: [429, 503],
      success: {
        status: 204,
        description: 'Changed; the new session cookie set',
        headers: ['Cache-Control', 'Set-Cookie'],
      },
      handle: async ({ auth, body, ctx }) => {
        const user = await deps.users.findById(auth.organizationId, personOf(auth).userId);
        if (!user) throw notFound('No such user');
        await deps.passwords.change(user, body.currentPassword, body.newPassword);
        const { sessionId } = await deps.signIn.openSession(user, clientOf(ctx));
        setSessionCookie(ctx, sessionId, deps.sessions.absoluteMs);
        ctx.set('Cache-Control', 'no-store');
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/logout',
      operationId: 'logout',
      summary: 'Sign out: ends this session and clears its cookie',
      tags: TAGS,
      access: 'read',
      success: { status: 204, description: 'Signed out; the cookie cleared', headers: ['Set-Cookie'] },
      handle: async ({ auth, ctx }) => {
        const { userId, sessionHandle } = personOf(auth);
        await deps.sessions.end(userId, sessionHandle);
        setSessionCookie(ctx, null, 0);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/me',
      operationId: 'getMe',
      summary: 'Who calls: the signed-in user or the API token, its organization and scopes',
      description:
        '`kind` tells them apart: `person` (the session cookie) with `user`, `token` with the token’s id, name and prefix (never the token itself).',
      tags: TAGS,
      access: 'read',
      success: { status: 200, description: 'The caller, its organization and scopes', schema: meView },
      handle: async ({ auth }) => {
        const [caller, name] = await Promise.all([
          whoCalls(auth),
          deps.organizationName(auth.organizationId),
        ]);
        return {
          ...caller,
          organization: { id: auth.organizationId, name: name ?? '' },
          scopes: auth.scopes,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/me/sessions',
      operationId: 'listMySessions',
      summary: "The signed-in user's sessions, oldest first",
      tags: TAGS,
      access: 'read',
      success: { status: 200, description: 'Sessions', schema: z.array(sessionView) },
      handle: async ({ auth }) => {
        const { userId, sessionHandle } = personOf(auth);
        return (await deps.sessions.list(userId)).map((session) => ({
          id: session.handle,
          createdAt: session.createdAt.toISOString(),
          lastSeenAt: session.lastSeenAt.toISOString(),
          address: session.address,
          userAgent: session.userAgent,
          current: session.handle === sessionHandle,
        }));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/me/sessions/:handle',
      operationId: 'endMySession',
      summary: 'End one of your sessions (sign out elsewhere)',
      tags: TAGS,
      access: 'read',
      params: sessionParams,
      success: { status: 204, description: 'Ended' },
      handle: async ({ auth, params }) => {
        if (!(await deps.sessions.end(personOf(auth).userId, params.handle)))
          throw notFound(`No session ${params.handle}`);
      },
    }),
  ];
}
