import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
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

describe('people: the lock notice', { timeout: 60_000 }, () => {
  let receiver: MailReceiver;
  let api: TestApi;

  beforeAll(async () => {
    receiver = await startMailReceiver({ username: 'webmon', password: 'smtp-secret-lock' });
    api = await TestApi.start({
      SMTP_URL: `smtp://webmon:smtp-secret-lock@127.0.0.1:${receiver.port}?ignoreTLS=true`,
      PUBLIC_URL: 'https://monitor.example.test',
    });
  });
  afterAll(async () => {
    await api.stop();
    await receiver.close();
  });

  it('tells a person once, by mail, that their account was locked, from which address and browser', async () => {
    const { email } = await createUser(api, await createOrganizationId(api), 'editor');
    for (let i = 0; i < 7; i++)
      await api.request('POST', '/api/auth/login', {
        body: { email, password: `someone guessing ${i}` },
        headers: { 'user-agent': 'GuessBot/2.0' },
      });
    await expect.poll(() => receiver.mails.filter((m) => m.to.includes(email)).length).toBe(1);
    const text = receiver.mails
      .find((m) => m.to.includes(email))!
      .raw.replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(text).toContain('locked');
    expect(text).toContain('127.0.0.1');
    expect(text).toContain('GuessBot/2.0');
    expect(text).toContain('https://monitor.example.test/reset-password');
    expect(text).not.toContain('someone guessing');
    // Once per lock: the tries past it send nothing more (a positive control would be the first mail).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.mails.filter((m) => m.to.includes(email))).toHaveLength(1);
  });
});

describe('people: successful sign-ins per address', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start({ SIGN_IN_SUCCESSES_PER_ADDRESS: '3', TRUST_PROXY: 'true' });
  });
  afterAll(() => api.stop());

  it('past the budget one address gets 429 for any account; another address goes on', async () => {
    const organizationId = await createOrganizationId(api);
    const login = async (address: string) =>
      api.request('POST', '/api/auth/login', {
        body: { email: (await createUser(api, organizationId, 'viewer')).email, password: TEST_PASSWORD },
        headers: { 'x-forwarded-for': address },
      });
    for (let i = 0; i < 3; i++) expect((await login('198.51.100.20')).status).toBe(200);
    const refused = await login('198.51.100.20');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ reason: 'address-sign-ins' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login('198.51.100.21')).status).toBe(200);
  });
});
