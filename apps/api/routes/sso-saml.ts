import { z } from 'zod';
import { invalidInput, notFound } from '../../../libs/errors/index.js';
import { type AppContext, defineRoute, type Route } from '../../../libs/http/index.js';
import type { IdentityProvider, IdentityProviderRepository, SamlSignIn } from '../../../libs/sso/index.js';
import { answerSso, providerParams, SSO_FLOW_COOKIE, ssoAttempt } from './sso.js';

const TAGS = ['Single sign-on'];
const METADATA_TYPE = 'application/samlmetadata+xml';
const ACS = '/api/auth/sso/:providerId/acs';

/**
 * What an IdP's form post may weigh: a base64 response with an encrypted, signed assertion and
 * a few hundred groups fits in far less; more is refused before it is read.
 */
const ACS_BODY = { maxBytes: 512 * 1024, limitBytes: 512 * 1024 };

const samlForm = z.object({
  SAMLResponse: z
    .string({ error: 'required: the IdP’s SAMLResponse form field' })
    .min(1, 'required: the IdP’s SAMLResponse form field')
    .regex(/^[A-Za-z0-9+/=\s]+$/, 'must be base64'),
  RelayState: z.string().max(1024).optional(),
});

const handoverQuery = z.object({ handover: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

export interface SamlRouteDeps {
  saml: SamlSignIn;
  providers: IdentityProviderRepository;
  /** How long a session lasts (its cookie's max age). */
  sessionMs: number;
}

async function samlProvider(deps: SamlRouteDeps, ctx: AppContext): Promise<IdentityProvider | null> {
  const parsed = providerParams.safeParse(ctx.params);
  const provider = parsed.success ? await deps.providers.findAnyById(parsed.data.providerId) : null;
  return provider?.saml ? provider : null;
}

function formOf(ctx: AppContext): z.infer<typeof samlForm> {
  if (!ctx.is('application/x-www-form-urlencoded'))
    throw invalidInput('The IdP must post its answer as a form', [
      { path: 'body', message: 'must be application/x-www-form-urlencoded (the HTTP-POST binding)' },
    ]);
  const text = ctx.state.rawBody?.bytes.toString('utf8') ?? '';
  const parsed = samlForm.safeParse(Object.fromEntries(new URLSearchParams(text)));
  if (!parsed.success)
    throw invalidInput(
      'The IdP’s answer is not a SAML HTTP-POST form',
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  return parsed.data;
}

/** SAML 2.0: our SP metadata, and the assertion consumer service (the IdP's POST, then the browser's GET). */
export function samlRoutes(deps: SamlRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/auth/sso/:providerId/metadata',
      operationId: 'getSamlServiceProviderMetadata',
      summary: 'Our SAML SP metadata for a SAML provider (its URL is also our entity id)',
      description:
        'Public, for the IdP’s admin (or the IdP itself) to read: our entity id, the assertion consumer service (HTTP-POST), that assertions must be signed, and the certificate to encrypt assertions to.',
      tags: TAGS,
      access: 'public',
      params: providerParams,
      problems: [404],
      success: {
        status: 200,
        description: 'SAML 2.0 metadata',
        schema: z.string(),
        contentType: METADATA_TYPE,
      },
      handle: async ({ ctx }) => {
        const provider = await samlProvider(deps, ctx);
        if (!provider) throw notFound('No such SAML identity provider');
        ctx.set('Cache-Control', 'public, max-age=300');
        return deps.saml.metadata(provider);
      },
    }),
    {
      method: 'post',
      path: ACS,
      operationId: 'receiveSamlResponse',
      summary: 'The assertion consumer service: where the IdP posts its SAMLResponse',
      description:
        'The HTTP-POST binding (`SAMLResponse`, `RelayState`; at most 512 KiB). The assertion must be signed by a certificate of the IdP’s metadata (an encrypted one is decrypted with our key); its issuer, audience (our entity id), Recipient and the response’s Destination (this URL), NotBefore/NotOnOrAfter (60 s of clock skew) are checked, and its id is remembered until it expires so it is taken once. An assertion answering no request of ours (IdP-initiated) is refused unless the provider allows it. Then 303 to the GET of this URL, where the browser’s `webmon_sso` cookie (SameSite=Lax, so not sent with this cross-site POST) proves it started the request the assertion answers. Refusals go to the sign-in page with `sso-error=<reason>`.',
      tags: TAGS,
      access: 'public',
      params: providerParams,
      rawBody: ACS_BODY,
      // The sign-in, or its refusal with the reason, is audited by the completion itself.
      unaudited: true,
      success: {
        status: 303,
        description: 'To the GET of this URL (or to the sign-in page with `sso-error` when refused)',
        contentType: 'text/html',
        headers: ['Location', 'Cache-Control'],
      },
      problems: [400, 404, 413, 415, 503],
      async run(ctx) {
        const provider = await samlProvider(deps, ctx);
        if (!provider) throw notFound('No such SAML identity provider');
        const form = formOf(ctx);
        const received = await deps.saml.receive(
          provider,
          form.SAMLResponse.replace(/\s+/g, ''),
          ssoAttempt(ctx, ACS, '/'),
        );
        if ('detail' in received) {
          ctx.state.log.warn(
            { providerId: provider.id, reason: received.outcome.reason, err: received.detail },
            'SAML sign-in refused',
          );
          return answerSso(ctx, received.outcome, '/', 0);
        }
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(`/api/auth/sso/${provider.id}/acs?handover=${received.handover}`);
        ctx.status = 303;
      },
    },
    {
      method: 'get',
      path: ACS,
      operationId: 'completeSamlSignIn',
      summary: 'Completes a SAML sign-in in the browser that started it (after the ACS’s POST)',
      description:
        'The `handover` is one-time and lasts 60 s. The person is signed in (a session as a password sign-in opens), asked to confirm an existing password account, or refused with `sso-error=<reason>`; each is audited.',
      tags: TAGS,
      access: 'public',
      params: providerParams,
      query: handoverQuery,
      success: {
        status: 302,
        description: 'Into the app, or to the sign-in page with `sso-error`',
        contentType: 'text/html',
        headers: ['Location', 'Set-Cookie', 'Cache-Control'],
      },
      problems: [404, 503],
      async run(ctx) {
        const provider = await samlProvider(deps, ctx);
        if (!provider) throw notFound('No such SAML identity provider');
        const parsed = handoverQuery.safeParse(ctx.query);
        const attempt = ssoAttempt(ctx, ACS, '/');
        const { outcome, next, detail } = await deps.saml.finish(
          provider,
          parsed.success ? parsed.data.handover : '',
          ctx.cookies.get(SSO_FLOW_COOKIE),
          attempt,
        );
        if (detail) ctx.state.log.warn({ providerId: provider.id, err: detail }, 'SAML sign-in refused');
        answerSso(ctx, outcome, next, deps.sessionMs);
      },
    },
  ];
}
