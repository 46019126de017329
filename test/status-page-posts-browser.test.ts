import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsTheWidth, launchBrowser, SCREENSHOTS, seriousAxeViolations } from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

/** An update's Markdown written to attack visitors: each trick must arrive as text or a safe link. */
const HOSTILE = [
  '**Checkout** is failing. <script>alert("script")</script>',
  '',
  '[Open the console](javascript:alert("link")) · [help](https://help.example/checkout) · ops@example.com',
  '',
  '<img src=x onerror=alert("img")> ![pic](javascript:alert("image")) [data](data:text/html,<script>alert(1)</script>)',
].join('\n');

describe('an incident post’s Markdown in a browser: inert', () => {
  let api: TestApi;
  let browser: Browser;
  const slug = `inert-${randomUUID().slice(0, 8)}`;
  let postId: number;

  beforeAll(async () => {
    api = await TestApi.start();
    await api.serveRegion();
    const { token } = await api.createOrganization();
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    const website = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Checkout', url: 'https://checkout.example.com/' },
    });
    expect(website.status).toBe(201);
    const page = await api.request<{ id: number }>('POST', '/api/status-pages', {
      token,
      body: { slug, title: 'Acme status', customerId, public: true },
    });
    const post = await api.request<{ id: number }>('POST', `/api/status-pages/${page.body.id}/incidents`, {
      token,
      body: {
        title: 'Checkout errors',
        components: [{ id: website.body.id, impact: 'major_outage' }],
        status: 'identified',
        message: HOSTILE,
      },
    });
    expect(post.status).toBe(201);
    postId = post.body.id;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  for (const [name, path] of [
    ['the page', () => `/status/${slug}`],
    ['the permalink', () => `/status/${slug}/incidents/${postId}`],
    ['the month', () => `/status/${slug}/history`],
  ] as const)
    it(`${name}: no dialog ever opens, no link leads to javascript:, at 390 px too`, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const response = await page.goto(`${api.api.url}${path()}`);
      expect(response?.status()).toBe(200);
      await expect(page.locator('.message strong', { hasText: 'Checkout' }).first()).toBeTruthy();
      const hrefs = await page.$$eval('a', (links) => links.map((link) => link.getAttribute('href') ?? ''));
      expect(hrefs.some((href) => /^\s*(javascript|data|vbscript):/i.test(href))).toBe(false);
      expect(hrefs).toContain('https://help.example/checkout');
      expect(await page.locator('script, img, iframe').count()).toBe(0);
      // The text of the tricks is shown as text.
      expect(await page.locator('.message').first().textContent()).toContain(
        '<script>alert("script")</script>',
      );
      // Every link and button a visitor could use, used: still no dialog.
      for (const link of await page.locator('.message a').all())
        await link.click({ modifiers: ['Control'] }).catch(() => undefined);
      await page.waitForTimeout(300);
      expect(dialogs).toEqual([]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await fitsTheWidth(page)).toBe(true);
      await page.screenshot({
        path: join(SCREENSHOTS, `status-post-inert-${name.replace(/\W+/g, '-')}.png`),
        fullPage: true,
      });
      await context.close();
    });
});
