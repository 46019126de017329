import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import {
  fitsTheWidth,
  labelsOutgrowingTheirCells,
  launchBrowser,
  lookedAt,
  SCREENSHOTS,
  signInThroughForm,
} from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
import { createOrganizationId, createUser, signIn, TEST_PASSWORD, withCookie } from './support/people.js';
import { type Receiver, startReceiver } from './support/receiver.js';
import { startHttpTarget, type Target } from './support/targets.js';

const SMTP_ACCOUNT = { username: 'webmon', password: 'smtp-secret-app' };
const OWNER_EMAIL = 'owner@agency.example';
const OWNER_PASSWORD = 'violet-harbour-93-lantern';
const SECRET = 'hdr-secret-4f1c9a';
const CLIENT_EMAIL = 'carla@acme.example';
const CLIENT_PASSWORD = 'amber-meadow-41-kettle';

/** The token of the invitation link in the mail to `to` (quoted-printable undone). */
async function invitationToken(receiver: MailReceiver, to: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const mail = receiver.mails.findLast((m) => m.to.includes(to));
    const text = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = text && /\/accept-invitation\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no invitation mail to ${to}`);
}

describe('the app in a real browser: an agency’s first hour', { timeout: 120_000 }, () => {
  let receiver: MailReceiver;
  let api: TestApi;
  let worker: { stop(): Promise<void> };
  let notifier: { stop(): Promise<void> };
  /** A Slack-like chat tool's incoming webhook. */
  let chat: Receiver;
  let target: Target;
  let browser: Browser;
  let base: string;
  let organizationId: number;
  let adminToken: string;
  let packageId: number;
  /** What the pages logged as errors (a CSP refusal, an exception): none is expected. */
  const pageErrors: string[] = [];

  beforeAll(async () => {
    receiver = await startMailReceiver(SMTP_ACCOUNT);
    api = await TestApi.start({
      SMTP_URL: `smtp://${SMTP_ACCOUNT.username}:${SMTP_ACCOUNT.password}@127.0.0.1:${receiver.port}?ignoreTLS=true`,
      SMTP_FROM: 'webmon <monitor@example.test>',
      ALLOW_PRIVATE_TARGETS: 'true',
      RECHECK_DELAY_SECONDS: '1',
    });
    base = api.api.url;
    target = await startHttpTarget();
    worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.10', NODE_ID: 'app-first-hour' },
      createLogger('worker', api.config.LOG_LEVEL),
      { rollupFlushMs: 300 },
    );
    notifier = await startNotifier(api.config, createLogger('notifier', api.config.LOG_LEVEL));
    chat = await startReceiver();
    organizationId = await createOrganizationId(api);
    adminToken = await api.createToken(organizationId, ['admin']);
    packageId = (await createPackage(api, adminToken, { limits: { minCheckIntervalSeconds: 10 } })).id;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await notifier?.stop();
    await chat?.close();
    await target?.close();
    await api?.stop();
    await receiver?.close();
  });

  async function newPage(
    options: { width?: number; dark?: boolean } = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      ...(options.width ? { viewport: { width: options.width, height: 844 }, isMobile: true } : {}),
      ...(options.dark ? { colorScheme: 'dark' as const } : {}),
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()))
        pageErrors.push(message.text());
    });
    return { context, page };
  }

  /** Screenshot and accessibility scan of the page as it stands. */
  const look = async (page: Page, name: string) => expect(await lookedAt(page, name), name).toEqual([]);

  it('accept the owner’s invitation → a customer → a website with a secret header and a keyword check → checked', async () => {
    // Only an owner makes an owner: the operator's first owner (create-user) invites the agency's.
    const first = await createUser(api, organizationId, 'owner');
    const invited = await withCookie(api, await signIn(api, first.email), 'POST', '/api/invitations', {
      body: { email: OWNER_EMAIL, role: 'owner' },
    });
    expect(invited.status).toBe(201);
    const token = await invitationToken(receiver, OWNER_EMAIL);

    const { context, page } = await newPage();
    await page.goto(`${base}/accept-invitation?token=${token}`);
    await look(page, 'accept-invitation');
    await page.getByLabel('Your name').fill('Olivia Owner');
    await page.getByLabel('Password').fill(OWNER_PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await page.getByText('No websites yet').waitFor();
    await look(page, 'overview-empty');

    // A customer.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    await page.getByText('No customers yet').waitFor();
    await look(page, 'customers-empty');
    await page.getByLabel('Customer name').fill('Acme Shop');
    await page.getByLabel('Package').selectOption(String(packageId));
    await page.getByRole('button', { name: 'Create the customer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Shop' }).waitFor();
    await look(page, 'customer');

    // A website: first with an interval below the package's minimum, which the API refuses at that field.
    await page.getByRole('link', { name: 'Add a website' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add a website' }).waitFor();
    await expect.poll(() => page.getByLabel('Customer').inputValue()).not.toBe('');
    await page.getByLabel('Name').fill('Shop API');
    await page.getByLabel('URL').fill(`${target.url}/echo`);
    await page.getByLabel('Check every (seconds)').fill('5');
    await page.getByLabel('Timeout (seconds)').fill('4');
    await page.getByRole('button', { name: 'Add a header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Api-Key');
    await page.getByLabel('Header 1 value').fill(SECRET);
    await page.getByLabel('Header 1 is secret (write-only)').check();
    await look(page, 'website-new');
    await page.getByRole('button', { name: 'Add the website' }).click();
    const interval = page.getByLabel('Check every (seconds)');
    await expect.poll(() => interval.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await interval.getAttribute('aria-describedby')) ?? '';
    const fieldError = page.locator(`[id="${describedBy.split(' ').at(-1)}"]`);
    expect(await fieldError.textContent()).toMatch(/10/);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-website-field-error.png'), fullPage: true });

    await interval.fill('10');
    await page.getByRole('button', { name: 'Add the website' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Shop API' }).waitFor();
    // The secret header's value is never sent back to the browser.
    expect(await page.getByLabel('Header 1 value').inputValue()).toBe('');
    expect(await page.content()).not.toContain(SECRET);

    // The keyword check: the echo target answers the request's headers, so it passes only with the secret sent.
    await page.getByLabel('Keyword check').check();
    await page.getByLabel('Keyword', { exact: true }).fill(SECRET);
    // An assertion on the JSON answer: a path that is not RFC 9535 is refused at its field, then mended.
    await page.getByRole('button', { name: 'Add an assertion' }).click();
    const assertion = page.getByRole('group', { name: 'Assertion 1' });
    await assertion.getByLabel('JSON path').fill('method');
    await assertion.getByLabel('Value').fill('GET');
    await page.getByRole('button', { name: 'Save the checks' }).click();
    await expect.poll(() => assertion.getByLabel('JSON path').getAttribute('aria-invalid')).toBe('true');
    await assertion.getByText('is not an RFC 9535 JSONPath', { exact: false }).waitFor();
    await assertion.getByLabel('JSON path').fill('$.method');
    await page.getByRole('button', { name: 'Save the checks' }).click();
    await page.getByText('The checks are saved.').waitFor();
    await look(page, 'website-edit');

    // See it checked: up, with the keyword check passing, on the website's page.
    await page.getByRole('link', { name: '← Shop API' }).click();
    await page.getByRole('heading', { level: 1, name: 'Shop API' }).waitFor();
    await expect
      .poll(async () => (await page.locator('#results tbody tr').first().textContent()) ?? '', {
        timeout: 40_000,
      })
      .toMatch(/✓ Keyword.*✓ Assertions/);
    expect(await page.locator('#results tbody tr').first().textContent()).toContain('Up');
    await expect
      .poll(() => page.locator('main p .status').first().textContent(), { timeout: 20_000 })
      .toContain('Up');
    await page.getByRole('img', { name: /Response times of the last/ }).waitFor();
    await look(page, 'website');

    // The overview lists it, live, and filters it.
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('link', { name: 'Shop API' }).waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('down');
    await page.getByText('No website matches these filters.').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByLabel('Search by name or URL').fill('shop');
    await page.getByRole('link', { name: 'Shop API' }).waitFor();
    await look(page, 'overview');

    await page.getByRole('link', { name: 'Olivia Owner' }).click();
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    await page.getByRole('button', { name: 'Sign out there' }).count();
    await look(page, 'account');
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  async function signInAsOwner(options: { width?: number; dark?: boolean } = {}) {
    const opened = await newPage(options);
    await signInThroughForm(opened.page, base, OWNER_EMAIL, { password: OWNER_PASSWORD });
    await opened.page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    return opened;
  }

  it('the target fails → down in the app; a recurring maintenance window, previewed; a Slack-like channel and a test', async () => {
    const { context, page } = await signInAsOwner();
    await page.getByRole('link', { name: 'Shop API' }).click();
    await page.getByRole('heading', { level: 1, name: 'Shop API' }).waitFor();

    // The local target fails (its server stops): the website reads Down, in words, within the checks' time.
    await target.close();
    await expect
      .poll(() => page.locator('main p .status').first().textContent(), { timeout: 60_000 })
      .toContain('Down');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-website-down.png'), fullPage: true });
    // Why it failed: the failing result's evidence, opened from the results, says what the probe met.
    await page.locator('#results tbody tr').first().getByText('What it answered').click();
    const opened = page.locator('#results details.evidence[open]');
    await opened.getByText('(CONNECT)', { exact: false }).waitFor();
    expect(await opened.textContent()).toContain('no answer came');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-website-evidence.png'), fullPage: true });
    // On a phone the evidence reads top to bottom, nothing wider than the screen.
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await labelsOutgrowingTheirCells(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-website-evidence-phone.png'), fullPage: true });
    if (desktop) await page.setViewportSize(desktop);

    // The incident's page: what the first failure saw, the timeline; acknowledged with a note, a public root cause.
    await page.getByRole('link', { name: '✕ Ongoing' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Shop API: ✕ down' }).waitFor();
    await page.locator('details.evidence[open]').getByText('(CONNECT)', { exact: false }).waitFor();
    const timeline = page.locator('#timeline');
    await timeline.getByText('Confirmed down', { exact: false }).waitFor();
    expect(await timeline.textContent()).toMatch(/First failure in [\w-]+/);
    await page.getByLabel('Note (optional)').fill('On it: the origin server is down');
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByText('by Olivia Owner', { exact: false }).waitFor();
    await timeline.getByText('Acknowledged — On it: the origin server is down').waitFor();
    await page.getByRole('button', { name: 'Add note' }).click();
    // Empty: the API's error shows at the field.
    await page.locator('.field.invalid textarea').waitFor();
    await page.getByLabel('Note', { exact: true }).fill('The origin server stopped; it was restarted.');
    await page.getByLabel('Public: the root cause', { exact: false }).check();
    await page.getByRole('button', { name: 'Add note' }).click();
    await timeline.getByText('Note — The origin server stopped; it was restarted. (public)').waitFor();
    await page.getByText('Root cause (public)').waitFor();
    await look(page, 'incident');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await labelsOutgrowingTheirCells(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-incident-phone.png'), fullPage: true });
    if (desktop) await page.setViewportSize(desktop);
    // Published by mistake: withdrawn after a confirmation, the timeline says so.
    await page.getByRole('button', { name: 'Withdraw from the status pages' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Withdraw' }).click();
    await timeline.getByText('The public root cause was withdrawn from the status pages').waitFor();
    // The incident and its timeline are read again side by side: either may show first.
    await expect.poll(() => page.getByText('Root cause (public)').count()).toBe(0);
    // A shared link opens it too (the server answers the app at /incidents/:ref).
    const incidentUrl = page.url();
    await page.goto(incidentUrl);
    await page.getByRole('heading', { level: 1, name: 'Shop API: ✕ down' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Shop API' }).waitFor();

    // A recurring maintenance window: weekly on Mondays and Thursdays, its next 5 occurrences previewed.
    await page.getByRole('button', { name: 'Add a maintenance window' }).click();
    await page.getByLabel('Title').fill('Weekly deploy');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByLabel('Starts').fill('2030-01-07T02:00');
    // An end before the start: the API refuses it at the field (and the preview says why).
    await page.getByLabel('Ends', { exact: true }).fill('2030-01-07T01:00');
    await page.getByRole('button', { name: 'Add the window' }).click();
    await expect
      .poll(() => page.getByLabel('Ends', { exact: true }).getAttribute('aria-invalid'))
      .toBe('true');
    await page.getByText('must be after startsAt').first().waitFor();
    await page.getByLabel('Ends', { exact: true }).fill('2030-01-07T04:00');
    // Corrected: the field's error goes before the form is sent again.
    expect(await page.getByLabel('Ends', { exact: true }).getAttribute('aria-invalid')).toBe(null);
    await page.getByLabel('Repeats').selectOption('weekly');
    await page.getByLabel('Monday').check();
    await page.getByLabel('Thursday').check();
    const preview = page.locator('ol.occurrences li');
    await expect.poll(() => preview.count()).toBe(5);
    expect(await preview.nth(1).textContent()).toMatch(/Thu/);
    expect(await preview.first().textContent()).toMatch(/02:00/);
    await look(page, 'maintenance-form');
    await page.getByRole('button', { name: 'Add the window' }).click();
    await page.getByRole('cell', { name: 'Weekly deploy', exact: true }).waitFor();
    expect(await page.locator('#maintenance').textContent()).toContain('Every week on Monday, Thursday');
    // The window as the API stored it: 02:00 Berlin is 01:00 UTC in winter.
    const websiteId = Number(
      (
        await api.request<Array<{ id: number; name: string }>>('GET', '/api/websites', { token: adminToken })
      ).body.find((w) => w.name === 'Shop API')?.id,
    );
    const stored = await api.request<Array<{ startsAt: string; timezone: string; recurrence: unknown }>>(
      'GET',
      `/api/maintenance-windows?websiteId=${websiteId}`,
      { token: adminToken },
    );
    expect(stored.body[0]).toMatchObject({
      startsAt: '2030-01-07T01:00:00.000Z',
      timezone: 'Europe/Berlin',
      recurrence: { frequency: 'weekly', byWeekday: ['MO', 'TH'] },
    });
    // A one-off window, deleted only after the confirmation.
    await page.getByRole('button', { name: 'Add a maintenance window' }).click();
    await page.getByLabel('Title').fill('Hotfix');
    await page.getByRole('button', { name: 'Add the window' }).click();
    await page.getByRole('cell', { name: 'Hotfix', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete Hotfix' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the window “Hotfix”?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    expect(await page.getByRole('cell', { name: 'Hotfix', exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Delete Hotfix' }).click();
    await dialog.getByRole('button', { name: 'Delete the window' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'Hotfix', exact: true }).count()).toBe(0);
    await page.getByRole('cell', { name: 'Weekly deploy', exact: true }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Maintenance' }).click();
    await page.getByRole('heading', { level: 1, name: 'Maintenance' }).waitFor();
    await page.getByText('Weekly deploy').waitFor();
    await look(page, 'maintenance');

    // A Slack-like channel pointing at a local receiver, and a test that it receives.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Channels' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notification channels' }).waitFor();
    await page.getByText('No channels yet').waitFor();
    await look(page, 'channels-empty');
    await page.getByRole('link', { name: 'Add a channel' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add a channel' }).waitFor();
    await page.getByLabel('Type').selectOption('slack');
    await page.getByLabel('Channel name').fill('Team chat');
    await page.getByLabel('Webhook URL').fill('not a web address');
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await expect.poll(() => page.getByLabel('Webhook URL').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Webhook URL').fill(`${chat.url}/services/T000/B000/XXXX`);
    // Event kinds in words, each chosen by default.
    expect(await page.getByLabel('Website down', { exact: true }).isChecked()).toBe(true);
    await look(page, 'channel-new');
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await page.getByRole('heading', { level: 1, name: 'Team chat' }).waitFor();
    // The webhook URL is write-only: never shown again.
    expect(await page.getByLabel('Webhook URL').inputValue()).toBe('');
    expect(await page.content()).not.toContain('/services/T000/B000/XXXX');
    await page.getByRole('button', { name: 'Send a test' }).click();
    await page.getByText(/Test ✓ delivered/).waitFor({ timeout: 30_000 });
    const received = chat.to('/services/T000/B000/XXXX');
    expect(received.length).toBeGreaterThan(0);
    expect(JSON.stringify(received[0]?.json)).toMatch(/test/i);
    await page.locator('#deliveries tbody tr').first().waitFor();
    expect(await page.locator('#deliveries tbody tr').first().textContent()).toContain('✓ Delivered');
    await look(page, 'channel');
    await page
      .getByRole('button', { name: /Redeliver/ })
      .first()
      .click();
    await page.getByText(/is sent again/).waitFor();
    await expect
      .poll(() => chat.to('/services/T000/B000/XXXX').length, { timeout: 30_000 })
      .toBeGreaterThan(1);

    // The website chooses the channel in its form.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('link', { name: 'Shop API' }).click();
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Shop API' }).waitFor();
    await page.getByRole('group', { name: 'Alert channels' }).getByLabel('Team chat').check();
    await page.getByRole('button', { name: 'Save the website' }).click();
    await page.getByText('Saved.').first().waitFor();
    const chosen = await api.request<{ notificationChannelIds: number[] }>(
      'GET',
      `/api/websites/${websiteId}`,
      {
        token: adminToken,
      },
    );
    expect(chosen.body.notificationChannelIds).toHaveLength(1);
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('reads on a phone: the overview and a website page do not scroll sideways', async () => {
    const { context, page } = await newPage({ width: 390 });
    await signInThroughForm(page, base, OWNER_EMAIL, { password: OWNER_PASSWORD });
    await page.getByRole('link', { name: 'Shop API' }).waitFor();
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await labelsOutgrowingTheirCells(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-overview-phone.png'), fullPage: true });
    await page.getByRole('link', { name: 'Shop API' }).click();
    await page.locator('#results tbody tr').first().waitFor();
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await labelsOutgrowingTheirCells(page)).toEqual([]);
    // The response-time chart keeps a readable height on a phone (it was a 60 px sliver).
    const chart = await page.getByRole('img', { name: /Response times of the last/ }).boundingBox();
    expect(chart?.height ?? 0).toBeGreaterThanOrEqual(140);
    // A result's cell reads top to bottom: the failure's words under its badge, not squeezed beside it.
    const result = await page
      .locator('#results tbody tr')
      .first()
      .locator('td[data-label="Result"]')
      .boundingBox();
    expect(result).not.toBeNull();
    expect(result?.x ?? Number.POSITIVE_INFINITY).toBeLessThan(40);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-website-phone.png'), fullPage: true });
    await context.close();
  });

  it('a client user sees only their customer, without edit controls', async () => {
    const acme = (
      await api.request<Array<{ id: number; name: string }>>(
        'GET',
        `/api/customers?organizationId=${organizationId}`,
        { token: adminToken },
      )
    ).body.find((c) => c.name === 'Acme Shop');
    expect(acme).toBeDefined();
    const otherId = await createCustomer(api, adminToken, packageId, 'Globex Secret Corp');
    const other = await api.request('POST', '/api/websites', {
      token: adminToken,
      body: { customerId: otherId, name: 'Globex portal', url: `${target.url}/ok`, checkInterval: 10 },
    });
    expect(other.status).toBe(201);
    const client = await createUser(api, organizationId, 'client', acme?.id ?? 0);

    const { context, page } = await newPage();
    // The organization's settings are not a client's to read: no screen of theirs asks for them.
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname.startsWith('/api/'))
        refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await look(page, 'sign-in');
    await page.getByLabel('E-mail').fill(client.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Shop API' }).waitFor();
    const main = (await page.getByRole('main').textContent()) ?? '';
    expect(main).toContain('Acme Shop');
    expect(await page.content()).not.toContain('Globex');
    expect(await page.getByRole('link', { name: 'Customers' }).count()).toBe(0);
    await look(page, 'client-overview');

    await page.getByRole('link', { name: 'Shop API' }).click();
    await page.getByRole('heading', { level: 1, name: 'Shop API' }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete|Pause/ }).count()).toBe(0);
    expect(await page.content()).not.toContain('Globex');
    await look(page, 'client-website');
    // Signed out at the start (401 from /api/me), then nothing refused.
    expect(refused.filter((line) => line !== '401 /api/me')).toEqual([]);
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  /** Opens a screen from the main navigation (the app's own links: its router draws the screen). */
  async function openFromNav(page: Page, link: string, heading: string) {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: link, exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  }

  it('a status page and its public link; packages; the audit log; a client user invited from the app', async () => {
    const { context, page } = await signInAsOwner();

    // A status page for Acme Shop, public, with its preview and its public link.
    await openFromNav(page, 'Status pages', 'Status pages');
    await page.getByText('No status pages yet').waitFor();
    await look(page, 'status-pages-empty');
    await page.getByRole('link', { name: 'Create a status page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create a status page' }).waitFor();
    await expect.poll(() => page.getByLabel('Customer').locator('option').count()).toBeGreaterThan(1);
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Acme Shop' });
    await page.getByLabel('Page title').fill('Acme status');
    await page.getByLabel('Address (slug)').fill('acme-status');
    await page.getByLabel('Footer text (optional)').fill('Questions? support@acme.example');
    await page.getByLabel('Published: served at its address (who may see it: Access below)').check();
    await page.getByRole('button', { name: 'Create the status page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme status' }).waitFor();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('Shop API').waitFor();
    await look(page, 'status-page');
    const [publicPage] = await Promise.all([
      context.waitForEvent('page'),
      preview.getByRole('link', { name: 'Open the public page' }).click(),
    ]);
    await publicPage.waitForLoadState();
    expect(new URL(publicPage.url()).pathname).toBe('/status/acme-status');
    expect(await publicPage.content()).toContain('Acme status');
    expect(await publicPage.content()).toContain('Shop API');
    await publicPage.screenshot({ path: join(SCREENSHOTS, 'app-status-page-public.png'), fullPage: true });
    await publicPage.close();
    // A slug already taken is refused at its field.
    await openFromNav(page, 'Status pages', 'Status pages');
    await page.getByRole('link', { name: '/status/acme-status' }).waitFor();
    await look(page, 'status-pages');

    // Packages: create one, then rename it.
    await openFromNav(page, 'Packages', 'Packages');
    await look(page, 'packages');
    await page.getByRole('button', { name: 'Create a package' }).click();
    await page.getByLabel('Package name').fill('Agency Pro');
    await page.getByLabel('Key', { exact: true }).fill('agency-pro');
    await page.getByLabel('Shortest check interval (seconds)').fill('30');
    await look(page, 'package-new');
    await page.getByRole('button', { name: 'Create the package' }).click();
    await page.getByRole('cell', { name: 'Agency Pro', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit Agency Pro' }).click();
    await page.getByLabel('Package name').fill('Agency Premium');
    await page.getByRole('button', { name: 'Save the package' }).click();
    await page.getByRole('cell', { name: 'Agency Premium', exact: true }).waitFor();

    // The audit log shows that rename, old → new.
    await openFromNav(page, 'Audit log', 'Audit log');
    await page.getByLabel('Resource').selectOption('packages');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect
      .poll(async () => (await page.locator('#audit').textContent()) ?? '')
      .toMatch(/displayName:\s*Agency Pro\s*→\s*became\s*Agency Premium/);
    // In words, not operation ids; a create's every field folded under a summary.
    const audit = (await page.locator('#audit').textContent()) ?? '';
    expect(audit).toContain('Update package #');
    expect(audit).not.toContain('updatePackage');
    await page.locator('#audit summary').first().waitFor();
    await look(page, 'audit-log');

    // Incidents: Shop API's, ongoing since its target stopped.
    await openFromNav(page, 'Incidents', 'Incidents');
    await page.locator('#incidents').getByText('✕ Ongoing').first().waitFor();
    await look(page, 'incidents');

    // People: invite a client user of Acme Shop.
    await openFromNav(page, 'People', 'People');
    await page.locator('#users').getByText('Olivia Owner (you)').waitFor();
    await look(page, 'people');
    await page.getByLabel('Their e-mail').fill(CLIENT_EMAIL);
    await page.getByLabel('Their role').selectOption('client');
    await page.getByLabel('Their customer').selectOption({ label: 'Acme Shop' });
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText(`Invitation sent to ${CLIENT_EMAIL}.`).waitFor();
    await page.locator('#invitations').getByRole('cell', { name: CLIENT_EMAIL, exact: true }).waitFor();
    await look(page, 'people-invited');
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('the invited client accepts, signs in and sees only their customer: websites, incidents, status pages', async () => {
    const token = await invitationToken(receiver, CLIENT_EMAIL);
    const { context, page } = await newPage();
    await page.goto(`${base}/accept-invitation?token=${token}`);
    await page.getByLabel('Your name').fill('Carla Client');
    await page.getByLabel('Password').fill(CLIENT_PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('link', { name: 'Shop API' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail').fill(CLIENT_EMAIL);
    await page.getByLabel('Password').fill(CLIENT_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Shop API' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const hidden of ['Customers', 'Maintenance', 'Channels', 'Packages', 'People', 'Audit log'])
      expect(await nav.getByRole('link', { name: hidden, exact: true }).count(), hidden).toBe(0);
    expect(await page.content()).not.toMatch(/Globex|Initech/);
    await look(page, 'invited-client-overview');

    await openFromNav(page, 'Incidents', 'Incidents');
    await page.locator('#incidents').getByText('Shop API').first().waitFor();
    expect(await page.content()).not.toMatch(/Globex|Initech/);
    await look(page, 'client-incidents');

    await openFromNav(page, 'Status pages', 'Status pages');
    await page.getByRole('link', { name: '/status/acme-status' }).waitFor();
    expect(await page.getByRole('link', { name: 'Create a status page' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Acme status' }).count()).toBe(0);
    expect(await page.content()).not.toMatch(/Globex|Initech/);
    await look(page, 'client-status-pages');
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('the new screens read on a phone without sideways scrolling', async () => {
    const { context, page } = await signInAsOwner({ width: 390 });
    for (const [link, heading] of [
      ['Maintenance', 'Maintenance'],
      ['Channels', 'Notification channels'],
      ['Status pages', 'Status pages'],
      ['Packages', 'Packages'],
      ['People', 'People'],
      ['Audit log', 'Audit log'],
      ['Incidents', 'Incidents'],
    ] as const) {
      await openFromNav(page, link, heading);
      await page.waitForLoadState('networkidle');
      await page.screenshot({
        path: join(SCREENSHOTS, `app-${link.toLowerCase().replace(/ /g, '-')}-phone.png`),
        fullPage: true,
      });
      expect(await fitsTheWidth(page), link).toBe(true);
      expect(await labelsOutgrowingTheirCells(page), link).toEqual([]);
    }
    await page.getByRole('link', { name: 'Team chat' }).count();
    await openFromNav(page, 'Channels', 'Notification channels');
    await page.getByRole('link', { name: 'Team chat' }).click();
    await page.getByRole('heading', { level: 1, name: 'Team chat' }).waitFor();
    await page.locator('#deliveries tbody tr').first().waitFor();
    expect(await fitsTheWidth(page), 'channel').toBe(true);
    expect(await labelsOutgrowingTheirCells(page), 'channel').toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-channel-phone.png'), fullPage: true });
    await context.close();
  });

  it('the new screens in the system’s dark mode pass the scan too', async () => {
    const { context, page } = await signInAsOwner({ dark: true });
    for (const [link, heading] of [
      ['Maintenance', 'Maintenance'],
      ['Status pages', 'Status pages'],
      ['People', 'People'],
      ['Audit log', 'Audit log'],
    ] as const) {
      await openFromNav(page, link, heading);
      await page.waitForLoadState('networkidle');
      await look(page, `${link.toLowerCase().replace(/ /g, '-')}-dark`);
    }
    await openFromNav(page, 'Channels', 'Notification channels');
    await page.getByRole('link', { name: 'Team chat' }).click();
    await page.locator('#deliveries tbody tr').first().waitFor();
    await look(page, 'channel-dark');
    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
