import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fitsTheWidth,
  labelsOutgrowingTheirCells,
  launchBrowser,
  SCREENSHOTS,
  seriousAxeViolations,
  signInThroughForm,
} from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
import { createUser } from './support/people.js';

const SMTP_ACCOUNT = { username: 'webmon', password: 'subscribers-screen' };
/** Pending subscribers beyond the first page (50 rows): "Load more" has more to load. */
const PENDING = 52;

/** The confirmation link's path in a mail (quoted-printable soft breaks undone). */
function confirmPathIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https?:\/\/[^\s"<>]+\/subscriptions\/[^/\s]+\/confirm\?token=[A-Za-z0-9_-]+/.exec(text);
  if (!match) throw new Error(`no confirm link in:\n${text}`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

/** The first mail to `address`, once it came (expect.poll is for tests, not their setup). */
async function mailTo(mail: MailReceiver, address: string): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const found = mail.mails.find((m) => m.to.includes(address));
    if (found) return found.raw;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${address}`);
}

/** A webhook receiver that answers the subscription's challenge (on 127.0.0.1: ALLOW_PRIVATE_TARGETS). */
async function startChallengeAnswerer(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const parsed = JSON.parse(body) as { challenge?: string };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ challenge: parsed.challenge }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/status` };
}

/**
 * A status page's Subscribers screen with subscribers made as visitors make them (the public
 * API, a real SMTP receiver, the mailed link followed, a webhook answering its challenge): the
 * counts, the list with websites by name, "Load more", the filter, the CSV export through the
 * session cookie, removal behind the confirmation; and an empty page's instructions.
 */
describe('the app in a real browser: a status page’s subscribers', { timeout: 120_000 }, () => {
  let api: TestApi;
  let mail: MailReceiver;
  let hook: { server: Server; url: string };
  let browser: Browser;
  let page: Page;
  let token: string;
  let pageId: number;
  let emptyPageId: number;
  const stamp = Date.now().toString(36);
  const slug = `subs-app-${stamp}`;
  const emptySlug = `subs-empty-${stamp}`;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mail = await startMailReceiver(SMTP_ACCOUNT);
    hook = await startChallengeAnswerer();
    api = await TestApi.start({
      SMTP_URL: `smtp://${SMTP_ACCOUNT.username}:${SMTP_ACCOUNT.password}@127.0.0.1:${mail.port}?ignoreTLS=true`,
      ALLOW_PRIVATE_TARGETS: 'true',
      // Each visitor from an address of their own (X-Forwarded-For): a client address may ask 20 an hour.
      TRUST_PROXY: 'true',
    });
    let organizationId: number;
    ({ organizationId, token } = await api.createOrganization(['admin']));
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Initech');
    const websiteIds: number[] = [];
    for (const name of ['Shop', 'Blog']) {
      const created = await api.request<{ id: number }>('POST', '/api/websites', {
        token,
        body: { customerId, name, url: `https://${name.toLowerCase()}.example.com/`, paused: true },
      });
      websiteIds.push(created.body.id);
    }
    const createPage = async (pageSlug: string, title: string) =>
      (
        await api.request<{ id: number }>('POST', '/api/status-pages', {
          token,
          body: { slug: pageSlug, title, customerId, public: true },
        })
      ).body.id;
    pageId = await createPage(slug, 'Initech status');
    emptyPageId = await createPage(emptySlug, 'Initech labs');

    let visitor = 0;
    const subscribe = async (body: Record<string, unknown>) =>
      api.request('POST', `/status/${slug}/subscriptions`, {
        body,
        headers: { 'x-forwarded-for': `198.51.100.${++visitor}` },
      });
    // Ann, for the Blog only, confirms by the mailed link's button.
    expect((await subscribe({ email: 'ann@example.com', components: [websiteIds[1]] })).status).toBe(202);
    const annMail = await mailTo(mail, 'ann@example.com');
    const link = confirmPathIn(annMail);
    expect((await api.request('POST', link, { rawBody: '' })).status).toBe(200);
    // A webhook, subscribed once it answered its challenge.
    expect((await subscribe({ webhookUrl: hook.url })).status).toBe(201);
    for (let i = 0; i < PENDING; i++)
      expect((await subscribe({ email: `pending-${i}@example.com` })).status).toBe(202);

    const admin = await createUser(api, organizationId, 'admin');
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api.api.url, admin.email, { next: `/status-pages/${pageId}` });
    await page.getByRole('heading', { level: 1, name: 'Initech status' }).waitFor();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await mail?.close();
    hook?.server.close();
  });

  async function look(name: string) {
    expect(await seriousAxeViolations(page), name).toEqual([]);
    expect(await fitsTheWidth(page), name).toBe(true);
    // Cells carry their column's label on a phone only (a table read row by row).
    if ((page.viewportSize()?.width ?? 0) < 640)
      expect(await labelsOutgrowingTheirCells(page), name).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `app-status-page-${name}.png`), fullPage: true });
  }

  const rows = () => page.locator('table tbody tr');
  const row = (address: string) => rows().filter({ hasText: address });

  it('counts and lists the subscribers, websites by name, page after page', async () => {
    await page.getByRole('link', { name: 'Subscribers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Subscribers' }).waitFor();
    const counts = page.getByRole('list', { name: 'Subscribers by state' });
    expect((await counts.textContent())?.replace(/\s+/g, ' ')).toBe(`2 confirmed${PENDING} pending`);
    await expect.poll(() => rows().count()).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows().count()).toBe(PENDING + 2);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    const ann = row('ann@example.com');
    expect(await ann.locator('td[data-label="By"]').textContent()).toBe('E-mail');
    expect(await ann.locator('td[data-label="State"]').textContent()).toBe('Confirmed');
    expect(await ann.locator('td[data-label="Websites"]').textContent()).toBe('Blog');
    expect(await ann.locator('td[data-label="Confirmed"] time').count()).toBe(1);
    const webhook = row(hook.url);
    expect(await webhook.locator('td[data-label="By"]').textContent()).toBe('Webhook');
    expect(await webhook.locator('td[data-label="Websites"]').textContent()).toBe('The whole page');
    const pending = row('pending-0@example.com');
    expect(await pending.locator('td[data-label="State"]').textContent()).toBe('Pending');
    expect(await pending.locator('td[data-label="Confirmed"]').textContent()).toBe('—');
    await look('subscribers-390');
  });

  it('filters by state', async () => {
    await page.getByLabel('Show').selectOption('confirmed');
    await expect.poll(() => rows().count()).toBe(2);
    expect(await row('ann@example.com').count()).toBe(1);
    expect(await row(hook.url).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await page.getByLabel('Show').selectOption('pending');
    await expect.poll(() => row('ann@example.com').count()).toBe(0);
    await expect.poll(() => rows().count()).toBe(50);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(1);
  });

  it('exports every subscriber as CSV through the session cookie', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`status-page-${pageId}-subscribers.csv`);
    const lines = (await readFile((await download.path()) ?? '', 'utf8')).trim().split('\r\n');
    expect(lines[0]).toBe('email,state,components,createdAt,confirmedAt,channel,webhookUrl');
    expect(lines).toHaveLength(PENDING + 2 + 1);
    expect(lines.find((line) => line.startsWith('ann@example.com,'))).toMatch(
      /^ann@example\.com,confirmed,\d+,/,
    );
  });

  it('removes a subscriber after the confirmation', async () => {
    await page.getByLabel('Show').selectOption('confirmed');
    await expect.poll(() => rows().count()).toBe(2);
    await page.getByRole('button', { name: 'Remove ann@example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove ann@example.com?' });
    await dialog.waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'app-status-page-subscriber-remove-390.png') });
    await dialog.getByRole('button', { name: 'Remove the subscriber' }).click();
    await page.getByRole('status').filter({ hasText: 'Removed ann@example.com.' }).waitFor();
    await expect.poll(() => rows().count()).toBe(1);
    const counts = page.getByRole('list', { name: 'Subscribers by state' });
    await expect
      .poll(async () => (await counts.textContent())?.replace(/\s+/g, ' '))
      .toBe(`1 confirmed${PENDING} pending`);
    const listed = await api.request<{ subscribers: Array<{ email: string }> }>(
      'GET',
      `/api/status-pages/${pageId}/subscribers?state=confirmed`,
      { token },
    );
    expect(listed.body.subscribers.map((s) => s.email)).toEqual(['']);

    await page.setViewportSize({ width: 1280, height: 900 });
    // Every page loaded before is read again: Ann is gone from them too.
    await page.getByLabel('Show').selectOption('');
    await expect.poll(() => rows().count()).toBe(PENDING + 1);
    expect(await row('ann@example.com').count()).toBe(0);
    await look('subscribers-wide');
    await page.setViewportSize({ width: 390, height: 900 });
  });

  it('tells how visitors subscribe while a page has no subscriber', async () => {
    await page.goto(`${api.api.url}/status-pages/${emptyPageId}/subscribers`);
    await page.getByRole('heading', { level: 1, name: 'Subscribers' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'No subscribers yet' }).waitFor();
    const base = `${api.api.url}/status/${emptySlug}`;
    for (const path of ['/subscribe', '/feed.rss', '/feed.atom'])
      expect(await page.getByRole('link', { name: `${base}${path}` }).count()).toBe(1);
    expect(await page.getByText(`POST ${base}/subscriptions`).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Export CSV' }).count()).toBe(0);
    await look('subscribers-empty-390');
    expect(pageErrors).toEqual([]);
  });
});
