import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOTS } from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser, TEST_PASSWORD } from './support/people.js';

/**
 * A client-only status page sends a visitor to the app's sign-in with `?next=/status/<slug>`: once
 * signed in, the browser loads that page from the server (the app has no screen there), and the
 * page shows with the new session.
 */
describe('signing in to see a client-only status page', () => {
  let api: TestApi;
  let browser: Browser;
  let clientEmail: string;
  const slug = `clients-only-${Date.now().toString(36)}`;

  beforeAll(async () => {
    api = await TestApi.start();
    const { organizationId, token } = await api.createOrganization(['admin']);
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    const created = await api.request('POST', '/api/status-pages', {
      token,
      body: { slug, title: 'Initech for clients', customerId, public: true, access: { mode: 'clients' } },
    });
    expect(created.status).toBe(201);
    clientEmail = (await createUser(api, organizationId, 'client', customerId)).email;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('follows the page’s sign-in link, signs in, and lands on the status page itself', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const refused = await page.goto(`${api.api.url}/status/${slug}`);
    expect(refused?.status()).toBe(403);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe(`/status/${slug}`);
    await page.getByLabel('E-mail').fill(clientEmail);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    const loaded = page.waitForResponse((r) => new URL(r.url()).pathname === `/status/${slug}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // A full load of the server's page (the app's router would have shown its own "Not found").
    expect((await loaded).status()).toBe(200);
    await page.getByRole('heading', { name: 'Initech for clients' }).first().waitFor();
    expect(await page.getByRole('heading', { name: 'Not found' }).count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-sign-in-to-client-page-390.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
