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
import { createOrganizationId, createUser, TEST_PASSWORD } from './support/people.js';

const WEBSITES = 5_000;
const CUSTOMERS = 50;
const STATUSES = ['up', 'up', 'up', 'up', 'down', 'degraded', 'paused', 'maintenance'];

/**
 * The overview with 5,000 websites: the API's answers are made up in the browser (page.route),
 * so this measures the app's own work (filter, group, draw), not the store's.
 */
describe('the app’s overview with 5,000 websites', { timeout: 90_000 }, () => {
  let api: TestApi;
  let browser: Browser;
  let email: string;

  beforeAll(async () => {
    api = await TestApi.start();
    email = (await createUser(api, await createOrganizationId(api), 'editor')).email;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  const website = (id: number) => ({
    id,
    publicId: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    organizationId: 1,
    customerId: (id % CUSTOMERS) + 1,
    name: `Site ${id}`,
    url: `https://site-${id}.example.com/`,
    status: STATUSES[id % STATUSES.length],
    lastCheckedAt: '2026-11-24T12:00:00.000Z',
  });
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => ({
    id: i + 1,
    organizationId: 1,
    name: `Customer ${String(i + 1).padStart(2, '0')}`,
    packageId: 1,
    packageDisplayName: 'Pro',
    status: 'active',
    cancellationDate: null,
    createdAt: '2026-11-01T00:00:00.000Z',
  }));

  /** A website's pictures: 30 checks (a down every 7th, degraded every 11th), a day of response times with a gap. */
  const picture = (id: number) => {
    const summary = website(id);
    const now = Date.UTC(2026, 10, 24, 12, 0, 0);
    const recentChecks = Array.from({ length: 30 }, (_, i) => ({
      at: new Date(now - (29 - i) * 60_000).toISOString(),
      status: (id + i) % 7 === 0 ? 'down' : (id + i) % 11 === 0 ? 'degraded' : 'up',
      responseMs: (id + i) % 7 === 0 ? null : 100 + ((id * 37 + i * 13) % 400),
    }));
    return {
      ...summary,
      customerName: `Customer ${String(summary.customerId).padStart(2, '0')}`,
      statusText: summary.status,
      uptime24hPercent: 99.5 + (id % 5) / 10,
      uptime30dPercent: id % 9 === 0 ? 100 : 99.9,
      lastResponseMs: recentChecks.at(-1)?.responseMs ?? null,
      recentChecks,
      responseTimes24h: Array.from({ length: 24 }, (_, h) => (h === 5 ? null : 120 + ((id + h * 29) % 180))),
      monitors: { total: 0, down: 0 },
    };
  };

  /** The API's pages of summaries (and its search, `q`) made up in the browser; `hold` keeps the later pages waiting. */
  const fakeApi = async (page: Page, hold?: Promise<void>) => {
    let requests = 0;
    await page.route(/\/api\/websites\/summaries\?/, async (route) => {
      requests++;
      const query = new URL(route.request().url()).searchParams;
      const limit = Number(query.get('limit') ?? 100);
      const after = Number(query.get('afterId') ?? 0);
      const text = query.get('q')?.toLowerCase();
      if (text) {
        const all = Array.from({ length: WEBSITES }, (_, i) => website(i + 1));
        const found = all.filter((w) => `${w.name}\n${w.url}`.toLowerCase().includes(text));
        return route.fulfill({ json: found.slice(0, limit) });
      }
      if (after > 0) await hold;
      const ids = Array.from(
        { length: Math.max(0, Math.min(limit, WEBSITES - after)) },
        (_, i) => after + i + 1,
      );
      await route.fulfill({ json: ids.map(website) });
    });
    await page.route(/\/api\/customers\?/, (route) => route.fulfill({ json: customers }));
    // The pictures of the rows shown, by id (the stream itself is the real API's: nothing comes on it).
    await page.route(/\/api\/dashboard\/websites\?/, async (route) => {
      const ids = (new URL(route.request().url()).searchParams.get('ids') ?? '').split(',').map(Number);
      await route.fulfill({ json: { items: ids.map(picture), nextAfterId: null } });
    });
    return () => requests;
  };
  const signIn = async (page: Page) => {
    await signInThroughForm(page, api.api.url, email);
  };

  it('draws the first rows quickly, filters and searches all of them, and pages the rest', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    const requestCount = await fakeApi(page);
    const started = Date.now();
    await signIn(page);
    await page.getByText(`${WEBSITES} websites.`).waitFor();
    const shown = Date.now() - started;
    console.info(`overview of ${WEBSITES} websites drawn ${shown} ms after signing in`);
    expect(shown).toBeLessThan(10_000);
    // Only a page of rows is in the document, not 5,000.
    expect(await page.locator('tbody tr').count()).toBe(200);
    expect(await page.getByText('Showing 200 of 5000.').count()).toBe(1);
    // Each row's pictures: a bar of its 30 last checks, the last response time and the day's line, uptime.
    const first = page.locator('tbody tr').first();
    await first.locator('.checkbar').waitFor();
    expect(await first.locator('.check-mark').count()).toBe(30);
    expect(await first.locator('svg.sparkline').getAttribute('aria-label')).toMatch(
      /^Response time over the last day, hourly: \d+ to \d+ ms, the latest hour \d+ ms$/,
    );
    expect(await first.locator('td[data-label="Uptime"]').textContent()).toMatch(/24 h.*%30 d.*%/);
    // One tab stop per bar, on its newest check; the arrow keys walk its checks, each told in words.
    const bar = first.locator('.checkbar');
    expect(await bar.locator('[tabindex="0"]').count()).toBe(1);
    await bar.locator('[tabindex="0"]').focus();
    await page.keyboard.press('ArrowLeft');
    const focused = page.locator('.check-mark:focus');
    expect(await focused.getAttribute('aria-label')).toMatch(/^.+: (Up|Degraded|Down), (\d+ ms|no answer)$/);
    // The same words show above the bar (the mark's ::after), for sighted keyboard users.
    expect(await page.evaluate("getComputedStyle(document.activeElement, '::after').content")).toContain(
      (await focused.getAttribute('aria-label')) ?? '-',
    );
    await page.keyboard.press('Home');
    expect(await focused.getAttribute('aria-label')).toBe(
      await bar.locator('.check-mark').first().getAttribute('aria-label'),
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'app-overview-pictures-phone.png') });

    const typed = Date.now();
    await page.getByLabel('Search by name or URL').fill('site-4999.example');
    await page.getByText(`1 of ${WEBSITES} websites match.`).waitFor();
    console.info(`search over ${WEBSITES} websites answered in ${Date.now() - typed} ms`);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Search by name or URL').fill('');
    await page.getByLabel('Status', { exact: true }).selectOption('down');
    await page.getByText(`625 of ${WEBSITES} websites match.`).waitFor();
    await page.getByLabel('Customer', { exact: true }).selectOption('5');
    await page.getByText(`of ${WEBSITES} websites match.`).waitFor();
    const rows = await page.locator('tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Customer 05']);
    await page.getByLabel('Customer', { exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Show 200 more' }).click();
    expect(await page.locator('tbody tr').count()).toBe(400);
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await labelsOutgrowingTheirCells(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-overview-5000-phone.png') });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(requestCount()).toBeGreaterThanOrEqual(WEBSITES / 1000);
    await context.close();
  });

  it('draws the pictures on a wide screen too, with no serious accessibility violation', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await fakeApi(page);
    await signIn(page);
    await page.getByText(`${WEBSITES} websites.`).waitFor();
    await page.locator('tbody tr').nth(199).locator('.checkbar').waitFor();
    expect(await page.locator('.checkbar').count()).toBe(200);
    expect(await page.locator('svg.sparkline').count()).toBe(200);
    expect(await fitsTheWidth(page)).toBe(true);
    await page.locator('tbody tr').nth(2).locator('.check-mark').last().hover();
    await page.screenshot({ path: join(SCREENSHOTS, 'app-overview-pictures-wide.png') });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('a search typed while the list still loads asks the server, then filters what it read', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    let release = () => {};
    await fakeApi(page, new Promise<void>((resolve) => (release = resolve)));
    await signIn(page);
    await page.getByText('Reading the websites… 100 so far.').waitFor();
    await page.getByLabel('Search by name or URL').fill('site-4999.example');
    await page.getByText('Reading the websites… 100 so far; 1 found by searching them all.').waitFor();
    expect(await page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('Site 4999')]);
    release();
    await page.getByText(`1 of ${WEBSITES} websites match.`).waitFor();
    await context.close();
  });

  it('asks for the first websites while the session is looked up, when someone signed in here before', async () => {
    const { organizationId, token } = await api.createOrganization(['admin']);
    const pkg = await createPackage(api, token);
    const customerId = await createCustomer(api, token, pkg.id, 'Early Customer');
    const made = await api.request('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Early Site', url: 'https://early.example.com/', paused: true },
    });
    expect(made.status).toBe(201);
    const person = (await createUser(api, organizationId, 'editor')).email;
    const context = await browser.newContext();
    const page = await context.newPage();
    // Who the caller is answers late: the overview's first page must not wait for it.
    let events: string[] = [];
    await page.route('**/api/me', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    page.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (pathname.startsWith('/api/')) events.push(`asked ${pathname}${search}`);
    });
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname === '/api/me') events.push(`answered /api/me ${response.status()}`);
    });
    const visit = async (signedIn: boolean) => {
      events = [];
      const me = page.waitForResponse('**/api/me');
      await page.goto(`${api.api.url}/`);
      if (signedIn) await page.getByRole('link', { name: 'Early Site' }).waitFor();
      else await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await me;
      return events.slice(0, events.indexOf(`answered /api/me ${signedIn ? 200 : 401}`));
    };
    // Nobody signed in here yet: nothing is asked but who the caller is (a 401 spends the address's budget).
    expect(await visit(false)).toEqual(['asked /api/me']);
    await page.getByLabel('E-mail').fill(person);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Early Site' }).waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Early Customer']);
    // Back later, signed in: the first page is asked before the session is known.
    expect(await visit(true)).toContain('asked /api/websites/summaries?limit=100');
    // The session ended elsewhere (expired, revoked): the early 401 is not shown; signing in asks again.
    await context.clearCookies();
    expect(await visit(false)).toContain('asked /api/websites/summaries?limit=100');
    await page.getByLabel('E-mail').fill(person);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Early Site' }).waitFor();
    // Signed out: the next visit asks nothing early again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await visit(false)).toEqual(['asked /api/me']);
    await context.close();
  });

  it('is readable in the system’s dark mode', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${api.api.url}/sign-in`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(21, 23, 27)');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-sign-in-dark.png') });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
