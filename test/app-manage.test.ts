import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOTS, seriousAxeViolations, signInThroughForm } from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';
import { selfSignedClientCertificate } from './support/pki.js';

interface Website {
  publicId: string;
  paused: boolean;
  secretHeaderNames: string[];
  mtlsEnabled: boolean;
  mtlsClientCert: string | null;
  mtlsClientKeySet: boolean;
}

describe('the app in a real browser: changing customers and websites', { timeout: 90_000 }, () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let base: string;
  let token: string;
  let customerId: number;
  let publicId: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    base = api.api.url;
    const organizationId = await createOrganizationId(api);
    token = await api.createToken(organizationId, ['admin']);
    customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Initech');
    const created = await api.request<Website>('POST', '/api/websites', {
      token,
      body: {
        customerId,
        name: 'Initech intranet',
        url: 'https://intranet.initech.example/health',
        checkInterval: 60,
        secretHeaders: { Authorization: 'Bearer first-secret-value' },
      },
    });
    expect(created.status).toBe(201);
    publicId = created.body.publicId;
    const editor = await createUser(api, organizationId, 'editor');
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, base, editor.email);
    await page.getByRole('link', { name: 'Initech intranet' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  const website = async () =>
    (await api.request<Website>('GET', `/api/websites/${publicId}`, { token })).body;

  it('edits a customer, cancels it behind a confirmation and undoes that', async () => {
    await page.getByRole('link', { name: 'Initech', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Initech' }).waitFor();
    await page.getByLabel('Customer name').fill('Initech Corp');
    await page.getByRole('button', { name: 'Save the customer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Initech Corp' }).waitFor();

    await page.getByRole('button', { name: 'Cancel the customer…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Initech Corp?' });
    await dialog.waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'app-customer-cancel-confirm.png') });
    await dialog.getByRole('button', { name: 'Keep the customer' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await page.getByRole('main').textContent()).toContain('✓ Active');

    await page.getByRole('button', { name: 'Cancel the customer…' }).click();
    await dialog.getByRole('button', { name: 'Cancel at the end of the month' }).click();
    await page.getByText(/! Cancels on/).waitFor();
    await page.getByRole('button', { name: 'Undo the cancellation' }).click();
    await page.getByText('✓ Active').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('pauses and resumes a website', async () => {
    await page.getByRole('link', { name: 'Initech intranet' }).click();
    await page.getByRole('heading', { level: 1, name: 'Initech intranet' }).waitFor();
    await page.getByRole('button', { name: 'Pause monitoring' }).click();
    await page.getByRole('button', { name: 'Resume monitoring' }).waitFor();
    expect((await website()).paused).toBe(true);
    await page.getByRole('button', { name: 'Resume monitoring' }).click();
    await page.getByRole('button', { name: 'Pause monitoring' }).waitFor();
    expect((await website()).paused).toBe(false);
  });

  it('replaces a secret header without ever showing it, and uploads an mTLS certificate and key as PEM files', async () => {
    const pair = selfSignedClientCertificate();
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Initech intranet' }).waitFor();
    expect(await page.content()).not.toContain('first-secret-value');
    expect(await page.getByLabel('Header 1 name').inputValue()).toBe('Authorization');
    expect(await page.getByLabel('Header 1 value').inputValue()).toBe('');
    await page.getByLabel('Header 1 value').fill('Bearer second-secret-value');
    await page.getByLabel('Send a client certificate').check();
    await page.getByLabel('Certificate (PEM file)').setInputFiles({
      name: 'client.pem',
      mimeType: 'application/x-pem-file',
      buffer: Buffer.from(pair.certificate),
    });
    await page.getByLabel('Private key (PEM file)').setInputFiles({
      name: 'client.key',
      mimeType: 'application/x-pem-file',
      buffer: Buffer.from(pair.key),
    });
    await page.getByRole('button', { name: 'Save the website' }).click();
    await page.getByText('Saved.').waitFor();
    const saved = await website();
    expect(saved).toMatchObject({
      secretHeaderNames: ['Authorization'],
      mtlsEnabled: true,
      mtlsClientKeySet: true,
    });
    expect(saved.mtlsClientCert?.trim()).toBe(pair.certificate.trim());
    expect(await page.content()).not.toContain('second-secret-value');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-website-edit-saved.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('deletes a website only after the confirmation', async () => {
    await page.getByRole('link', { name: '← Initech intranet' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Initech intranet?' });
    await dialog.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect((await api.request('GET', `/api/websites/${publicId}`, { token })).status).toBe(200);

    await page.getByRole('button', { name: 'Delete…' }).click();
    await dialog.getByRole('button', { name: 'Delete the website' }).click();
    await page.getByRole('heading', { level: 1, name: 'Initech Corp' }).waitFor();
    await page.getByText('No websites yet: add the first one.').waitFor();
    expect((await api.request('GET', `/api/websites/${publicId}`, { token })).status).toBe(404);
    expect(pageErrors).toEqual([]);
  });
});
