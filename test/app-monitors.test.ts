import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fitsTheWidth,
  launchBrowser,
  SCREENSHOTS,
  seriousAxeViolations,
  signInThroughForm,
} from './support/browser.js';
import { type DnsServer, startDnsServer } from './support/dns-server.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser } from './support/people.js';
import { startUdpServer, startWebSocketServer } from './support/service-servers.js';
import { greets } from './support/targets.js';

describe('the app in a real browser: heartbeats, DNS and port checks of a website', {
  timeout: 120_000,
}, () => {
  let stack: MonitoringStack;
  let dns: DnsServer;
  let banner: Server;
  let bannerPort: number;
  let browser: Browser;
  let base: string;
  let websitePage: string;
  /** What the pages logged as errors (an exception, a CSP refusal): none is expected. */
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dns = await startDnsServer({
      'shop.example': { A: ['192.0.2.10'], MX: [{ priority: 10, exchange: 'mx1.shop.example' }] },
    });
    banner = createServer(greets('220 mail.shop.example ready\r\n'));
    banner.listen(0, '127.0.0.1');
    await once(banner, 'listening');
    bannerPort = (banner.address() as { port: number }).port;
    stack = await startMonitoringStack('app-monitors', {}, { DNS_RESOLVERS: dns.address });
    base = stack.api.api.url;
    const website = await stack.api.request<{ publicId: string }>('POST', '/api/websites', {
      token: stack.token,
      body: { customerId: stack.customerId, name: 'Shop', url: `${stack.target.url}/ok`, checkInterval: 60 },
    });
    expect(website.status, JSON.stringify(website.body)).toBe(201);
    websitePage = `${base}/websites/${website.body.publicId}`;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await dns?.close();
    banner?.close();
  });

  /** A browser tab signed in as a new user of `role`, on the website's page. */
  async function signedIn(role: 'editor' | 'viewer'): Promise<{ context: BrowserContext; page: Page }> {
    const user = await createUser(stack.api, stack.organizationId, role);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()))
        pageErrors.push(message.text());
    });
    await signInThroughForm(page, base, user.email);
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await page.goto(websitePage);
    await page.getByRole('heading', { level: 2, name: 'Heartbeats, DNS and ports' }).waitFor();
    return { context, page };
  }

  const card = (page: Page, name: string | RegExp): Locator =>
    page.locator('li.monitor', { has: page.getByRole('heading', { level: 3, name }) });
  /** The API's error shown at a control (tied to it by aria-describedby). */
  async function errorAt(page: Page, control: Locator): Promise<string> {
    await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
    const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ');
    return (await page.locator(`[id="${ids.at(-1)}"]`).textContent()) ?? '';
  }

  it('an editor adds a heartbeat, a DNS check and a port check, sees each up, and deletes one behind a confirmation; a viewer sees no ping URL', async () => {
    const { context, page } = await signedIn('editor');
    await page.getByText('None yet. Add a heartbeat').waitFor();

    // A heartbeat: the next five expected pings previewed as the form is filled.
    await page.getByRole('button', { name: 'Add a heartbeat' }).click();
    await page.getByLabel('Name').fill('Nightly backup');
    await page.getByLabel('Period (seconds)').fill('60');
    await page.getByLabel('Grace (seconds)').fill('30');
    const preview = page.getByRole('region', { name: 'Next pings expected' });
    await expect.poll(() => preview.getByRole('listitem').count()).toBe(5);
    // A cron schedule previews too; a broken one says why.
    await page.getByLabel('On a cron schedule').check();
    await page.getByLabel('Cron expression', { exact: true }).fill('30 2 * * *');
    await expect
      .poll(async () => (await preview.getByRole('listitem').allTextContents()).join(' '))
      .toMatch(/02:30/);
    await page.getByLabel('Cron expression', { exact: true }).fill('61 2 * * *');
    await expect.poll(() => preview.getByRole('listitem').count()).toBe(0);
    await page.getByLabel('Every so many seconds').check();
    await expect.poll(() => preview.getByRole('listitem').count()).toBe(5);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-monitors-heartbeat-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Add the heartbeat' }).click();
    const heartbeat = card(page, /Nightly backup/);
    const pingUrl = (await heartbeat.locator('.copy-row code').textContent()) ?? '';
    expect(pingUrl).toMatch(/\/ping\/[A-Za-z0-9_-]{22,}$/);
    expect(await heartbeat.locator('pre.command').textContent()).toContain(`curl -fsS ${pingUrl}/start`);
    expect(await heartbeat.textContent()).toContain('Not checked yet');

    // The job pings (with its log); the page shows it up, and the ping's body as text.
    const pinged = await fetch(new URL(new URL(pingUrl).pathname, base), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'backup done: <b>12 GB</b>\n',
    });
    expect(pinged.status).toBe(200);
    await expect
      .poll(() => heartbeat.locator('.status').first().textContent(), { timeout: 20_000 })
      .toContain('Up');
    await heartbeat.getByText('Last pings').click();
    await heartbeat.locator('pre.log').getByText('backup done: <b>12 GB</b>').waitFor();
    expect(await heartbeat.locator('pre.log b').count()).toBe(0);

    // A failing run takes it down: its incident is listed, and shown, as the heartbeat's.
    const pingPath = new URL(pingUrl).pathname;
    const failed = await fetch(new URL(`${pingPath}/3`, base), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'disk full\n',
    });
    expect(failed.status).toBe(200);
    await expect
      .poll(() => heartbeat.locator('.status').first().textContent(), { timeout: 20_000 })
      .toContain('Down');
    await page.goto(`${base}/incidents`);
    const row = page.locator('tbody tr', { hasText: 'Shop · heartbeat' });
    await row.waitFor();
    expect(await row.textContent()).toContain('the job exited with code 3: disk full');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-incidents-monitor.png'), fullPage: true });
    await row.getByRole('link', { name: /Ongoing/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Shop · heartbeat: ✕ down' }).waitFor();
    // No regions and no HTTP evidence pretended: where its pings are instead.
    const facts = (await page.locator('section').first().textContent()) ?? '';
    expect(facts).toContain('none: pinged');
    expect(facts).toContain('Heartbeat: what it saw is kept with its results on Shop’s page.');
    expect(facts).not.toContain('evidence is gone');
    expect(facts).not.toContain('in push');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-incident-monitor.png'), fullPage: true });
    expect((await fetch(new URL(pingPath, base))).status).toBe(200);
    await page.goto(websitePage);
    await expect
      .poll(() => heartbeat.locator('.status').first().textContent(), { timeout: 20_000 })
      .toContain('Up');

    // A DNS check whose expected MX value is not one: the API's error at that field, then mended.
    await page.getByRole('button', { name: 'Add a DNS check' }).click();
    await page.getByLabel('Record type').selectOption('MX');
    const host = page.getByLabel('Host');
    expect(await host.getAttribute('placeholder')).toBe('127.0.0.1');
    await host.fill('shop.example');
    const values = page.getByLabel('Expected values (one per line)');
    await values.fill('mx1.shop.example');
    await page.getByLabel('Check every (seconds)').fill('10');
    await page.getByLabel('Timeout (seconds)').fill('2');
    await page.getByRole('button', { name: 'Add the DNS check' }).click();
    expect(await errorAt(page, values)).toMatch(/is not an MX value/);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-monitors-dns-error.png'), fullPage: true });
    await values.fill('10 mx1.shop.example');
    await page.getByRole('button', { name: 'Add the DNS check' }).click();
    const mx = card(page, /MX shop\.example/);
    await mx.waitFor();
    expect(await mx.textContent()).toContain('10 mx1.shop.example');

    // An A record watched for a change: its first answer is learned.
    await page.getByRole('button', { name: 'Add a DNS check' }).click();
    await page.getByLabel('Host').fill('shop.example');
    await page.getByLabel('The answer changes (the first one is learned)').check();
    await page.getByLabel('Check every (seconds)').fill('10');
    await page.getByLabel('Timeout (seconds)').fill('2');
    await page.getByRole('button', { name: 'Add the DNS check' }).click();
    const learning = card(page, /: A shop\.example/);
    await learning.waitFor();

    // A port check of a local server's banner.
    await page.getByRole('button', { name: 'Add a port check' }).click();
    await page.getByLabel('Host').fill('127.0.0.1');
    await page.getByLabel('Port', { exact: true }).fill(String(bannerPort));
    await page.getByLabel('Expected banner (optional)').fill('220');
    await page.getByLabel('Check every (seconds)').fill('10');
    await page.getByLabel('Timeout (seconds)').fill('2');
    await page.getByRole('button', { name: 'Add the port check' }).click();
    const port = card(page, `Port check: 127.0.0.1:${bannerPort}`);
    await port.waitFor();

    await expect.poll(() => mx.locator('.status').first().textContent(), { timeout: 30_000 }).toContain('Up');
    await expect
      .poll(() => port.locator('.status').first().textContent(), { timeout: 30_000 })
      .toContain('Up');
    await expect
      .poll(() => port.textContent(), { timeout: 15_000 })
      .toMatch(/connected in \d+ ms, answered 220 mail\.shop\.example ready/);

    // The record changes: both answers shown, and the new one accepted.
    await expect.poll(() => learning.textContent(), { timeout: 30_000 }).toMatch(/Learned\s*192\.0\.2\.10/);
    dns.setZone({
      'shop.example': { A: ['192.0.2.99'], MX: [{ priority: 10, exchange: 'mx1.shop.example' }] },
    });
    await expect
      .poll(() => learning.textContent(), { timeout: 30_000 })
      .toMatch(/Answer changed.*was 192\.0\.2\.10, now 192\.0\.2\.99/);

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-monitors.png'), fullPage: true });
    await learning.getByRole('button', { name: 'Accept the new answer' }).click();
    await page.getByText('is the one expected from now on').waitFor();
    await expect.poll(() => learning.textContent()).toMatch(/Learned\s*192\.0\.2\.99/);
    expect(await learning.textContent()).not.toContain('Answer changed');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SCREENSHOTS, 'app-monitors-dark.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-monitors-phone.png'), fullPage: true });
    await page.locator('#monitors').screenshot({ path: join(SCREENSHOTS, 'app-monitors-phone-section.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Deleting asks first: kept on "Keep it", gone after the confirmation.
    await port.getByRole('button', { name: /^Delete/ }).click();
    const dialog = page.getByRole('dialog', { name: /Delete the port check/ });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await port.count()).toBe(1);
    await port.getByRole('button', { name: /^Delete/ }).click();
    await dialog.getByRole('button', { name: 'Delete the port check' }).click();
    await expect.poll(() => port.count()).toBe(0);
    const left = await stack.api.request<{ items: Array<{ kind: string }> }>(
      'GET',
      `${new URL(websitePage).pathname.replace('/websites/', '/api/websites/')}/monitors`,
      { token: stack.token },
    );
    expect(left.body.items.map((m) => m.kind).sort()).toEqual(['dns', 'dns', 'heartbeat']);
    await context.close();

    // A viewer sees where each stands, but neither the ping URL nor anything to change.
    const viewer = await signedIn('viewer');
    const seen = card(viewer.page, /Nightly backup/);
    await seen.waitFor();
    expect(await seen.textContent()).toContain('Up');
    expect(await viewer.page.locator('.ping-url').count()).toBe(0);
    expect(await viewer.page.content()).not.toContain(new URL(pingUrl).pathname);
    expect(await viewer.page.getByRole('button', { name: /^(Edit|Delete|Add a)/ }).count()).toBe(0);
    expect(await seriousAxeViolations(viewer.page)).toEqual([]);
    await viewer.page.screenshot({ path: join(SCREENSHOTS, 'app-monitors-viewer.png'), fullPage: true });
    await viewer.context.close();
    expect(pageErrors).toEqual([]);
  });

  it('an editor adds a mail server and a UDP check from the kinds’ own fields, sees the greeting, and meets the API’s error at its field', async () => {
    const echo = await startUdpServer((datagram) => Buffer.concat([Buffer.from('PONG '), datagram]));
    const { context, page } = await signedIn('editor');
    await page.getByLabel('or a').selectOption('smtp');
    await page.getByRole('button', { name: 'Add it' }).click();
    const form = page.locator('form.monitor-form');
    await form.getByRole('heading', { name: 'New SMTP check' }).waitFor();
    await form.getByLabel('Host (optional)').fill('127.0.0.1');
    await form.getByLabel('Port (optional)').fill(String(bannerPort));
    await form.getByLabel('None (clear text)').check();
    await form.getByLabel('Check every (seconds)').fill('10');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-monitors-smtp-form.png'), fullPage: true });
    await form.getByRole('button', { name: 'Add the SMTP check' }).click();
    const smtp = card(page, `SMTP 127.0.0.1:${bannerPort}`);
    await smtp.waitFor();
    await expect.poll(() => smtp.textContent(), { timeout: 30_000 }).toContain('220 mail.shop.example ready');
    await expect.poll(() => smtp.textContent(), { timeout: 15_000 }).toContain('Up');
    await smtp.getByRole('button', { name: /Run it now/ }).click();
    await expect.poll(() => smtp.getByRole('status').textContent()).toMatch(/Run now: up in \d+ ms/);

    await page.getByLabel('or a').selectOption('udp');
    await page.getByRole('button', { name: 'Add it' }).click();
    await form.getByRole('heading', { name: 'New UDP check' }).waitFor();
    await form.getByLabel('Host (optional)').fill('127.0.0.1');
    await form.getByLabel('Port', { exact: true }).fill(String(echo.port));
    await form.getByLabel('Hex digits').check();
    await form.getByLabel('Payload sent (optional)').fill('zz');
    await form.getByRole('button', { name: 'Add the UDP check' }).click();
    expect(await errorAt(page, form.getByLabel('Payload sent (optional)'))).toContain('hex');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-monitors-udp-error.png'), fullPage: true });
    await form.getByLabel('Text', { exact: true }).check();
    await form.getByLabel('Payload sent (optional)').fill('PING');
    await form.getByLabel('Expected (optional)').fill('PONG');
    await form.getByLabel('Check every (seconds)').fill('10');
    await form.getByRole('button', { name: 'Add the UDP check' }).click();
    const udp = card(page, `UDP 127.0.0.1:${echo.port}`);
    await udp.waitFor();
    await expect.poll(() => udp.textContent(), { timeout: 30_000 }).toContain('PONG PING');
    await expect.poll(() => udp.textContent(), { timeout: 15_000 }).toMatch(/Uptime, 24 hours\s*100\.00 %/);
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await fitsTheWidth(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-monitors-probe-kinds.png'), fullPage: true });

    // A WebSocket check's credential header: shown as (set), kept when the check is edited.
    const socketServer = await startWebSocketServer({
      requireHeader: { name: 'Authorization', value: 'Bearer ui-secret' },
    });
    const websiteRef = new URL(websitePage).pathname.split('/').at(-1);
    const made = await stack.api.request<{ id: number }>('POST', `/api/websites/${websiteRef}/monitors`, {
      token: stack.token,
      body: {
        kind: 'websocket',
        name: 'Live feed',
        url: `ws://127.0.0.1:${socketServer.port}/`,
        headers: { Authorization: 'Bearer ui-secret' },
      },
    });
    expect(made.status).toBe(201);
    const live = card(page, /Live feed/);
    await live.waitFor({ timeout: 15_000 });
    await live.getByRole('button', { name: /^Edit/ }).click();
    const headers = form.getByLabel('Headers sent (optional)');
    expect(await headers.inputValue()).toBe('Authorization: (set)');
    await headers.fill('Authorization: (set)\nX-Client: webmon');
    await form.getByRole('button', { name: 'Save the WebSocket check' }).click();
    await expect
      .poll(
        async () =>
          (
            await stack.api.request<{ headers: Record<string, string> }>(
              'GET',
              `/api/monitors/${made.body.id}`,
              {
                token: stack.token,
              },
            )
          ).body.headers,
      )
      .toEqual({ 'X-Client': 'webmon', Authorization: '(set)' });
    await live.getByRole('button', { name: /Run it now/ }).click();
    await expect.poll(() => live.getByRole('status').textContent()).toMatch(/Run now: up in \d+ ms/);
    expect(await page.content()).not.toContain('ui-secret');
    await socketServer.close();
    await context.close();
    await echo.close();
    expect(pageErrors).toEqual([]);
  });
});
