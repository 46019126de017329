import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync } from 'fflate';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardProxy, startGuardProxy } from '../libs/journeys/guard-proxy.js';
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

/** A site on 127.0.0.1 that answers `pages` by path (404 otherwise) and records what each request sent. */
async function startSite(pages: Record<string, string>) {
  const received: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    received.push({ path: req.url ?? '/', headers: req.headers });
    const page = pages[req.url ?? '/'];
    res.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html' }).end(page ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A guarding proxy that lets the page reach 127.0.0.1 on these ports only. */
function guardFor(...urls: string[]): Promise<GuardProxy> {
  return startGuardProxy({
    guard: {
      allowPrivateTargets: false,
      exemptAddresses: urls.map((url) => ({ address: '127.0.0.1', port: Number(new URL(url).port) })),
      resolve: async (hostname) => {
        throw new Error(`no lookup expected (${hostname})`);
      },
    },
  });
}

const guardedChromium = () =>
  guardedLaunchOptions(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  );

describe('a browser journey on the test shop, through the guard', { timeout: 120_000 }, () => {
  let shop: TestShop;
  let browser: Browser;

  beforeAll(async () => {
    shop = await startTestShop();
    browser = await chromium.launch(guardedChromium());
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  async function run(journey: BrowserJourney, { deadlineMs = 60_000, sites = [shop.url] } = {}) {
    const proxy = await guardFor(...sites);
    try {
      const opened = { variables: journey.variables, secrets: journey.secrets };
      return await runJourney(browser, proxy, {
        journey: fillJourney(journey, opened),
        masks: secretMasks({ secrets: journey.secrets }),
        deadlineMs,
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
    const server = await chromium.launchServer(guardedChromium());
    const doomed = await chromium.connect(server.wsEndpoint());
    shop.faults = { noBasketButton: false, consoleError: false, failingRequest: false, hostile: false };
    shop.searchDelayMs = 3000;
    const proxy = await guardFor(shop.url);
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

  it('sends the extra headers to the journey’s own origin only, never to another it loads from', async () => {
    const cdn = await startSite({ '/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>', '/hit': '' });
    const site = await startSite({
      '/': `<img src="${cdn.url}/logo.svg"><script>fetch('/api').then(() => fetch('${cdn.url}/hit'))</script>`,
      '/api': '',
    });
    try {
      const done = await run(
        journeySettings.parse({
          secrets: { KEY: 'key-4cd1e0' },
          extraHeaders: { 'X-Api-Key': '{{secret.KEY}}', 'X-Monitor': 'webmon' },
          cookies: [{ name: 'session', value: 'kept', url: site.url }],
          steps: [
            { action: 'goto', url: `${site.url}/` },
            { action: 'waitFor', until: 'networkIdle' },
          ],
        }),
        { sites: [site.url, cdn.url] },
      );
      expect(done.error).toBeNull();
      expect(site.received.map((request) => request.path)).toEqual(expect.arrayContaining(['/', '/api']));
      for (const { path, headers } of site.received) {
        expect(headers['x-api-key'], path).toBe('key-4cd1e0');
        expect(headers['x-monitor'], path).toBe('webmon');
        // Routed with its headers, a request still carries the context's cookies.
        expect(headers.cookie, path).toBe('session=kept');
      }
      expect(cdn.received.map((request) => request.path)).toEqual(['/logo.svg', '/hit']);
      for (const { path, headers } of cdn.received) {
        expect(headers['x-api-key'], path).toBeUndefined();
        expect(headers['x-monitor'], path).toBeUndefined();
      }
    } finally {
      await site.close();
      await cdn.close();
    }
  });

  it('gives up a step the page holds up past the journey’s deadline, and closes its context', async () => {
    // A key press waits on the page's handler, which never returns: no timeout of Playwright's ends it.
    const site = await startSite({
      '/': '<script>addEventListener("keydown", () => { for (;;) {} })</script><p>Busy</p>',
    });
    try {
      const started = Date.now();
      const done = await run(
        journeySettings.parse({
          steps: [
            { action: 'goto', url: `${site.url}/` },
            { action: 'press', key: 'Enter' },
          ],
        }),
        { deadlineMs: 4000, sites: [site.url] },
      );
      // The deadline and its aftermath (800 ms), with room for a busy machine.
      expect(Date.now() - started).toBeLessThan(4000 + 800 + 2000);
      expect(done.passed).toBe(false);
      expect(done.failure).toBe('TIMEOUT');
      expect(done.failedStep).toBe(1);
      expect(done.error).toBe('Step 2 (press Enter): not done within the journey’s 4 s');
      expect(done.browserBroke).toBe(false);
      await expect.poll(() => browser.contexts().length, { timeout: 5000 }).toBe(0);
    } finally {
      await site.close();
    }
  });

  it('gives up a run the browser does not answer, past the deadline, as the browser’s failure', async () => {
    const server = await chromium.launchServer(guardedChromium());
    const wedged = await chromium.connect(server.wsEndpoint());
    // Stopped, Chromium takes the call to make a context and never answers it.
    server.process().kill('SIGSTOP');
    const proxy = await guardFor(shop.url);
    try {
      const started = Date.now();
      const done = await runJourney(wedged, proxy, {
        journey: journeySettings.parse({ steps: [{ action: 'goto', url: `${shop.url}/` }] }),
        masks: [],
        deadlineMs: 3000,
      });
      expect(Date.now() - started).toBeLessThan(3000 + 600 + 2000);
      expect(done.passed).toBe(false);
      expect(done.failure).toBe('TIMEOUT');
      expect(done.error).toBe(
        'The journey could not run: the browser did not answer within the journey’s 3 s',
      );
      expect(done.steps.every((step) => step.outcome === 'skipped')).toBe(true);
      // Taken for broken: the caller plays the run again on a fresh browser.
      expect(done.browserBroke).toBe(true);
    } finally {
      server.process().kill('SIGKILL');
      await proxy.close();
      await wedged.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  });
});
