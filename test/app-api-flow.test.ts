import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, type AccountApi, startAccountApi } from './support/account-api.js';
import {
  fitsTheWidth,
  launchBrowser,
  SCREENSHOTS,
  seriousAxeViolations,
  signInThroughForm,
} from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser } from './support/people.js';

const PASSWORD = ACCOUNT.password;

describe('the app in a real browser: an API flow added, mended, run and shown', { timeout: 120_000 }, () => {
  let api: TestApi;
  let account: AccountApi;
  let browser: Browser;
  let email: string;
  let websitePage: string;
  /** What the page logged as errors (an exception, a CSP refusal): none is expected. */
  const pageErrors: string[] = [];

  beforeAll(async () => {
    account = await startAccountApi();
    // The account API listens on 127.0.0.1: the API's address guard lets it through only so.
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    const { organizationId, token } = await api.createOrganization(['admin']);
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    const website = await api.request<{ publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Accounts', url: `${account.url}/` },
    });
    expect(website.status, JSON.stringify(website.body)).toBe(201);
    websitePage = `${api.api.url}/websites/${website.body.publicId}`;
    email = (await createUser(api, organizationId, 'editor')).email;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    account?.close();
  });

  /** The API's error shown at a control (tied to it by aria-describedby). */
  async function errorAt(page: Page, control: Locator): Promise<string> {
    await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
    const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ');
    return (await page.locator(`[id="${ids.at(-1)}"]`).textContent()) ?? '';
  }

  it('an editor adds two steps, reorders and removes one, meets the API’s error at its field, saves, and runs it now', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()))
        pageErrors.push(message.text());
    });
    await signInThroughForm(page, api.api.url, email);
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await page.goto(websitePage);
    await page.getByRole('heading', { level: 2, name: 'Heartbeats, DNS and ports' }).waitFor();

    await page.getByLabel('or a').selectOption('api-flow');
    await page.getByRole('button', { name: 'Add it' }).click();
    const form = page.locator('form.monitor-form');
    await form.getByRole('heading', { name: 'New API flow' }).waitFor();
    const step = (n: number) => form.getByRole('group', { name: new RegExp(`^Step ${n}\\b`) });
    const field = (label: string) => form.getByLabel(label, { exact: true });

    // Step 1 signs in with the secret password and keeps the token of its JSON answer.
    await field('Step 1 name').fill('Sign in');
    await field('Step 1 method').selectOption('POST');
    await field('Step 1 URL').fill(`${account.url}/login`);
    await form.getByRole('button', { name: 'Add a header to step 1' }).click();
    await field('Step 1 header 1 name').fill('Content-Type');
    await field('Step 1 header 1 value').fill('application/json');
    await field('Step 1 body (optional)').fill('{"password": "{{secret.PASSWORD}}"}');
    await form.getByRole('button', { name: 'Keep a value of step 1' }).click();
    await step(1).getByLabel('Value 1 name').fill('token');
    await step(1).getByLabel('Value 1 JSON path').fill('$.token');

    // Step 2 reads the account with it, but names a placeholder nothing defines.
    await form.getByRole('button', { name: 'Add a step' }).click();
    await field('Step 2 name').fill('Me');
    await field('Step 2 URL').fill(`${account.url}/me`);
    await form.getByRole('button', { name: 'Add a header to step 2' }).click();
    await field('Step 2 header 1 name').fill('Authorization');
    await field('Step 2 header 1 value').fill('Bearer {{nope}}');
    await step(2).getByRole('button', { name: 'Add an assertion' }).click();
    await step(2).getByLabel('JSON path').fill('$.name');
    await step(2).getByLabel('Value', { exact: true }).fill('Ada');

    // A third step, moved up between them, then removed: the others keep their fields.
    await form.getByRole('button', { name: 'Add a step' }).click();
    await field('Step 3 name').fill('Scratch');
    await form.getByRole('button', { name: 'Move step 3 up' }).click();
    expect(await field('Step 2 name').inputValue()).toBe('Scratch');
    expect(await field('Step 3 name').inputValue()).toBe('Me');
    expect(await field('Step 3 header 1 value').inputValue()).toBe('Bearer {{nope}}');
    await form.getByRole('button', { name: 'Remove step 2' }).click();
    expect(await form.locator('fieldset.api-flow-step').count()).toBe(2);
    expect(await field('Step 2 name').inputValue()).toBe('Me');
    expect(await step(2).getByLabel('JSON path').inputValue()).toBe('$.name');

    await form.getByRole('button', { name: 'Add a secret' }).click();
    await field('Secret 1 name').fill('PASSWORD');
    await field('Secret 1 value').fill(PASSWORD);
    await field('Name (optional)').fill('Account');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form.screenshot({ path: join(SCREENSHOTS, 'app-api-flow-form.png') });

    // The API refuses the undefined placeholder, naming step 2's Authorization header: shown there.
    await form.getByRole('button', { name: 'Add the API flow' }).click();
    const header = field('Step 2 header 1 value');
    expect(await errorAt(page, header)).toContain('{{nope}}');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form.screenshot({ path: join(SCREENSHOTS, 'app-api-flow-error.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-api-flow-form-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await header.fill('Bearer {{token}}');
    await form.getByRole('button', { name: 'Add the API flow' }).click();
    await page.getByText('Added “Account”').waitFor();
    const card = page.locator('li.monitor', {
      has: page.getByRole('heading', { level: 3, name: /Account/ }),
    });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/Steps\s*2, checked every 5 min/);
    expect(await card.textContent()).toMatch(/Secrets\s*PASSWORD \(set\)/);

    // Run now: each step with its outcome, answer and time.
    await card.getByRole('button', { name: /Run it now/ }).click();
    await expect
      .poll(() => card.getByRole('status').textContent(), { timeout: 20_000 })
      .toMatch(/Run now: up in \d+ ms/);
    const ran = card.locator('.api-flow-run').last().getByRole('listitem');
    expect(await ran.allTextContents()).toEqual([
      expect.stringMatching(/^✓ Sign in: POST .*\/login → 200 in \d+ ms$/),
      expect.stringMatching(/^✓ Me: GET .*\/me → 200 in \d+ ms$/),
    ]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await card.screenshot({ path: join(SCREENSHOTS, 'app-api-flow-run.png') });

    // Edited again: the stored secret is "(set)", never its value; saving keeps it.
    await card.getByRole('button', { name: /^Edit/ }).click();
    await form.getByRole('heading', { name: 'Edit “Account”' }).waitFor();
    const secret = field('Secret 1 value');
    expect(await secret.inputValue()).toBe('');
    expect(await secret.getAttribute('placeholder')).toBe('(set)');
    expect(await field('Step 1 body (optional)').inputValue()).toBe('{"password": "{{secret.PASSWORD}}"}');
    expect(await page.content()).not.toContain(PASSWORD);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-api-flow-edit-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await form.getByRole('button', { name: 'Save the API flow' }).click();
    await page.getByText('Saved “Account”').waitFor();
    await card.getByRole('button', { name: /Run it now/ }).click();
    await expect
      .poll(() => card.getByRole('status').textContent(), { timeout: 20_000 })
      .toMatch(/Run now: up in \d+ ms/);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await page.locator('#monitors').screenshot({ path: join(SCREENSHOTS, 'app-api-flow-phone.png') });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await page.content()).not.toContain(PASSWORD);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
