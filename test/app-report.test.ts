import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../libs/logging/index.js';
import {
  MonitorRepository,
  type PortCheckDocument,
  RunTallies,
  RunTallyRecorder,
} from '../libs/monitors/index.js';
import {
  fitsTheWidth,
  launchBrowser,
  SCREENSHOTS,
  seriousAxeViolations,
  signInThroughForm,
} from './support/browser.js';
import { createCustomer, createPackage, TestApi, withServices } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

/** A failing run's error: evidence, never shown in a report. */
const RUN_ERROR = 'Timeout 2000 ms exceeded waiting for the button “Add to basket”';

describe('the app in a real browser: a client reads and downloads its report', { timeout: 120_000 }, () => {
  let api: TestApi;
  let browser: Browser;
  let organizationId: number;
  let customerId: number;
  let token: string;
  let journeyId: number;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    organizationId = await createOrganizationId(api);
    token = await api.createToken(organizationId, ['admin']);
    customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Acme Bakery');
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Shop', url: 'https://shop.acme.example/' },
    });
    await api.db
      .collection('websites')
      .updateOne({ id: created.body.id }, { $set: { createdAt: new Date(Date.now() - 90 * 86_400_000) } });
    // An hour down on the 10th of last month.
    const now = new Date();
    const tenth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10, 8);
    await withServices(api, (services) =>
      services.states.insertIncident({
        id: randomUUID(),
        organizationId,
        websiteId: created.body.id,
        startedAt: new Date(tenth),
        resolvedAt: new Date(tenth + 3_600_000),
        cause: 'HTTP 502 Bad Gateway',
        regions: ['local'],
      }),
    );
    // The website's database port, checked since before the period, down 30 minutes on the 12th.
    const port = await new MonitorRepository(api.db).create<PortCheckDocument>({
      kind: 'port',
      organizationId,
      websiteId: created.body.id,
      name: 'Database',
      host: 'db.acme.example',
      port: 5432,
      tls: false,
      expectBanner: null,
      intervalSeconds: 60,
      timeoutSeconds: 5,
    });
    await api.db
      .collection('website_monitors')
      .updateOne({ id: port.id }, { $set: { createdAt: new Date(Date.now() - 90 * 86_400_000) } });
    const twelfth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 12, 8);
    await withServices(api, (services) =>
      services.states.insertIncident({
        id: randomUUID(),
        organizationId,
        websiteId: created.body.id,
        monitor: { kind: 'port', id: port.id },
        startedAt: new Date(twelfth),
        resolvedAt: new Date(twelfth + 1_800_000),
        cause: 'connection refused',
        regions: ['local'],
      }),
    );
    journeyId = await seedJourneyRuns(
      created.body.id,
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 14, 8)),
    );
    browser = await launchBrowser();
  }, 60_000);

  /**
   * The website's order journey, with four runs on `day` (one failing at its second step) counted as
   * the worker counts them: through its tally recorder, flushed into the monitor log.
   */
  async function seedJourneyRuns(websiteId: number, day: Date): Promise<number> {
    const journey = await api.request<{ id: number }>('POST', `/api/websites/${websiteId}/monitors`, {
      token,
      body: {
        kind: 'browser',
        name: 'Order a cake',
        intervalSeconds: 3600,
        timeoutSeconds: 60,
        steps: [
          { action: 'goto', url: 'https://shop.acme.example/' },
          {
            name: 'Add to basket',
            action: 'click',
            locator: { by: 'role', role: 'button', name: 'Add to basket' },
          },
        ],
      },
    });
    expect(journey.status).toBe(201);
    await api.db
      .collection('website_monitors')
      .updateOne({ id: journey.body.id }, { $set: { createdAt: new Date(Date.now() - 90 * 86_400_000) } });
    const recorder = new RunTallyRecorder(new RunTallies(api.db), {
      logger: createLogger('test', 'silent'),
      mongo: { available: true, onLost: () => () => {} },
    });
    const monitor = { organizationId, id: journey.body.id, kind: 'browser' as const };
    for (const [hour, basketMs] of [
      [1, 420],
      [2, 450],
      [3, 480],
      [4, null],
    ] as const) {
      const passed = basketMs !== null;
      recorder.add(monitor, {
        at: new Date(day.getTime() + hour * 3_600_000),
        result: {
          region: 'local',
          status: passed ? 'up' : 'down',
          cause: passed ? null : RUN_ERROR,
          durationMs: 2000,
          // What a failing run keeps besides its steps: none of it belongs in a report.
          evidence: {
            runId: 'run-evidence-id',
            screenshots: ['/api/monitors/1/results/run-evidence-id/screenshot.png'],
            error: { message: RUN_ERROR },
            steps: [
              { index: 0, name: 'Go to https://shop.acme.example/', outcome: 'passed', durationMs: 900 },
              {
                index: 1,
                name: 'Add to basket',
                outcome: passed ? 'passed' : 'failed',
                durationMs: basketMs ?? 2000,
              },
            ],
          },
        },
      });
    }
    await recorder.close();
    return journey.body.id;
  }
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('shows the figures the API computes, downloads the PDF, readable on a phone', async () => {
    const expected = await api.request<{ totals: { uptimePercent: number } }>(
      'GET',
      `/api/customers/${customerId}/reports`,
      { token },
    );
    const client = await createUser(api, organizationId, 'client', customerId);
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api.api.url, client.email);
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Report: Acme Bakery' }).waitFor();
    const summary = page.getByRole('list', { name: 'Summary' });
    await summary
      .getByText(`${expected.body.totals.uptimePercent.toFixed(3)} %`)
      .first()
      .waitFor();
    expect(await page.getByText('HTTP 502 Bad Gateway').count()).toBe(1);
    // The website's port check under it, with its own figures, and its incident marked with it.
    await page.getByText('db.acme.example').waitFor();
    expect(await page.getByText(/Port check: Database/).count()).toBe(1);
    // The journey under the website: its runs, success rate and each step's median, and nothing of a run's evidence.
    const report = await api.request<{
      websites: Array<{
        monitors: Array<{ id: number; runs?: { steps: Array<{ name: string; medianMs: number | null }> } }>;
      }>;
    }>('GET', `/api/customers/${customerId}/reports`, { token });
    const steps = report.body.websites[0]?.monitors.find((m) => m.id === journeyId)?.runs?.steps ?? [];
    const basket = steps.find((step) => step.name === 'Add to basket');
    expect(basket?.medianMs).toBeGreaterThan(0);
    const journeySteps = page.getByRole('table', {
      name: 'Browser journey: Order a cake — 75.000 % of 4 runs passed',
    });
    await journeySteps.waitFor();
    const basketRow = journeySteps.getByRole('row', { name: /Add to basket/ });
    expect(await basketRow.getByRole('cell', { name: `${basket?.medianMs} ms` }).count()).toBe(1);
    expect(await basketRow.getByRole('cell', { name: '3 runs' }).count()).toBe(1);
    expect(await journeySteps.getByRole('columnheader', { name: 'Median time' }).count()).toBe(1);
    const text = await page.locator('body').textContent();
    for (const evidence of [RUN_ERROR, 'run-evidence-id', 'screenshot', 'Timeout'])
      expect(text).not.toContain(evidence);
    expect(await page.locator('a[href*="/results/"], table img').count()).toBe(0);
    // No edit controls for a client, no other customer's name.
    expect(await page.getByRole('button', { name: /Save|Delete|Add/ }).count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download PDF (A4)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^report-Acme-Bakery-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.pdf$/);
    expect((await readFile((await download.path()) as string)).subarray(0, 5).toString()).toBe('%PDF-');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-report.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsTheWidth(page)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-report-phone.png'), fullPage: true });
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('an editor schedules the monthly mail and sees what was sent, with its error', async () => {
    const editor = await createUser(api, organizationId, 'editor');
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api.api.url, editor.email);
    await page.getByRole('heading', { level: 1, name: 'Websites' }).waitFor();
    await page.goto(`${api.api.url}/customers/${customerId}/report`);
    const form = page.getByRole('form', { name: 'Report schedule' });
    await form.getByLabel('Send the report').selectOption('monthly');
    await form.getByLabel('At hour (the organization’s time zone)').fill('7');
    // Nobody to send to: the API's error at its field.
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await form.getByText('give recipients, or set the customer’s notificationEmail').waitFor();
    await form.getByLabel('To').fill('owner@acme.example');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await form.getByText('Saved.').waitFor();
    const customer = await api.request<{ reportSchedule: { hour: number; recipients: string[] } }>(
      'GET',
      `/api/customers/${customerId}`,
      { token },
    );
    expect(customer.body.reportSchedule).toMatchObject({ hour: 7, recipients: ['owner@acme.example'] });
    // No mail route in this organization: the attempt is logged with what to do.
    await page.getByRole('button', { name: /now$/ }).click();
    await page.getByText('add an e-mail notification channel').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'app-report-schedule.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('an admin sets the time zone and the reports’ branding, and uploads the logo', async () => {
    const admin = await createUser(api, organizationId, 'admin');
    const dir = await mkdtemp(join(tmpdir(), 'webmon-logo-'));
    const logo = join(dir, 'logo.png');
    await writeFile(
      logo,
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api.api.url, admin.email);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByLabel('Accent colour of reports').fill('#b45309');
    await page.getByLabel('Footer of reports').fill('Looked after by Example Agency');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByLabel('Upload a logo').setInputFiles(logo);
    await page.getByRole('img', { name: 'The current logo' }).waitFor();
    const organization = await api.request<{ timezone: string; branding: Record<string, unknown> }>(
      'GET',
      '/api/organization',
      { token },
    );
    expect(organization.body.timezone).toBe('Europe/Berlin');
    expect(organization.body.branding).toMatchObject({
      accentColor: '#b45309',
      footerText: 'Looked after by Example Agency',
      logo: expect.objectContaining({ contentType: 'image/png' }),
    });
    await page.screenshot({ path: join(SCREENSHOTS, 'app-settings.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
    await rm(dir, { recursive: true, force: true });
    expect(pageErrors).toEqual([]);
  });
});
