import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOTS, seriousAxeViolations, signInThroughForm } from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

/**
 * The website, channel, invitation and settings forms check what they send with the API's own
 * schemas (pure modules of libs/) before sending it, and still show at its field what only the
 * server can tell.
 */
describe('the app in a real browser: the website, channel, invitation and settings forms’ errors', {
  timeout: 90_000,
}, () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let customerId: number;
  const pageErrors: string[] = [];
  /** Writes the browser sent, as `METHOD /path`. */
  const writes: string[] = [];

  beforeAll(async () => {
    // Invitations need a mail route; none is sent here (a client without a customer is refused first).
    api = await TestApi.start({ SMTP_URL: 'smtp://127.0.0.1:9?ignoreTLS=true' });
    const organizationId = await createOrganizationId(api);
    const token = await api.createToken(organizationId, ['admin']);
    const packageId = (await createPackage(api, token)).id;
    customerId = await createCustomer(api, token, packageId, 'Initech');
    const admin = await createUser(api, organizationId, 'admin');
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (request.method() !== 'GET' && pathname.startsWith('/api/'))
        writes.push(`${request.method()} ${pathname}`);
    });
    await signInThroughForm(page, api.api.url, admin.email, {
      next: `/websites/new?customerId=${customerId}`,
    });
    await page.getByRole('heading', { level: 1, name: 'Add a website' }).waitFor();
    writes.length = 0;
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
  const needsALook = () => page.getByRole('alert').filter({ hasText: 'Some fields need a look' }).waitFor();

  it('a new website: the schema’s errors at their fields with nothing sent, then the API’s', async () => {
    await expect.poll(() => page.getByLabel('Customer').inputValue()).toBe(String(customerId));
    await page.getByLabel('Name').fill('Intranet');
    await page.getByLabel('URL').fill('ftp://intranet.example');
    await page.getByLabel('URL').blur();
    await expect.poll(() => errorAt('URL')).toContain('must be an absolute http:// or https:// URL');
    await page.getByLabel('Timeout (seconds)').fill('500');
    await page.getByRole('button', { name: 'Add the website' }).click();
    await needsALook();
    expect(await errorAt('URL')).toContain('must be an absolute http:// or https:// URL');
    expect(await errorAt('Timeout (seconds)')).toMatch(/120/);
    expect(await errorAt('Name')).toBeNull();
    // A field in error is marked by its border too, text fields as selects (not by the words alone).
    const border = (label: string) =>
      page.getByLabel(label).evaluate((control) => {
        const style = getComputedStyle(control);
        return `${style.borderTopWidth} ${style.borderTopColor}`;
      });
    expect(await border('URL')).not.toBe(await border('Name'));
    expect(await border('URL')).toMatch(/^2px /);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-website-schema-error.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(writes).toEqual([]);

    // Only the server knows the package's shortest interval (60 s by default): its error is at that field.
    await page.getByLabel('URL').fill('https://intranet.example');
    await page.getByLabel('Timeout (seconds)').fill('20');
    await page.getByLabel('Check every (seconds)').fill('30');
    await page.getByRole('button', { name: 'Add the website' }).click();
    await expect.poll(() => errorAt('Check every (seconds)')).toMatch(/60/);
    expect(writes).toEqual(['POST /api/websites']);

    await page.getByLabel('Check every (seconds)').fill('60');
    await page.getByRole('button', { name: 'Add the website' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Intranet' }).waitFor();
  });

  it('an edited website: the schema’s error at its field, nothing sent', async () => {
    writes.length = 0;
    await page.getByLabel('Name').fill('');
    await page.getByLabel('At most redirects').fill('50');
    await page.getByRole('button', { name: 'Save the website' }).click();
    await needsALook();
    expect(await errorAt('Name')).toMatch(/Must not be empty/);
    expect(await errorAt('At most redirects')).toMatch(/20/);
    expect(writes).toEqual([]);
  });

  it('a new channel: the schema’s errors at their fields with nothing sent, then the API’s at a setting', async () => {
    await page.goto(`${api.api.url}/channels/new`);
    await page.getByRole('heading', { level: 1, name: 'Add a channel' }).waitFor();
    writes.length = 0;
    await page.getByLabel('Type').selectOption('slack');
    await page.getByLabel('Webhook URL').fill('not a web address');
    await page.getByLabel('One customer’s websites').check();
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await needsALook();
    // No name, and no customer chosen for a customer's channel: both the API's words.
    expect(await errorAt('Channel name')).toMatch(/Must not be empty/);
    expect(await errorAt('Customer')).toBe('⚠ Required');
    // Every event the API offers is named in words, none shown as its code (`icmp.down`).
    const eventLabels = await page
      .getByRole('group', { name: 'Which events' })
      .getByRole('checkbox')
      .evaluateAll((boxes) => boxes.map((box) => box.closest('label')?.textContent?.trim() ?? ''));
    expect(eventLabels.length).toBeGreaterThan(30);
    expect(eventLabels.filter((label) => /^[a-z0-9]+\.[a-z]+$/.test(label))).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-channel-schema-error.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(writes).toEqual([]);

    // The settings of a type are its connector's, checked by the API: its error is at the setting.
    await page.getByLabel('Channel name').fill('Team chat');
    await page.getByLabel('Customer', { exact: true }).selectOption(String(customerId));
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await expect
      .poll(() => errorAt('Webhook URL (optional)'))
      .toContain('must be an absolute http:// or https:// URL');
    expect(await errorAt('Channel name')).toBeNull();
    expect(writes).toEqual(['POST /api/notification-channels']);
  });

  it('an invitation: the schema’s error at the address with nothing sent, then the API’s at the customer', async () => {
    await page.goto(`${api.api.url}/people`);
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    writes.length = 0;
    await page.getByLabel('Their e-mail').fill('not an address');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await needsALook();
    expect(await errorAt('Their e-mail')).toMatch(/email/i);
    expect(writes).toEqual([]);

    // A client needs a customer: the API says so at that field.
    await page.getByLabel('Their e-mail').fill('carla@initech.example');
    await page.getByLabel('Their role').selectOption('client');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await expect.poll(() => errorAt('Their customer')).toContain('Required for a client');
    expect(writes).toEqual(['POST /api/invitations']);
  });

  it('the settings: the schema’s error at the accent colour, nothing sent', async () => {
    await page.goto(`${api.api.url}/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    writes.length = 0;
    await page.getByLabel('Accent colour of reports').fill('blue');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await needsALook();
    expect(await errorAt('Accent colour of reports')).toContain('must be a colour like #1570ef');
    expect(writes).toEqual([]);

    await page.getByLabel('Accent colour of reports').fill('#b45309');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect(writes).toEqual(['PATCH /api/organization']);
    expect(pageErrors).toEqual([]);
  });
});
