import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../apps/api/api.js';
import { OrganizationRepository } from '../libs/auth/index.js';
import { createLogger } from '../libs/logging/index.js';
import { createPackage, TestApi, testConfig } from './support/harness.js';
import {
  cookieOf,
  createOrganizationId,
  createUser,
  sessionCookieOf,
  signIn,
  TEST_PASSWORD,
  withCookie,
} from './support/people.js';

const problemOf = (body: unknown) => {
  const { requestId: _id, ...rest } = body as Record<string, unknown>;
  return rest;
};

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
    expect(me.body).toMatchObject({ user: { email }, organization: { id: organizationId, name } });
  });

  it('/api/me is for people: an API token gets 403', async () => {
    const res = await api.request('GET', '/api/me', { token: adminToken });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ detail: expect.stringContaining('API token') });
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
      const api = { api: server, request: TestApi.prototype.request } as unknown as TestApi;
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

describe('people: sign-in budgets, session cap, known browsers, password change', () => {
  let api: TestApi;
  let organizationId: number;

  beforeAll(async () => {
    api = await TestApi.start({ SIGN_IN_SUCCESSES_PER_ACCOUNT: '4', SESSION_MAX_PER_USER: '3' });
    organizationId = await createOrganizationId(api);
  });
  afterAll(() => api.stop());

  it('caps sessions per user: signing in past the cap ends the oldest', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const cookies = [];
    for (let i = 0; i < 4; i++) cookies.push(await signIn(api, email));
    expect((await withCookie(api, cookies[0]!, 'GET', '/api/me')).status).toBe(401);
    for (const cookie of cookies.slice(1))
      expect((await withCookie(api, cookie, 'GET', '/api/me')).status).toBe(200);
    const listed = await withCookie<unknown[]>(api, cookies[3]!, 'GET', '/api/me/sessions');
    expect(listed.body).toHaveLength(3);
  });

  it('budgets successful sign-ins per account: past it 429 with Retry-After, before the password is hashed', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    for (let i = 0; i < 4; i++) await signIn(api, email);
    const fifth = await api.request('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD } });
    expect(fifth.status).toBe(429);
    expect(Number(fifth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fifth.body).toMatchObject({ reason: 'account-sign-ins' });
    // Another account from the same address goes on.
    expect(await signIn(api, (await createUser(api, organizationId, 'viewer')).email)).toMatch(
      /^webmon_session=/,
    );
  });

  it('hashes for an unknown e-mail as for a known one (the dummy hash), and answers the same', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const hashes = async () => {
      const text = await (await fetch(`${api.api.url}/metrics`)).text();
      return Number(/^webmon_password_hashes_total\{outcome="computed"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const before = await hashes();
    const unknown = await api.request('POST', '/api/auth/login', {
      body: { email: `nobody-${organizationId}@example.com`, password: 'not the password at all' },
    });
    const afterUnknown = await hashes();
    const wrong = await api.request('POST', '/api/auth/login', {
      body: { email, password: 'not the password at all' },
    });
    expect(afterUnknown - before).toBe(1);
    expect((await hashes()) - afterUnknown).toBe(1);
    expect(unknown.status).toBe(401);
    expect(problemOf(unknown.body)).toEqual(problemOf(wrong.body));
  });

  it('a locked account still signs in from a browser that signed in before (its device cookie), and from no other', async () => {
    const { email } = await createUser(api, organizationId, 'editor');
    const first = await api.request('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD } });
    const device = cookieOf(first, 'webmon_device')!;
    const header = first.headers
      .getSetCookie()
      .find((c) => c.startsWith('webmon_device='))!
      .toLowerCase();
    expect(device).toMatch(/^webmon_device=[A-Za-z0-9_-]{43}$/);
    expect(header).toContain('httponly');
    expect(header).toContain('samesite=strict');
    expect(header).toContain('path=/api/auth');
    // Only the device id's hash is kept.
    const redis = new Redis(api.config.REDIS_URL);
    try {
      const keys = await redis.keys(`${api.config.REDIS_KEY_PREFIX}:known-device:*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.join()).not.toContain(device.split('=')[1]);
    } finally {
      redis.disconnect();
    }
    for (let i = 0; i < 5; i++)
      await api.request('POST', '/api/auth/login', { body: { email, password: `someone guessing ${i}` } });
    const stranger = await api.request('POST', '/api/auth/login', {
      body: { email, password: TEST_PASSWORD },
    });
    expect(stranger.status).toBe(429);
    expect(stranger.body).toMatchObject({
      reason: 'account-locked',
      detail: expect.stringContaining('browser'),
    });
    const owner = await api.request('POST', '/api/auth/login', {
      body: { email, password: TEST_PASSWORD },
      headers: { cookie: device },
    });
    expect(owner.status).toBe(200);
    // The cookie does not stand for another account.
    const other = await createUser(api, organizationId, 'editor');
    for (let i = 0; i < 5; i++)
      await api.request('POST', '/api/auth/login', { body: { email: other.email, password: `guess ${i}` } });
    const borrowed = await api.request('POST', '/api/auth/login', {
      body: { email: other.email, password: TEST_PASSWORD },
      headers: { cookie: device },
    });
    expect(borrowed.status).toBe(429);
  });

  it('POST /api/me/password: the current password, the policy naming newPassword, and every other session ends', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const here = await signIn(api, email);
    const elsewhere = await signIn(api, email);
    const change = (body: Record<string, string>) =>
      withCookie(api, here, 'POST', '/api/me/password', { body });
    const wrong = await change({
      currentPassword: 'not my password',
      newPassword: 'quartz-meadow-61-lantern',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ errors: [{ path: 'currentPassword' }] });
    const weak = await change({ currentPassword: TEST_PASSWORD, newPassword: 'Password1234!' });
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({
      errors: [{ path: 'newPassword', message: expect.stringContaining('guess') }],
    });
    const short = await change({ currentPassword: TEST_PASSWORD, newPassword: 'short' });
    expect(short.body).toMatchObject({ errors: [{ path: 'newPassword' }] });
    const ownName = await change({
      currentPassword: TEST_PASSWORD,
      newPassword: `${email.split('@')[0]}-2024!`,
    });
    expect(ownName.body).toMatchObject({
      errors: [{ path: 'newPassword', message: expect.stringContaining('e-mail') }],
    });

    const changed = await change({ currentPassword: TEST_PASSWORD, newPassword: 'quartz-meadow-61-lantern' });
    expect(changed.status).toBe(204);
    const renewed = sessionCookieOf(changed)!;
    expect(renewed).toMatch(/^webmon_session=/);
    expect((await withCookie(api, elsewhere, 'GET', '/api/me')).status).toBe(401);
    expect((await withCookie(api, here, 'GET', '/api/me')).status).toBe(401);
    expect((await withCookie(api, renewed, 'GET', '/api/me')).status).toBe(200);
    await signIn(api, email, 'quartz-meadow-61-lantern');
  });

  it('the OpenAPI document states the password rule (minLength 12) where a password is set', async () => {
    const doc = await api.request<{ components: { schemas: Record<string, Record<string, unknown>> } }>(
      'GET',
      '/openapi.json',
    );
    expect(doc.body.components.schemas.NewPassword).toMatchObject({
      type: 'string',
      minLength: 12,
      maxLength: 256,
      description: expect.stringContaining('breached'),
    });
  });
});

describe('people: a flood of right-password sign-ins', { timeout: 120_000 }, () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.stop());

  it('is bounded (429 or 503 with Retry-After) while another organization is still served', async () => {
    const flooding = await createOrganizationId(api);
    const { email } = await createUser(api, flooding, 'editor');
    const other = await api.createOrganization(['read']);
    const answers = await Promise.all([
      ...Array.from({ length: 40 }, () =>
        api.request('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD } }),
      ),
      api.request('GET', '/api/websites', { token: other.token }),
    ]);
    const websites = answers.pop()!;
    expect(websites.status).toBe(200);
    const refused = answers.filter((answer) => answer.status === 429 || answer.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers.every((answer) => [200, 429, 503].includes(answer.status))).toBe(true);
    // A session for each admitted sign-in only, capped per user.
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(10);
    expect((await api.request('GET', '/api/websites', { token: other.token })).status).toBe(200);
  });
});
