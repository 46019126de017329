import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** A person of the test IdP: what its ID tokens say of them. */
export interface IdpPerson {
  sub: string;
  email: string;
  name: string;
  groups: string[];
  email_verified?: boolean;
}

/** Changes an ID token on its way out of the token endpoint: `resign` signs it again with the IdP's key. */
export type IdTokenTamper = (token: string, resign: (payload: Record<string, unknown>) => string) => string;

export interface TestIdp {
  /** `http://127.0.0.1:<port>`, the issuer. */
  issuer: string;
  port: number;
  clientId: string;
  clientSecret: string;
  /** Registers a redirect URI of the client (our callback of a provider the test made). */
  allowRedirect(uri: string): void;
  /** Who the next sign-in logs in (the interaction logs them in without a form). */
  signInAs(person: IdpPerson): void;
  /** Changes the next ID token issued (once), then tokens are as issued again. */
  tamperNextIdToken(tamper: IdTokenTamper): void;
  /** A new signing key signs from now on; the old one is still published (as IdPs roll keys over). */
  rotateKeys(): Promise<void>;
  /** The `kid` that signs now. */
  currentKid(): string;
  close(): Promise<void>;
}

type Jwk = Record<string, unknown> & { kid: string };

function newSigningKey(): Jwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>),
    kid: randomUUID(),
    use: 'sig',
    alg: 'RS256',
  };
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** Signs a JWT payload with an RS256 key, as the IdP does (for tampering tests that need a valid signature). */
function signJwt(payload: Record<string, unknown>, key: Jwk): string {
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: key.kid }));
  const body = b64url(JSON.stringify(payload));
  const signature = sign(
    'sha256',
    Buffer.from(`${header}.${body}`),
    createPrivateKey({ key: key as never, format: 'jwk' }),
  );
  return `${header}.${body}.${b64url(signature)}`;
}

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1 with one confidential client
 * whose redirect URIs the test registers. Its interaction logs in whoever `signInAs` named, without a
 * form (a browser test goes through the same redirects); the ID token carries email, name and
 * groups. Keys can be rotated (a new provider instance behind the same port, the old key still
 * published) and the next ID token tampered with.
 */
export async function startTestIdp(): Promise<TestIdp> {
  const clientId = `webmon-${randomUUID().slice(0, 8)}`;
  const clientSecret = randomUUID();
  let person: IdpPerson = { sub: 'nobody', email: 'nobody@example.test', name: 'Nobody', groups: [] };
  let tamper: IdTokenTamper | null = null;
  let keys: Jwk[] = [newSigningKey()];
  const redirectUris: string[] = [];
  let provider: Provider;

  const server = createServer((req, res) => handle(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const build = () => {
    const configuration: Configuration = {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: keys as never },
      scopes: ['openid', 'email', 'profile', 'groups'],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
      // Email, name and groups in the ID token itself (not only at userinfo).
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      cookies: { keys: ['test-idp-cookie-key'] },
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub) => ({
        accountId: sub,
        claims: () => ({
          sub,
          email: person.email,
          email_verified: person.email_verified ?? true,
          name: person.name,
          groups: person.groups,
        }),
      }),
      // Consent is the test's: every client gets the scopes it asks.
      loadExistingGrant: async (ctx) => {
        const accountId = ctx.oidc.session?.accountId;
        if (!accountId || !ctx.oidc.client) return undefined;
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
        grant.addOIDCScope('openid email profile groups');
        grant.addOIDCClaims(['email', 'email_verified', 'name', 'groups']);
        await grant.save();
        return grant;
      },
    };
    const next = new Provider(issuer, configuration);
    next.use(async (ctx, nextMiddleware) => {
      await nextMiddleware();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path === '/token' && tamper && body?.id_token) {
        const change = tamper;
        tamper = null;
        body.id_token = change(body.id_token, (payload) => signJwt(payload, keys[0] as Jwk));
      }
    });
    return next;
  };
  provider = build();

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.url?.startsWith('/interaction/')) {
      try {
        await provider.interactionDetails(req, res);
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: person.sub } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
      return;
    }
    provider.callback()(req, res);
  }

  return {
    issuer,
    port,
    clientId,
    clientSecret,
    allowRedirect: (uri) => {
      redirectUris.push(uri);
      provider = build();
    },
    signInAs: (next) => {
      person = next;
    },
    tamperNextIdToken: (next) => {
      tamper = next;
    },
    async rotateKeys() {
      keys = [newSigningKey(), ...keys];
      provider = build();
    },
    currentKid: () => (keys[0] as Jwk).kid,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The payload of a JWT, read without checking anything (for tampering). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** Cookies by origin, as a browser keeps them (name → value; paths and expiry left aside). */
export class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();

  header(url: URL): string {
    return [...(this.byOrigin.get(url.origin) ?? new Map()).entries()]
      .map(([n, v]) => `${n}=${v}`)
      .join('; ');
  }

  keep(url: URL, response: Response): void {
    const cookies = this.byOrigin.get(url.origin) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=0$/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a),
      );
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    this.byOrigin.set(url.origin, cookies);
  }

  get(origin: string, name: string): string | undefined {
    return this.byOrigin.get(origin)?.get(name);
  }

  /** Puts a cookie back (a browser replaying what it once held). */
  set(origin: string, name: string, value: string): void {
    const cookies = this.byOrigin.get(origin) ?? new Map<string, string>();
    cookies.set(name, value);
    this.byOrigin.set(origin, cookies);
  }
}

/**
 * A browser's way through redirects (GET only), keeping cookies: from `start` until a redirect
 * leaves `/api/` of `appOrigin` (into the app) or an answer is not a redirect. Answers where it
 * landed and every URL it passed.
 */
export async function followRedirects(
  start: string,
  jar: CookieJar,
  appOrigin: string,
  stopAt?: (url: URL) => boolean,
): Promise<{ landed: URL; passed: URL[]; status: number }> {
  const passed: URL[] = [];
  let url = new URL(start);
  for (let hop = 0; hop < 20; hop++) {
    passed.push(url);
    if (stopAt?.(url)) return { landed: url, passed, status: 0 };
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) } });
    jar.keep(url, response);
    await response.arrayBuffer();
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location)
      return { landed: url, passed, status: response.status };
    url = new URL(location, url);
    if (url.origin === appOrigin && !url.pathname.startsWith('/api/'))
      return { landed: url, passed, status: response.status };
  }
  throw new Error(`more than 20 redirects from ${start}`);
}

/** A port nobody listens on now: the API's, known before it starts (PUBLIC_URL names it). */
export async function freePort(): Promise<number> {
  const server = createTcpServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
