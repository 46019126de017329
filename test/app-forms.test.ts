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
import { createPackage, TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

/**
 * The app's forms check what they send with the API's own schema (imported from libs/) before
 * sending it, and still show what only the server can tell at the field it names.
 */
describe('the app in a real browser: a form’s own and the API’s field errors', { timeout: 90_000 }, () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let token: string;
  let packageId: number;
  let doomedId: number;
  const pageErrors: string[] = [];
  const customerPosts: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    const organizationId = await createOrganizationId(api);
    token = await api.createToken(organizationId, ['admin']);
    packageId = (await createPackage(api, token, { displayName: 'Standard' })).id;
    doomedId = (await createPackage(api, token, { displayName: 'Doomed' })).id;
    const editor = await createUser(api, organizationId, 'editor');
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/customers')
        customerPosts.push(request.postData() ?? '');
    });
    await signInThroughForm(page, api.api.url, editor.email, { next: '/customers' });
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  /** The error shown at a control: its aria-invalid and the text its aria-describedby names. */
  const errorAt = async (label: string) => {
    const control = page.getByLabel(label, { exact: true });
    if ((await control.getAttribute('aria-invalid')) !== 'true') return null;
    const ids = (await control.getAttribute('aria-describedby')) ?? '';
    const id = ids.split(' ').find((one) => one.endsWith('-error'));
    return id ? page.locator(`[id="${id}"]`).textContent() : null;
  };

  it('shows the schema’s error at its field when the field is left and on submit, sending nothing', async () => {
    await page.getByLabel('Customer name').fill('Globex');
    await page.getByLabel('Contact e-mail (optional)').fill('not an address');
    await page.getByLabel('Contact e-mail (optional)').blur();
    await expect.poll(() => errorAt('Contact e-mail (optional)')).toMatch(/email/i);
    // Typing takes the error away until the field is left again.
    await page.getByLabel('Contact e-mail (optional)').press('End');
    await page.getByLabel('Contact e-mail (optional)').pressSequentially('x');
    expect(await errorAt('Contact e-mail (optional)')).toBeNull();

    await page.getByRole('button', { name: 'Create the customer' }).click();
    await page.getByRole('alert').filter({ hasText: 'Some fields need a look' }).waitFor();
    expect(await errorAt('Contact e-mail (optional)')).toMatch(/email/i);
    // No package chosen either: the schema names both fields at once.
    expect(await errorAt('Package')).toBe('⚠ Required');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-form-schema-error.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // On a phone the errors stay at their fields, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-form-schema-error-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(customerPosts).toEqual([]);
  });

  it('shows the API’s field error (a package deleted meanwhile) at its field, then creates the customer', async () => {
    await page.getByLabel('Contact e-mail (optional)').fill('it@globex.example');
    await page.getByLabel('Package').selectOption({ label: 'Doomed' });
    // Only the server knows: the package chosen is deleted after the form listed it.
    expect((await api.request('DELETE', `/api/packages/${doomedId}`, { token })).status).toBe(204);
    await page.getByRole('button', { name: 'Create the customer' }).click();
    await expect.poll(() => errorAt('Package')).toContain(`No package ${doomedId} in your organization`);
    expect(await errorAt('Contact e-mail (optional)')).toBeNull();
    expect(customerPosts).toHaveLength(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-form-api-error.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel('Package').selectOption(String(packageId));
    await page.getByRole('button', { name: 'Create the customer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Globex' }).waitFor();
    // The list read again after the write: the new customer is there on the way back.
    await page.getByRole('link', { name: 'Customers' }).first().click();
    await page.getByRole('link', { name: 'Globex' }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
