import { unzipSync } from 'fflate';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuardProxy } from '../libs/journeys/guard-proxy.js';
import { guardedLaunchOptions } from '../libs/journeys/guard-proxy-chromium.js';
import { type BrowserJourney, journeySettings } from '../libs/journeys/journey-options.schema.js';
import { runJourney } from '../libs/journeys/journey-runner.js';
import { fillJourney } from '../libs/journeys/journey-texts.js';
import { secretMasks } from '../libs/journeys/placeholders.js';
import { shopPlaceholders, signInSteps, startTestShop, type TestShop } from './support/test-shop.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The shop's journey: sign in, search (a JavaScript-rendered answer of a slow call), basket, checkout. */
function shopJourney(shop: TestShop): BrowserJourney {
  return journeySettings.parse({
    ...shopPlaceholders(shop),
    steps: [
      ...signInSteps(shop),
      {
        action: 'expect',
        that: 'text',
        locator: { by: 'css', selector: 'main p' },
        text: { contains: 'Signed in' },
      },
      { action: 'goto', url: '{{shop}}/search' },
      { action: 'fill', locator: { by: 'label', text: 'Search products' }, value: 'teapot' },
      { action: 'click', locator: { by: 'role', role: 'button', name: 'Search' } },
      { action: 'click', locator: { by: 'role', role: 'link', name: 'Blue Teapot' } },
      {
        name: 'Add to basket',
        action: 'click',
        locator: { by: 'role', role: 'button', name: 'Add to basket' },
      },
      {
        action: 'expect',
        that: 'text',
        locator: { by: 'css', selector: '#basket-count' },
        text: { equals: '1' },
      },
      { action: 'screenshot', name: 'basket' },
      { action: 'goto', url: '{{shop}}/checkout' },
      { action: 'fill', locator: { by: 'label', text: 'Full name' }, value: 'Ada Buyer' },
      { action: 'select', locator: { by: 'label', text: 'Country' }, value: 'France' },
      { action: 'check', locator: { by: 'label', text: 'I accept the terms' } },
      { action: 'click', locator: { by: 'role', role: 'button', name: 'Place order' } },
      { action: 'expect', that: 'title', title: { equals: 'Order placed' } },
    ],
  });
}

describe('a browser journey on the test shop, through the guard', { timeout: 120_000 }, () => {
  let shop: TestShop;
  let browser: Browser;

  beforeAll(async () => {
    shop = await startTestShop();
    browser = await chromium.launch(
      guardedLaunchOptions(
        process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        process.getuid?.() === 0 ? ['--no-sandbox'] : [],
      ),
    );
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  async function run(journey: BrowserJourney) {
    const proxy = await startGuardProxy({
      guard: {
        allowPrivateTargets: false,
        exemptAddresses: [{ address: '127.0.0.1', port: Number(new URL(shop.url).port) }],
        resolve: async (hostname) => {
          throw new Error(`no lookup expected (${hostname})`);
        },
      },
    });
    try {
      const opened = { variables: journey.variables, secrets: journey.secrets };
      return await runJourney(browser, proxy, {
        journey: fillJourney(journey, opened),
        masks: secretMasks({ secrets: journey.secrets }),
        deadlineMs: 60_000,
      });
    } finally {
      await proxy.close();
    }
  }

  it('passes, each step timed, with Web Vitals of each page and a screenshot step kept', async () => {
    shop.faults = { noBasketButton: false, consoleError: false, failingRequest: false, hostile: false };
    const done = await run(shopJourney(shop));
    expect(done.error).toBeNull();
    expect(done.passed).toBe(true);
    expect(done.steps.every((step) => step.outcome === 'passed' && (step.durationMs ?? -1) >= 0)).toBe(true);
    expect(done.screenshots.map((shot) => shot.name)).toEqual(['basket']);
    expect(done.screenshots[0]?.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(done.trace).toBeNull();
    expect(done.blocked).toEqual([]);
    const searchPage = done.vitals.find((page) => page.url.endsWith('/search'));
    expect(searchPage?.ttfbMs).toBeGreaterThanOrEqual(0);
    expect(searchPage?.fcpMs).toBeGreaterThan(0);
    // The search was clicked: an interaction's duration is measured.
    expect(done.vitals.some((page) => page.inpMs !== null)).toBe(true);
    expect(shop.requests.get('/api/search')).toBeGreaterThanOrEqual(1);
  });

  it('fails at the step whose button is gone, with the page, the console error, the failed request and a masked trace', async () => {
    shop.faults = { noBasketButton: true, consoleError: true, failingRequest: true, hostile: false };
    const journey = shopJourney(shop);
    journey.steps[9] = { ...journey.steps[9], timeoutMs: 2000 } as BrowserJourney['steps'][number];
    const done = await run(journey);
    expect(done.passed).toBe(false);
    expect(done.failedStep).toBe(9);
    expect(done.error).toBe('Step 10 (Add to basket): not done within 2 s');
    expect(done.steps.slice(10).every((step) => step.outcome === 'skipped')).toBe(true);
    expect(done.screenshots.map((shot) => shot.name)).toEqual(['failure']);
    expect(done.screenshots[0]?.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(done.consoleErrors).toContain('Stock widget failed to load');
    expect(done.failedRequests).toContainEqual({
      method: 'GET',
      url: `${shop.url}/api/stock`,
      status: 500,
      error: null,
    });
    expect(done.browserBroke).toBe(false);
    // The trace opens as a zip and nowhere holds the password typed in step 3.
    const trace = done.trace as Buffer;
    expect(trace.length).toBeGreaterThan(1000);
    const entries = unzipSync(trace);
    expect(Object.keys(entries).some((name) => name.endsWith('.trace'))).toBe(true);
    for (const [name, bytes] of Object.entries(entries))
      expect(Buffer.from(bytes).includes(shop.password), `${name} holds the password`).toBe(false);
    expect(JSON.stringify(done)).not.toContain(shop.password);
  });

  it('names what the guard refused: an image from 169.254.169.254, a fetch to 127.0.0.2 and a redirect to 10.0.0.5', async () => {
    shop.faults = { noBasketButton: false, consoleError: false, failingRequest: false, hostile: true };
    const journey = journeySettings.parse({
      steps: [
        { action: 'goto', url: `${shop.url}/products/1` },
        { action: 'waitFor', until: 'networkIdle' },
        { action: 'click', locator: { by: 'role', role: 'link', name: 'Elsewhere' } },
      ],
    });
    const done = await run(journey);
    const targets = done.blocked.map((refusal) => refusal.target).join(' ');
    expect(targets).toContain('169.254.169.254');
    expect(targets).toContain('127.0.0.2');
    expect(targets).toContain('10.0.0.5');
    expect(done.failedRequests.some((request) => request.url.startsWith('http://169.254.169.254'))).toBe(
      true,
    );
  });

  it('visits no page but the web’s, whatever a journey was let through with (file:, view-source:)', async () => {
    for (const url of ['file:///etc/passwd', `view-source:${shop.url}/`]) {
      const done = await run(
        journeySettings.parse({
          steps: [
            { action: 'goto', url },
            {
              action: 'expect',
              that: 'text',
              locator: { by: 'css', selector: 'body' },
              text: { contains: 'root' },
            },
          ],
        }),
      );
      expect(done.passed, url).toBe(false);
      expect(done.error, url).toBe(`Step 1 (go to ${url}): only http(s) pages may be visited`);
    }
  });

  it('tells a browser that died under the run apart from the site failing', async () => {
    // A browser of its own, launched as a server: its process is ours to kill.
    const server = await chromium.launchServer(
      guardedLaunchOptions(
        process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        process.getuid?.() === 0 ? ['--no-sandbox'] : [],
      ),
    );
    const doomed = await chromium.connect(server.wsEndpoint());
    shop.faults = { noBasketButton: false, consoleError: false, failingRequest: false, hostile: false };
    shop.searchDelayMs = 3000;
    const proxy = await startGuardProxy({
      guard: {
        allowPrivateTargets: false,
        exemptAddresses: [{ address: '127.0.0.1', port: Number(new URL(shop.url).port) }],
        resolve: async () => {
          throw new Error('no lookup expected');
        },
      },
    });
    try {
      const journey = journeySettings.parse({
        steps: [
          { action: 'goto', url: `${shop.url}/search` },
          { action: 'fill', locator: { by: 'label', text: 'Search products' }, value: 'cups' },
          { action: 'click', locator: { by: 'role', role: 'button', name: 'Search' } },
          { action: 'waitFor', until: 'text', text: 'Tea Cups' },
        ],
      });
      const running = runJourney(doomed, proxy, { journey, masks: [], deadlineMs: 30_000 });
      // SIGKILL the browser while the search's slow call is under way.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      server.process().kill('SIGKILL');
      const done = await running;
      expect(done.passed).toBe(false);
      expect(done.browserBroke, String(done.error)).toBe(true);
    } finally {
      shop.searchDelayMs = 300;
      await proxy.close();
      await doomed.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  });
});
