import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../apps/api/api.js';
import { OrganizationRepository } from '../libs/auth/index.js';
import { createLogger } from '../libs/logging/index.js';
import { createCustomer, createPackage, TestApi, testConfig } from './support/harness.js';
import {
  cookieOf,
  createOrganizationId,
  createUser,
  problemOf,
  sessionCookieOf,
  signIn,
  TEST_PASSWORD,
  withCookie,
} from './support/people.js';

describe('people: sign-in, sessions and roles', () => {
  let api: TestApi;
  let organizationId: number;
  let adminToken: string;

  beforeAll(async () => {
    api = await TestApi.start();
    organizationId = await createOrganizationId(api);
    adminToken = await api.createToken(organizationId, ['admin']);
  });
  afterAll(() => api.stop());

  it('signs in with an HttpOnly SameSite=Lax cookie (no Secure over plain HTTP) that GET /api/me takes', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const res = await api.request<{ user: Record<string, unknown> }>('POST', '/api/auth/login', {
      body: { email: `  ${email.toUpperCase()} `, password: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email, role: 'viewer', customerId: null, twoFactorEnabled: false });
    expect(res.body.user.lastSignInAt).toMatch(/^\d{4}-/);
    expect(res.body.user).not.toHaveProperty('passwordHash');
    const header = res.headers.getSetCookie().find((c) => c.startsWith('webmon_session='))!;
    expect(header).toMatch(/^webmon_session=[A-Za-z0-9_-]{43};/);
    expect(header.toLowerCase()).toContain('httponly');
    expect(header.toLowerCase()).toContain('samesite=lax');
    expect(header).toContain('path=/');
    expect(header.toLowerCase()).not.toContain('secure');
    expect(res.headers.get('cache-control')).toBe('no-store');

    const cookie = sessionCookieOf(res)!;
    const me = await withCookie<{ user: { email: string } }>(api, cookie, 'GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email);
    // The cookie opens what the role may read.
    expect((await withCookie(api, cookie, 'GET', '/api/websites')).status).toBe(200);
  });

  it('keeps only the SHA-256 of a session id in Redis', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const id = (await signIn(api, email)).split('=')[1]!;
    const redis = new Redis(api.config.REDIS_URL);
    try {
      const keys = await redis.keys(`${api.config.REDIS_KEY_PREFIX}:session*`);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key).not.toContain(id);
        expect(JSON.stringify(await redis.hgetall(key))).not.toContain(id);
      }
    } finally {
      redis.disconnect();
    }
  });

  it('answers a wrong e-mail and a wrong password the same', async () => {
    const { email } = await createUser(api, organizationId, 'editor');
    const unknown = await api.request('POST', '/api/auth/login', {
      body: { email: 'nobody-here@example.com', password: 'not the password at all' },
    });
    const wrong = await api.request('POST', '/api/auth/login', {
      body: { email, password: 'not the password at all' },
    });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(problemOf(wrong.body)).toEqual(problemOf(unknown.body));
    expect(sessionCookieOf(wrong)).toBeUndefined();
    expect(wrong.headers.get('www-authenticate')).toBe(unknown.headers.get('www-authenticate'));
  });

  it('throttles the 6th wrong password of an account (429, Retry-After), even with the right one; others go on', async () => {
    const { email } = await createUser(api, organizationId, 'editor');
    for (let i = 0; i < 5; i++) {
      const res = await api.request('POST', '/api/auth/login', {
        body: { email, password: `wrong password ${i}` },
      });
      expect(res.status).toBe(401);
    }
    const sixth = await api.request('POST', '/api/auth/login', {
      body: { email, password: 'wrong password 5' },
    });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(sixth.body).toMatchObject({
      type: '/problems/rate-limited',
      detail: expect.stringContaining('account'),
    });
    const right = await api.request('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD } });
    expect(right.status).toBe(429);
    const other = await createUser(api, organizationId, 'editor');
    expect(await signIn(api, other.email)).toMatch(/^webmon_session=/);
  });

  it('refuses a write with the cookie from another site (403) and takes a same-origin one', async () => {
    const { email } = await createUser(api, organizationId, 'admin');
    const cookie = await signIn(api, email);
    const body = { key: 'csrf-probe', displayName: 'CSRF probe' };
    const crossSite = await withCookie(api, cookie, 'POST', '/api/packages', {
      body,
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toMatchObject({
      type: '/problems/forbidden',
      reason: 'cross-site-request',
      detail: expect.stringContaining('cross-site'),
    });
    const noOrigin = await api.request('POST', '/api/packages', { body, headers: { cookie } });
    expect(noOrigin.status).toBe(403);
    const crossReferer = await api.request('POST', '/api/packages', {
      body,
      headers: { cookie, referer: 'https://evil.example/form' },
    });
    expect(crossReferer.status).toBe(403);
    expect(await api.db.collection('packages').countDocuments({ key: 'csrf-probe' })).toBe(0);

    const sameReferer = await api.request('POST', '/api/packages', {
      body,
      headers: { cookie, referer: `${api.api.url}/dashboard` },
    });
    expect(sameReferer.status).toBe(201);
    const sameOrigin = await withCookie(api, cookie, 'POST', '/api/packages', {
      body: { key: 'csrf-probe-2', displayName: 'Same origin' },
    });
    expect(sameOrigin.status).toBe(201);
    // A bearer token is never sent by a browser on its own: no Origin needed.
    const token = await api.request('POST', '/api/packages', {
      token: adminToken,
      body: { key: 'csrf-probe-3', displayName: 'Token' },
    });
    expect(token.status).toBe(201);
  });

  it('logout and DELETE /api/me/sessions/{id} end sessions', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const first = await signIn(api, email);
    const second = await signIn(api, email);
    const listed = await withCookie<
      Array<{ id: string; current: boolean; address: string; userAgent: string }>
    >(api, first, 'GET', '/api/me/sessions', { headers: { 'user-agent': 'test-browser/1.0' } });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(2);
    const current = listed.body.find((s) => s.current)!;
    const other = listed.body.find((s) => !s.current)!;
    expect(current).toMatchObject({
      address: expect.stringContaining('127.0.0.1'),
      userAgent: 'test-browser/1.0',
    });
    expect(JSON.stringify(listed.body)).not.toContain(first.split('=')[1]);

    expect((await withCookie(api, first, 'DELETE', `/api/me/sessions/${other.id}`)).status).toBe(204);
    expect((await withCookie(api, second, 'GET', '/api/me')).status).toBe(401);
    expect((await withCookie(api, first, 'DELETE', `/api/me/sessions/${other.id}`)).status).toBe(404);

    const out = await withCookie(api, first, 'POST', '/api/auth/logout');
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().some((c) => /^webmon_session=;/.test(c))).toBe(true);
    const after = await withCookie(api, first, 'GET', '/api/me');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ detail: expect.stringContaining('sign in again') });
  });

  it("a viewer's cookie cannot write (403), an editor's can", async () => {
    const pkg = await createPackage(api, adminToken);
    const viewer = await signIn(api, (await createUser(api, organizationId, 'viewer')).email);
    const editor = await signIn(api, (await createUser(api, organizationId, 'editor')).email);
    const body = { name: 'Made by a person', packageId: pkg.id, email: 'ops@example.com' };
    const refused = await withCookie(api, viewer, 'POST', '/api/customers', { body });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ detail: expect.stringContaining("role 'viewer'") });
    expect((await withCookie(api, editor, 'POST', '/api/customers', { body })).status).toBe(201);
    // An editor is not an admin.
    expect((await withCookie(api, editor, 'GET', '/api/users')).status).toBe(403);
    expect((await withCookie(api, editor, 'GET', '/api/tokens')).status).toBe(403);
  });

  it('a session whose user was deleted ends', async () => {
    const user = await createUser(api, organizationId, 'editor');
    const cookie = await signIn(api, user.email);
    expect((await api.request('DELETE', `/api/users/${user.id}`, { token: adminToken })).status).toBe(204);
    expect((await withCookie(api, cookie, 'GET', '/api/me')).status).toBe(401);
    const again = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: TEST_PASSWORD },
    });
    expect(again.status).toBe(401);
  });

  it("GET /api/me names the person's organization (its id and name)", async () => {
    const { email } = await createUser(api, organizationId, 'editor');
    const name = (await new OrganizationRepository(api.db).findById(organizationId))!.name;
    const me = await withCookie(api, await signIn(api, email), 'GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      kind: 'person',
      user: expect.objectContaining({ email, role: 'editor' }),
      organization: { id: organizationId, name },
      scopes: ['read', 'write'],
    });
  });

  it('GET /api/me answers an API token: its organization, scopes and what names it, never the token', async () => {
    const name = (await new OrganizationRepository(api.db).findById(organizationId))!.name;
    const made = await api.request<{ id: number; token: string; prefix: string }>('POST', '/api/tokens', {
      token: adminToken,
      body: { name: 'deploys', scopes: ['read', 'write'] },
    });
    const me = await api.request('GET', '/api/me', { token: made.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      kind: 'token',
      token: { id: made.body.id, name: 'deploys', prefix: made.body.prefix, customerId: null, userId: null },
      organization: { id: organizationId, name },
      scopes: ['read', 'write'],
    });
    expect(JSON.stringify(me.body)).not.toContain(made.body.token);
    // A token bound to a customer says which.
    const customerId = await createCustomer(api, adminToken, (await createPackage(api, adminToken)).id);
    const bound = await api.request<{ token: string }>('POST', '/api/tokens', {
      token: adminToken,
      body: { name: 'client portal', scopes: ['read'], customerId },
    });
    const boundMe = await api.request('GET', '/api/me', { token: bound.body.token });
    expect(boundMe.body).toMatchObject({ kind: 'token', token: { customerId }, scopes: ['read'] });
    // The person's own routes stay theirs.
    const sessions = await api.request('GET', '/api/me/sessions', { token: adminToken });
    expect(sessions.status).toBe(403);
    expect(sessions.body).toMatchObject({ detail: expect.stringContaining('API token') });
  });

  it('the OpenAPI document declares the cookie beside the bearer token', async () => {
    const doc = await api.request<{
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<string, Record<string, { security: unknown[] }>>;
    }>('GET', '/openapi.json');
    expect(doc.body.components.securitySchemes.cookieAuth).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'webmon_session' }),
    );
    expect(doc.body.paths['/api/websites']?.get?.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(doc.body.paths['/api/auth/login']?.post?.security).toEqual([]);
  });

  it('the OpenAPI document declares the Set-Cookie of signing in, accepting an invitation and signing out', async () => {
    type Operation = { responses: Record<string, { headers?: Record<string, { $ref: string }> }> };
    const doc = await api.request<{
      components: { headers: Record<string, { description: string }> };
      paths: Record<string, Record<string, Operation>>;
    }>('GET', '/openapi.json');
    expect(doc.body.components.headers['Set-Cookie']?.description).toContain('webmon_session');
    for (const [path, status] of [
      ['/api/auth/login', '200'],
      ['/api/auth/accept-invitation', '201'],
      ['/api/auth/logout', '204'],
    ] as const)
      expect(doc.body.paths[path]?.post?.responses[status]?.headers?.['Set-Cookie']).toEqual({
        $ref: '#/components/headers/Set-Cookie',
      });
  });
});

describe('people: session lifetimes and HTTPS', () => {
  let api: TestApi;
  let organizationId: number;

  beforeAll(async () => {
    api = await TestApi.start({ SESSION_IDLE_SECONDS: '3', TRUST_PROXY: 'true' });
    organizationId = await createOrganizationId(api);
  });
  afterAll(() => api.stop());

  it('a session unused for the idle time ends; each use starts the idle time again', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const used = await signIn(api, email);
    const idle = await signIn(api, email);
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await withCookie(api, used, 'GET', '/api/me')).status).toBe(200);
    }
    // 4 s since its sign-in, all of them idle.
    expect((await withCookie(api, idle, 'GET', '/api/me')).status).toBe(401);
    expect((await withCookie(api, used, 'GET', '/api/me')).status).toBe(200);
  });

  it('sets Secure when the request came over HTTPS (X-Forwarded-Proto behind TRUST_PROXY)', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const res = await api.request('POST', '/api/auth/login', {
      body: { email, password: TEST_PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.status).toBe(200);
    expect(
      res.headers
        .getSetCookie()
        .find((c) => c.startsWith('webmon_session='))
        ?.toLowerCase(),
    ).toContain('; secure');
  });
});

describe('people: the origin of writes with PUBLIC_URL set (issue 47)', () => {
  const PUBLIC_URL = 'https://webmon.example.test/app/';
  let api: TestApi;
  let cookie: string;

  beforeAll(async () => {
    api = await TestApi.start({ PUBLIC_URL });
    const { email } = await createUser(api, await createOrganizationId(api), 'admin');
    cookie = await signIn(api, email);
  });
  afterAll(() => api.stop());

  /** A package created with the cookie and these headers; node:http, since fetch will not forge Host. */
  const post = (key: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ key, displayName: key });
      const request = httpRequest(
        `${api.api.url}/api/packages`,
        { method: 'POST', headers: { cookie, 'content-type': 'application/json', ...headers } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  it("compares Origin with PUBLIC_URL's origin, not with what Host says", async () => {
    // Before, an Origin matching a forged Host passed. (A host neither the agency's nor a page's is
    // not served at all with PUBLIC_URL set: 404, before any origin is looked at.)
    expect(await post('forged-host', { host: 'evil.example', origin: 'http://evil.example' })).toBe(404);
    expect(await post('forged-origin', { host: 'webmon.example.test', origin: 'http://evil.example' })).toBe(
      403,
    );
    expect(await post('service-name', { host: 'api', origin: 'http://api' })).toBe(403);
    expect(await post('api-address', { origin: api.api.url })).toBe(403);
    expect(
      await post('forged-referer', { host: 'webmon.example.test', referer: 'http://evil.example/x' }),
    ).toBe(403);
    expect(await api.db.collection('packages').countDocuments()).toBe(0);

    expect(await post('public-origin', { host: 'api', origin: 'https://webmon.example.test' })).toBe(201);
    expect(await post('public-referer', { referer: 'https://webmon.example.test/app/websites' })).toBe(201);
  });
});

describe('people: what the logs hold', () => {
  it('never a password, a session id or a cookie (the device cookie too), nor does the audit log', async () => {
    let logs = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });
    const config = testConfig({ LOG_LEVEL: 'trace' });
    const server = await startApi(config, createLogger('api', 'trace', sink));
    const mongo = new MongoClient(config.MONGODB_URL);
    try {
      const api = { api: server, config, request: TestApi.prototype.request } as unknown as TestApi;
      Object.defineProperty(api, 'db', { value: mongo.db() });
      const { email } = await createUser(api, await createOrganizationId(api), 'viewer');
      const wrong = await api.request('POST', '/api/auth/login', {
        body: { email, password: 'a wrong password 1' },
      });
      expect(wrong.status).toBe(401);
      const signedIn = await api.request('POST', '/api/auth/login', {
        body: { email, password: TEST_PASSWORD },
      });
      const cookie = sessionCookieOf(signedIn)!;
      const device = cookieOf(signedIn, 'webmon_device')!;
      expect((await withCookie(api, cookie, 'GET', '/api/me')).status).toBe(200);
      const changed = await withCookie(api, cookie, 'POST', '/api/me/password', {
        body: { currentPassword: TEST_PASSWORD, newPassword: 'quartz-meadow-61-lantern' },
        headers: { cookie: `${cookie}; ${device}` },
      });
      expect(changed.status).toBe(204);
      const renewed = sessionCookieOf(changed)!;
      expect((await withCookie(api, renewed, 'POST', '/api/auth/logout')).status).toBe(204);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(logs).toContain('/api/auth/login');
      const secrets = [TEST_PASSWORD, 'a wrong password 1', 'quartz-meadow-61-lantern'];
      for (const secret of [...secrets, cookie, renewed, device].map((s) => s.split('=').at(-1)!))
        expect(logs).not.toContain(secret);
      expect(logs).not.toContain('webmon_session');
      expect(logs).not.toContain('webmon_device');
      // Nor the audit log: a password is named, never kept.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const audit = JSON.stringify(await mongo.db().collection('audit_events').find().toArray());
      expect(audit).toContain('newPassword');
      for (const secret of secrets) expect(audit).not.toContain(secret);
    } finally {
      await server.stop();
      await mongo.db().dropDatabase();
      await mongo.close();
    }
  });
});
