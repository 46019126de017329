import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

const KUMA_BACKUP = join('test', 'fixtures', 'imports', 'uptime-kuma-backup.json');
const KUMA_CHECKS = join('test', 'fixtures', 'imports', 'uptime-kuma-checks.json');

async function signInAt(page: Page, url: string, email: string): Promise<void> {
  await signInThroughForm(page, url, email);
  await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
}

/** Tries the chosen file as a dry run, then imports it: the report's text after each. */
async function dryRunThenImport(page: Page): Promise<{ tried: string; imported: string }> {
  await page.getByRole('button', { name: 'Try it' }).click();
  const report = page.locator('#import-report');
  await report.getByText('✓ done').waitFor();
  const tried = (await report.textContent()) ?? '';
  await page.getByRole('checkbox', { name: /^Dry run/ }).uncheck();
  await page.getByRole('button', { name: 'Import' }).click();
  await report.getByRole('heading', { name: /Import \d+: ✓ done/ }).waitFor();
  return { tried, imported: (await report.textContent()) ?? '' };
}

describe('the app in a real browser: importing an Uptime Kuma backup', { timeout: 90_000 }, () => {
  let api: TestApi;
  let browser: Browser;
  let organizationId: number;
  let customerId: number;
  let token: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    organizationId = await createOrganizationId(api);
    token = await api.createToken(organizationId, ['admin']);
    customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Acme Import');
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('tried as a dry run, then imported: progress, then what became of each monitor; the websites are listed', async () => {
    const editor = await createUser(api, organizationId, 'editor');
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInAt(page, api.api.url, editor.email);

    await page.goto(`${api.api.url}/customers/${customerId}`);
    await page.getByRole('link', { name: 'Import many from a file' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import websites' }).waitFor();
    // Opened from the customer: it is chosen already. Without a file, the form says so at the field.
    await expect.poll(() => page.getByLabel('Into the customer').inputValue()).toBe(String(customerId));
    await page.getByRole('button', { name: 'Try it' }).click();
    await page.getByText('choose the file to import').waitFor();

    await page.getByLabel('File', { exact: true }).setInputFiles(KUMA_BACKUP);
    const { tried, imported: text } = await dryRunThenImport(page);
    expect(tried).toContain('Would be created (3)');
    expect(tried).toContain('Not imported (4)');
    expect(text).toContain('Created (3)');
    const report = page.locator('#import-report');
    expect(text).toContain('Orders API (POST, basic auth)');
    expect(text).toContain('ping: no website of host 192.0.2.1 in the customer');
    expect(text).toContain('interval 30 s raised to');
    expect(await report.locator('progress').getAttribute('value')).toBe('7');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-import.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-import-phone.png'), fullPage: true });

    await page.goto(`${api.api.url}/customers/${customerId}`);
    await page.getByRole('link', { name: 'Homepage keyword' }).waitFor();
    // And out again: the customer's websites as a CSV download.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export them (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^webmon-customer-\d+-\d{4}-\d\d-\d\d\.csv$/);
    const exported = await readFile((await download.path()) as string, 'utf8');
    expect(exported).toContain('Acme Import,Homepage keyword,https://www.example.com/');
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('a webmon export of one organization imported into another: what it would make, then made, each thing said', async () => {
    const exported = await api.request('GET', '/api/exports?format=webmon-json', { token });
    expect(exported.status).toBe(200);
    const dir = await mkdtemp(join(tmpdir(), 'webmon-export-'));
    const file = join(dir, 'webmon-organization.json');
    await writeFile(file, JSON.stringify(exported.body));
    const other = await createOrganizationId(api);
    // An admin: the export's package is made too (an editor's import says it needs the admin scope).
    const editor = await createUser(api, other, 'admin');
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInAt(page, api.api.url, editor.email);
    await page.goto(`${api.api.url}/imports`);
    await page.getByLabel('Format').selectOption('webmon-json');
    // An export names its own customers: none is asked for.
    expect(await page.getByLabel('Into the customer').count()).toBe(0);
    await page.getByLabel('File', { exact: true }).setInputFiles(file);
    const { tried, imported: text } = await dryRunThenImport(page);
    // The package, the customer and its three websites.
    expect(tried).toContain('Would be created (5)');
    expect(text).toContain('Created (5)');
    expect(text).toContain('customer "Acme Import"');
    expect(text).toContain('5 of 5 things');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-import-webmon-export.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto(`${api.api.url}/customers`);
    await page.getByRole('link', { name: 'Acme Import' }).waitFor();
    await context.close();
    await rm(dir, { recursive: true, force: true });
    expect(pageErrors).toEqual([]);
  });

  it('ping, port, DNS, push, gRPC, WebSocket and mail monitors: checks of the website of their host, the others attached to the website chosen', async () => {
    const editor = await createUser(api, organizationId, 'editor');
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInAt(page, api.api.url, editor.email);
    await page.goto(`${api.api.url}/imports?customerId=${customerId}`);
    await page.getByRole('heading', { level: 1, name: 'Import websites' }).waitFor();
    // The customer's websites (the first test imported them) to attach monitors without one to.
    const attach = page.getByLabel('Attach monitors without a website to');
    await attach.locator('option', { hasText: 'Homepage keyword' }).waitFor({ state: 'attached' });
    await attach.selectOption({ label: 'Homepage keyword (https://www.example.com/)' });
    await page.getByLabel('File', { exact: true }).setInputFiles(KUMA_CHECKS);
    const { tried, imported: text } = await dryRunThenImport(page);
    expect(tried).toContain('Checks that would be made (7)');
    expect(tried).toContain(
      'Office router (monitor 17) 203.0.113.7 — host: reserved: private and reserved addresses are refused',
    );
    expect(tried).toContain('ping check on Shop (the website of its host, made by this import)');
    expect(text).toContain('Checks made (7)');
    expect(text).toContain('WebSocket check on Shop (the website of its host)');
    expect(text).toContain('heartbeat on Homepage keyword (the website chosen to attach to)');
    expect(text).toContain('Not imported (1)');
    // The address guard refuses a reserved address (this API does not allow private targets), as its route would.
    expect(text).toContain(
      'Office router (monitor 17) 203.0.113.7 — host: reserved: private and reserved addresses are refused',
    );
    expect(text).toContain("its push URL is not carried: point the job at the heartbeat's ping URL");
    await page.screenshot({ path: join(SCREENSHOTS, 'app-import-checks.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // From the report to the website: its checks are there.
    const report = page.locator('#import-report');
    await report.getByRole('link', { name: 'Shop' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Shop' }).waitFor();
    await page.getByText('Shop ping').first().waitFor();
    await page.getByText('Live feed').first().waitFor();
    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
