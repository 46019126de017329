import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fitsTheWidth,
  labelsOutgrowingTheirCells,
  launchBrowser,
  lookedAt,
  signInThroughForm,
} from './support/browser.js';
import { type DnsServer, startDnsServer } from './support/dns-server.js';
import { TestApi } from './support/harness.js';
import { createUser } from './support/people.js';
import { publishedPageOf } from './support/status-page-fixture.js';

const STATUS_HOST = 'status.agency.test';
const DOMAIN = 'status.shop.test';

/** The status page's Domains panel: add a domain, see the records to create, verify it, remove it. */
describe('the app’s Domains panel of a status page', () => {
  let api: TestApi;
  let dns: DnsServer;
  let browser: Browser;
  let editorEmail: string;
  let pageId: number;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dns = await startDnsServer({});
    api = await TestApi.start({ DNS_RESOLVERS: dns.address, STATUS_PAGES_HOST: STATUS_HOST });
    let organizationId: number;
    ({ organizationId, pageId } = await publishedPageOf(api, {
      slug: `shop-${Date.now()}`,
      title: 'Shop status',
      websites: [],
    }));
    editorEmail = (await createUser(api, organizationId, 'editor')).email;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await dns?.close();
  });

  const look = async (page: Page, name: string) => expect(await lookedAt(page, name), name).toEqual([]);

  it('adds a domain, shows the records to create, verifies it by DNS and removes it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api.api.url, editorEmail);
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    await page.goto(`${api.api.url}/status-pages/${pageId}`);
    const panel = page.getByRole('region', { name: 'Domains' });
    await expect.poll(() => panel.getByText('No domains yet').count()).toBe(1);

    // A refused host is shown at the field.
    await panel.getByLabel('Add a domain').fill('192.0.2.1');
    await panel.getByRole('button', { name: 'Add the domain' }).click();
    await expect.poll(() => panel.getByText('not an IP address').count()).toBe(1);

    await panel.getByLabel('Add a domain').fill(DOMAIN);
    await panel.getByRole('button', { name: 'Add the domain' }).click();
    await expect.poll(() => panel.getByText('not verified yet').count()).toBe(1);
    await expect.poll(() => panel.getByText(`_webmon-challenge.${DOMAIN}`).count()).toBe(1);
    const token =
      (await panel.locator('code', { hasText: 'webmon-domain-verification=' }).textContent()) ?? '';
    expect(token).toMatch(/^webmon-domain-verification=/);
    await look(page, 'status-page-domains-unverified');

    // Not yet in DNS: the check says why.
    await panel.getByRole('button', { name: 'Verify now' }).click();
    await expect.poll(() => panel.getByText('Not verified: no CNAME').count()).toBe(1);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await labelsOutgrowingTheirCells(page)).toEqual([]);
    await look(page, 'status-page-domains-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    dns.setZone({ [`_webmon-challenge.${DOMAIN}`]: { TXT: [[token]] } });
    await panel.getByRole('button', { name: 'Verify now' }).click();
    await expect.poll(() => panel.getByText('✓ Verified').count()).toBe(1);
    await look(page, 'status-page-domains-verified');
    expect((await api.request('GET', `/internal/tls/ask?domain=${DOMAIN}`)).status).toBe(200);

    await panel.getByRole('button', { name: 'Remove…' }).click();
    await page.getByRole('button', { name: 'Remove the domain' }).click();
    await expect.poll(() => panel.getByText('No domains yet').count()).toBe(1);
    expect((await api.request('GET', `/internal/tls/ask?domain=${DOMAIN}`)).status).toBe(404);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 60_000);
});
