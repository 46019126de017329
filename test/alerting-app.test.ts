import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsTheWidth, launchBrowser, lookedAt, signInThroughForm } from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser } from './support/people.js';

/**
 * The app in a real browser: a website's dependencies (add what it depends on, see it and its
 * children, remove it) and a channel's grouping (a burst of failures in one message).
 */
describe('the app in a real browser: dependencies and grouping', { timeout: 120_000 }, () => {
  let api: TestApi;
  let token: string;
  let browser: Browser;
  let page: Page;
  let server: { id: number; publicId: string };
  let shop: { id: number; publicId: string };

  beforeAll(async () => {
    api = await TestApi.start();
    let organizationId: number;
    ({ token, organizationId } = await api.createOrganization(['admin']));
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    const website = async (name: string, url: string) =>
      (
        await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
          token,
          body: { customerId, name, url },
        })
      ).body;
    server = await website('Hosting server', 'https://server.agency.example/');
    shop = await website('Client shop', 'https://shop.client.example/');
    const editor = await createUser(api, organizationId, 'editor');
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    await signInThroughForm(page, api.api.url, editor.email, { next: `/websites/${shop.publicId}` });
    await page.getByRole('heading', { level: 2, name: 'Depends on' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('a website depends on another: added in its page, shown on both, removed', async () => {
    const section = page.locator('#dependencies');
    await expect.poll(() => section.textContent()).toContain('It depends on nothing');
    await page.getByRole('button', { name: 'Add what it depends on' }).click();
    const form = page.getByRole('form', { name: 'Add a dependency' });
    // Another website comes first; this one, without other checks, says why nothing can be picked.
    await expect
      .poll(() => form.getByLabel('Website').locator('option:checked').textContent())
      .not.toBe('Client shop');
    await form.getByLabel('Website').selectOption({ label: 'Client shop' });
    await expect.poll(() => form.textContent()).toContain('This website has no other checks to depend on');
    expect(await form.getByLabel('Check').isDisabled()).toBe(true);
    await form.getByLabel('Website').selectOption({ label: 'Hosting server' });
    await expect.poll(() => form.getByLabel('Check').inputValue()).toBe('http');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => section.locator('li').first().textContent()).toContain('Hosting server');
    expect(await lookedAt(page, 'website-dependencies')).toEqual([]);
    const stored = await api.request<{ parents: Array<{ websiteId?: number }> }>(
      'GET',
      `/api/websites/${shop.publicId}/dependencies`,
      { token },
    );
    expect(stored.body.parents.map((p) => p.websiteId)).toEqual([server.id]);

    await page.goto(`${api.api.url}/websites/${server.publicId}`);
    await expect.poll(() => page.locator('#dependencies').textContent()).toContain('Depending on it');
    await expect.poll(() => page.locator('#dependencies').textContent()).toContain('Client shop');

    await page.goto(`${api.api.url}/websites/${shop.publicId}`);
    await page.getByRole('button', { name: 'Remove Hosting server' }).click();
    await expect.poll(() => page.locator('#dependencies').textContent()).toContain('It depends on nothing');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it('a channel groups failures: set in its form, stored, shown again', async () => {
    await page.goto(`${api.api.url}/channels/new`);
    await page.getByRole('heading', { level: 1, name: 'Add a channel' }).waitFor();
    await page.getByLabel('Type').selectOption('webhook');
    await page.getByLabel('Channel name').fill('Grouped hook');
    await page.getByLabel('URL', { exact: true }).fill('https://hooks.agency.example/alerts');
    await page.getByLabel('Group a burst of failures into one message').check();
    await page.getByLabel('Window (seconds)').fill('2');
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await expect.poll(() => page.getByLabel('Window (seconds)').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Window (seconds)').fill('45');
    await page.getByLabel('One message per').selectOption('organization');
    expect(await lookedAt(page, 'channel-grouping')).toEqual([]);
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await expect
      .poll(
        async () =>
          (
            await api.request<Array<{ name: string; grouping: unknown }>>(
              'GET',
              '/api/notification-channels',
              { token },
            )
          ).body.find((c) => c.name === 'Grouped hook')?.grouping,
      )
      .toEqual({ windowSeconds: 45, by: 'organization' });
  });

  it('a refused setting shows at its control, a list at its line, and the banner names no field paths', async () => {
    await page.goto(`${api.api.url}/channels/new`);
    await page.getByRole('heading', { level: 1, name: 'Add a channel' }).waitFor();
    await page.getByLabel('Type').selectOption('twilio');
    await page.getByLabel('Channel name').fill('SMS');
    await page.getByLabel('Account SID').fill(`AC${'0a'.repeat(16)}`);
    await page.getByLabel('Auth token').fill('1f'.repeat(16));
    await page.getByLabel('From', { exact: true }).fill('+15005550006');
    await page.getByLabel('To', { exact: true }).fill('+4915112345678\n+49 151 999');
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await expect.poll(() => page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    const to = page.getByLabel('To', { exact: true });
    const described = (await to.getAttribute('aria-describedby')) ?? '';
    const errorId = described.split(' ').find((id) => id.endsWith('-error')) ?? '';
    expect(await page.locator(`[id="${errorId}"]`).textContent()).toMatch(/line 2: /);
    const banner = (await page.getByRole('alert').first().textContent()) ?? '';
    expect(banner).not.toContain('config.');
    expect(await lookedAt(page, 'channel-refused-line')).toEqual([]);
    // Hints in the app's words: an empty control, not the API's null; a box says what it does.
    expect(await page.getByText('The API’s base URL; empty: https://api.twilio.com').count()).toBe(1);
    expect(
      await page.getByText('Call the numbers and read the alert out instead of sending an SMS.').count(),
    ).toBe(1);
  });
});
