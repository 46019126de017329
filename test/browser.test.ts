import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOTS } from './support/browser.js';
import { until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';

describe('in a real browser (Debian chromium): the status page and the badges', () => {
  let stack: MonitoringStack;
  let browser: Browser;
  const slug = `browser-${randomUUID().slice(0, 8)}`;
  let upPublicId: string;
  let base: string;

  beforeAll(async () => {
    stack = await startMonitoringStack('browser-node', { rollupFlushMs: 300 });
    base = stack.api.api.url;
    const create = async (name: string, path: string) =>
      (
        await stack.api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
          token: stack.token,
          body: {
            customerId: stack.customerId,
            name,
            url: `${stack.target.url}${path}`,
            checkInterval: 10,
            timeoutSeconds: 5,
          },
        })
      ).body;
    const up = await create('Storefront', '/redirect/1');
    const down = await create('Payments API', '/status/503');
    upPublicId = up.publicId;
    await until(async () => (await stack.status(up.id)).status === 'up', 20_000);
    await until(async () => (await stack.status(down.id)).status === 'down', 20_000);
    const page = await stack.api.request('POST', '/api/status-pages', {
      token: stack.token,
      body: { slug, title: 'Acme status', customerId: stack.customerId, public: true },
    });
    expect(page.status).toBe(201);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack.stop();
  });

  it('the status page shows both states, the uptime bars and the incident, with or without JavaScript', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      const response = await page.goto(`${base}/status/${slug}`);
      expect(response?.status()).toBe(200);
      await expect.poll(() => page.getByRole('status').textContent()).toBe('Partial outage');
      const storefront = page.getByRole('article', { name: 'Storefront' });
      const payments = page.getByRole('article', { name: 'Payments API' });
      expect(await storefront.locator('.state').textContent()).toContain('Operational');
      expect(await payments.locator('.state').textContent()).toContain('Down');
      expect(await storefront.locator('li.bar').count()).toBe(90);
      expect(
        await payments
          .getByRole('list', { name: /Uptime of the last 90 days/ })
          .locator('li')
          .count(),
      ).toBe(90);
      // Each bar says its day in words (hover title and screen-reader text), not by colour alone.
      const today = await payments.locator('li.bar').last();
      expect(await today.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d: [\d.]+% uptime, .+ down$/);
      expect(await page.getByRole('region', { name: 'Incidents' }).textContent()).toContain(
        'Payments API is down since',
      );
      if (javaScriptEnabled)
        await page.screenshot({ path: join(SCREENSHOTS, 'status-page.png'), fullPage: true });
      await context.close();
    }
  });

  it('reads on a phone without sideways scrolling', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${base}/status/${slug}`);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'status-page-phone.png'), fullPage: true });
    await context.close();
  });

  it('badges are SVG documents the browser parses', async () => {
    const page = await browser.newPage();
    for (const path of [`/badge/${upPublicId}/status.svg`, `/badge/${upPublicId}/uptime.svg?period=7d`]) {
      await page.goto(`${base}${path}`);
      // Evaluated in the page (a string: the tests are type-checked without the DOM's types).
      const parsed = (await page.evaluate(`({
        namespace: document.documentElement.namespaceURI,
        errors: document.getElementsByTagName('parsererror').length,
        label: document.documentElement.getAttribute('aria-label'),
        width: document.documentElement.width.baseVal.value,
      })`)) as { namespace: string; errors: number; label: string; width: number };
      expect(parsed).toMatchObject({ namespace: 'http://www.w3.org/2000/svg', errors: 0 });
      expect(parsed.label).toMatch(/^(status: operational|uptime 7d: 100\.00%)$/);
      expect(parsed.width).toBeGreaterThan(50);
    }
    await page.close();
  });
});
