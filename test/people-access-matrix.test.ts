import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, Scope } from '../libs/contract/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { CookieJar, followRedirects, freePort, startTestIdp, type TestIdp } from './support/oidc-provider.js';
import { createOrganizationId, createUser, signIn, withCookie } from './support/people.js';

interface Operation {
  security: unknown[];
  'x-required-scope'?: Scope;
}

const RANK: Record<Scope, number> = { read: 0, write: 1, admin: 2 };
const ROLE_RANK: Record<Exclude<Role, 'client'>, number> = { viewer: 0, editor: 1, admin: 2, owner: 2 };
/**
 * Paths a client may call at all (apps/api/customer-gates.ts); with unknown ids they answer 404 too.
 * The overview and its stream narrow themselves to the client's customer (test/overview-stream.test.ts).
 */
const CLIENT_READS =
  /^\/api\/(me(\/sessions|\/password|\/tokens(\/\{id\})?|\/two-factor(\/confirm)?)?|websites(\/summaries|\/\{websiteRef\}(\/[a-z-]+)?)?|status-pages(\/\{id\}(\/subscribers|\/incidents(\/\{postId\})?)?)?|customers\/\{id\}|packages(\/\{id\})?|dashboard\/websites(\/stream)?|site-health|monitors\/\{id\}\/(results|findings|lighthouse|runs\/\{runRef\}|lighthouse\/\{runRef\}\/report\.html))$/;

/** Routes for people alone: a token of any scope is 403 there (SCIM tokens answer for the person who made them). */
const PEOPLE_ONLY = /^\/api\/(me\/|scim-tokens)/;

/** A concrete path for a documented one: every parameter an id no one has. */
const concrete = (path: string) =>
  path.replace(/\{handle\}/, 'AAAAAAAAAAAAAAAA').replace(/\{[A-Za-z]+\}/g, '999999');

// Every operation of the OpenAPI document × every role, as the document says: a role below the
// operation's scope is 403, one at or above it is let through (whatever the handler then says of
// the unknown ids), and a client is 403 for writes and 404 for every read not opened to it.
/** How a person signed in: with a password, or through an identity provider (an account it made). */
const SIGN_INS = ['password', 'single sign-on'] as const;
type SignInKind = (typeof SIGN_INS)[number];

describe('access matrix: every documented route × every role', { timeout: 120_000 }, () => {
  let api: TestApi;
  let idp: TestIdp;
  let operations: Array<{ method: string; path: string; scope: Scope }>;
  const cookies = new Map<Role, string>();
  /** The same roles held by people single sign-on made (no password), signed in through a real OIDC provider. */
  const ssoCookies = new Map<Role, string>();
  const cookieOf = (role: Role, how: SignInKind) =>
    (how === 'password' ? cookies : ssoCookies).get(role) as string;
  const tokens = new Map<Scope, string>();

  beforeAll(async () => {
    idp = await startTestIdp();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    api = await TestApi.start({
      PORT: String(port),
      PUBLIC_URL: base,
      PROBE_EXEMPT_ADDRESSES: `127.0.0.1:${idp.port}`,
    });
    const organizationId = await createOrganizationId(api);
    const token = await api.createToken(organizationId, ['admin']);
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    for (const scope of ['read', 'write', 'admin'] as const)
      tokens.set(scope, await api.createToken(organizationId, [scope]));
    for (const role of ['viewer', 'editor', 'admin', 'owner', 'client'] as const) {
      const user = await createUser(api, organizationId, role, role === 'client' ? customerId : null);
      cookies.set(role, await signIn(api, user.email));
    }
    // An owner's provider: only an owner gives the owner role through one.
    const provider = await withCookie<{ id: number }>(
      api,
      cookies.get('owner') as string,
      'POST',
      '/api/identity-providers',
      {
        body: {
          type: 'oidc',
          name: 'Matrix IdP',
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          scopes: ['openid', 'email', 'profile', 'groups'],
          allowedDomains: ['sso.test'],
          roleMapping: [
            ...(['viewer', 'editor', 'admin', 'owner'] as const).map((role) => ({ group: role, role })),
            { group: 'client', role: 'client', customerId },
          ],
        },
      },
    );
    idp.allowRedirect(`${base}/api/auth/sso/${provider.body.id}/callback`);
    for (const role of ['viewer', 'editor', 'admin', 'owner', 'client'] as const) {
      idp.signInAs({
        sub: `sso-${role}`,
        email: `sso-${role}@sso.test`,
        name: `SSO ${role}`,
        groups: [role],
      });
      const jar = new CookieJar();
      await followRedirects(`${base}/api/auth/sso/${provider.body.id}/start`, jar, base);
      const session = jar.get(base, 'webmon_session');
      if (!session) throw new Error(`the ${role} was not signed in through the provider`);
      ssoCookies.set(role, `webmon_session=${session}`);
    }
    const document = await api.request<{ paths: Record<string, Record<string, Operation>> }>(
      'GET',
      '/openapi.json',
    );
    operations = Object.entries(document.body.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) =>
        // Signing out is tested on its own (it would end the session the matrix goes on with).
        operation['x-required-scope'] && path !== '/api/auth/logout'
          ? [{ method: method.toUpperCase(), path, scope: operation['x-required-scope'] }]
          : [],
      ),
    );
  });
  afterAll(async () => {
    await api.stop();
    await idp.close();
  });

  it('covers the documented routes', () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  /** Calls every operation as the caller; lists those whose status `expected` refuses. */
  const unexpected = async (
    send: (method: string, path: string, body: unknown) => Promise<{ status: number }>,
    expected: (operation: { path: string; scope: Scope }) => (status: number) => boolean,
  ) => {
    const answers: string[] = [];
    for (const { method, path, scope } of operations) {
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
      const { status } = await send(method, concrete(path), body);
      if (!expected({ path, scope })(status)) answers.push(`${method} ${path} (${scope}): ${status}`);
    }
    return answers;
  };
  /** 403 exactly where the caller's rank is below the scope; elsewhere anything but 401 and 403. */
  const scopeBoundary =
    (rank: number, peopleOnly: boolean) => (operation: { path: string; scope: Scope }) => {
      const allowed = rank >= RANK[operation.scope] && !(peopleOnly && PEOPLE_ONLY.test(operation.path));
      return (status: number) => (allowed ? ![401, 403].includes(status) : status === 403);
    };

  it.each(
    (['viewer', 'editor', 'admin', 'owner'] as const).flatMap((role) =>
      SIGN_INS.map((how) => [role, how] as const),
    ),
  )('%s (signed in with %s): 403 exactly below the scope', async (role, how) => {
    const send = (method: string, path: string, body: unknown) =>
      withCookie(api, cookieOf(role, how), method, path, { body });
    expect(await unexpected(send, scopeBoundary(ROLE_RANK[role], false))).toEqual([]);
  });

  // The /api/me/… and /api/scim-tokens routes are for people: a token of any scope gets 403 there (`GET /api/me` answers it).
  it.each(['read', 'write', 'admin'] as const)(
    'a token with %s: 403 exactly below the scope',
    async (granted) => {
      const send = (method: string, path: string, body: unknown) =>
        api.request(method, path, { token: tokens.get(granted), body });
      expect(await unexpected(send, scopeBoundary(RANK[granted], true))).toEqual([]);
    },
  );

  it.each(SIGN_INS)(
    'client (signed in with %s): 403 for writes, 404 for reads not opened to it, its own reads let through',
    async (how) => {
      const send = (method: string, path: string, body: unknown) =>
        withCookie(api, cookieOf('client', how), method, path, { body });
      const expected =
        ({ path, scope }: { path: string; scope: Scope }) =>
        (status: number) =>
          (scope !== 'read' ? [403] : CLIENT_READS.test(path) ? [200, 400, 404] : [404]).includes(status);
      expect(await unexpected(send, expected)).toEqual([]);
    },
  );
});
