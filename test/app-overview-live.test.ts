import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckFeed } from '../libs/monitoring/index.js';
import {
  fitsTheWidth,
  launchBrowser,
  SCREENSHOTS,
  seriousAxeViolations,
  signInThroughForm,
} from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser } from './support/people.js';

/**
 * The overview follows the API's stream: a check told on the workers' feed (as a worker tells it,
 * through CheckFeed) shows in the open overview within 5 s, with no reading of the list (the app
 * no longer polls; its fallback reads every 30 s).
 */
describe('the app’s overview, live', { timeout: 90_000 }, () => {
  let api: TestApi;
  let browser: Browser;
  let redis: Redis;
  let feed: CheckFeed;
  let email: string;
  let organizationId: number;
  let customerId: number;
  let websiteId: number;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start();
    const created = await api.createOrganization(['admin']);
    token = created.token;
    organizationId = created.organizationId;
    customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Live Customer');
    const made = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Live Site', url: 'https://live.example.com/' },
    });
    expect(made.status).toBe(201);
    websiteId = made.body.id;
    email = (await createUser(api, organizationId, 'editor')).email;
    redis = new Redis(api.config.REDIS_URL);
    feed = new CheckFeed(redis, api.config.REDIS_KEY_PREFIX);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    redis?.disconnect();
    await api?.stop();
  });

  it('shows a check that came by the stream within 5 s, and reads nothing for it', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    const reads: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/websites') || pathname === '/api/dashboard/websites')
        reads.push(pathname);
    });
    await signInThroughForm(page, api.api.url, email);
    const row = page.locator('tbody tr', { hasText: 'Live Site' });
    await row.locator('text=No checks yet').waitFor();
    await page.getByText('Updated as checks finish.').waitFor();
    const readsBefore = reads.length;

    const now = Date.now();
    const sent = performance.now();
    // As a worker tells its checks: the website's list in Redis and the feed's channel.
    for (const [i, status] of (['up', 'up', 'down'] as const).entries())
      feed.told(
        {
          organizationId,
          websiteId,
          startedAt: new Date(now - (2 - i) * 1000),
          status,
          error: null,
          timings: { dns: 1, connect: 1, tls: 1, ttfb: 100, download: 0, total: 140 + i },
        },
        { customerId },
        { reported: { status, since: new Date(now) }, health: status },
      );
    await row.locator('.check-down').waitFor({ timeout: 5_000 });
    const shownMs = performance.now() - sent;
    console.info(`a check told on the feed shown in the open overview ${shownMs.toFixed(0)} ms later`);
    expect(shownMs).toBeLessThan(5_000);
    expect(await row.locator('.check-mark').count()).toBe(3);
    expect(await row.locator('td[data-label="Status"]').textContent()).toContain('Down');
    expect(await row.locator('td[data-label="Response time"]').textContent()).toContain('142 ms');
    expect(reads.slice(readsBefore)).toEqual([]);
    expect(await fitsTheWidth(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-overview-live-phone.png') });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('follows websites written, added and deleted and a customer renamed elsewhere, within 5 s each', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughForm(page, api.api.url, email);
    const rows = page.locator('tbody tr');
    await rows.filter({ hasText: 'Live Site' }).waitFor();
    await page.getByText('Updated as checks finish.').waitFor();
    const shownWithin5s = async (what: string, shown: () => Promise<unknown>) => {
      const sent = performance.now();
      await shown();
      console.info(`${what} shown in the open overview ${(performance.now() - sent).toFixed(0)} ms later`);
    };

    const { publicId } = (
      await api.request<{ publicId: string }>('GET', `/api/websites/${websiteId}`, { token })
    ).body;
    const renamed = await api.request('PATCH', `/api/websites/${publicId}`, {
      token,
      body: { name: 'Live Site Renamed', paused: true },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const row = rows.filter({ hasText: 'Live Site Renamed' });
    await shownWithin5s('a rename and a pause', () =>
      row.locator('td[data-label="Status"]', { hasText: 'Paused' }).waitFor({ timeout: 5_000 }),
    );

    const added = await api.request<{ publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Added Elsewhere', url: 'https://added.example.com/' },
    });
    expect(added.status).toBe(201);
    await shownWithin5s('a website added', () =>
      rows.filter({ hasText: 'Added Elsewhere' }).waitFor({ timeout: 5_000 }),
    );

    const customerRenamed = await api.request('PATCH', `/api/customers/${customerId}`, {
      token,
      body: { name: 'Live Customer Renamed' },
    });
    expect(customerRenamed.status, JSON.stringify(customerRenamed.body)).toBe(200);
    await shownWithin5s('a customer renamed', () =>
      page.getByRole('heading', { name: 'Live Customer Renamed' }).waitFor({ timeout: 5_000 }),
    );

    expect((await api.request('DELETE', `/api/websites/${added.body.publicId}`, { token })).status).toBe(204);
    await shownWithin5s('a website deleted', () =>
      rows.filter({ hasText: 'Added Elsewhere' }).waitFor({ state: 'detached', timeout: 5_000 }),
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'app-overview-live-written.png') });
    await context.close();
  });
});
