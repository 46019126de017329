import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrganizationRepository } from '../libs/auth/index.js';
import type { Role } from '../libs/contract/index.js';
import { base32Decode, hotp, totpStep } from '../libs/people/totp.js';
import { TestApi } from './support/harness.js';
import {
  createOrganizationId,
  createUser,
  sessionCookieOf,
  signIn,
  TEST_PASSWORD,
  withCookie,
} from './support/people.js';

/** The code an authenticator app shows for `secret` at `step` (now, unless told). */
const codeOf = (secret: string, step = totpStep(Date.now())) => hotp(base32Decode(secret), step);

describe('people: two-factor sign-in (TOTP)', () => {
  let api: TestApi;
  let organizationId: number;

  beforeAll(async () => {
    api = await TestApi.start();
    organizationId = await createOrganizationId(api);
  });
  afterAll(() => api.stop());

  const login = (email: string, extra: Record<string, string> = {}, password = TEST_PASSWORD) =>
    api.request<Record<string, unknown>>('POST', '/api/auth/login', { body: { email, password, ...extra } });

  /** Enrols the user signed in with `cookie`; answers the secret, the step confirmed and the recovery codes. */
  async function enrol(cookie: string) {
    const started = await withCookie<{ secret: string; otpauthUrl: string }>(
      api,
      cookie,
      'POST',
      '/api/me/two-factor',
    );
    expect(started.status).toBe(200);
    const { secret } = started.body;
    const step = totpStep(Date.now());
    const confirmed = await withCookie<{ recoveryCodes: string[] }>(
      api,
      cookie,
      'POST',
      '/api/me/two-factor/confirm',
      {
        body: { code: codeOf(secret, step) },
      },
    );
    expect(confirmed.status).toBe(200);
    return { started: started.body, step, recoveryCodes: confirmed.body.recoveryCodes };
  }

  it('enrols, then signs in only with a code, each code once, a recovery code once, and turns off', async () => {
    const { email } = await createUser(api, organizationId, 'editor');
    const cookie = await signIn(api, email);

    const { started, step, recoveryCodes } = await enrol(cookie);
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.otpauthUrl).toMatch(/^otpauth:\/\/totp\/webmon%3A.+\?secret=[A-Z2-7]{32}&issuer=webmon/);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const me = await withCookie<{ user: { twoFactorEnabled: boolean } }>(api, cookie, 'GET', '/api/me');
    expect(me.body.user.twoFactorEnabled).toBe(true);

    // Neither the secret nor a recovery code is stored in the clear.
    const stored = JSON.stringify(await api.db.collection('users').findOne({ email }));
    expect(stored).not.toContain(started.secret);
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replaceAll('-', ''));

    // A wrong password says what it always says; the right one asks for the code.
    const wrongPassword = await login(email, {}, 'not the password at all');
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).not.toHaveProperty('code');
    const withoutCode = await login(email);
    expect(withoutCode.status).toBe(401);
    expect(withoutCode.body).toMatchObject({ code: 'totp-required', errors: [{ path: 'totp' }] });
    expect(sessionCookieOf(withoutCode)).toBeUndefined();

    // The code confirmed with is used; the next step's is taken (one step of clock drift), once.
    expect((await login(email, { totp: codeOf(started.secret, step) })).body).toMatchObject({
      code: 'totp-invalid',
    });
    const next = codeOf(started.secret, step + 1);
    const accepted = await login(email, { totp: next });
    expect(accepted.status).toBe(200);
    expect(sessionCookieOf(accepted)).toBeDefined();
    const replayed = await login(email, { totp: next });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ code: 'totp-invalid' });

    // A recovery code stands in for the app once (typed in capitals, without dashes, as well).
    const recovery = recoveryCodes[0]!;
    expect((await login(email, { totp: recovery.replaceAll('-', '').toUpperCase() })).status).toBe(200);
    expect((await login(email, { totp: recovery })).status).toBe(401);

    // Turning it off takes a code too; afterwards the password alone signs in.
    const refused = await withCookie(api, cookie, 'DELETE', '/api/me/two-factor', {
      body: { code: recovery },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: [{ path: 'code' }] });
    const off = await withCookie(api, cookie, 'DELETE', '/api/me/two-factor', {
      body: { code: recoveryCodes[1] },
    });
    expect(off.status).toBe(204);
    expect(
      (await withCookie<{ user: { twoFactorEnabled: boolean } }>(api, cookie, 'GET', '/api/me')).body.user,
    ).toMatchObject({ twoFactorEnabled: false });
    expect((await login(email)).status).toBe(200);
    expect(JSON.stringify(await api.db.collection('users').findOne({ email }))).not.toContain('twoFactor"');
  });

  it('turning two-factor on ends every other session (opened with the password alone)', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const here = await signIn(api, email);
    const elsewhere = await signIn(api, email);
    await enrol(here);
    expect((await withCookie(api, elsewhere, 'GET', '/api/me')).status).toBe(401);
    expect((await withCookie(api, here, 'GET', '/api/me')).status).toBe(200);
  });

  it('refuses a confirmation with a wrong code, and an enrolment while it is on', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const cookie = await signIn(api, email);
    const started = await withCookie<{ secret: string }>(api, cookie, 'POST', '/api/me/two-factor');
    const wrong = String((Number(codeOf(started.body.secret)) + 500_000) % 1_000_000).padStart(6, '0');
    const refused = await withCookie(api, cookie, 'POST', '/api/me/two-factor/confirm', {
      body: { code: wrong },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: [{ path: 'code' }] });
    expect((await withCookie(api, cookie, 'POST', '/api/me/two-factor/confirm', { body: {} })).status).toBe(
      400,
    );
    await enrol(cookie);
    expect((await withCookie(api, cookie, 'POST', '/api/me/two-factor')).status).toBe(409);
  });

  it('counts wrong codes against the account: locked after 5, only the password with a right code passes then', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const { started, step } = await enrol(await signIn(api, email));
    const wrong = String((Number(codeOf(started.secret, step + 1)) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await login(email, { totp: wrong })).status).toBe(401);
    // Locked: the password alone is refused before it is checked.
    const throttled = await login(email);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(throttled.body).toMatchObject({
      reason: 'account-locked',
      detail: expect.stringContaining('two-factor code'),
    });
    // With a code, both are checked, and a failure does not say which was wrong.
    const wrongCode = await login(email, { totp: wrong });
    const wrongPassword = await login(
      email,
      { totp: codeOf(started.secret, step + 1) },
      'not the password at all',
    );
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.body).toMatchObject({ code: 'locked-credentials-invalid' });
    expect(wrongPassword.body).toMatchObject({
      code: 'locked-credentials-invalid',
      detail: (wrongCode.body as { detail: string }).detail,
    });
    // The account's owner is not kept out: the right password and a right code sign in.
    const owner = await login(email, { totp: codeOf(started.secret, step + 1) });
    expect(owner.status).toBe(200);
    expect(sessionCookieOf(owner)).toBeDefined();
  });

  it('stops code guessing on a locked account: past as many failed second-factor tries, even a right code is refused', async () => {
    const { email } = await createUser(api, organizationId, 'viewer');
    const { started, step } = await enrol(await signIn(api, email));
    const wrong = String((Number(codeOf(started.secret, step + 1)) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await login(email, { totp: wrong })).status).toBe(401);
    const refused = await login(email, { totp: codeOf(started.secret, step + 1) });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ reason: 'account-locked' });
  });

  it('throttles wrong codes on confirm and on turning off: the 6th is 429 with Retry-After, even with the right code', async () => {
    const confirming = await signIn(api, (await createUser(api, organizationId, 'viewer')).email);
    const started = await withCookie<{ secret: string }>(api, confirming, 'POST', '/api/me/two-factor');
    const wrongNow = () =>
      String((Number(codeOf(started.body.secret)) + 500_000) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 5; attempt++) {
      const refused = await withCookie(api, confirming, 'POST', '/api/me/two-factor/confirm', {
        body: { code: wrongNow() },
      });
      expect(refused.status).toBe(400);
    }
    const held = await withCookie(api, confirming, 'POST', '/api/me/two-factor/confirm', {
      body: { code: codeOf(started.body.secret) },
    });
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toMatch(/^\d+$/);

    const disabling = await signIn(api, (await createUser(api, organizationId, 'editor')).email);
    const { recoveryCodes } = await enrol(disabling);
    for (let attempt = 0; attempt < 5; attempt++) {
      const refused = await withCookie(api, disabling, 'DELETE', '/api/me/two-factor', {
        body: { code: 'aaaa-aaaa-aaaa-aaaa' },
      });
      expect(refused.status).toBe(400);
    }
    const off = await withCookie(api, disabling, 'DELETE', '/api/me/two-factor', {
      body: { code: recoveryCodes[0] },
    });
    expect(off.status).toBe(429);
    expect(off.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('is for people: an API token gets 403', async () => {
    const token = await api.createToken(organizationId, ['admin']);
    expect((await api.request('POST', '/api/me/two-factor', { token })).status).toBe(403);
  });

  it('requireTwoFactorFor: such a role without it reaches only the enrolment until it enrols', async () => {
    const strict = await createOrganizationId(api);
    await new OrganizationRepository(api.db).setTwoFactorRequiredFor(strict, [
      'owner',
      'admin',
    ] satisfies Role[]);
    const admin = await createUser(api, strict, 'admin');
    const cookie = await signIn(api, admin.email);

    const refused = await withCookie(api, cookie, 'GET', '/api/websites');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ reason: 'two-factor-enrolment-required' });
    expect((await withCookie(api, cookie, 'GET', '/api/users')).status).toBe(403);
    expect((await withCookie(api, cookie, 'GET', '/api/me')).status).toBe(200);

    const { started, step } = await enrol(cookie);
    // The same session goes on, now with everything the role may do.
    expect((await withCookie(api, cookie, 'GET', '/api/websites')).status).toBe(200);
    expect((await login(admin.email, { totp: codeOf(started.secret, step + 1) })).status).toBe(200);

    // A role the organization does not name is not held back.
    const viewer = await createUser(api, strict, 'viewer');
    expect((await withCookie(api, await signIn(api, viewer.email), 'GET', '/api/websites')).status).toBe(200);
  });
});
