import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOTS } from './support/browser.js';
import { TestApi } from './support/harness.js';
import { freePort } from './support/oidc-provider.js';
import { SamlTestIdp } from './support/saml-idp.js';

/**
 * SAML sign-in in Chromium, with the IdP on another site (localhost) than webmon (127.0.0.1): the
 * IdP's page posts its form to our ACS cross-site, so the Lax flow cookie is not sent with it,
 * and must come back with the same-site GET the ACS redirects to. This is what the two-step ACS
 * is for, checked in a real browser's cookie rules rather than in a test's cookie jar.
 */
describe('SAML sign-in in a real browser, the IdP on another site', { timeout: 120_000 }, () => {
  let api: TestApi;
  let idp: SamlTestIdp;
  let browser: Browser;
  let base: string;
  let providerId: number;
  let token: string;

  beforeAll(async () => {
    idp = await SamlTestIdp.start('localhost');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = await TestApi.start({ PORT: String(port), PUBLIC_URL: base });
    ({ token } = await api.createOrganization(['admin']));
    const created = await api.request<{ id: number }>('POST', '/api/identity-providers', {
      token,
      body: {
        type: 'saml',
        name: 'Agency SAML',
        metadataXml: idp.metadataXml,
        allowedDomains: ['agency.test'],
        roleMapping: [{ group: 'monitoring-admins', role: 'admin' }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    providerId = created.body.id;
    idp.trust(await (await fetch(`${base}/api/auth/sso/${providerId}/metadata`)).text());
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await idp?.close();
  });

  it('signs in through the IdP’s auto-posting form, and refuses the same form posted from a browser that did not start it', async () => {
    idp.person = { nameId: 'grace@agency.test', displayName: 'Grace Hopper', groups: ['monitoring-admins'] };
    const context = await browser.newContext();
    const page = await context.newPage();
    // The headers as sent, cookies included (`headers()` leaves them out).
    const acsPosts: Array<Promise<Record<string, string>>> = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/auth/sso/${providerId}/acs`))
        acsPosts.push(request.allHeaders());
    });
    await page.goto(`${base}/api/auth/sso/${providerId}/start?next=/customers`);
    await page.waitForURL(`${base}/customers`);
    // The app shows who signed in: the name the assertion gave.
    await page.getByText('Grace Hopper').waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(SCREENSHOTS, 'sso-saml-signed-in.png'), fullPage: true });
    // The cross-site POST carried no webmon_sso cookie (Lax), yet the sign-in completed.
    expect(acsPosts).toHaveLength(1);
    expect((await acsPosts[0])?.cookie ?? '').not.toContain('webmon_sso');
    const me = await context.request.get(`${base}/api/me`);
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ user: { email: 'grace@agency.test', role: 'admin' } });

    // Another browser is handed a form the IdP made for a request it did not start (login CSRF).
    const intruder = await browser.newContext();
    const other = await intruder.newPage();
    const form = await (await fetch(`${idp.url}/sso?${await requestQuery()}`)).text();
    await other.setContent(form.replace('<script>document.forms[0].submit()</script>', ''));
    await other.getByRole('button', { name: 'Continue' }).click();
    await other.waitForURL(/\/sign-in\?sso-error=/);
    expect(new URL(other.url()).searchParams.get('sso-error')).toBe('sign-in-expired');
    // The sign-in page says what happened, in words (the app's sentence for the reason).
    await other.getByText(/took too long or was used already/).waitFor();
    await other.screenshot({ path: join(SCREENSHOTS, 'sso-saml-refused.png'), fullPage: true });
    expect((await intruder.request.get(`${base}/api/me`)).status()).toBe(401);
    await context.close();
    await intruder.close();
  });

  /** An AuthnRequest of a sign-in started elsewhere (the attacker's own browser). */
  async function requestQuery(): Promise<string> {
    const start = await fetch(`${base}/api/auth/sso/${providerId}/start`, { redirect: 'manual' });
    return new URL(start.headers.get('location') ?? '').search.slice(1);
  }

  it('posts the AuthnRequest to an IdP that takes HTTP-POST only: the page’s own script submits it under its CSP', async () => {
    const postOnly = idp.metadataXml.replace(
      /<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"[^>]*>(<\/SingleSignOnService>)?/,
      '',
    );
    const created = await api.request<{ id: number }>('POST', '/api/identity-providers', {
      token,
      body: { type: 'saml', name: 'POST-only', metadataXml: postOnly, allowedDomains: ['agency.test'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const page = await (await browser.newContext()).newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const posted = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url() === `${idp.url}/sso`,
    );
    await page.goto(`${base}/api/auth/sso/${created.body.id}/start`);
    const request = await posted;
    const form = new URLSearchParams(request.postData() ?? '');
    expect(Buffer.from(form.get('SAMLRequest') ?? '', 'base64').toString()).toContain('AuthnRequest');
    expect(form.get('RelayState')).toMatch(/^_[0-9a-f]{40}$/);
    expect(refused).toEqual([]);
  });
});
