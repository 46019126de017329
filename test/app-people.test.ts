import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrganizationRepository } from '../libs/auth/index.js';
import { base32Decode, totp } from '../libs/people/totp.js';
import { launchBrowser, lookedAt, signInThroughForm } from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
import { createOrganizationId, createUser, TEST_PASSWORD } from './support/people.js';

const SMTP_ACCOUNT = { username: 'webmon', password: 'smtp-secret-people' };
const NEW_PASSWORD = 'marble-compass-61-thistle';

/** The token of the `path` link in the latest mail to `to` (quoted-printable undone). */
async function mailedToken(receiver: MailReceiver, to: string, path: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const mail = receiver.mails.findLast((m) => m.to.includes(to));
    const text = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = text && new RegExp(`/${path}\\?token=([A-Za-z0-9_-]{43})`).exec(text)?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${path} mail to ${to}`);
}

describe('the app in a real browser: signing in, two-factor, sessions, password reset, a pasted token', {
  timeout: 90_000,
}, () => {
  let receiver: MailReceiver;
  let api: TestApi;
  let browser: Browser;
  let base: string;
  let organizationId: number;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    receiver = await startMailReceiver(SMTP_ACCOUNT);
    api = await TestApi.start({
      SMTP_URL: `smtp://${SMTP_ACCOUNT.username}:${SMTP_ACCOUNT.password}@127.0.0.1:${receiver.port}?ignoreTLS=true`,
      SMTP_FROM: 'webmon <monitor@example.test>',
    });
    base = api.api.url;
    organizationId = await createOrganizationId(api);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await receiver?.close();
  });

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()))
        pageErrors.push(message.text());
    });
    return { context, page };
  }
  const look = async (page: Page, name: string) => expect(await lookedAt(page, name), name).toEqual([]);
  async function signInWith(page: Page, email: string, password: string) {
    await signInThroughForm(page, base, email, { password });
  }

  it('enrols two-factor from the QR code’s secret, then signs in with a code the API asked for', async () => {
    const user = await createUser(api, organizationId, 'admin');
    const { context, page } = await newPage();
    await signInWith(page, user.email, TEST_PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await page.getByRole('link', { name: 'A admin' }).click();
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByRole('img', { name: 'QR code of the two-factor secret' }).waitFor();
    const secret = ((await page.locator('code.secret').first().textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await look(page, 'two-factor-enrol');
    await page.getByLabel('Code from the app').fill(totp(base32Decode(secret), Date.now()));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    const recovery = ((await codes.first().textContent()) ?? '').trim();
    // The codes leave the page whole: as a text file with every code.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download them as a text file' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('webmon-recovery-codes.txt');
    const file = await download.path();
    const saved = file ? await readFile(file, 'utf8') : '';
    expect(saved.split('\n').filter((line) => /^[a-z0-9-]{6,}$/i.test(line))).toHaveLength(10);
    expect(saved).toContain(recovery);
    await look(page, 'two-factor-recovery-codes');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await signInWith(page, user.email, TEST_PASSWORD);
    const code = page.getByLabel('Two-factor code');
    await code.waitFor();
    await look(page, 'sign-in-two-factor');
    await code.fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/wrong|expired|used/);
    await code.fill(recovery);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('takes a person whose organization requires two-factor to the enrolment first, then everywhere', async () => {
    const strict = await createOrganizationId(api);
    await new OrganizationRepository(api.db).setTwoFactorRequiredFor(strict, ['owner', 'admin']);
    const user = await createUser(api, strict, 'owner');
    const { context, page } = await newPage();
    await signInWith(page, user.email, TEST_PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    expect(page.url()).toBe(`${base}/account`);
    await page.getByText('Your organization requires two-factor sign-in for your role').waitFor();
    await look(page, 'two-factor-required');
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    const secret = ((await page.locator('code.secret').first().textContent()) ?? '').trim();
    await page.getByLabel('Code from the app').fill(totp(base32Decode(secret), Date.now()));
    // A slow API (as under load): who the caller is comes a second late. A person who moves on as
    // soon as the codes show must not be sent back to the enrolment.
    await page.route('**/api/me', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByText('No websites yet').waitFor({ timeout: 10_000 });
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('signs out another session from My account; that browser is back at the sign-in', async () => {
    const user = await createUser(api, organizationId, 'viewer');
    const first = await newPage();
    const second = await newPage();
    await signInWith(first.page, user.email, TEST_PASSWORD);
    await signInWith(second.page, user.email, TEST_PASSWORD);
    await second.page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await first.page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    // A viewer changes nothing: no customer screens.
    expect(await first.page.getByRole('link', { name: 'Customers' }).count()).toBe(0);
    await first.page.getByRole('link', { name: 'A viewer' }).click();
    const other = first.page.getByRole('button', { name: 'Sign out there' });
    await other.waitFor();
    expect(await other.count()).toBe(1);
    // Each session's browser in words (Debian's chromium, headless here), the raw string in its tooltip.
    const browsers = first.page.locator('td[data-label="Browser"]');
    expect(await browsers.first().textContent()).toBe('Headless Chrome on Linux');
    expect(await browsers.first().getAttribute('title')).toContain('HeadlessChrome/');
    await look(first.page, 'account-sessions');
    await other.click();
    await expect.poll(() => other.count()).toBe(0);
    // The other browser's next request is refused: it shows the sign-in (the overview polls every 5 s).
    await second.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor({ timeout: 15_000 });
    expect(second.page.url()).toContain('/sign-in');
    await first.context.close();
    await second.context.close();
  });

  it('resets a forgotten password by the e-mailed link', async () => {
    const user = await createUser(api, organizationId, 'editor');
    const { context, page } = await newPage();
    await page.goto(`${base}/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText(/a link to choose a new password is on its way/).waitFor();
    await look(page, 'reset-password-asked');
    const token = await mailedToken(receiver, user.email, 'reset-password');
    await page.goto(`${base}/reset-password?token=${token}`);
    // The rule is shown as the API states it, and the API's reason at the field.
    await page.getByText(/known-breached or easily guessed/).waitFor();
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await expect.poll(() => page.getByLabel('New password').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('New password').fill('Password1234!');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page
      .getByText(/too easy to guess/)
      .first()
      .waitFor();
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page.getByText('Your password is changed').waitFor();
    await look(page, 'reset-password-done');
    await signInWith(page, user.email, NEW_PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('a locked sign-in says what to do; a browser that signed in before still gets in', async () => {
    const user = await createUser(api, organizationId, 'editor');
    const known = await newPage();
    await signInWith(known.page, user.email, TEST_PASSWORD);
    await known.page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await known.page.getByRole('button', { name: 'Sign out' }).click();
    await known.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    for (let i = 0; i < 5; i++)
      await api.request('POST', '/api/auth/login', { body: { email: user.email, password: `a guess ${i}` } });
    const stranger = await newPage();
    await signInWith(stranger.page, user.email, TEST_PASSWORD);
    await expect
      .poll(() => stranger.page.getByRole('alert').first().textContent())
      .toContain('browser you signed in with before');
    // A code is one way in: its field is offered.
    await stranger.page.getByLabel('Two-factor code').waitFor();
    await look(stranger.page, 'sign-in-locked');
    await signInWith(known.page, user.email, TEST_PASSWORD);
    await known.page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await known.context.close();
    await stranger.context.close();
  });

  it('changes the password from My account, showing the rule and the API’s reason', async () => {
    const user = await createUser(api, organizationId, 'viewer');
    const { context, page } = await newPage();
    await signInWith(page, user.email, TEST_PASSWORD);
    await page.getByRole('link', { name: 'A viewer' }).click();
    await page.getByRole('heading', { name: 'Password' }).waitFor();
    await page.getByText(/known-breached or easily guessed/).waitFor();
    await page.getByLabel('Current password').fill(TEST_PASSWORD);
    await page.getByLabel('New password').fill('aaaaaaaaaaaaaaaa');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page
      .getByText(/in a row/)
      .first()
      .waitFor();
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByText('Your password is changed').waitFor();
    await look(page, 'account-password-changed');
    // This browser keeps going with its new session.
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('takes a pasted API token for automation accounts: kept in the tab, never in the address', async () => {
    const token = await api.createToken(organizationId, ['read']);
    const { context, page } = await newPage();
    await page.goto(`${base}/`);
    await page.getByText('Use an API token instead (automation accounts)').click();
    await page.getByLabel('API token').fill('wm_not-a-token');
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('not accepted');
    await page.getByLabel('API token').fill(token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    expect(page.url()).toBe(`${base}/`);
    expect(await page.evaluate("sessionStorage.getItem('webmon-token')")).toBe(token);
    // Nothing outlives the tab: a later visit (no token, no cookie) asks nothing before signing in.
    expect(await page.evaluate("localStorage.getItem('webmon-signed-in')")).toBeNull();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('webmon-token')")).toBeNull();
    await context.close();
  });

  it('learns a pasted token’s organization and scopes from /api/me, never by guessing from a website or package', async () => {
    // An organization with a customer and no website: nothing but /api/me could name it.
    const { organizationId: own, token: admin } = await api.createOrganization(['admin']);
    const customerId = await createCustomer(
      api,
      admin,
      (await createPackage(api, admin)).id,
      'Pasted Customer',
    );
    const asked: string[] = [];
    const { context, page } = await newPage();
    page.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (pathname.startsWith('/api/')) asked.push(`${pathname}${search}`);
    });
    const paste = async (token: string) => {
      await page.goto(`${base}/sign-in`);
      await page.getByText('Use an API token instead (automation accounts)').click();
      await page.getByLabel('API token').fill(token);
      await page.getByRole('button', { name: 'Use token' }).click();
      await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    };
    // A write token: the organization's customers, and no admin pages (its scopes say so).
    await paste(await api.createToken(own, ['read', 'write']));
    await page.getByRole('link', { name: 'Customers', exact: true }).click();
    await page.getByRole('link', { name: 'Pasted Customer' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Packages' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'People' }).count()).toBe(0);
    await look(page, 'pasted-token-customers');
    expect(asked).toContain('/api/me');
    expect(asked).toContain(`/api/customers?organizationId=${own}`);
    // The guess read one website, then the packages, before the customers (the new-customer form reads packages too).
    const customersAt = asked.indexOf(`/api/customers?organizationId=${own}`);
    expect(
      asked
        .slice(0, customersAt)
        .filter((path) => /^\/api\/(packages|websites\/summaries\?limit=1$)/.test(path)),
    ).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    // A token bound to the customer reads that customer alone, as a client user does.
    asked.length = 0;
    const bound = await api.request<{ token: string }>('POST', '/api/tokens', {
      token: admin,
      body: { name: 'client portal', scopes: ['read'], customerId },
    });
    const customerRead = page.waitForResponse(
      (response) => new URL(response.url()).pathname === `/api/customers/${customerId}`,
    );
    await paste(bound.body.token);
    expect((await customerRead).status()).toBe(200);
    expect(asked.filter((path) => path.startsWith('/api/customers?'))).toEqual([]);
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });
});
