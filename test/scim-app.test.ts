import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsTheWidth, launchBrowser, lookedAt, signInThroughForm } from './support/browser.js';
import { TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

describe('the SCIM screen in a real browser', { timeout: 90_000 }, () => {
  let api: TestApi;
  let browser: Browser;

  beforeAll(async () => {
    api = await TestApi.start();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('makes a token shown once with the base URL and its role mapping, lists it, and revokes it', async () => {
    const organizationId = await createOrganizationId(api);
    const owner = await createUser(api, organizationId, 'owner');
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    await signInThroughForm(page, api.api.url, owner.email, { next: '/settings' });
    await page.getByRole('link', { name: 'SCIM provisioning' }).click();
    await page.getByRole('heading', { level: 1, name: 'SCIM provisioning' }).waitFor();
    await expect(page.getByText(`${api.api.url}/scim/v2`, { exact: true }).isVisible()).resolves.toBe(true);
    await page.getByText('No SCIM tokens yet').waitFor();

    // Refused before it is sent: the schema the API checks with, at the field.
    await page.getByRole('button', { name: 'Make the token' }).click();
    await page.getByText('Must not be empty').waitFor();

    await page.getByLabel('Token name').fill('Entra ID');
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByLabel('Rule 1: group').fill('webmon-admins');
    await page.getByLabel('Rule 1: role').selectOption('admin');
    await page.getByLabel('Default role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Make the token' }).click();

    const shown = page.locator('code.secret', { hasText: 'wmscim_' });
    await shown.waitFor();
    const token = ((await shown.textContent()) ?? '').trim();
    expect(token).toMatch(/^wmscim_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy the token' }).click();
    await page.getByText('Copied.', { exact: true }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
    const row = page.getByRole('row', { name: /Entra ID/ });
    await expect(row.getByText('group webmon-admins → admin').isVisible()).resolves.toBe(true);
    await expect(row.getByText('anyone else → viewer').isVisible()).resolves.toBe(true);
    expect(await lookedAt(page, 'scim-tokens')).toEqual([]);
    // On a phone the token and the list wrap rather than scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await lookedAt(page, 'scim-tokens-phone')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The token works for SCIM; the list never shows it again.
    expect((await api.request('GET', '/scim/v2/Users', { token })).status).toBe(200);
    await page.reload();
    await page.getByRole('row', { name: /Entra ID/ }).waitFor();
    expect(await page.locator('code.secret', { hasText: 'wmscim_' }).count()).toBe(0);

    await page
      .getByRole('row', { name: /Entra ID/ })
      .getByRole('button', { name: 'Revoke…' })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No SCIM tokens yet').waitFor();
    expect((await api.request('GET', '/scim/v2/Users', { token })).status).toBe(401);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
