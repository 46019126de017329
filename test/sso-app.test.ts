import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, UserRepository } from '../libs/people/index.js';
import { fitsTheWidth, launchBrowser, lookedAt, signInThroughForm } from './support/browser.js';
import { TestApi } from './support/harness.js';
import { freePort, startTestIdp, type TestIdp } from './support/oidc-provider.js';
import { createOrganizationId, createUser, TEST_PASSWORD } from './support/people.js';
import { SamlTestIdp } from './support/saml-idp.js';

describe('single sign-on in a real browser: the identity provider screens and signing in with OIDC', {
  timeout: 120_000,
}, () => {
  let api: TestApi;
  let idp: TestIdp;
  let browser: Browser;
  let base: string;
  let organizationId: number;
  let owner: { id: number; email: string };
  const pageErrors: string[] = [];

  beforeAll(async () => {
    idp = await startTestIdp();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = await TestApi.start({
      PORT: String(port),
      PUBLIC_URL: base,
      PROBE_EXEMPT_ADDRESSES: `127.0.0.1:${idp.port}`,
    });
    organizationId = await createOrganizationId(api);
    owner = await createUser(api, organizationId, 'owner');
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await idp?.close();
  });

  async function newPage(): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return page;
  }
  const look = async (page: Page, name: string) => expect(await lookedAt(page, name), name).toEqual([]);

  it('an owner adds an OIDC provider with a role rule, copies its redirect URL and tests the connection', async () => {
    const page = await newPage();
    await signInThroughForm(page, base, owner.email, { next: '/settings' });
    await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
    await page.getByRole('link', { name: 'Manage identity providers' }).click();
    await page.getByRole('heading', { name: 'Identity providers' }).waitFor();
    await page.getByText('No identity providers yet').waitFor();
    await page.getByRole('link', { name: 'Add an identity provider' }).click();
    await page.getByLabel('Name').fill('Agency IdP');
    await page.getByLabel('Issuer').fill(idp.issuer);
    await page.getByLabel('Client id').fill(idp.clientId);
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('Scopes').fill('openid email profile groups');
    await page.getByLabel('Allowed e-mail domains').fill('agency.test');
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByLabel('Rule 1: group').fill('monitoring-editors');
    await page.getByLabel('Rule 1: role').selectOption('editor');
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByLabel('Rule 2: group').fill('monitoring-admins');
    await page.getByLabel('Rule 2: role').selectOption('admin');
    await look(page, 'sso-provider-new');
    await page.getByRole('button', { name: 'Add the provider' }).click();
    await page.getByRole('heading', { name: 'Register webmon at the provider' }).waitFor();
    const redirect = page.locator('.copy-row', { hasText: 'Redirect URL' }).locator('code');
    const redirectUrl = (await redirect.textContent()) ?? '';
    expect(redirectUrl).toMatch(new RegExp(`^${base}/api/auth/sso/\\d+/callback$`));
    idp.allowRedirect(redirectUrl);
    // The secret went in and never comes back out.
    expect(await page.getByLabel('Client secret').inputValue()).toBe('');
    expect(await page.content()).not.toContain(idp.clientSecret);
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await page.getByText('The provider answers as it should.').waitFor();
    await look(page, 'sso-provider');
    // On a phone's width too: nothing scrolls sideways (the long URLs wrap).
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await look(page, 'sso-provider-phone');
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.getByRole('link', { name: '← Identity providers' }).click();
    await page.getByRole('link', { name: 'Agency IdP' }).waitFor();
    await look(page, 'sso-providers');
  });

  it('an owner adds a SAML provider from pasted metadata with the attribute its IdP sends groups in', async () => {
    const samlIdp = await SamlTestIdp.start();
    try {
      const page = await newPage();
      await signInThroughForm(page, base, owner.email, { next: '/identity-providers/new' });
      await page.getByLabel('SAML 2.0').check();
      await page.getByLabel('Name').fill('Agency SAML');
      await page.getByLabel('Paste the XML').check();
      await page.getByLabel('Metadata XML').fill(samlIdp.metadataXml);
      await page.getByLabel('Groups attribute').fill('teams');
      await page.getByLabel('Allowed e-mail domains').fill('saml.agency.test');
      await look(page, 'sso-provider-saml-new');
      await page.getByRole('button', { name: 'Add the provider' }).click();
      await page.getByRole('heading', { name: 'Register webmon at the provider' }).waitFor();
      expect(await page.getByLabel('Groups attribute').inputValue()).toBe('teams');
      const stored = await api.db.collection('identity_providers').findOne({ organizationId, type: 'saml' });
      expect(stored?.saml).toMatchObject({ groupsAttribute: 'teams', idpEntityId: samlIdp.entityId });
      // Emptied, the usual attributes are read again.
      await page.getByLabel('Groups attribute').fill('');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      const saved = await api.db.collection('identity_providers').findOne({ organizationId, type: 'saml' });
      expect(saved?.saml?.groupsAttribute).toBeNull();
      const removed = await api.request('DELETE', `/api/identity-providers/${saved?.id}`, {
        token: await api.createToken(organizationId, ['admin']),
      });
      expect(removed.status).toBe(204);
    } finally {
      await samlIdp.close();
    }
  });

  it('signs a person in through “Sign in with …” on the sign-in page, as the role of their groups', async () => {
    idp.signInAs({
      sub: 'ada-1',
      email: 'ada@agency.test',
      name: 'Ada Lovelace',
      groups: ['monitoring-editors'],
    });
    const page = await newPage();
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('E-mail').fill('ada@agency.test');
    const button = page.getByRole('link', { name: 'Sign in with Agency IdP' });
    await button.waitFor();
    await look(page, 'sso-sign-in-button');
    await button.click();
    // Through the provider and back, signed in: the overview, with the person's name in the menu.
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page
      .getByRole('heading', { name: /account/i })
      .first()
      .waitFor();
    const user = await new UserRepository(api.db).findByEmail('ada@agency.test');
    expect(user).toMatchObject({ role: 'editor', passwordHash: '' });
  });

  it('says why a sign-in was refused, and whom to ask', async () => {
    idp.signInAs({ sub: 'eve-1', email: 'eve@elsewhere.test', name: 'Eve', groups: ['monitoring-admins'] });
    const page = await newPage();
    const provider = (await api.db.collection('identity_providers').findOne({ organizationId })) as {
      id: number;
    } | null;
    await page.goto(`${base}/api/auth/sso/${provider?.id}/start`);
    await page.getByText('ask your admin to add it to the provider’s allowed domains').waitFor();
    expect(new URL(page.url()).searchParams.get('sso-error')).toBe('email-domain-not-allowed');
    await look(page, 'sso-refused');
  });

  it('after a refusal another try may get past, offers the provider again, which signs the person in', async () => {
    idp.signInAs({
      sub: 'ben-1',
      email: 'ben@agency.test',
      name: 'Ben Byte',
      groups: ['monitoring-editors'],
    });
    const provider = (await api.db.collection('identity_providers').findOne({ organizationId })) as {
      id: number;
    } | null;
    const page = await newPage();
    // A callback whose state this browser never started (an old tab, a used link): sign-in-expired.
    await page.goto(`${base}/api/auth/sso/${provider?.id}/callback?state=stale&code=x`);
    await page.getByText('That sign-in took too long or was used already').waitFor();
    const query = new URL(page.url()).searchParams;
    expect([query.get('sso-error'), query.get('sso-provider')]).toEqual([
      'sign-in-expired',
      String(provider?.id),
    ]);
    // No e-mail typed, yet the way back is there.
    const again = page.getByRole('link', { name: 'Sign in with your identity provider again' });
    await again.waitFor();
    await look(page, 'sso-refused-retry');
    await again.click();
    await page.getByRole('link', { name: 'Ben Byte' }).waitFor();
    // A refusal the admin must fix first offers no button that would fail the same way.
    const other = await newPage();
    await other.goto(`${base}/sign-in?sso-error=no-role&sso-provider=${provider?.id}`);
    await other.getByText('gave you no role in webmon').waitFor();
    expect(await other.getByRole('link', { name: /identity provider again/ }).count()).toBe(0);
  });

  it('asks an existing password account’s person to link it with the password, once', async () => {
    const users = new UserRepository(api.db);
    const pat = await users.create(
      { organizationId, email: 'pat@agency.test', name: 'Pat', role: 'viewer', customerId: null },
      await hashPassword(TEST_PASSWORD),
    );
    idp.signInAs({ sub: 'pat-1', email: pat.email, name: 'Pat', groups: ['monitoring-editors'] });
    const page = await newPage();
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('E-mail').fill(pat.email);
    await page.getByRole('link', { name: 'Sign in with Agency IdP' }).click();
    await page.getByRole('heading', { name: 'Link your account to Agency IdP' }).waitFor();
    await look(page, 'sso-link');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Link and sign in' }).click();
    await page.getByRole('link', { name: 'Pat' }).waitFor();
    expect((await users.findById(organizationId, pat.id))?.identities?.[0]?.subject).toBe('pat-1');
  });

  it('requires single sign-on with a break-glass owner from the settings', async () => {
    // An admin sees the setting but may not change it: who keeps a password is the owners' to say.
    const admin = await createUser(api, organizationId, 'admin');
    const adminPage = await newPage();
    await signInThroughForm(adminPage, base, admin.email, { next: '/settings' });
    await adminPage.getByText('Only an owner of your organization can change these').waitFor();
    expect(await adminPage.getByLabel(/Require single sign-on/).isDisabled()).toBe(true);
    expect(await adminPage.getByRole('button', { name: 'Save single sign-on' }).count()).toBe(0);

    const page = await newPage();
    await signInThroughForm(page, base, owner.email, { next: '/settings' });
    await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
    await page.getByLabel(/Require single sign-on/).check();
    await page.getByLabel(new RegExp(owner.email)).check();
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await page.getByText('Saved.').waitFor();
    await look(page, 'sso-settings');
    const organization = await api.request('GET', '/api/organization', {
      token: await api.createToken(organizationId, ['read']),
    });
    expect(organization.body).toMatchObject({ requireSso: true, breakGlassUserIds: [owner.id] });
    // A password sign-in of anyone else is now refused with the way in.
    const editor = await createUser(api, organizationId, 'editor');
    const other = await newPage();
    await signInThroughForm(other, base, editor.email);
    await other.getByText('Your organization signs in with its identity provider').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
