import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenRepository } from '../libs/auth/index.js';
import { TestApi } from './support/harness.js';
import { cookieOf, createUser, TEST_PASSWORD } from './support/people.js';

describe('authentication and tokens', () => {
  let api: TestApi;
  let admin: { organizationId: number; token: string };

  beforeAll(async () => {
    api = await TestApi.start();
    admin = await api.createOrganization(['admin']);
  });
  afterAll(() => api.stop());

  it('401 with WWW-Authenticate and a problem document when no token is sent', async () => {
    const res = await api.request('GET', '/api/tokens');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="webmon"');
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: '/problems/unauthorized',
      status: 401,
      title: 'Authentication required',
    });
  });

  it.each([
    ['a non-Bearer scheme', `Basic ${Buffer.from('a:b').toString('base64')}`, 'invalid_request'],
    ['an empty Bearer', 'Bearer ', 'invalid_request'],
    ['a malformed token', 'Bearer not-a-token', 'invalid_token'],
    ['a well-formed unknown token', `Bearer wm_${'A'.repeat(43)}`, 'invalid_token'],
  ])('401 for %s', async (_label, authorization, error) => {
    const res = await api.request('GET', '/api/tokens', { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(`error="${error}"`);
  });

  it('creates a token shown once, lists it by prefix only, and it works at once', async () => {
    const created = await api.request<{ id: number; token: string; prefix: string; scopes: string[] }>(
      'POST',
      '/api/tokens',
      {
        token: admin.token,
        body: { name: 'reporting', scopes: ['read'] },
      },
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/tokens/${created.body.id}`);
    expect(created.body.token).toMatch(/^wm_[A-Za-z0-9_-]{43}$/);
    expect(created.body.token.startsWith(created.body.prefix)).toBe(true);

    const list = await api.request<Array<Record<string, unknown>>>('GET', '/api/tokens', {
      token: admin.token,
    });
    expect(list.status).toBe(200);
    const listed = list.body.find((t) => t.id === created.body.id);
    expect(listed).toMatchObject({ name: 'reporting', scopes: ['read'], revokedAt: null });
    expect(listed).not.toHaveProperty('token');
    expect(listed).not.toHaveProperty('hash');
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);

    // Only the SHA-256 of the token is stored.
    const stored = await api.db.collection('api_tokens').findOne({ id: created.body.id });
    expect(JSON.stringify(stored)).not.toContain(created.body.token.slice(11));

    const read = await api.request('GET', '/healthz', { token: created.body.token });
    expect(read.status).toBe(200);
  });

  it('a read token cannot write: 403 naming the scope', async () => {
    const reader = await api.createToken(admin.organizationId, ['read']);
    const res = await api.request('POST', '/api/tokens', {
      token: reader,
      body: { name: 'x', scopes: ['read'] },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(res.body).toMatchObject({
      type: '/problems/forbidden',
      detail: expect.stringContaining("'admin'"),
    });
  });

  it('a write token is not an admin token', async () => {
    const writer = await api.createToken(admin.organizationId, ['write']);
    expect((await api.request('GET', '/api/tokens', { token: writer })).status).toBe(403);
  });

  it('a revoked token stops working at once', async () => {
    const created = await api.request<{ id: number; token: string }>('POST', '/api/tokens', {
      token: admin.token,
      body: { name: 'short-lived', scopes: ['admin'] },
    });
    expect((await api.request('GET', '/api/tokens', { token: created.body.token })).status).toBe(200);
    const revoked = await api.request('DELETE', `/api/tokens/${created.body.id}`, { token: admin.token });
    expect(revoked.status).toBe(204);
    const after = await api.request('GET', '/api/tokens', { token: created.body.token });
    expect(after.status).toBe(401);
    expect(
      (await api.request('DELETE', `/api/tokens/${created.body.id}`, { token: admin.token })).status,
    ).toBe(404);
  });

  it("refuses to revoke the organization's last admin token", async () => {
    const other = await api.createOrganization(['admin']);
    const list = await api.request<Array<{ id: number }>>('GET', '/api/tokens', { token: other.token });
    const only = list.body[0]!;
    const res = await api.request('DELETE', `/api/tokens/${only.id}`, { token: other.token });
    expect(res.status).toBe(409);
    expect((await api.request('GET', '/api/tokens', { token: other.token })).status).toBe(200);
  });

  it('records lastUsedAt', async () => {
    const token = await api.createToken(admin.organizationId, ['admin']);
    await api.request('GET', '/api/tokens', { token });
    await expect
      .poll(async () => {
        const list = await api.request<Array<{ lastUsedAt: string | null; prefix: string }>>(
          'GET',
          '/api/tokens',
          { token },
        );
        return list.body.find((t) => token.startsWith(t.prefix))?.lastUsedAt;
      })
      .toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('a use recorded while the token is revoked never brings it back (FerretDB writes whole documents)', async () => {
    const tokens = new ApiTokenRepository(api.db);
    const made = await Promise.all(
      Array.from({ length: 20 }, () =>
        tokens.create({ organizationId: admin.organizationId, name: 'raced', scopes: ['read'] }),
      ),
    );
    await Promise.all(
      made.flatMap(({ record }) => [
        tokens.revoke(admin.organizationId, record.id),
        ...Array.from({ length: 3 }, () => tokens.touchLastUsed(admin.organizationId, record.id, new Date())),
      ]),
    );
    for (const { record, token } of made) {
      expect((await tokens.findById(admin.organizationId, record.id))?.revokedAt).toBeInstanceOf(Date);
      expect((await api.request('GET', '/api/websites', { token })).status).toBe(401);
    }
  });

  it('never shows or changes another organization’s tokens', async () => {
    const other = await api.createOrganization(['admin']);
    const mine = await api.request<Array<{ id: number }>>('GET', '/api/tokens', { token: admin.token });
    const theirs = await api.request<Array<{ id: number }>>('GET', '/api/tokens', { token: other.token });
    const mineIds = new Set(mine.body.map((t) => t.id));
    expect(theirs.body.some((t) => mineIds.has(t.id))).toBe(false);
    const target = mine.body[0]!.id;
    expect((await api.request('GET', `/api/tokens/${target}`, { token: other.token })).status).toBe(404);
    expect((await api.request('DELETE', `/api/tokens/${target}`, { token: other.token })).status).toBe(404);
    expect((await api.request('GET', `/api/tokens/${target}`, { token: admin.token })).status).toBe(200);
  });

  it('validates token creation and names the fields', async () => {
    const res = await api.request<{ errors: Array<{ path: string; message: string }> }>(
      'POST',
      '/api/tokens',
      {
        token: admin.token,
        body: { name: '', scopes: ['read', 'superuser'], extra: true },
      },
    );
    expect(res.status).toBe(400);
    const paths = res.body.errors.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'scopes.1', 'extra']));
    expect(res.body.errors.find((e) => e.path === 'extra')?.message).toBe('Unknown field');
  });
});

describe('failed authentications are throttled per client address', () => {
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start({ AUTH_FAILURES_PER_MINUTE: '5', TRUST_PROXY: 'true' });
    ({ token } = await api.createOrganization(['admin']));
  });
  afterAll(() => api.stop());

  it('429 with Retry-After after the limit, while a client with a valid token keeps working', async () => {
    const attacker = { 'x-forwarded-for': '198.51.100.66' };
    for (let i = 0; i < 5; i++) {
      const guess = await api.request('GET', '/api/tokens', {
        token: `wm_guess${i}`,
        headers: attacker,
      });
      expect(guess.status).toBe(401);
    }
    const throttled = await api.request<{ detail: string }>('GET', '/api/tokens', {
      token: 'wm_guess-more',
      headers: attacker,
    });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.body.detail).toContain('failed authentications');
    // Once over the limit even a missing header is refused before anything is looked up.
    expect((await api.request('GET', '/api/tokens', { headers: attacker })).status).toBe(429);

    const other = { 'x-forwarded-for': '203.0.113.7' };
    for (let i = 0; i < 10; i++)
      expect((await api.request('GET', '/api/tokens', { token, headers: other })).status).toBe(200);
  });
});

describe('failed sign-ins are bounded service-wide, besides per address', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start({ SIGN_IN_FAILURES_PER_MINUTE: '4', TRUST_PROXY: 'true' });
  });
  afterAll(() => api.stop());

  it('past the bound only known browsers sign in; tokens and other routes go on', async () => {
    const { organizationId, token } = await api.createOrganization(['admin']);
    const { email } = await createUser(api, organizationId, 'editor');
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const known = await api.request('POST', '/api/auth/login', {
      body: { email, password: TEST_PASSWORD },
      headers: from('203.0.113.10'),
    });
    const device = cookieOf(known, 'webmon_device')!;
    // Four addresses, each far within its own budget, four accounts.
    for (let i = 0; i < 4; i++) {
      const failed = await api.request('POST', '/api/auth/login', {
        body: { email: `target-${i}@example.com`, password: 'a guess at it' },
        headers: from(`198.51.100.${i + 1}`),
      });
      expect(failed.status).toBe(401);
    }
    const stranger = await api.request('POST', '/api/auth/login', {
      body: { email, password: TEST_PASSWORD },
      headers: from('192.0.2.77'),
    });
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(stranger.body).toMatchObject({ reason: 'failed-sign-ins-everywhere' });
    const owner = await api.request('POST', '/api/auth/login', {
      body: { email, password: TEST_PASSWORD },
      headers: { ...from('192.0.2.77'), cookie: device },
    });
    expect(owner.status).toBe(200);
    expect((await api.request('GET', '/api/websites', { token })).status).toBe(200);
  });
});
