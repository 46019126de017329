import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { noteForAudit } from '../../../libs/audit/index.js';
import { notFound } from '../../../libs/errors/index.js';
import {
  type AppContext,
  defineRoute,
  type Route,
  requireSameOrigin,
  setContentSecurityPolicy,
} from '../../../libs/http/index.js';
import {
  DEVICE_COOKIE,
  loginBody,
  type SessionStore,
  type SignIn,
  signedInView,
  toUserView,
} from '../../../libs/people/index.js';
import {
  type AuthnRequestForm,
  authnRequestPage,
  authnRequestPagePolicy,
  authorizationRequest,
  completeAuthorization,
  discover,
  FLOW_TTL_SECONDS,
  type IdentityProvider,
  type IdentityProviderRepository,
  type IdentityProviders,
  newBinding,
  type OidcIo,
  OidcRefusal,
  providerButtonView,
  SamlRefusal,
  type SsoAttempt,
  type SsoFlowStore,
  type SsoOutcome,
  type SsoSignIn,
  ssoPaths,
} from '../../../libs/sso/index.js';
import { clientOf, setSessionCookie } from './sessions.js';

const TAGS = ['Single sign-on'];

/** The browser's binding to the sign-ins it started (opaque; only its hash is kept with a flow). */
export const SSO_FLOW_COOKIE = 'webmon_sso';
/** A provider's identity waiting for its account's password (`POST /api/auth/sso/link`). */
export const SSO_LINK_COOKIE = 'webmon_sso_link';

/**
 * Cookies of a sign-in under way: HttpOnly, for the SSO routes only, and Lax, so the provider's
 * redirect back (a top-level GET from its site) carries them.
 */
function setSsoCookie(ctx: AppContext, name: string, value: string | null): void {
  ctx.cookies.set(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/api/auth/sso',
    secure: ctx.secure,
    maxAge: value === null ? 0 : FLOW_TTL_SECONDS * 1000,
    overwrite: true,
  });
}

/** An app path to land on after signing in; anything else (another site, `//host`) is the overview. */
const appPath = z
  .string()
  .max(500)
  .regex(/^\/(?![/\\])[^\s\\]*$/)
  .catch('/');

/** The request as the completion and the audit log see it. */
export function ssoAttempt(ctx: AppContext, route: string, next: string): SsoAttempt {
  return { client: clientOf(ctx), requestId: ctx.state.requestId, method: ctx.method, route, next };
}

/**
 * Answers a completed sign-in with a redirect into the app (for OIDC's callback and SAML's ACS
 * alike): signed in, the session cookie set as a password sign-in sets it, to `next`; an
 * account to link, to the sign-in page's link step; refused, to the sign-in page with the reason.
 */
export function answerSso(ctx: AppContext, outcome: SsoOutcome, next: string, sessionMs: number): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 302;
  if (outcome.outcome === 'signed-in') {
    setSessionCookie(ctx, outcome.sessionId, sessionMs);
    ctx.redirect(appPath.parse(next));
  } else if (outcome.outcome === 'link-required') {
    setSsoCookie(ctx, SSO_LINK_COOKIE, outcome.linkToken);
    ctx.redirect('/sign-in?sso-link=1');
  } else ctx.redirect(`/sign-in?${refusalQuery(outcome, next)}`);
  ctx.status = 302;
}

/**
 * The sign-in page's query for a refusal: the reason, the provider (its id was in the URL the
 * person followed already) so the page can offer to start again, and where to land after.
 */
function refusalQuery(outcome: Extract<SsoOutcome, { outcome: 'refused' }>, next: string): string {
  const query = new URLSearchParams({ 'sso-error': outcome.reason });
  if (outcome.providerId !== null) query.set('sso-provider', String(outcome.providerId));
  const landing = appPath.parse(next);
  if (landing !== '/') query.set('next', landing);
  return query.toString();
}

/** `{providerId}` of every single sign-on route (OIDC's and SAML's). */
export const providerParams = z.object({
  providerId: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31),
});

export interface SsoRouteDeps {
  providers: IdentityProviderRepository;
  service: IdentityProviders;
  completion: SsoSignIn;
  flows: SsoFlowStore;
  signIn: SignIn;
  sessions: SessionStore;
  io: OidcIo;
  publicUrl(path: string): string;
  /** How long a session lasts (its cookie's max age). */
  sessionMs: number;
  /**
   * Starts a SAML sign-in (an AuthnRequest): the URL to send the browser to. The SAML part
   * provides it; without it a SAML provider's start is refused.
   */
  samlStart?(
    provider: IdentityProvider,
    flow: { binding: string; next: string },
  ): Promise<{ location: string } | { form: AuthnRequestForm }>;
}

/** A redirecting route (no JSON): documented as 302 with its Location. */
function redirectRoute(
  definition: Pick<Route, 'path' | 'operationId' | 'summary' | 'description'> & {
    query?: z.ZodObject<z.ZodRawShape>;
    run(ctx: AppContext, providerId: number): Promise<void>;
  },
): Route {
  return {
    method: 'get',
    path: definition.path,
    operationId: definition.operationId,
    summary: definition.summary,
    description: definition.description,
    tags: TAGS,
    access: 'public',
    params: providerParams,
    ...(definition.query ? { query: definition.query } : {}),
    success: {
      status: 302,
      description: 'To the provider, or back into the app (the sign-in page with `sso-error` when refused)',
      contentType: 'text/html',
      headers: ['Location', 'Set-Cookie', 'Cache-Control'],
    },
    problems: [400, 503],
    async run(ctx) {
      const parsed = providerParams.safeParse(ctx.params);
      if (!parsed.success) throw notFound('No such identity provider');
      await definition.run(ctx, parsed.data.providerId);
    },
  };
}

/** An OIDC authorization request, its flow kept bound to the browser: the URL to send the browser to. */
async function oidcStart(
  deps: SsoRouteDeps,
  provider: IdentityProvider,
  flow: { binding: string; next: string },
): Promise<{ location: string }> {
  const oidc = provider.oidc;
  if (!oidc) throw new OidcRefusal('provider-error', 'The provider is not an OIDC provider');
  const config = await discover(
    { issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: deps.service.clientSecretOf(provider) },
    deps.io,
  );
  const started = await authorizationRequest(
    config,
    deps.publicUrl(ssoPaths(provider.id).callback),
    oidc.scopes,
  );
  await deps.flows.begin(started.state, flow.binding, {
    providerId: provider.id,
    nonce: started.nonce,
    codeVerifier: started.codeVerifier,
    next: flow.next,
  });
  return { location: started.url.href };
}

/** Sign-in with an organization's identity provider: its buttons, start, callback and account linking. */
export function ssoRoutes(deps: SsoRouteDeps): Route[] {
  const callbackRoute = '/api/auth/sso/:providerId/callback';
  return [
    defineRoute({
      method: 'get',
      path: '/api/auth/sso/providers',
      operationId: 'listSsoProviders',
      summary:
        'The identity providers that sign in people of an e-mail’s domain (the sign-in page’s buttons)',
      description:
        'Only enabled providers that allow the domain, and only their id, name and type: nothing of their settings, and nothing of whether an account exists.',
      tags: TAGS,
      access: 'public',
      query: z.object({ email: z.string().max(254) }),
      success: { status: 200, description: 'Providers, by id', schema: z.array(providerButtonView) },
      handle: async ({ query, ctx }) => {
        const domain = query.email
          .slice(query.email.lastIndexOf('@') + 1)
          .trim()
          .toLowerCase();
        ctx.set('Cache-Control', 'no-store');
        if (!domain) return [];
        return (await deps.providers.enabledForDomain(domain)).map(({ id, name, type }) => ({
          id,
          name,
          type,
        }));
      },
    }),
    redirectRoute({
      path: '/api/auth/sso/:providerId/start',
      operationId: 'startSsoSignIn',
      summary: 'Start signing in with an identity provider (redirects to it)',
      description:
        'OIDC: the authorization code flow with PKCE (S256), `state` and `nonce` kept server-side for 10 minutes, once, bound to this browser by the HttpOnly cookie `webmon_sso` (SameSite=Lax, Path=/api/auth/sso). SAML: an AuthnRequest whose id is kept the same way, by HTTP-Redirect, or for an IdP whose metadata offers only HTTP-POST a 200 page whose form posts it there (its script allowed by a CSP nonce). A provider that cannot be started goes to the sign-in page with `sso-error=<reason>`. `next` is the app path to land on.',
      query: z.object({ next: z.string().optional() }),
      run: async (ctx, providerId) => {
        const next = appPath.parse(ctx.query.next ?? '/');
        const attempt = ssoAttempt(ctx, '/api/auth/sso/:providerId/start', next);
        const provider = await deps.providers.findAnyById(providerId);
        if (!provider)
          return answerSso(ctx, await deps.completion.refuse(null, 'provider-unknown', attempt), next, 0);
        if (!provider.enabled)
          return answerSso(
            ctx,
            await deps.completion.refuse(provider, 'provider-disabled', attempt),
            next,
            0,
          );
        const binding = ctx.cookies.get(SSO_FLOW_COOKIE) ?? newBinding();
        const start = provider.oidc
          ? (oidcProvider: IdentityProvider, flow: { binding: string; next: string }) =>
              oidcStart(deps, oidcProvider, flow)
          : deps.samlStart;
        if (!start)
          return answerSso(ctx, await deps.completion.refuse(provider, 'provider-unknown', attempt), next, 0);
        let started: Awaited<ReturnType<typeof start>>;
        try {
          started = await start(provider, { binding, next });
        } catch (error) {
          const reason =
            error instanceof OidcRefusal || error instanceof SamlRefusal
              ? error.reason
              : 'provider-unreachable';
          ctx.state.log.warn(
            { providerId, reason, err: (error as Error).message },
            'single sign-on could not start',
          );
          return answerSso(ctx, await deps.completion.refuse(provider, reason, attempt), next, 0);
        }
        setSsoCookie(ctx, SSO_FLOW_COOKIE, binding);
        ctx.set('Cache-Control', 'no-store');
        if ('form' in started) {
          // An IdP that takes SAML requests by HTTP-POST only: a page that posts the request to it.
          const nonce = randomBytes(16).toString('base64');
          setContentSecurityPolicy(ctx, authnRequestPagePolicy(nonce), { origins: [] });
          ctx.type = 'text/html; charset=utf-8';
          ctx.body = authnRequestPage(started.form, nonce);
          return;
        }
        ctx.redirect(started.location);
        ctx.status = 302;
      },
    }),
    redirectRoute({
      path: callbackRoute,
      operationId: 'completeSsoSignIn',
      summary: 'Where an OIDC provider sends the person back (the redirect URI to register)',
      description:
        'The code is exchanged with the PKCE verifier; the ID token’s signature (the provider’s JWKS, fetched afresh so a rotated key is honoured), issuer, audience, expiry (30 s tolerance) and nonce are verified; the `state` is good once, in the browser that started it. Then the person is signed in (a session as a password sign-in opens), asked to confirm an existing password account, or refused with `sso-error=<reason>`; each is audited.',
      query: z.object({}).catchall(z.string()),
      run: async (ctx, providerId) => {
        const state = typeof ctx.query.state === 'string' ? ctx.query.state : '';
        const binding = ctx.cookies.get(SSO_FLOW_COOKIE);
        const flow = state ? await deps.flows.take(state, binding) : null;
        const next = flow?.next ?? '/';
        const attempt = ssoAttempt(ctx, callbackRoute, next);
        const provider = await deps.providers.findAnyById(providerId);
        if (!provider?.oidc)
          return answerSso(ctx, await deps.completion.refuse(null, 'provider-unknown', attempt), next, 0);
        // Unknown, used, expired or from another browser: a replayed or forged state.
        if (!flow || flow.providerId !== provider.id)
          return answerSso(ctx, await deps.completion.refuse(provider, 'sign-in-expired', attempt), next, 0);
        setSsoCookie(ctx, SSO_FLOW_COOKIE, null);
        let outcome: SsoOutcome;
        try {
          const config = await discover(
            {
              issuer: provider.oidc.issuer,
              clientId: provider.oidc.clientId,
              clientSecret: deps.service.clientSecretOf(provider),
            },
            deps.io,
          );
          const callbackUrl = new URL(deps.publicUrl(ssoPaths(provider.id).callback));
          callbackUrl.search = ctx.querystring;
          const identity = await completeAuthorization(config, callbackUrl, { ...flow, state });
          outcome = await deps.completion.complete(provider, identity, attempt);
        } catch (error) {
          if (!(error instanceof OidcRefusal)) throw error;
          // What failed in words for the operator's log; the person gets the reason code only.
          ctx.state.log.warn(
            { providerId, reason: error.reason, err: error.message },
            'single sign-on refused',
          );
          outcome = await deps.completion.refuse(provider, error.reason, attempt);
        }
        answerSso(ctx, outcome, next, deps.sessionMs);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/auth/sso/link',
      operationId: 'getPendingSsoLink',
      summary: 'The account a provider’s sign-in waits to be linked to (the link step’s e-mail)',
      tags: TAGS,
      access: 'public',
      problems: [404],
      success: {
        status: 200,
        description: 'Whose password confirms the link, and which provider asks',
        schema: z.object({ email: z.string(), providerName: z.string() }).meta({ id: 'PendingSsoLink' }),
      },
      handle: async ({ ctx }) => {
        const token = ctx.cookies.get(SSO_LINK_COOKIE);
        const pending = token ? await deps.completion.pendingLink(token) : null;
        const provider =
          pending && (await deps.providers.findById(pending.organizationId, pending.providerId));
        if (!pending || !provider)
          throw notFound('No sign-in waits to be linked: sign in with your provider again.');
        ctx.set('Cache-Control', 'no-store');
        return { email: pending.email, providerName: provider.name };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/sso/link',
      operationId: 'confirmSsoLink',
      summary: 'Link your account to the provider you just signed in with, by its password (once)',
      description:
        'A provider’s e-mail that is an existing password account’s is not taken over: its person signs in here with the password (and two-factor code) once, the provider’s identity is linked, the role its rules give applied, and the session cookie set. Later sign-ins with the provider need no password. A "require SSO" organization lets this password sign-in through.',
      tags: TAGS,
      access: 'public',
      body: loginBody,
      problems: [401, 403, 404, 429, 503],
      success: {
        status: 200,
        description: 'Linked and signed in',
        schema: signedInView,
        headers: ['Cache-Control', 'Set-Cookie'],
      },
      handle: async ({ body, ctx }) => {
        if (ctx.get('origin')) requireSameOrigin(ctx);
        const token = ctx.cookies.get(SSO_LINK_COOKIE);
        const pending = token ? await deps.completion.pendingLink(token) : null;
        if (!token || !pending || pending.email !== body.email)
          throw notFound('No sign-in waits to be linked to this account: sign in with your provider again.');
        const signedIn = await deps.signIn.signIn(body, clientOf(ctx), ctx.cookies.get(DEVICE_COOKIE), {
          linking: true,
        });
        const outcome = await deps.completion.confirmLink(
          token,
          signedIn.user,
          ssoAttempt(ctx, '/api/auth/sso/link', pending.next),
        );
        setSsoCookie(ctx, SSO_LINK_COOKIE, null);
        if (outcome.outcome !== 'signed-in') {
          // The password opened a session for the link alone: it ends with the link refused.
          const session = await deps.sessions.use(signedIn.sessionId, clientOf(ctx));
          if (session) await deps.sessions.end(signedIn.user.id, session.handle);
          throw notFound('No sign-in waits to be linked to this account: sign in with your provider again.');
        }
        noteForAudit(ctx, { signIn: { method: signedIn.method } });
        setSessionCookie(ctx, signedIn.sessionId, deps.sessionMs);
        ctx.set('Cache-Control', 'no-store');
        return { user: toUserView(outcome.user) };
      },
    }),
  ];
}
