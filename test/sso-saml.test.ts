import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../libs/secrets/index.js';
import { parseIdpMetadata, ServiceProviderKeys } from '../libs/sso/index.js';
import { TestApi } from './support/harness.js';
import { CookieJar, followRedirects, freePort } from './support/oidc-provider.js';
import { withCookie } from './support/people.js';
import { formOf, SamlTestIdp } from './support/saml-idp.js';

const RULES = [
  { group: 'monitoring-editors', role: 'editor' },
  { group: 'monitoring-admins', role: 'admin' },
];

describe('single sign-on with SAML 2.0 against a real IdP (samlify on 127.0.0.1)', {
  timeout: 120_000,
}, () => {
  let api: TestApi;
  let idp: SamlTestIdp;
  let base: string;
  let token: string;
  let organizationId: number;
  let providerId: number;

  const person = (groups: string[]) => {
    const name = `ada-${Math.random().toString(36).slice(2, 8)}`;
    return { nameId: `${name}@agency.test`, displayName: 'Ada Lovelace', groups };
  };

  const acsOf = (id: number) => `${base}/api/auth/sso/${id}/acs`;
  /** Where a refusal sends the browser: the reason, and the provider to offer again. */
  const refusedTo = (reason: string, id = providerId) => `/sign-in?sso-error=${reason}&sso-provider=${id}`;

  /** The IdP's form post to our ACS, cross-site: a browser sends no Lax cookie with it. */
  async function postToAcs(id: number, samlResponse: string, relayState = '') {
    const response = await fetch(acsOf(id), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: idp.url },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }),
    });
    await response.arrayBuffer();
    return { status: response.status, location: response.headers.get('location') ?? '' };
  }

  /**
   * A browser signing in: our start, the IdP's sign-in page (its auto-posting form), the ACS,
   * then the same-site GET it redirects to. `jarAfter` is the browser that follows the ACS's
   * redirect (another one than the starter for a stolen response).
   */
  async function samlSignIn(options: { id?: number; jar?: CookieJar; jarAfter?: CookieJar } = {}) {
    const id = options.id ?? providerId;
    const jar = options.jar ?? new CookieJar();
    const toIdp = await followRedirects(
      `${base}/api/auth/sso/${id}/start?next=/customers`,
      jar,
      base,
      (url) => url.href.startsWith(idp.url),
    );
    expect(toIdp.landed.href.startsWith(`${idp.url}/sso?SAMLRequest=`), toIdp.landed.href).toBe(true);
    const page = await fetch(toIdp.landed);
    const form = formOf(await page.text());
    expect(form.action).toBe(acsOf(id));
    const posted = await postToAcs(id, form.fields.SAMLResponse ?? '', form.fields.RelayState);
    const after = options.jarAfter ?? jar;
    const landed =
      posted.status === 303
        ? (await followRedirects(new URL(posted.location, base).href, after, base)).landed
        : null;
    const session = after.get(base, 'webmon_session');
    return { posted, landed, form, cookie: session ? `webmon_session=${session}` : undefined };
  }

  const me = async (cookie: string) =>
    (await withCookie<{ user: { id: number; role: string; email: string } }>(api, cookie, 'GET', '/api/me'))
      .body.user;

  const refusals = async () =>
    (
      await api.db
        .collection('audit_events')
        .find({ organizationId, action: 'ssoSignIn', outcome: 'failed' })
        .sort({ seq: 1 })
        .toArray()
    ).map((event) => (event.changes as Array<{ new: unknown }>)[0]?.new);

  async function createProvider(body: Record<string, unknown>): Promise<number> {
    const res = await api.request<{ id: number }>('POST', '/api/identity-providers', {
      token,
      body: {
        type: 'saml',
        name: 'Agency SAML',
        // Metadata in: the IdP's, as served by it.
        metadataXml: await (await fetch(`${idp.url}/metadata`)).text(),
        allowedDomains: ['agency.test'],
        roleMapping: RULES,
        ...body,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  }

  /** Metadata out: ours, read by the IdP as its admin would upload it. */
  async function trust(id: number): Promise<string> {
    const metadata = await fetch(`${base}/api/auth/sso/${id}/metadata`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await metadata.text();
    idp.trust(xml);
    return xml;
  }

  beforeAll(async () => {
    idp = await SamlTestIdp.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = await TestApi.start({ PORT: String(port), PUBLIC_URL: base });
    ({ organizationId, token } = await api.createOrganization(['admin']));
    providerId = await createProvider({});
    await trust(providerId);
  });
  afterAll(async () => {
    await api?.stop();
    await idp?.close();
  });

  it('publishes our SP metadata (entity id, ACS, our encryption certificate, signed assertions wanted) and keeps our key sealed', async () => {
    const xml = await trust(providerId);
    expect(xml).toContain(`entityID="${base}/api/auth/sso/${providerId}/metadata"`);
    expect(xml).toContain(`Location="${acsOf(providerId)}"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toMatch(/<md:KeyDescriptor use="encryption">.*<ds:X509Certificate>MII/);
    const stored = await api.db.collection('saml_sp_keys').findOne({ providerId });
    expect(stored?.organizationId).toBe(organizationId);
    expect(JSON.stringify(stored)).not.toContain('PRIVATE KEY');
    // The same key at the next read (it is made once).
    expect(await (await fetch(`${base}/api/auth/sso/${providerId}/metadata`)).text()).toBe(xml);
    expect((await fetch(`${base}/api/auth/sso/999999/metadata`)).status).toBe(404);
    // The provider stored what the IdP's metadata says.
    const view = await api.request<Record<string, unknown>>('GET', `/api/identity-providers/${providerId}`, {
      token,
    });
    expect(view.body).toMatchObject({ type: 'saml', idpEntityId: idp.entityId, allowIdpInitiated: false });
    expect(parseIdpMetadata(view.body.metadataXml as string).entityId).toBe(idp.entityId);
  });

  it('signs a person in with a signed assertion, their role from their groups, and re-evaluates it at the next sign-in', async () => {
    idp.person = person(['monitoring-admins', 'everyone']);
    const first = await samlSignIn();
    expect(first.posted.status).toBe(303);
    // The RelayState is our AuthnRequest's id: the request the assertion answers.
    expect(first.form.fields.RelayState).toBe(idp.requests.at(-1));
    expect(first.landed?.pathname).toBe('/customers');
    expect(first.cookie).toBeDefined();
    expect(await me(first.cookie as string)).toMatchObject({ email: idp.person.nameId, role: 'admin' });

    idp.person = { ...idp.person, groups: ['monitoring-editors'] };
    const second = await samlSignIn();
    expect(await me(second.cookie as string)).toMatchObject({ email: idp.person.nameId, role: 'editor' });
    const events = await api.db
      .collection('audit_events')
      .find({ organizationId, action: { $in: ['ssoSignIn', 'changeUserRoleBySso'] }, outcome: 'succeeded' })
      .toArray();
    expect(events.map((event) => event.action)).toEqual(['ssoSignIn', 'changeUserRoleBySso', 'ssoSignIn']);
  });

  it('takes an encrypted assertion', async () => {
    idp.person = person(['monitoring-editors']);
    idp.ssoAnswers = { encrypt: true };
    try {
      const signedIn = await samlSignIn();
      expect(
        signedIn.form.fields.SAMLResponse &&
          Buffer.from(signedIn.form.fields.SAMLResponse, 'base64').toString(),
      ).toContain('EncryptedAssertion');
      expect(await me(signedIn.cookie as string)).toMatchObject({ role: 'editor' });
    } finally {
      idp.ssoAnswers = {};
    }
  });

  it('refuses a replayed assertion, one answering another browser’s request, and one answering no request of ours', async () => {
    idp.person = person(['monitoring-admins']);
    const signedIn = await samlSignIn();
    expect(signedIn.cookie).toBeDefined();
    // The same response posted again (captured on the way): its assertion id was taken.
    const replayed = await postToAcs(providerId, signedIn.form.fields.SAMLResponse ?? '');
    expect(replayed.location).toBe(refusedTo('assertion-replayed'));

    // A response for a sign-in started in another browser (login CSRF): the flow is not this one's.
    const stolen = await samlSignIn({ jarAfter: new CookieJar() });
    expect(stolen.posted.status).toBe(303);
    expect(stolen.landed?.href).toBe(`${base}${refusedTo('sign-in-expired')}`);
    expect(stolen.cookie).toBeUndefined();

    // InResponseTo names a request we never made.
    const unknown = await postToAcs(providerId, await idp.answer({ inResponseTo: '_never-asked' }));
    expect(unknown.status).toBe(303);
    const after = await followRedirects(new URL(unknown.location, base).href, new CookieJar(), base);
    expect(after.landed.href).toBe(`${base}${refusedTo('sign-in-expired')}`);
    expect((await refusals()).slice(-3)).toEqual([
      'assertion-replayed',
      'sign-in-expired',
      'sign-in-expired',
    ]);
  });

  it('refuses through the ACS what is unsigned, altered, for another audience or expired', async () => {
    idp.person = person(['monitoring-viewers', 'monitoring-editors']);
    const signed = Buffer.from(await idp.answer({ inResponseTo: null }), 'base64').toString();
    const variants = [
      signed.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, ''),
      signed.replace('>monitoring-viewers<', '>monitoring-admins<'),
    ].map((xml) => Buffer.from(xml).toString('base64'));
    variants.push(
      await idp.answer({ inResponseTo: null, audience: 'https://elsewhere.example/sp' }),
      await idp.answer({ inResponseTo: null, notOnOrAfter: new Date(Date.now() - 120_000) }),
      await idp.answer({ inResponseTo: null, signAssertion: false }),
    );
    for (const variant of variants)
      expect((await postToAcs(providerId, variant)).location).toBe(refusedTo('assertion-invalid'));
    expect((await refusals()).slice(-5)).toEqual(Array(5).fill('assertion-invalid'));
  });

  it('refuses an IdP-initiated sign-in unless the provider allows it', async () => {
    idp.person = person(['monitoring-editors']);
    const unsolicited = await idp.answer({ inResponseTo: null });
    expect((await postToAcs(providerId, unsolicited)).location).toBe(refusedTo('idp-initiated-not-allowed'));
    expect((await refusals()).at(-1)).toBe('idp-initiated-not-allowed');

    const patched = await api.request('PATCH', `/api/identity-providers/${providerId}`, {
      token,
      body: { allowIdpInitiated: true },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const posted = await postToAcs(providerId, await idp.answer({ inResponseTo: null }));
    expect(posted.status).toBe(303);
    const jar = new CookieJar();
    const landed = await followRedirects(new URL(posted.location, base).href, jar, base);
    expect(landed.landed.pathname).toBe('/');
    expect(await me(`webmon_session=${jar.get(base, 'webmon_session')}`)).toMatchObject({ role: 'editor' });
    await api.request('PATCH', `/api/identity-providers/${providerId}`, {
      token,
      body: { allowIdpInitiated: false },
    });
  });

  it('sends an AuthnRequest by HTTP-POST to an IdP that takes no other, in a page allowed only its own script, and signs the person in', async () => {
    const postOnly = idp.metadataXml.replace(
      /<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"[^>]*>(<\/SingleSignOnService>)?/,
      '',
    );
    expect(parseIdpMetadata(postOnly).ssoBinding).toBe('post');
    const id = await createProvider({ name: 'POST-only IdP', metadataXml: postOnly });
    await trust(id);
    try {
      const jar = new CookieJar();
      const started = await fetch(`${base}/api/auth/sso/${id}/start?next=/customers`, { redirect: 'manual' });
      jar.keep(new URL(base), started);
      expect(started.status).toBe(200);
      const csp = started.headers.get('content-security-policy') ?? '';
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      const html = await started.text();
      expect(html).toContain(`<script nonce="${nonce}">document.forms[0].submit()</script>`);
      const form = formOf(html);
      expect(form.action).toBe(`${idp.url}/sso`);
      // The POST binding: base64 of the XML itself (no DEFLATE), its id the RelayState.
      const request = Buffer.from(form.fields.SAMLRequest ?? '', 'base64').toString('utf8');
      expect(request).toMatch(/^(<\?xml[^>]*>)?<samlp:AuthnRequest /);
      expect(request).toContain(`ID="${form.fields.RelayState}"`);
      expect(request).toContain(`AssertionConsumerServiceURL="${acsOf(id)}"`);

      idp.person = person(['monitoring-editors']);
      const posted = await postToAcs(id, await idp.answer({ inResponseTo: form.fields.RelayState ?? '' }));
      expect(posted.status).toBe(303);
      const landed = await followRedirects(new URL(posted.location, base).href, jar, base);
      expect(landed.landed.pathname).toBe('/customers');
      expect(await me(`webmon_session=${jar.get(base, 'webmon_session')}`)).toMatchObject({ role: 'editor' });
    } finally {
      await api.request('DELETE', `/api/identity-providers/${id}`, { token });
      await trust(providerId);
    }
  });

  it('sends people of a provider that cannot be started back to the sign-in page with the reason, not a 500', async () => {
    const id = await createProvider({ name: 'Broken IdP' });
    // Metadata gone bad in storage (as an IdP's could be left half-changed): the start cannot build a request.
    await api.db
      .collection('identity_providers')
      .updateOne({ id }, { $set: { 'saml.metadataXml': '<nothing/>' } });
    const started = await fetch(`${base}/api/auth/sso/${id}/start?next=/customers`, { redirect: 'manual' });
    await started.arrayBuffer();
    expect(started.status).toBe(302);
    expect(started.headers.get('location')).toBe(`${refusedTo('provider-error', id)}&next=%2Fcustomers`);
    expect((await refusals()).at(-1)).toBe('provider-error');
    expect((await api.request('DELETE', `/api/identity-providers/${id}`, { token })).status).toBe(204);
  });

  it('reads groups from the attribute a provider names (groupsAttribute), and only the usual ones without it', async () => {
    const teams = 'https://idp.example/claims/teams';
    idp.person = { ...person(['monitoring-admins']), groupsAttribute: teams };
    // The usual attributes hold no groups: no rule matches, no default role.
    expect((await samlSignIn()).landed?.searchParams.get('sso-error')).toBe('no-role');

    const id = await createProvider({ name: 'Teams IdP', groupsAttribute: teams });
    await trust(id);
    try {
      const view = await api.request<Record<string, unknown>>('GET', `/api/identity-providers/${id}`, {
        token,
      });
      expect(view.body.groupsAttribute).toBe(teams);
      expect(await me((await samlSignIn({ id })).cookie as string)).toMatchObject({ role: 'admin' });

      const cleared = await api.request<Record<string, unknown>>('PATCH', `/api/identity-providers/${id}`, {
        token,
        body: { groupsAttribute: null },
      });
      expect(cleared.body.groupsAttribute).toBeNull();
      expect((await samlSignIn({ id })).landed?.searchParams.get('sso-error')).toBe('no-role');
      const bad = await api.request('PATCH', `/api/identity-providers/${id}`, {
        token,
        body: { groupsAttribute: '' },
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('groupsAttribute');
    } finally {
      await api.request('DELETE', `/api/identity-providers/${id}`, { token });
      await trust(providerId);
    }
  });

  it('deletes a provider with its SP key and its people’s links; the people keep their accounts', async () => {
    const id = await createProvider({ name: 'Short-lived IdP' });
    await trust(id);
    try {
      idp.person = person(['monitoring-editors']);
      const signedIn = await samlSignIn({ id });
      expect(await me(signedIn.cookie as string)).toMatchObject({ role: 'editor' });
      expect(await api.db.collection('saml_sp_keys').countDocuments({ providerId: id })).toBe(1);
      expect(await api.db.collection('sso_identities').countDocuments({ providerId: id })).toBe(1);

      const deleted = await api.request('DELETE', `/api/identity-providers/${id}`, { token });
      expect(deleted.status).toBe(204);
      expect(await api.db.collection('saml_sp_keys').countDocuments({ providerId: id })).toBe(0);
      expect(await api.db.collection('sso_identities').countDocuments({ providerId: id })).toBe(0);
      // The person stays, with the role they had; the provider's links to them lead nowhere now.
      expect(await api.db.collection('users').findOne({ email: idp.person.nameId })).toMatchObject({
        organizationId,
        role: 'editor',
      });
      expect((await fetch(`${base}/api/auth/sso/${id}/metadata`)).status).toBe(404);
      // The other provider's key is untouched.
      expect(await api.db.collection('saml_sp_keys').countDocuments({ providerId })).toBe(1);
    } finally {
      await trust(providerId);
    }
  });

  it('takes only a form of bounded size at the ACS, and only for a SAML provider', async () => {
    const huge = await fetch(acsOf(providerId), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `SAMLResponse=${'A'.repeat(600 * 1024)}`,
    });
    expect(huge.status).toBe(413);
    const json = await fetch(acsOf(providerId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(JSON.stringify(await json.json())).toContain('x-www-form-urlencoded');
    const missing = await fetch(acsOf(providerId), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'RelayState=x',
    });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain('SAMLResponse');
    expect((await postToAcs(999999, 'PHg+')).status).toBe(404);
  });

  // Last: the API keeps opening with the old key alone.
  it('seals the SP key again under a new SECRETS_KEY (reseal-secrets), and keeps it to its organization', async () => {
    const keys = new ServiceProviderKeys(api.db, new SecretBox(Buffer.alloc(32, 9), [Buffer.alloc(32, 7)]));
    const before = await api.db.collection('saml_sp_keys').findOne({ providerId });
    expect(await keys.resealSecrets()).toEqual({ documents: 1, resealed: 1, unreadable: 0 });
    const after = await api.db.collection('saml_sp_keys').findOne({ providerId });
    expect(after?.privateKey.kid).not.toBe(before?.privateKey.kid);
    const pair = await keys.keyPair(organizationId, providerId);
    expect(pair.certificate).toBe(before?.certificate);
    expect(pair.privateKey).toContain('BEGIN PRIVATE KEY');
    await expect(keys.keyPair(organizationId + 1, providerId)).rejects.toThrow(/another organization/);
  });
});
