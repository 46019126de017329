import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
import { type HealthSite, startHealthSite } from './support/health-site.js';
import { createUser } from './support/people.js';

type Worker = Awaited<ReturnType<typeof startWorker>>;
const DAY_MS = 86_400_000;

/** An audit that cost its category points (Lighthouse scored it 0). */
const lost = (category: string, id: string, title: string, pointsLost: number) => ({
  category,
  id,
  title,
  score: 0,
  weight: 0.2,
  pointsLost,
});

/** A Lighthouse run as its history keeps it (libs/site-health/lighthouse-history.repository.ts). */
function lighthouseRun(
  owner: { organizationId: number; customerId: number; websiteId: number; monitorId: number },
  run: { runId: string; at: Date; url: string; preset: 'mobile' | 'desktop'; scores: number[] },
) {
  const [performance = 0, accessibility = 0, bestPractices = 0, seo = 0] = run.scores;
  const breached = performance < 50;
  return {
    _id: `${run.runId} 0`,
    ...owner,
    runId: run.runId,
    at: run.at,
    url: run.url,
    preset: run.preset,
    outcome: 'completed',
    error: null,
    figures: {
      lighthouseVersion: '12.0.0',
      preset: run.preset,
      requestedUrl: run.url,
      finalUrl: run.url,
      fetchedAt: run.at.toISOString(),
      scores: { performance, accessibility, bestPractices, seo },
      metrics: { lcpMs: 2400, cls: 0.012, tbtMs: 310, fcpMs: 980, speedIndexMs: 1900 },
      auditsLost: [
        lost('performance', 'render-blocking-resources', 'Eliminate render-blocking resources', 18.5),
        lost('accessibility', 'image-alt', 'Image elements do not have [alt] attributes', 9.8),
      ],
      runWarnings: [],
      runtimeError: null,
    },
    breaches: breached
      ? { under: [{ category: 'performance', score: performance, minimum: 50 }], dropped: [], auditsLost: [] }
      : null,
    report: 'run-1',
    reportNote: null,
    retainUntil: new Date(Date.now() + 30 * DAY_MS),
  };
}

describe('the app in a real browser: a website’s Site health and the organization’s', {
  timeout: 240_000,
}, () => {
  let site: HealthSite;
  let folder: string;
  let api: TestApi;
  let worker: Worker | undefined;
  let token: string;
  let organizationId: number;
  let customerId: number;
  let otherCustomerId: number;
  let teaShop: { id: number; publicId: string };
  let lighthouseId: number;
  let browser: Browser;
  let page: Page;
  let base: string;
  /** What the page logged as errors (an exception, a CSP refusal): none is expected. */
  const pageErrors: string[] = [];
  /** Monitors the browser sent to be stored. */
  const writes: string[] = [];

  beforeAll(async () => {
    site = await startHealthSite();
    folder = mkdtempSync(join(tmpdir(), 'webmon-app-site-health-'));
    writeFileSync(join(folder, 'ca.pem'), site.ca.cert);
    // The site listens on 127.0.0.1 with a certificate of its own CA: the guard and the probe are told.
    api = await TestApi.start({
      ALLOW_PRIVATE_TARGETS: 'true',
      RECHECK_DELAY_SECONDS: '1',
      PROBE_EXTRA_CA_FILE: join(folder, 'ca.pem'),
    });
    ({ organizationId, token } = await api.createOrganization(['admin']));
    const pkg = await createPackage(api, token, { limits: { minCheckIntervalSeconds: 10 } });
    customerId = await createCustomer(api, token, pkg.id, 'Tea Shop Ltd');
    otherCustomerId = await createCustomer(api, token, pkg.id, 'Tea Blog Co');
    const made = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Tea Shop', url: site.url },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    teaShop = made.body;
    base = api.api.url;
    worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.10', NODE_ID: 'app-site-health' },
      createLogger('worker', api.config.LOG_LEVEL),
    );
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
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await api?.stop();
    await site?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const form = () => page.locator('form.monitor-form');
  const field = (label: string) => form().getByLabel(label, { exact: true });
  const section = (name: RegExp) =>
    page.locator('section.site-section', { has: page.getByRole('heading', { level: 2, name }) });
  const caption = (table: Locator) => table.locator('caption').textContent();
  const rowsOf = (table: Locator) => table.locator('tbody tr').allTextContents();
  /** The error shown at a control (tied to it by aria-describedby). */
  async function errorAt(control: Locator): Promise<string> {
    await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
    const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ');
    return (await page.locator(`[id="${ids.at(-1)}"]`).textContent()) ?? '';
  }
  async function shot(name: string, target: Locator | Page = page) {
    expect(await seriousAxeViolations(page)).toEqual([]);
    await target.screenshot({
      path: join(SCREENSHOTS, `site-health-${name}.png`),
      ...(target === page ? { fullPage: true } : {}),
    });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await target.screenshot({
      path: join(SCREENSHOTS, `site-health-${name}-phone.png`),
      ...(target === page ? { fullPage: true } : {}),
    });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('an editor adds a site crawl (the schema’s and the API’s refusals at their fields) and sees its broken links with their pages', async () => {
    const editor = await createUser(api, organizationId, 'editor');
    await signInThroughForm(page, base, editor.email);
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await page.goto(`${base}/websites/${teaShop.publicId}`);
    await page.getByRole('heading', { level: 2, name: 'Heartbeats, DNS and ports' }).waitFor();
    // No crawl or Lighthouse check yet: no Site health tab.
    expect(await page.getByRole('navigation', { name: 'Website sections' }).count()).toBe(0);
    await page.getByLabel('or a').selectOption('crawl');
    await page.getByRole('button', { name: 'Add it' }).click();
    await form().getByRole('heading', { name: 'New site crawl' }).waitFor();

    // A URL where a host name goes is the crawl schema's refusal, at its line: nothing is sent.
    await field('Other hosts to crawl (optional)').fill('https://blog.example/');
    await form().getByRole('button', { name: 'Add the site crawl' }).click();
    expect(await errorAt(field('Other hosts to crawl (optional)'))).toContain('Line 1: a host name');
    expect(writes).toEqual([]);
    await field('Other hosts to crawl (optional)').fill('');
    // More pages than the package crawls is the API's refusal, shown at the field.
    await field('Pages at most (optional)').fill('5000');
    await field('Ignore these URLs (optional)').fill('*.pdf');
    await form().getByRole('button', { name: 'Add the site crawl' }).click();
    expect(await errorAt(field('Pages at most (optional)'))).toContain('maxCrawlPages');
    expect(writes).toHaveLength(1);
    await shot('crawl-form', form());
    await field('Pages at most (optional)').fill('50');
    await field('Name (optional)').fill('Shop crawl');
    await form().getByRole('button', { name: 'Add the site crawl' }).click();
    await page.getByText('Added “Shop crawl”').waitFor();
    // Its card among the website's monitors says where its findings are.
    const card = page.locator('li.monitor', {
      has: page.getByRole('heading', { level: 3, name: /Shop crawl/ }),
    });
    const found = card.getByRole('link', { name: 'Broken links, mixed content and sitemaps' });
    expect(await found.getAttribute('href')).toBe(`/websites/${teaShop.publicId}?tab=site-health`);
    await card.screenshot({ path: join(SCREENSHOTS, 'site-health-monitor-card.png') });

    // The tab appears with the crawl; its first crawl (due when made) fills it.
    const tabs = page.getByRole('navigation', { name: 'Website sections' });
    await tabs.getByRole('link', { name: 'Site health' }).click();
    expect(await tabs.getByRole('link', { name: 'Site health' }).getAttribute('aria-current')).toBe('page');
    const crawl = section(/Shop crawl/);
    const broken = crawl.getByRole('table', { name: /broken link/ });
    await expect.poll(() => caption(broken), { timeout: 60_000 }).toBe('3 open broken links');
    const rows = await rowsOf(broken);
    expect(rows.find((row) => row.startsWith('/gone'))).toMatch(
      /^\/goneHTTP 404\/ \(home page\) — link “Old offer”/,
    );
    expect(rows.find((row) => row.startsWith('/fails'))).toMatch(
      /^\/failsHTTP 500\/ \(home page\) — link “Support”/,
    );
    expect(rows.find((row) => row.startsWith('/retired'))).toMatch(
      /^\/retiredHTTP 410\/about — link “Our old blog”/,
    );
    const mixed = crawl.getByRole('table', { name: /http: resource/ });
    expect(await caption(mixed)).toBe('2 http: resources on https: pages, 1 active');
    expect((await rowsOf(mixed))[0]).toContain(
      `${site.plain}/app.js✕ Active: browsers block it/ (home page) — script`,
    );
    expect((await rowsOf(mixed))[1]).toContain('Passive: the padlock breaks/ (home page) — image “Logo”');
    expect(await crawl.textContent()).toContain(
      '1 sitemap file named in robots.txt, listing 2 URLs; 1 error.',
    );
    expect((await rowsOf(crawl.getByRole('table', { name: /sitemap error/ })))[0]).toContain(
      'INVALID_LASTMOD',
    );
    expect(await crawl.textContent()).toMatch(
      /Last crawl.+: complete, \d+ pages crawled, \d+ other links checked/,
    );
    await shot('tab');
  });

  it('Run now: queued, its progress, done; fixed links under Fixed; past the day’s crawls the 429’s words', async () => {
    const crawl = section(/Shop crawl/);
    site.answers.set('/gone', 200);
    site.answers.set('/fails', 200);
    site.answers.set('/shop/green', 404);
    // Every text the run's status showed, as it showed them (a small site's run is over in seconds).
    const status = crawl.locator('.site-run [role="status"]');
    await status.evaluate((element) => {
      const seen: string[] = [];
      (window as unknown as { runTexts: string[] }).runTexts = seen;
      new MutationObserver(() => seen.push(element.textContent ?? '')).observe(element, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await crawl.getByRole('button', { name: /^Run now/ }).click();
    await crawl.locator('.site-run progress').waitFor();
    await crawl.locator('.site-run').screenshot({ path: join(SCREENSHOTS, 'site-health-run-progress.png') });
    await expect
      .poll(() => status.textContent(), { timeout: 60_000 })
      .toMatch(/^Done: up — \d+ pages crawled, 2 broken links, 2 mixed-content resources$/);
    const texts = (await page.evaluate('window.runTexts')) as string[];
    expect(texts[0]).toMatch(/^(Queued: waiting for a worker|Running: )/);
    expect(texts.at(-1)).toMatch(/^Done: up/);
    expect(await crawl.locator('.site-run progress').count()).toBe(0);

    // Read again once done: the links fixed and the one broken since.
    const broken = crawl.getByRole('table', { name: /broken link/ });
    await expect.poll(() => caption(broken)).toBe('2 open broken links');
    await expect
      .poll(async () => (await rowsOf(broken)).find((row) => row.startsWith('/shop/green')))
      .toMatch(/HTTP 404\/shop — link “Green tea”/);
    await crawl.getByRole('radio', { name: 'Fixed' }).check();
    await expect.poll(() => caption(broken)).toBe('2 fixed broken links');
    expect((await rowsOf(broken)).map((row) => row.split('HTTP')[0]).sort()).toEqual(['/fails', '/gone']);
    await shot('run-done', crawl);
    await crawl.getByRole('radio', { name: 'Open' }).check();

    const { packageId } = (
      await api.request<{ packageId: number }>('GET', `/api/customers/${customerId}`, { token })
    ).body;
    const limited = await api.request('PATCH', `/api/packages/${packageId}`, {
      token,
      body: { limits: { maxCrawlsPerDay: 1 } },
    });
    expect(limited.status).toBe(200);
    await crawl.getByRole('button', { name: /^Run now/ }).click();
    await expect
      .poll(() => status.textContent())
      .toMatch(/^The website had \d+ of its 1 crawls today.+maxCrawlsPerDay/);
    await api.request('PATCH', `/api/packages/${packageId}`, {
      token,
      body: { limits: { maxCrawlsPerDay: 24 } },
    });
    expect(pageErrors).toEqual([]);
  });

  it('the organization’s Site health: every customer’s websites sorted by broken links and by a score, each linking to its tab', async () => {
    // Another customer's website on the same site, its crawl ignoring one broken link: 1 open.
    const blog = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId: otherCustomerId, name: 'Tea Blog', url: site.url },
    });
    const crawled = await api.request('POST', `/api/websites/${blog.body.id}/monitors`, {
      token,
      body: { kind: 'crawl', schedule: 'daily', ignore: ['*/retired'] },
    });
    expect(crawled.status, JSON.stringify(crawled.body)).toBe(201);
    const crawls = async () =>
      (
        await api.request<{ items: Array<{ crawl: unknown }> }>('GET', '/api/site-health', { token })
      ).body.items.filter((item) => item.crawl).length;
    await expect.poll(crawls, { timeout: 60_000, interval: 500 }).toBe(2);

    // Lighthouse's history is seeded rather than run: the worker stops first, so it runs none itself.
    await worker?.stop();
    worker = undefined;
    // The Lighthouse check is added in the tab's form: a threshold over 100 is its schema's refusal.
    await page.getByRole('button', { name: 'Add a Lighthouse check' }).click();
    await form().getByRole('heading', { name: 'New Lighthouse check' }).waitFor();
    await field('Desktop').check();
    await field('Performance under').fill('150');
    await form().getByRole('button', { name: 'Add the Lighthouse check' }).click();
    expect(await errorAt(field('Performance under'))).toContain('At most 100');
    await shot('lighthouse-form', form());
    await field('Performance under').fill('50');
    await form().getByRole('button', { name: 'Add the Lighthouse check' }).click();
    await page.getByText(/Added “Lighthouse .+”: its first run is on its way\.$/).waitFor();
    const monitors = await api.request<{ items: Array<{ id: number; kind: string; thresholds?: unknown }> }>(
      'GET',
      `/api/websites/${teaShop.publicId}/monitors`,
      { token },
    );
    const check = monitors.body.items.find((m) => m.kind === 'lighthouse');
    expect(check).toMatchObject({ presets: ['mobile', 'desktop'], thresholds: { performance: 50 } });
    lighthouseId = check?.id ?? 0;
    const owner = { organizationId, customerId, websiteId: teaShop.id, monitorId: lighthouseId };
    const now = Date.now();
    const mobile = [
      [80, 88, 100, 92],
      [74, 88, 96, 92],
      [66, 91, 96, 92],
      [58, 91, 96, 100],
      [45, 91, 96, 100],
    ].map((scores, day) =>
      lighthouseRun(owner, {
        runId: `${(day + 1).toString(16).padStart(2, '0')}${'a'.repeat(22)}`,
        at: new Date(now - (4 - day) * DAY_MS),
        url: site.url,
        preset: 'mobile',
        scores,
      }),
    );
    const desktop = lighthouseRun(owner, {
      runId: `ff${'b'.repeat(22)}`,
      at: new Date(now - DAY_MS / 2),
      url: site.url,
      preset: 'desktop',
      scores: [97, 91, 96, 100],
    });
    await api.db.collection('lighthouse_runs').insertMany([...mobile, desktop] as never[]);
    await api.db.collection('site_health_summaries').insertOne({
      _id: lighthouseId,
      ...owner,
      kind: 'lighthouse',
      crawl: null,
      lighthouse: [mobile.at(-1), desktop].map((run) => ({
        url: run?.url,
        preset: run?.preset,
        at: run?.at.toISOString(),
        scores: run?.figures.scores,
      })),
    } as never);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site health' }).click();
    await page.getByRole('heading', { level: 1, name: 'Site health' }).waitFor();
    const table = page.getByRole('table', { name: /websites, by/ });
    await expect.poll(() => caption(table)).toBe('2 websites, by broken links, most first');
    const names = () => table.locator('tbody tr td:first-child a').allTextContents();
    expect(await names()).toEqual(['Tea Shop', 'Tea Blog']);
    const heading = (name: string) => table.getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(await heading('Broken links').getAttribute('aria-sort')).toBe('descending');
    const firstRow = await table.locator('tbody tr').first().textContent();
    expect(firstRow).toMatch(/Tea Shop.+Tea Shop Ltd! 2✕ 2 \(1 active\)! 1✕ 45/);

    await heading('Broken links').getByRole('button').click();
    await expect.poll(names).toEqual(['Tea Blog', 'Tea Shop']);
    expect(await heading('Broken links').getAttribute('aria-sort')).toBe('ascending');
    expect(await caption(table)).toBe('2 websites, by broken links, fewest first');
    await heading('Performance').getByRole('button').press('Enter');
    await expect.poll(() => caption(table)).toBe('2 websites, by performance, lowest first');
    expect(await heading('Performance').getAttribute('aria-sort')).toBe('ascending');
    expect(await heading('Broken links').getAttribute('aria-sort')).toBeNull();
    expect(await names()).toEqual(['Tea Shop', 'Tea Blog']);
    await heading('Broken links').getByRole('button').click();
    await expect.poll(names).toEqual(['Tea Shop', 'Tea Blog']);
    await shot('org');

    await table.getByRole('link', { name: 'Tea Shop' }).click();
    await page.getByRole('heading', { level: 2, name: /Lighthouse:/ }).waitFor();
    expect(new URL(page.url()).search).toBe('?tab=site-health');
  });

  it('Lighthouse in the tab: latest scores per page and preset, the history chart and its table, metrics, breaches, audits lost, the full report', async () => {
    const lighthouse = section(/Lighthouse:/);
    const latest = lighthouse.getByRole('table', { name: 'The last run of each page and preset' });
    await latest.waitFor();
    expect(await rowsOf(latest)).toEqual([
      expect.stringMatching(/^\/Mobile.+✕ 45 \(poor\)✓ 91 \(good\)✓ 96 \(good\)✓ 100 \(good\)Full report/),
      expect.stringMatching(/^\/Desktop.+✓ 97 \(good\)/),
    ]);
    const chart = lighthouse.getByRole('img', { name: /Lighthouse scores of 5 runs/ });
    expect(await chart.getAttribute('aria-label')).toMatch(
      /Performance from 80 to 45; Accessibility from 88 to 91; Best practices from 100 to 96; SEO from 92 to 100\.$/,
    );
    expect(await chart.locator('.lh-performance circle').count()).toBe(5);
    await lighthouse.getByText('The scores as a table').click();
    const history = lighthouse.getByRole('table', { name: /Lighthouse scores, newest first/ });
    expect(await history.locator('tbody tr').count()).toBe(5);
    expect(
      await lighthouse.getByRole('list', { name: 'Lab metrics' }).getByRole('listitem').allTextContents(),
    ).toEqual([
      '980 ms First Contentful Paint',
      '2.4 s Largest Contentful Paint',
      '310 ms Total Blocking Time',
      '0.012 Cumulative Layout Shift',
      '1.9 s Speed Index',
    ]);
    expect(await lighthouse.getByRole('note').textContent()).toContain(
      'Performance 45, under its minimum 50',
    );
    const audits = lighthouse.getByRole('table', { name: 'The audits that cost most points' });
    expect((await rowsOf(audits))[0]).toBe('Eliminate render-blocking resourcesPerformance18.5');
    const report = lighthouse.getByRole('link', { name: /^Full report of \/ \(Mobile\)/ }).first();
    expect(await report.getAttribute('href')).toBe(
      `/api/monitors/${lighthouseId}/lighthouse/05${'a'.repeat(22)}/report.html?run=1`,
    );
    expect(await report.getAttribute('target')).toBe('_blank');
    await shot('lighthouse', lighthouse);

    // The desktop preset's history instead.
    await lighthouse.getByLabel('Page and preset').selectOption({ label: '/, desktop (1 run)' });
    await lighthouse.getByRole('img', { name: /Lighthouse scores of 1 run/ }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('a client user finds Site health in the menu with its own customer’s websites only, and no Run now', async () => {
    const client = await createUser(api, organizationId, 'client', otherCustomerId);
    const context = await browser.newContext();
    const own = await context.newPage();
    await signInThroughForm(own, base, client.email);
    await own.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site health' }).click();
    const table = own.getByRole('table', { name: /by broken links/ });
    await expect
      .poll(() => table.locator('tbody tr td:first-child a').allTextContents())
      .toEqual(['Tea Blog']);
    expect(await own.getByLabel('Customer').count()).toBe(0);
    await table.getByRole('link', { name: 'Tea Blog' }).click();
    await own.getByRole('table', { name: '1 open broken link' }).waitFor();
    expect(await own.getByRole('button', { name: /^Run now/ }).count()).toBe(0);
    await context.close();
  });
});
