import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import {
  fitsTheWidth,
  launchBrowser,
  SCREENSHOTS,
  seriousAxeViolations,
  signInThroughForm,
} from './support/browser.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser } from './support/people.js';
import { startTestShop, type TestShop } from './support/test-shop.js';

/** A test as `npx playwright codegen` writes it against the shop: its fixed wait (line 8) does not convert. */
const recording = (shop: TestShop) => `import { test, expect } from '@playwright/test';

test('test', async ({ page }) => {
  await page.goto('${shop.url}/sign-in');
  await page.getByLabel('Email').fill('${shop.email}');
  await page.getByLabel('Password').fill('${shop.password}');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForTimeout(500);
  await page.goto('${shop.url}/search');
  await page.getByLabel('Search products').fill('green');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Green Teapot' }).click();
  await expect(page.getByRole('heading', { name: 'Green Teapot' })).toBeVisible();
});
`;

describe('the app in a real browser: a browser journey written, mended, recorded, run and failing', {
  timeout: 180_000,
}, () => {
  let api: TestApi;
  let shop: TestShop;
  let browser: Browser;
  let page: Page;
  let websitePage: string;
  let email: string;
  /** What the page logged as errors (an exception, a CSP refusal): none is expected. */
  const pageErrors: string[] = [];
  /** Journeys the browser sent to be stored. */
  const writes: string[] = [];

  beforeAll(async () => {
    shop = await startTestShop();
    // The shop listens on 127.0.0.1: the API's address guard lets it through only so.
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    const { organizationId, token } = await api.createOrganization(['admin']);
    // Journeys every minute: the worker's run of one comes within the test's time.
    const pkg = await createPackage(api, token, { limits: { minBrowserIntervalSeconds: 60 } });
    const customerId = await createCustomer(api, token, pkg.id);
    const website = await api.request<{ publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Tea Shop', url: `${shop.url}/` },
    });
    expect(website.status, JSON.stringify(website.body)).toBe(201);
    websitePage = `${api.api.url}/websites/${website.body.publicId}`;
    email = (await createUser(api, organizationId, 'editor')).email;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()))
        pageErrors.push(message.text());
    });
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/monitors')) writes.push(request.url());
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await shop?.close();
  });

  const form = () => page.locator('form.monitor-form');
  const field = (label: string) => form().getByLabel(label, { exact: true });
  const step = (n: number) => form().getByRole('group', { name: new RegExp(`^Step ${n}:`) });
  const card = (name: string) =>
    page.locator('li.monitor', { has: page.getByRole('heading', { level: 3, name: new RegExp(name) }) });

  /** The error shown at a control (tied to it by aria-describedby). */
  async function errorAt(control: Locator): Promise<string> {
    await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
    const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ');
    return (await page.locator(`[id="${ids.at(-1)}"]`).textContent()) ?? '';
  }
  /** Adds a step of `action` as step `n` and names how it finds its element. */
  async function addStep(n: number, action: string, by?: string, text?: string) {
    await form().getByRole('button', { name: 'Add a step' }).click();
    await field(`Step ${n} action`).selectOption(action);
    if (by) await field(`Step ${n} finds by`).selectOption(by);
    if (text !== undefined) {
      const label = { label: 'label text', role: 'element name (optional)', css: 'CSS selector' }[
        by ?? 'role'
      ];
      await field(`Step ${n} ${label}`).fill(text);
    }
  }
  /** Whether an image has loaded (a broken one has no natural width). */
  const loaded = (image: Locator) =>
    image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
  async function atPhoneWidth(name: string, target: Locator | Page = page) {
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await target.screenshot({
      path: join(SCREENSHOTS, name),
      ...(target === page ? { fullPage: true } : {}),
    });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('an editor writes a journey step by step, meets the API’s error at its step’s field, mends it and saves', async () => {
    await signInThroughForm(page, api.api.url, email);
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await page.goto(websitePage);
    await page.getByRole('heading', { level: 2, name: 'Heartbeats, DNS and ports' }).waitFor();
    await page.getByLabel('or a').selectOption('browser');
    await page.getByRole('button', { name: 'Add it' }).click();
    await form().getByRole('heading', { name: 'New browser journey' }).waitFor();

    // Sign in with the secret password, search, open a product, put it in the basket, expect the count.
    await field('Step 1 URL').fill('{{shop}}/sign-in');
    await addStep(2, 'fill', 'label', 'Email');
    await field('Step 2 value').fill(shop.email);
    await addStep(3, 'fill', 'label', 'Password');
    await field('Step 3 value').fill('{{secret.PASSWORD}}');
    await addStep(4, 'click', 'role', 'Sign in');
    await addStep(5, 'goto');
    await field('Step 5 URL').fill('{{shop}}/search');
    await addStep(6, 'fill', 'label', 'Search products');
    // A placeholder no variable defines: the API refuses it at this field.
    await field('Step 6 value').fill('{{product}}');
    await addStep(7, 'click', 'role', 'Search');
    await addStep(8, 'click');
    await field('Step 8 role').selectOption('link');
    await field('Step 8 element name (optional)').fill('Blue Teapot');
    await addStep(9, 'click', 'role', 'Add to basket');
    await field('Step 9 name (optional)').fill('Add to basket');
    await step(9).getByText('More options').click();
    await field('Step 9 timeout (ms)').fill('2000');
    await addStep(10, 'expect', 'css');
    await field('Step 10 expects').selectOption('text');
    await field('Step 10 CSS selector').fill('#basket-count');
    await field('Step 10 text must').selectOption('equals');
    await field('Step 10 expected text').fill('1');
    await addStep(11, 'screenshot');
    await field('Step 11 screenshot name').fill('basket');

    // The screenshot moved up and back, a scratch step removed: the others keep their fields.
    await form().getByRole('button', { name: 'Move step 11 up' }).click();
    expect(await field('Step 10 screenshot name').inputValue()).toBe('basket');
    expect(await field('Step 11 expected text').inputValue()).toBe('1');
    await form().getByRole('button', { name: 'Move step 10 down' }).click();
    // A selector that does not parse is the step format's own schema's refusal: shown, nothing sent.
    await addStep(12, 'hover', 'css', 'li[');
    await form().getByRole('button', { name: 'Add the browser journey' }).click();
    expect(await errorAt(field('Step 12 CSS selector'))).toContain('Must be a CSS selector');
    expect(writes).toEqual([]);
    await form().getByRole('button', { name: 'Remove step 12' }).click();
    expect(await form().locator('fieldset.journey-step').count()).toBe(11);
    expect(await field('Step 11 screenshot name').inputValue()).toBe('basket');
    expect(await field('Step 10 CSS selector').inputValue()).toBe('#basket-count');

    await form().getByRole('button', { name: 'Add a variable' }).click();
    await field('Variable 1 name').fill('shop');
    await field('Variable 1 value').fill(shop.url);
    await form().getByRole('button', { name: 'Add a secret' }).click();
    await field('Secret 1 name').fill('PASSWORD');
    await field('Secret 1 value').fill(shop.password);
    await field('Name (optional)').fill('Buy a teapot');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form().screenshot({ path: join(SCREENSHOTS, 'app-journey-form.png') });

    await form().getByRole('button', { name: 'Add the browser journey' }).click();
    expect(await errorAt(field('Step 6 value'))).toContain('{{product}}');
    expect(writes).toHaveLength(1);
    expect(await step(6).textContent()).toContain('Must name a variable the journey has');
    // Eleven steps are screens long: the refused one is named at the top, a button to its field.
    await form().getByRole('button', { name: 'step 6', exact: true }).click();
    await expect
      .poll(() => field('Step 6 value').evaluate((control) => control === document.activeElement))
      .toBe(true);
    await form().screenshot({ path: join(SCREENSHOTS, 'app-journey-error.png') });
    await atPhoneWidth('app-journey-form-phone.png');

    await form().getByRole('button', { name: 'Add a variable' }).click();
    await field('Variable 2 name').fill('product');
    await field('Variable 2 value').fill('blue');
    await form().getByRole('button', { name: 'Add the browser journey' }).click();
    await page.getByText('Added “Buy a teapot”').waitFor();
    const teapot = card('Buy a teapot');
    expect(await teapot.textContent()).toMatch(/Steps\s*11 on a desktop, played every 10 min/);
    expect(await teapot.textContent()).toMatch(/Secrets\s*PASSWORD \(set\)/);
    expect(await page.content()).not.toContain(shop.password);
  });

  it('a pasted recording fills the editor, its unconverted line named, its password a secret', async () => {
    await page.getByLabel('or a').selectOption('browser');
    await page.getByRole('button', { name: 'Add it' }).click();
    await form().getByRole('heading', { name: 'New browser journey' }).waitFor();
    await form().getByText('Import a recording from Playwright').click();
    await field('Recorded test').fill(recording(shop));
    await form().getByRole('button', { name: 'Convert' }).click();
    const converted = form().getByRole('status');
    await expect
      .poll(() => converted.textContent())
      .toBe('9 steps converted; the password it typed is now the secret PASSWORD. 1 line did not convert:');
    expect(await form().locator('ul.unconverted li').allTextContents()).toEqual([
      expect.stringMatching(/^Line 8: await page\.waitForTimeout\(500\); — .+/),
    ]);
    expect(await field('Step 1 URL').inputValue()).toBe(`${shop.url}/sign-in`);
    expect(await field('Step 3 value').inputValue()).toBe('{{secret.PASSWORD}}');
    expect(await field('Step 9 expects').inputValue()).toBe('visible');
    expect(await field('Secret 1 name').inputValue()).toBe('PASSWORD');
    // The pasted test held the password: emptied once it is a secret.
    expect(await field('Recorded test').inputValue()).toBe('');
    expect(await page.content()).not.toContain(shop.password);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form().screenshot({ path: join(SCREENSHOTS, 'app-journey-recorded.png') });
    await atPhoneWidth('app-journey-recorded-phone.png', form());

    await field('Name (optional)').fill('Recorded search');
    await form().getByRole('button', { name: 'Add the browser journey' }).click();
    await page.getByText('Added “Recorded search”').waitFor();
    expect(await card('Recorded search').textContent()).toMatch(/Steps\s*9 on a desktop/);
  });

  it('run now: each step passed with its time and screenshot; then, the basket button gone, the failing step with its screenshot and trace', async () => {
    const teapot = card('Buy a teapot');
    await teapot.getByRole('button', { name: /Run it now/ }).click();
    await expect
      .poll(() => teapot.getByRole('status').textContent(), { timeout: 60_000 })
      .toMatch(/^Run now: up in \d+ ms$/);
    const ran = teapot.locator('ol.journey-steps > li');
    const lines = await ran.allTextContents();
    expect(lines).toHaveLength(11);
    for (const line of lines) expect(line).toMatch(/^✓ passed: .+ in [\d,]+ ms/);
    expect(lines[8]).toMatch(/^✓ passed: Add to basket in/);
    const basket = teapot.getByRole('img', { name: 'Screenshot “basket”' });
    await expect.poll(() => loaded(basket)).toBe(true);
    await teapot.getByRole('table', { name: 'Web Vitals per page' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await teapot.screenshot({ path: join(SCREENSHOTS, 'app-journey-run.png') });

    shop.faults.noBasketButton = true;
    try {
      await teapot.getByRole('button', { name: /Run it now/ }).click();
      await expect
        .poll(() => teapot.getByRole('status').textContent(), { timeout: 60_000 })
        .toMatch(/^Run now: down \(Step 9 \(Add to basket\): .+\) in \d+ ms$/);
      const failed = teapot.locator('ol.journey-steps > li', { hasText: 'failed: Add to basket' });
      expect(await failed.textContent()).toMatch(/^⚠ failed: Add to basket in [\d,]+ ms.+/);
      expect(await teapot.locator('ol.journey-steps > li', { hasText: 'skipped:' }).count()).toBe(2);
      const screenshot = failed.getByRole('img', { name: 'The page when step 9 failed' });
      await expect.poll(() => loaded(screenshot)).toBe(true);
      const trace = teapot.getByRole('link', { name: 'Download the trace' });
      const href = (await trace.getAttribute('href')) ?? '';
      expect(href).toMatch(/^\/api\/websites\/[^/]+\/results\/[0-9a-f]{24}\/trace$/);
      const zip = await page.request.get(`${api.api.url}${href}`);
      expect(zip.status()).toBe(200);
      expect(zip.headers()['content-type']).toBe('application/zip');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await teapot.screenshot({ path: join(SCREENSHOTS, 'app-journey-failed.png') });
      await atPhoneWidth('app-journey-failed-phone.png', teapot);
      expect(await page.content()).not.toContain(shop.password);
    } finally {
      shop.faults.noBasketButton = false;
    }

    // Edited again: the stored secret is "(set)", never its value.
    await teapot.getByRole('button', { name: /^Edit/ }).click();
    await form().getByRole('heading', { name: 'Edit “Buy a teapot”' }).waitFor();
    expect(await field('Secret 1 value').inputValue()).toBe('');
    expect(await field('Secret 1 value').getAttribute('placeholder')).toBe('(set)');
    expect(await field('Step 3 value').inputValue()).toBe('{{secret.PASSWORD}}');
    expect(await page.content()).not.toContain(shop.password);
    await atPhoneWidth('app-journey-edit-phone.png');
    await form().getByRole('button', { name: 'Save the browser journey' }).click();
    await page.getByText('Saved “Buy a teapot”').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('a failing run among the latest runs opens on the failing step, its screenshot, console, failed requests and trace', {
    timeout: 200_000,
  }, async () => {
    const teapot = card('Buy a teapot');
    await teapot.getByRole('button', { name: /^Edit/ }).click();
    await field('Check every (seconds)').fill('60');
    await form().getByRole('button', { name: 'Save the browser journey' }).click();
    await page.getByText('Saved “Buy a teapot”').waitFor();
    shop.faults = { noBasketButton: true, consoleError: true, failingRequest: true, hostile: false };
    // A worker plays it on its schedule, as in production: its results are the card's latest runs.
    const worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.10', NODE_ID: 'app-journey-node' },
      createLogger('worker', api.config.LOG_LEVEL),
    );
    try {
      const failing = teapot.locator('ul.journey-runs > li', { hasText: ': down in' }).first();
      await failing.waitFor({ timeout: 150_000 });
      await failing.getByText('What failed: step 9 “Add to basket”').click();
      const screenshot = failing.getByRole('img', { name: 'The page when step 9 failed' });
      await expect.poll(() => loaded(screenshot)).toBe(true);
      expect(await failing.locator('ul.journey-log').allTextContents()).toEqual([
        expect.stringContaining('Stock widget failed to load'),
        expect.stringMatching(/GET .*\/api\/stock → 500/),
      ]);
      const href =
        (await failing.getByRole('link', { name: 'Download the trace' }).getAttribute('href')) ?? '';
      expect((await page.request.get(`${api.api.url}${href}`)).status()).toBe(200);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await teapot.screenshot({ path: join(SCREENSHOTS, 'app-journey-latest-failed.png') });
      await atPhoneWidth('app-journey-latest-failed-phone.png', teapot);
      expect(await page.content()).not.toContain(shop.password);

      // Confirmed (a recheck follows a first failure), it opens an incident whose page shows that page too.
      const openIncident = async () => {
        const listed = await page.request.get(`${api.api.url}/api/incidents?open=true`);
        const { items } = (await listed.json()) as {
          items: Array<{ id: string; monitor: { kind: string } | null }>;
        };
        return items.find((incident) => incident.monitor?.kind === 'browser')?.id;
      };
      await expect.poll(openIncident, { timeout: 90_000 }).toBeTruthy();
      await page.goto(`${api.api.url}/incidents/${await openIncident()}`);
      const opened = page.getByRole('img', { name: 'The page when the run that opened it failed' });
      await expect.poll(() => loaded(opened)).toBe(true);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/Browser journey: ✕ down$/);
      await page.screenshot({ path: join(SCREENSHOTS, 'app-journey-incident.png'), fullPage: true });
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      shop.faults = { noBasketButton: false, consoleError: false, failingRequest: false, hostile: false };
      await worker.stop();
    }
    expect(pageErrors).toEqual([]);
  });
});
