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

/** A status page's language, time zone and sections set in the app, then the page as its visitors see it. */
describe('the app’s language, time zone and sections of a status page', () => {
  let api: TestApi;
  let browser: Browser;
  let token: string;
  let editorEmail: string;
  let pageId: number;
  let websiteIds: number[];
  const slug = `sprache-app-${Date.now().toString(36)}`;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    let organizationId: number;
    ({ token, organizationId, pageId, websiteIds } = await publishedPageOf(api, {
      slug,
      title: 'Acme Status',
      websites: ['Shop', 'Blog', 'Mail'],
    }));
    editorEmail = (await createUser(api, organizationId, 'editor')).email;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  const look = async (page: Page, name: string) => expect(await lookedAt(page, name), name).toEqual([]);

  it('sets the language, refuses an unknown time zone at its field, and orders named sections', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api.api.url, editorEmail);
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    await page.goto(`${api.api.url}/status-pages/${pageId}`);
    const form = page.getByRole('form', { name: 'Status page settings' });
    await form.getByLabel('Language').selectOption('de');

    const zone = form.getByRole('combobox', { name: 'Time zone' });
    await zone.fill('Europe/Atlantis');
    await zone.blur();
    await expect
      .poll(() => form.getByText('must be an IANA time zone such as Europe/Berlin').count())
      .toBe(1);
    expect(await zone.getAttribute('aria-invalid')).toBe('true');
    await zone.fill('Europe/Berlin');

    await form.getByRole('button', { name: 'Add a section' }).click();
    await form.getByLabel('Section name').nth(0).fill('Kasse');
    const kasse = form.getByRole('group', { name: 'Websites in Kasse' });
    await kasse.getByLabel('Shop').check();
    await kasse.getByLabel('Mail').check();
    await form.getByRole('button', { name: 'Add a section' }).click();
    await form.getByLabel('Section name').nth(1).fill('Inhalte');
    const inhalte = form.getByRole('group', { name: 'Websites in Inhalte' });
    // A website in one section cannot be put in another.
    expect(await inhalte.getByLabel('Shop (in Kasse)').isDisabled()).toBe(true);
    await inhalte.getByLabel('Blog').check();
    await form.getByRole('button', { name: 'Move up: Inhalte' }).click();
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await labelsOutgrowingTheirCells(page)).toEqual([]);
    await look(page, 'status-page-language-phone');

    await form.getByRole('button', { name: 'Save the status page' }).click();
    const settings = async () => (await api.request('GET', `/api/status-pages/${pageId}`, { token })).body;
    await expect.poll(async () => (await settings()).language).toBe('de');
    expect(await settings()).toMatchObject({
      language: 'de',
      timezone: 'Europe/Berlin',
      sections: [
        { name: 'Inhalte', websiteIds: [websiteIds[1]] },
        { name: 'Kasse', websiteIds: [websiteIds[0], websiteIds[2]] },
      ],
    });

    // Removed, a section's websites go back to the rest.
    await form.getByRole('button', { name: 'Remove Kasse' }).click();
    await form.getByRole('button', { name: 'Save the status page' }).click();
    await expect
      .poll(async () => (await settings()).sections)
      .toEqual([{ name: 'Inhalte', websiteIds: [websiteIds[1]] }]);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows visitors the page in German with its sections, at 390 px', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${api.api.url}/status/${slug}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
    expect(headings.slice(0, 2)).toEqual(['Inhalte', 'Weitere Websites']);
    expect(await page.getByRole('link', { name: 'Updates abonnieren' }).first().getAttribute('href')).toBe(
      `/status/${slug}/subscribe`,
    );
    expect(await fitsTheWidth(page)).toBe(true);
    await look(page, 'status-page-german-phone');
    await page.getByRole('link', { name: 'Updates abonnieren' }).first().click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Updates per E-Mail erhalten' }).count())
      .toBe(1);
    await look(page, 'status-page-german-subscribe-phone');
    await context.close();
  }, 60_000);
});
