import * as client from 'openid-client';
import type { TargetGuard } from '../targets/index.js';
import { type ProviderFetch, ProviderUnreachable, plainHttpAllowed } from './guarded-fetch.js';
import type { SsoIdentity } from './role-mapping.js';

/** Seconds an ID token's iat/exp/nbf may be off our clock (the provider's and ours differ a little). */
export const CLOCK_TOLERANCE_SECONDS = 30;

export interface OidcIo {
  fetch: ProviderFetch;
  guard: TargetGuard;
  timeoutMs: number;
}

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  /** Opened from its seal just for this sign-in. */
  clientSecret: string;
}

/** Why a provider's answer was not taken: said to the person as a reason code, never with a token. */
export class OidcRefusal extends Error {
  override name = 'OidcRefusal';
  constructor(
    readonly reason: 'provider-unreachable' | 'provider-error' | 'token-invalid' | 'sign-in-cancelled',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The provider's configuration, discovered from its issuer each time a sign-in starts and ends:
 * its keys are read fresh too, so a key the provider rotated in is honoured at once (a sign-in is
 * rare enough that two small GETs do not matter). The ID token's signature is checked against the
 * provider's JWKS (openid-client's non-repudiation checks), besides issuer, audience, expiry and nonce.
 */
export async function discover(settings: OidcClientSettings, io: OidcIo): Promise<client.Configuration> {
  const issuer = new URL(settings.issuer);
  try {
    const config = await client.discovery(
      issuer,
      settings.clientId,
      { [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS },
      client.ClientSecretBasic(settings.clientSecret),
      {
        [client.customFetch]: io.fetch,
        timeout: Math.ceil(io.timeoutMs / 1000),
        execute: plainHttpAllowed(issuer, io.guard) ? [client.allowInsecureRequests] : [],
      },
    );
    client.enableNonRepudiationChecks(config);
    return config;
  } catch (error) {
    throw refusalOf(error, 'discovery');
  }
}

export interface StartedFlow {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The authorization request: code flow with PKCE (S256), a fresh state and nonce. */
export async function authorizationRequest(
  config: client.Configuration,
  redirectUri: string,
  scopes: readonly string[],
): Promise<StartedFlow> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: scopes.join(' '),
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, state, nonce, codeVerifier };
}

/**
 * The callback: the code exchanged (with the PKCE verifier), the ID token verified (signature by
 * the JWKS, issuer, audience, expiry within the tolerance, the nonce of this flow) and read into
 * an identity.
 */
export async function completeAuthorization(
  config: client.Configuration,
  callbackUrl: URL,
  flow: { state: string; nonce: string; codeVerifier: string },
): Promise<SsoIdentity> {
  const error = callbackUrl.searchParams.get('error');
  if (error)
    throw new OidcRefusal(
      error === 'access_denied' ? 'sign-in-cancelled' : 'provider-error',
      `the provider answered ${error.slice(0, 64)}`,
    );
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw refusalOf(error, 'token');
  }
  const claims = tokens.claims();
  if (!claims) throw new OidcRefusal('token-invalid', 'no ID token');
  return identityOf(claims);
}

/** Standard claims named; the rest kept for `claim` rules. */
export function identityOf(claims: Record<string, unknown>): SsoIdentity {
  const { sub, email, email_verified, name, groups, ...rest } = claims;
  const groupList = Array.isArray(groups) ? groups.map(String) : typeof groups === 'string' ? [groups] : [];
  // An address the provider says it has not verified is nobody's proof of an address.
  const verified = email_verified === undefined || email_verified === true || email_verified === 'true';
  return {
    subject: String(sub),
    email: typeof email === 'string' && verified ? email.trim().toLowerCase() : null,
    name: typeof name === 'string' ? name : null,
    groups: groupList,
    claims: { ...rest, ...(email_verified === undefined ? {} : { email_verified }) },
  };
}

/** Checks that a provider answers: discovery, then its JWKS; each check said in words. */
export async function probeOidc(
  settings: OidcClientSettings,
  io: OidcIo,
): Promise<Array<{ name: string; ok: boolean; detail: string }>> {
  let config: client.Configuration;
  try {
    config = await discover(settings, io);
  } catch (error) {
    return [{ name: 'discovery', ok: false, detail: (error as Error).message }];
  }
  const metadata = config.serverMetadata();
  const checks = [
    {
      name: 'discovery',
      ok: true,
      detail: `${metadata.issuer}: authorization at ${metadata.authorization_endpoint}`,
    },
  ];
  const jwksUri = metadata.jwks_uri;
  if (!jwksUri) return [...checks, { name: 'jwks', ok: false, detail: 'the provider names no jwks_uri' }];
  try {
    const answer = await io.fetch(jwksUri, { headers: { accept: 'application/json' } });
    const body = (await answer.json().catch(() => null)) as { keys?: unknown[] } | null;
    const keys = Array.isArray(body?.keys) ? body.keys.length : 0;
    checks.push(
      answer.status === 200 && keys > 0
        ? { name: 'jwks', ok: true, detail: `${keys} signing key(s) at ${jwksUri}` }
        : { name: 'jwks', ok: false, detail: `${jwksUri} answered ${answer.status} with ${keys} keys` },
    );
  } catch (error) {
    checks.push({ name: 'jwks', ok: false, detail: (error as Error).message });
  }
  return checks;
}

/** A library or network failure as a refusal: what went wrong in words, no token or secret. */
function refusalOf(error: unknown, step: 'discovery' | 'token'): OidcRefusal {
  if (error instanceof OidcRefusal) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof ProviderUnreachable || cause instanceof ProviderUnreachable)
    return new OidcRefusal('provider-unreachable', ((cause ?? error) as Error).message);
  const message = error instanceof Error ? error.message : String(error);
  if (step === 'discovery')
    return new OidcRefusal('provider-unreachable', `the provider's discovery failed: ${message}`);
  // openid-client's errors name the check that failed (signature, aud, exp, nonce, state).
  const code = (error as { code?: string }).code ?? '';
  if (error instanceof client.ResponseBodyError)
    return new OidcRefusal('provider-error', `the token endpoint answered ${error.error}`);
  return new OidcRefusal('token-invalid', `${message}${code ? ` (${code})` : ''}`);
}
