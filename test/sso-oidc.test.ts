import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, UserRepository } from '../libs/people/index.js';
import { TestApi } from './support/harness.js';
import {
  CookieJar,
  followRedirects,
  freePort,
  jwtPayload,
  startTestIdp,
  type TestIdp,
} from './support/oidc-provider.js';
import { createUser, signIn, TEST_PASSWORD, withCookie } from './support/people.js';
import { SamlTestIdp } from './support/saml-idp.js';

const RULES = [
  { group: 'monitoring-editors', role: 'editor' },
  { group: 'monitoring-admins', role: 'admin' },
];

describe('single sign-on with OIDC against a real provider (oidc-provider on 127.0.0.1)', {
  timeout: 120_000,
}, () => {
  let api: TestApi;
  let idp: TestIdp;
  let base: string;
  let token: string;
  let organizationId: number;
  let providerId: number;

  const sub = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}`;

  /** Signs in through the provider from a fresh browser; where it landed and its session cookie. */
  async function ssoSignIn(id = providerId, jar = new CookieJar()) {
    const { landed, passed } = await followRedirects(
      `${base}/api/auth/sso/${id}/start?next=/customers`,
      jar,
      base,
    );
    const session = jar.get(base, 'webmon_session');
    return { landed, passed, jar, cookie: session ? `webmon_session=${session}` : undefined };
  }

  const me = async (cookie: string) =>
    (
      await withCookie<{ user: { id: number; role: string; email: string; customerId: number | null } }>(
        api,
        cookie,
        'GET',
        '/api/me',
      )
    ).body.user;

  const auditOf = (action: string) =>
    api.db.collection('audit_events').find({ organizationId, action }).sort({ seq: 1 }).toArray();

  async function createProvider(body: Record<string, unknown>): Promise<number> {
    const res = await api.request<{ id: number }>('POST', '/api/identity-providers', {
      token,
      body: {
        type: 'oidc',
        name: 'Agency IdP',
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        scopes: ['openid', 'email', 'profile', 'groups'],
        allowedDomains: ['agency.test'],
        roleMapping: RULES,
        ...body,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    idp.allowRedirect(`${base}/api/auth/sso/${res.body.id}/callback`);
    return res.body.id;
  }

  beforeAll(async () => {
    idp = await startTestIdp();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = await TestApi.start({
      PORT: String(port),
      PUBLIC_URL: base,
      // The provider is on the loopback: exempted from the SSRF guard for its port alone.
      PROBE_EXEMPT_ADDRESSES: `127.0.0.1:${idp.port}`,
    });
    ({ organizationId, token } = await api.createOrganization(['admin']));
    providerId = await createProvider({});
  });
  afterAll(async () => {
    await api.stop();
    await idp.close();
  });

  it('keeps the client secret sealed and write-only, tells our redirect URL and tests the connection', async () => {
    const view = await api.request<Record<string, unknown>>('GET', `/api/identity-providers/${providerId}`, {
      token,
    });
    expect(view.body).toMatchObject({ type: 'oidc', clientSecretSet: true, issuer: idp.issuer });
    expect(JSON.stringify(view.body)).not.toContain(idp.clientSecret);
    const stored = await api.db.collection('identity_providers').findOne({ id: providerId });
    expect(JSON.stringify(stored)).not.toContain(idp.clientSecret);
    const sp = await api.request('GET', `/api/identity-providers/${providerId}/service-provider`, { token });
    expect(sp.body).toMatchObject({
      redirectUrl: `${base}/api/auth/sso/${providerId}/callback`,
      signInUrl: `${base}/api/auth/sso/${providerId}/start`,
      acsUrl: null,
    });
    const test = await api.request<{ ok: boolean; checks: Array<{ name: string; ok: boolean }> }>(
      'POST',
      `/api/identity-providers/${providerId}/test`,
      { token },
    );
    expect(test.body.ok).toBe(true);
    expect(test.body.checks.map((check) => check.name)).toEqual(['discovery', 'jwks']);
    // The guard's exemption is for the IdP's port: elsewhere on the loopback is refused, in words.
    const elsewhere = await api.request('POST', '/api/identity-providers', {
      token,
      body: {
        type: 'oidc',
        name: 'x',
        issuer: 'http://127.0.0.1:9/',
        clientId: 'a',
        clientSecret: 'b',
        allowedDomains: ['x.test'],
      },
    });
    expect(elsewhere.status).toBe(400);
    expect(JSON.stringify(elsewhere.body)).toContain('issuer');
  });

  it('tells a SAML provider our ACS, entity id and signed metadata, and tests its metadata and certificate', async () => {
    const samlIdp = await SamlTestIdp.start();
    try {
      const created = await api.request<{ id: number }>('POST', '/api/identity-providers', {
        token,
        body: {
          type: 'saml',
          name: 'SAML IdP',
          metadataXml: samlIdp.metadataXml,
          allowedDomains: ['agency.test'],
        },
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const sp = await api.request<Record<string, string | null>>(
        'GET',
        `/api/identity-providers/${id}/service-provider`,
        {
          token,
        },
      );
      expect(sp.body).toMatchObject({
        redirectUrl: null,
        acsUrl: `${base}/api/auth/sso/${id}/acs`,
        entityId: `${base}/api/auth/sso/${id}/metadata`,
      });
      // The same metadata anyone reads at the entity id: with our certificate to encrypt to.
      expect(sp.body.metadataXml).toContain(`entityID="${base}/api/auth/sso/${id}/metadata"`);
      expect(sp.body.metadataXml).toContain('X509Certificate');
      const published = await fetch(`${base}/api/auth/sso/${id}/metadata`);
      expect(await published.text()).toBe(sp.body.metadataXml);
      const test = await api.request<{ ok: boolean; checks: Array<{ name: string }> }>(
        'POST',
        `/api/identity-providers/${id}/test`,
        { token },
      );
      expect(test.body.ok).toBe(true);
      expect(test.body.checks.map((check) => check.name)).toEqual(['metadata', 'certificate']);
      await api.request('DELETE', `/api/identity-providers/${id}`, { token });
    } finally {
      await samlIdp.close();
    }
  });

  it('only admins and owners manage providers', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const cookie = await signIn(api, (await createUser(api, organizationId, role)).email);
      expect((await withCookie(api, cookie, 'GET', '/api/identity-providers')).status).toBe(403);
    }
    const admin = await signIn(api, (await createUser(api, organizationId, 'admin')).email);
    expect((await withCookie(api, admin, 'GET', '/api/identity-providers')).status).toBe(200);
  });

  it('makes an account just in time with the role of its groups, and re-evaluates it at the next sign-in', async () => {
    const person = {
      sub: sub('ada'),
      email: `ada-${sub('a')}@agency.test`,
      name: 'Ada Lovelace',
      groups: ['monitoring-editors'],
    };
    idp.signInAs(person);
    const first = await ssoSignIn();
    expect(first.landed.pathname + first.landed.search).toBe('/customers');
    expect(first.passed.some((url) => url.origin === idp.issuer)).toBe(true);
    expect(first.cookie).toBeDefined();
    const user = await me(first.cookie as string);
    expect(user).toMatchObject({ email: person.email, role: 'editor' });
    const stored = await new UserRepository(api.db).findById(organizationId, user.id);
    expect(stored?.passwordHash).toBe('');
    expect(stored?.identities).toEqual([expect.objectContaining({ providerId, subject: person.sub })]);
    // A session as a password sign-in opens: listed, and revocable.
    const sessions = await withCookie<Array<{ current: boolean }>>(
      api,
      first.cookie as string,
      'GET',
      '/api/me/sessions',
    );
    expect(sessions.body).toEqual([expect.objectContaining({ current: true })]);

    idp.signInAs({ ...person, groups: ['monitoring-admins'] });
    const second = await ssoSignIn();
    expect(await me(second.cookie as string)).toMatchObject({ id: user.id, role: 'admin' });
    const changes = await auditOf('changeUserRoleBySso');
    expect(changes.at(-1)?.changes).toEqual(
      expect.arrayContaining([{ path: 'role', old: 'editor', new: 'admin' }]),
    );
    const signIns = (await auditOf('ssoSignIn')).filter((event) => event.subject?.email === person.email);
    expect(signIns.map((event) => event.outcome)).toEqual(['succeeded', 'succeeded']);
    expect(signIns[0]?.changes).toEqual([{ path: 'account', new: 'created' }]);

    // Out of every mapped group: refused at the next sign-in, with the reason audited.
    idp.signInAs({ ...person, groups: [] });
    const third = await ssoSignIn();
    expect(third.landed.searchParams.get('sso-error')).toBe('no-role');
    expect(third.cookie).toBeUndefined();
  });

  it('refuses a tampered ID token, a wrong audience and an expired one', async () => {
    idp.signInAs({
      sub: sub('t'),
      email: `t-${sub('t')}@agency.test`,
      name: 'T',
      groups: ['monitoring-editors'],
    });
    const now = Math.floor(Date.now() / 1000);
    const cases = {
      tampered: (jwt: string) => {
        const [header, , signature] = jwt.split('.');
        const payload = { ...jwtPayload(jwt), groups: ['monitoring-admins'] };
        return `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
      },
      'wrong audience': (jwt: string, resign: (p: Record<string, unknown>) => string) =>
        resign({ ...jwtPayload(jwt), aud: 'someone-else' }),
      expired: (jwt: string, resign: (p: Record<string, unknown>) => string) =>
        resign({ ...jwtPayload(jwt), iat: now - 7200, exp: now - 3600 }),
    };
    for (const [name, tamper] of Object.entries(cases)) {
      idp.tamperNextIdToken(tamper);
      const { landed, cookie } = await ssoSignIn();
      expect(landed.searchParams.get('sso-error'), name).toBe('token-invalid');
      expect(cookie, name).toBeUndefined();
    }
    const refusals = (await auditOf('ssoSignIn')).filter((event) => event.outcome === 'failed');
    expect(refusals.slice(-3).map((event) => event.changes)).toEqual(
      Array(3).fill([{ path: 'refusal', new: 'token-invalid' }]),
    );
  });

  it('takes a state once, in the browser that started it', async () => {
    idp.signInAs({
      sub: sub('r'),
      email: `r-${sub('r')}@agency.test`,
      name: 'R',
      groups: ['monitoring-editors'],
    });
    const jar = new CookieJar();
    const isCallback = (url: URL) => url.origin === base && url.pathname.endsWith('/callback');
    const { landed: callback } = await followRedirects(
      `${base}/api/auth/sso/${providerId}/start`,
      jar,
      base,
      isCallback,
    );
    expect(isCallback(callback)).toBe(true);
    // Another browser with the same callback URL (a stolen code and state): refused.
    const elsewhere = await followRedirects(callback.href, new CookieJar(), base);
    expect(elsewhere.landed.searchParams.get('sso-error')).toBe('sign-in-expired');
    // That try did not use the state up: the browser that started the sign-in goes on.
    const flowCookie = jar.get(base, 'webmon_sso') as string;
    expect(flowCookie).toBeTruthy();
    expect((await followRedirects(callback.href, jar, base)).landed.pathname).toBe('/');
    // Once: the same browser, its flow cookie put back, is refused the second time.
    jar.set(base, 'webmon_sso', flowCookie);
    const replay = await followRedirects(callback.href, jar, base);
    expect(replay.landed.searchParams.get('sso-error')).toBe('sign-in-expired');

    const fresh = new CookieJar();
    const { landed } = await followRedirects(
      `${base}/api/auth/sso/${providerId}/start`,
      fresh,
      base,
      isCallback,
    );
    expect((await followRedirects(landed.href, fresh, base)).landed.pathname).toBe('/');
    expect((await followRedirects(landed.href, fresh, base)).landed.searchParams.get('sso-error')).toBe(
      'sign-in-expired',
    );
  });

  it('accepts tokens signed by a key the provider rotated in (its JWKS read again)', async () => {
    const person = {
      sub: sub('k'),
      email: `k-${sub('k')}@agency.test`,
      name: 'K',
      groups: ['monitoring-editors'],
    };
    idp.signInAs(person);
    expect((await ssoSignIn()).cookie).toBeDefined();
    const before = idp.currentKid();
    await idp.rotateKeys();
    let signedWith: unknown;
    idp.tamperNextIdToken((jwt) => {
      signedWith = JSON.parse(Buffer.from(jwt.split('.')[0] as string, 'base64url').toString()).kid;
      return jwt;
    });
    const after = await ssoSignIn();
    expect(signedWith).toBe(idp.currentKid());
    expect(signedWith).not.toBe(before);
    expect(after.cookie).toBeDefined();
  });

  it('refuses an e-mail outside the allowed domains, and never takes over a password account by e-mail', async () => {
    idp.signInAs({
      sub: sub('o'),
      email: `o-${sub('o')}@elsewhere.test`,
      name: 'O',
      groups: ['monitoring-admins'],
    });
    expect((await ssoSignIn()).landed.searchParams.get('sso-error')).toBe('email-domain-not-allowed');

    // A password account with the provider's e-mail: linked only once its person gives the password.
    const users = new UserRepository(api.db);
    const passwordAccount = await users.create(
      { organizationId, email: `pat-${sub('p')}@agency.test`, name: 'Pat', role: 'viewer', customerId: null },
      await hashPassword(TEST_PASSWORD),
    );
    const person = {
      sub: sub('pat'),
      email: passwordAccount.email,
      name: 'Pat',
      groups: ['monitoring-editors'],
    };
    idp.signInAs(person);
    const first = await ssoSignIn();
    expect(first.landed.pathname + first.landed.search).toBe('/sign-in?sso-link=1');
    expect(first.cookie).toBeUndefined();
    const linkCookie = `webmon_sso_link=${first.jar.get(base, 'webmon_sso_link')}`;
    const pending = await api.request('GET', '/api/auth/sso/link', { headers: { cookie: linkCookie } });
    expect(pending.body).toEqual({ email: passwordAccount.email, providerName: 'Agency IdP' });
    const wrong = await api.request('POST', '/api/auth/sso/link', {
      headers: { cookie: linkCookie },
      body: { email: passwordAccount.email, password: 'not-the-password-1' },
    });
    expect(wrong.status).toBe(401);
    expect((await users.findById(organizationId, passwordAccount.id))?.identities).toBeUndefined();
    const right = await api.request<{ user: { role: string } }>('POST', '/api/auth/sso/link', {
      headers: { cookie: linkCookie },
      body: { email: passwordAccount.email, password: TEST_PASSWORD },
    });
    expect(right.status).toBe(200);
    expect(right.body.user.role).toBe('editor');
    // Linked: the next sign-in with the provider goes straight in, as the same account.
    const next = await ssoSignIn();
    expect(await me(next.cookie as string)).toMatchObject({ id: passwordAccount.id, role: 'editor' });

    // Another organization's account with that e-mail: refused, not moved.
    const other = await api.createOrganization(['admin']);
    const foreign = await users.create(
      {
        organizationId: other.organizationId,
        email: `f-${sub('f')}@agency.test`,
        name: 'F',
        role: 'owner',
        customerId: null,
      },
      '',
    );
    idp.signInAs({ sub: sub('f'), email: foreign.email, name: 'F', groups: ['monitoring-admins'] });
    expect((await ssoSignIn()).landed.searchParams.get('sso-error')).toBe('email-taken');
  });

  it('never demotes the last owner, and a customer’s own provider makes clients of that customer', async () => {
    const other = await api.createOrganization(['admin']);
    const otherOwner = await signIn(api, (await createUser(api, other.organizationId, 'owner')).email);
    const providerBody = (body: Record<string, unknown>) => ({
      type: 'oidc',
      name: 'Other IdP',
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      scopes: ['openid', 'email', 'profile', 'groups'],
      ...body,
    });
    const create = async (body: Record<string, unknown>, cookie?: string) => {
      const res = cookie
        ? await withCookie<{ id: number }>(api, cookie, 'POST', '/api/identity-providers', {
            body: providerBody(body),
          })
        : await api.request<{ id: number }>('POST', '/api/identity-providers', {
            token: other.token,
            body: providerBody(body),
          });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      idp.allowRedirect(`${base}/api/auth/sso/${res.body.id}/callback`);
      return res.body.id;
    };
    const ownerRules = {
      allowedDomains: ['owners.test'],
      roleMapping: [
        { group: 'owners', role: 'owner' },
        { group: 'editors', role: 'editor' },
      ],
    };
    // Only an owner makes owners, through a provider too: an admin's token may not.
    const byAdmin = await api.request('POST', '/api/identity-providers', {
      token: other.token,
      body: providerBody(ownerRules),
    });
    expect(byAdmin.status).toBe(403);
    expect(JSON.stringify(byAdmin.body)).toContain('roleMapping.0.role');
    const staff = await create(ownerRules, otherOwner);
    const renamed = await api.request('PATCH', `/api/identity-providers/${staff}`, {
      token: other.token,
      body: { name: 'Renamed by an admin' },
    });
    expect(renamed.status).toBe(403);
    const person = { sub: sub('o'), email: `o-${sub('o')}@owners.test`, name: 'O', groups: ['owners'] };
    idp.signInAs(person);
    const first = await ssoSignIn(staff);
    expect(await me(first.cookie as string)).toMatchObject({ role: 'owner' });
    idp.signInAs({ ...person, groups: ['editors'] });
    // The organization's only owner who can sign in (the one who made the provider is deactivated
    // now): the provider's group change does not leave it without one.
    await api.db
      .collection('users')
      .updateOne(
        { organizationId: other.organizationId, role: 'owner', email: { $not: /@owners\.test$/ } },
        { $set: { disabledAt: new Date() } },
      );
    expect(await me((await ssoSignIn(staff)).cookie as string)).toMatchObject({ role: 'owner' });

    const packageId = (
      await api.request<{ id: number }>('POST', '/api/packages', {
        token: other.token,
        body: { key: `p-${sub('p')}`, displayName: 'Standard' },
      })
    ).body.id;
    const customer = await api.request<{ id: number }>('POST', '/api/customers', {
      token: other.token,
      body: { name: 'Acme', packageId, email: 'ops@acme.test' },
    });
    const clients = await create({
      name: 'Acme Okta',
      allowedDomains: ['acme.test'],
      roleMapping: [{ group: 'everyone', role: 'admin' }],
      customerId: customer.body.id,
    });
    idp.signInAs({ sub: sub('c'), email: `c-${sub('c')}@acme.test`, name: 'C', groups: ['everyone'] });
    const client = await me((await ssoSignIn(clients)).cookie as string);
    expect(client).toMatchObject({ role: 'client', customerId: Number(customer.body.id) });

    // The client's Okta naming a staff account (passwordless, nobody's link yet): refused, not
    // signed in as staff, nor turned into a client.
    const users = new UserRepository(api.db);
    const staffer = await users.create(
      {
        organizationId: other.organizationId,
        email: `s-${sub('s')}@acme.test`,
        name: 'S',
        role: 'admin',
        customerId: null,
      },
      '',
    );
    idp.signInAs({ sub: sub('s'), email: staffer.email, name: 'S', groups: ['everyone'] });
    expect((await ssoSignIn(clients)).landed.searchParams.get('sso-error')).toBe(
      'not-this-customers-account',
    );
    expect(await users.findById(other.organizationId, staffer.id)).toMatchObject({
      role: 'admin',
      customerId: null,
    });
  });

  it('never hands a passwordless account another provider holds to a provider asserting its e-mail', async () => {
    const users = new UserRepository(api.db);
    const held = await users.create(
      {
        organizationId,
        email: `held-${sub('h')}@agency.test`,
        name: 'Held',
        role: 'admin',
        customerId: null,
      },
      '',
    );
    // Linked to another provider of the organization (the one its people sign in with).
    await users.update(held, {
      identities: [{ providerId: providerId + 1000, subject: 'the-real-one', linkedAt: new Date() }],
    });
    idp.signInAs({ sub: sub('fake'), email: held.email, name: 'Impostor', groups: ['monitoring-admins'] });
    const attempt = await ssoSignIn();
    expect(attempt.landed.searchParams.get('sso-error')).toBe('account-linked-elsewhere');
    expect(attempt.cookie).toBeUndefined();
    const after = await users.findById(organizationId, held.id);
    expect(after?.identities?.map((link) => link.subject)).toEqual(['the-real-one']);
  });

  it('refuses a deactivated person', async () => {
    const person = {
      sub: sub('d'),
      email: `d-${sub('d')}@agency.test`,
      name: 'D',
      groups: ['monitoring-editors'],
    };
    idp.signInAs(person);
    const { cookie } = await ssoSignIn();
    const user = await me(cookie as string);
    await api.db.collection('users').updateOne({ id: user.id }, { $set: { disabledAt: new Date() } });
    expect((await ssoSignIn()).landed.searchParams.get('sso-error')).toBe('account-disabled');
    expect((await withCookie(api, cookie as string, 'GET', '/api/me')).status).toBe(401);
  });

  it("refuses a domain another organization's provider signs in (its button would stand before that domain's people)", async () => {
    const other = await api.createOrganization(['admin']);
    const claim = await api.request('POST', '/api/identity-providers', {
      token: other.token,
      body: {
        type: 'oidc',
        name: 'Squatter',
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        allowedDomains: ['squatter.test', 'agency.test'],
        roleMapping: RULES,
      },
    });
    expect(claim.status).toBe(409);
    expect(JSON.stringify(claim.body)).toContain('allowedDomains.1');
  });

  it('keeps the last enabled provider while single sign-on is required: neither disabled nor deleted', async () => {
    const other = await api.createOrganization(['admin']);
    const owner = await createUser(api, other.organizationId, 'owner');
    const cookie = await signIn(api, owner.email);
    const created = await withCookie<{ id: number }>(api, cookie, 'POST', '/api/identity-providers', {
      body: {
        type: 'oidc',
        name: 'Only IdP',
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        allowedDomains: ['only.test'],
        roleMapping: RULES,
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const required = await withCookie(api, cookie, 'PATCH', '/api/organization', {
      body: { requireSso: true, breakGlassUserIds: [owner.id] },
    });
    expect(required.status).toBe(200);
    const disable = await withCookie(api, cookie, 'PATCH', `/api/identity-providers/${id}`, {
      body: { enabled: false },
    });
    expect(disable.status).toBe(409);
    expect(JSON.stringify(disable.body)).toContain('requireSso');
    expect((await withCookie(api, cookie, 'DELETE', `/api/identity-providers/${id}`)).status).toBe(409);
    await withCookie(api, cookie, 'PATCH', '/api/organization', { body: { requireSso: false } });
    expect((await withCookie(api, cookie, 'DELETE', `/api/identity-providers/${id}`)).status).toBe(204);
  });

  it('“require SSO” refuses password sign-ins but the break-glass owner’s; SSO-made accounts have no password', async () => {
    const owner = await createUser(api, organizationId, 'owner');
    const editor = await createUser(api, organizationId, 'editor');
    const ownerCookie = await signIn(api, owner.email);
    const patchAsOwner = (body: Record<string, unknown>) =>
      withCookie(api, ownerCookie, 'PATCH', '/api/organization', { body });
    // Only an owner says who may still use a password: an admin (here its token) could lock owners out.
    const byAdmin = await api.request('PATCH', '/api/organization', {
      token,
      body: { requireSso: true, breakGlassUserIds: [owner.id] },
    });
    expect(byAdmin.status).toBe(403);
    expect(JSON.stringify(byAdmin.body)).toContain('requireSso');
    const notOwner = await patchAsOwner({ requireSso: true, breakGlassUserIds: [editor.id] });
    expect(notOwner.status).toBe(400);
    expect(JSON.stringify(notOwner.body)).toContain('breakGlassUserIds.0');
    // Never without a way in should the provider fail.
    const nobody = await patchAsOwner({ requireSso: true, breakGlassUserIds: [] });
    expect(nobody.status).toBe(400);
    expect(JSON.stringify(nobody.body)).toContain('at least one owner');
    const on = await patchAsOwner({ requireSso: true, breakGlassUserIds: [owner.id] });
    expect(on.body).toMatchObject({ requireSso: true, breakGlassUserIds: [owner.id] });

    const refused = await api.request<{ code: string; detail: string }>('POST', '/api/auth/login', {
      body: { email: editor.email, password: TEST_PASSWORD },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('sso-required');
    expect(refused.body.detail).toContain('identity provider');
    // A wrong password still answers what it always does: the rule is told to password holders only.
    const wrong = await api.request('POST', '/api/auth/login', {
      body: { email: editor.email, password: 'wrong-password-9' },
    });
    expect(wrong.status).toBe(401);
    expect(
      (
        await api.request('POST', '/api/auth/login', {
          body: { email: owner.email, password: TEST_PASSWORD },
        })
      ).status,
    ).toBe(200);

    // An account single sign-on made has no password: none signs it in, as for an unknown e-mail.
    expect((await patchAsOwner({ requireSso: false })).status).toBe(200);
    const person = {
      sub: sub('n'),
      email: `n-${sub('n')}@agency.test`,
      name: 'N',
      groups: ['monitoring-editors'],
    };
    idp.signInAs(person);
    await ssoSignIn();
    for (const password of ['', 'anything-at-all-1'])
      expect(
        (
          await api.request('POST', '/api/auth/login', {
            body: { email: person.email, password: password || 'x' },
          })
        ).status,
      ).toBe(401);
  });
});
