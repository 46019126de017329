import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fitsTheWidth,
  launchBrowser,
  SCREENSHOTS,
  seriousAxeViolations,
  signInThroughForm,
} from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

/** The app's Incident posts screen: compose with impacts, preview the Markdown, post, update, resolve. */
describe('the app in a real browser: incident posts', { timeout: 90_000 }, () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let pageId: number;
  let slug: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    await api.serveRegion();
    const organizationId = await createOrganizationId(api);
    const token = await api.createToken(organizationId, ['admin']);
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Initech');
    for (const name of ['Shop', 'Checkout'])
      await api.request('POST', '/api/websites', {
        token,
        body: { customerId, name, url: `https://${name.toLowerCase()}.example.com/` },
      });
    slug = `app-posts-${organizationId}`;
    const created = await api.request<{ id: number }>('POST', '/api/status-pages', {
      token,
      body: { slug, title: 'Initech status', customerId, public: true },
    });
    pageId = created.body.id;
    const admin = await createUser(api, organizationId, 'admin');
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api.api.url, admin.email, { next: `/status-pages/${pageId}` });
    await page.getByRole('link', { name: 'Incident posts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Incident posts' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('composes a post with an impact, previews its Markdown, posts it, updates and resolves it', async () => {
    await page.getByLabel('Title').first().fill('Checkout errors');
    await page.getByLabel('Checkout').selectOption('major_outage');
    await page.getByLabel('Message').fill('**Payments** fail. <script>alert(1)</script>');
    await page.getByRole('button', { name: 'Preview' }).first().click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect.poll(() => preview.innerHTML()).toContain('<strong>Payments</strong>');
    expect(await preview.innerHTML()).not.toContain('<script>');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Posted “Checkout errors”' }).waitFor();
    const post = page.getByRole('article', { name: /Checkout errors/ });
    await post.waitFor();
    expect(await post.textContent()).toContain('Checkout: Major outage');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await fitsTheWidth(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-incident-posts-390.png'), fullPage: true });

    await post.getByLabel('Status').selectOption('resolved');
    await post.getByLabel('Update', { exact: true }).fill('Fixed: the payment provider answers again.');
    await post.getByRole('button', { name: 'Post the update' }).click();
    // Polled on the update's own words: "Resolved" is in the status select already.
    await expect.poll(() => post.textContent()).toContain('Fixed: the payment provider answers again.');
    const data = await api.request<{ posts: Array<{ title: string; status: string }> }>(
      'GET',
      `/status/${slug}.json`,
    );
    expect(data.body.posts).toEqual([
      expect.objectContaining({ title: 'Checkout errors', status: 'resolved' }),
    ]);
    expect(pageErrors).toEqual([]);
  });
});
