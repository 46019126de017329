import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fitsTheWidth,
  labelsOutgrowingTheirCells,
  launchBrowser,
  lookedAt,
  signInThroughForm,
} from './support/browser.js';
import { TestApi } from './support/harness.js';
import { createUser } from './support/people.js';
import { publishedPageOf } from './support/status-page-fixture.js';

/** A status page's Access part and its badge and widget, then the password page as a visitor sees it. */
describe('the app’s Access part of a status page, and the password page', () => {
  let api: TestApi;
  let browser: Browser;
  let editorEmail: string;
  let pageId: number;
  const slug = `shop-${Date.now()}`;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    let organizationId: number;
    ({ organizationId, pageId } = await publishedPageOf(api, {
      slug: slug,
      title: 'Shop status',
      websites: [],
    }));
    editorEmail = (await createUser(api, organizationId, 'editor')).email;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  const look = async (page: Page, name: string) => expect(await lookedAt(page, name), name).toEqual([]);

  it('shows a public page’s badge and widget, protects it with a password, and refuses a bad range', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api.api.url, editorEmail);
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    await page.goto(`${api.api.url}/status-pages/${pageId}`);
    const embed = page.getByRole('region', { name: 'Badge and widget' });
    await expect
      .poll(() => embed.getByRole('textbox', { name: 'Widget (iframe)' }).inputValue())
      .toContain(`src="${api.api.url}/status/${slug}/widget"`);
    expect(await embed.getByRole('textbox', { name: 'Badge (Markdown)' }).inputValue()).toBe(
      `[![Status](${api.api.url}/status/${slug}/badge.svg)](${api.api.url}/status/${slug})`,
    );
    expect(await fitsTheWidth(page)).toBe(true);
    const badge = embed.getByRole('img', { name: 'Shop status: status badge' });
    await expect.poll(() => badge.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await look(page, 'status-page-embed');

    const form = page.getByRole('form', { name: 'Status page settings' });
    await form.getByLabel('Visitors with a password').check();
    await form.getByRole('button', { name: 'Save the status page' }).click();
    await expect.poll(() => form.getByText('set a password to protect the page with').count()).toBe(1);
    await form.getByLabel('Set a password').fill('orange-lantern-42');
    await form.getByRole('button', { name: 'Save the status page' }).click();
    await expect.poll(() => form.getByLabel('Change the password (optional)').count()).toBe(1);
    expect(await form.getByLabel('Change the password (optional)').inputValue()).toBe('');
    await expect.poll(() => embed.getByText('A private page has no badge or widget').count()).toBe(1);
    await look(page, 'status-page-access-password');

    await form.getByLabel('Visitors from these networks').check();
    await form.getByLabel('Allowed networks').fill('203.0.113.0/24\nnot-a-range');
    await form.getByRole('button', { name: 'Save the status page' }).click();
    await expect.poll(() => form.getByText(/not-a-range: must be an IPv4 or IPv6 address/).count()).toBe(1);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await labelsOutgrowingTheirCells(page)).toEqual([]);
    await look(page, 'status-page-access-phone');
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);

  it('lets a visitor in with the password, through a form without script', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const form = await page.goto(`${api.api.url}/status/${slug}`);
    // The form works without script: the page has none (and its policy would run none).
    expect(await form?.text()).not.toContain('<script');
    await expect
      .poll(() => page.getByRole('heading', { name: 'This status page is private' }).count())
      .toBe(1);
    expect(await page.getByText('Shop status').count()).toBe(0);
    await page.getByLabel('Password').fill('not it');
    await page.getByRole('button', { name: 'View the status page' }).click();
    await expect.poll(() => page.getByText('That password is not right.').count()).toBe(1);
    await look(page, 'status-page-password-form');
    await page.getByLabel('Password').fill('orange-lantern-42');
    await page.getByRole('button', { name: 'View the status page' }).click();
    await expect.poll(() => page.url()).toBe(`${api.api.url}/status/${slug}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Shop status' }).count()).toBe(1);
    await context.close();
  }, 60_000);
});
