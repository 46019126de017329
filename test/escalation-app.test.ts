import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import {
  fitsTheWidth,
  labelsOutgrowingTheirCells,
  launchBrowser,
  lookedAt,
  SCREENSHOTS,
  signInThroughForm,
} from './support/browser.js';
import { until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser } from './support/people.js';
import { type ReceivedRequest, type Receiver, startReceiver } from './support/receiver.js';

const ACCOUNT = `AC${'c3'.repeat(16)}`;
const PHONE = '+4915112345679';
const form = (request: ReceivedRequest) => new URLSearchParams(request.body);

/**
 * Escalation in the app, in a real browser at a phone's width against real local servers: a policy
 * made through its editor (an on-call schedule, then a channel), an SMS contact method verified by
 * the code a Twilio-format receiver was sent, the policy chosen as the organization's default (and
 * named as what a website and a customer fall back to), an incident's timeline showing each step
 * the notifier ran, and the policy's deletion refused while the default uses it. Each screen is
 * scanned for accessibility and kept as a screenshot.
 */
describe('the app in a real browser: escalation policies and contact methods', { timeout: 240_000 }, () => {
  let stack: MonitoringStack;
  let notifier: RunningService;
  let twilio: Receiver;
  let hooks: Receiver;
  let site: Receiver;
  let browser: Browser;
  let page: Page;
  let policyId: number;
  let admin: { id: number; email: string };
  const pageErrors: string[] = [];

  const api = () => stack.api;
  const token = () => stack.token;
  const texts = () =>
    twilio.to(`/2010-04-01/Accounts/${ACCOUNT}/Messages.json`).filter((r) => form(r).get('To') === PHONE);

  beforeAll(async () => {
    twilio = await startReceiver();
    twilio.defaultStatus = 201;
    hooks = await startReceiver();
    site = await startReceiver();
    stack = await startMonitoringStack(
      'escalation-app-node',
      {},
      // A minute's wait becomes 1.2 s.
      { DELIVERY_RETRY_SCALE: '0.0001', ESCALATION_TIME_SCALE: '0.02' },
    );
    notifier = await startNotifier(api().config, createLogger('notifier', 'silent'));
    admin = await createUser(api(), stack.organizationId, 'admin');
    // The organization's SMS tool (what sends the person's code and pages), and a channel a step names.
    const sms = await api().request('POST', '/api/notification-channels', {
      token: token(),
      body: {
        type: 'twilio',
        name: 'SMS',
        events: ['test'],
        scope: { listedOnly: true },
        config: {
          accountSid: ACCOUNT,
          authToken: 'd4'.repeat(16),
          from: '+15005550006',
          to: ['+15005550001'],
          apiBaseUrl: twilio.url,
        },
      },
    });
    expect(sms.status, JSON.stringify(sms.body)).toBe(201);
    const hook = await api().request('POST', '/api/notification-channels', {
      token: token(),
      body: {
        type: 'webhook',
        name: 'Ops hook',
        scope: { listedOnly: true },
        config: { url: `${hooks.url}/ops` },
      },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    // The admin is on call: a weekly turn of one, started a week ago.
    const schedule = await api().request('POST', '/api/schedules', {
      token: token(),
      body: {
        name: 'Primary',
        timezone: 'Europe/Berlin',
        layers: [
          {
            participants: [admin.id],
            rotation: {
              length: 'weekly',
              handoff: '09:00',
              startsAt: new Date(Date.now() - 7 * 86_400_000).toISOString(),
            },
          },
        ],
      },
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughForm(page, api().api.url, admin.email, { next: '/escalation-policies' });
    await page.getByRole('heading', { level: 1, name: 'Escalation policies' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await notifier?.stop();
    await stack?.stop();
    await Promise.all([twilio?.close(), hooks?.close(), site?.close()]);
  });

  const look = async (name: string) => {
    expect(await lookedAt(page, name), name).toEqual([]);
    expect(await fitsTheWidth(page), `${name} fits the width`).toBe(true);
    expect(await labelsOutgrowingTheirCells(page), name).toEqual([]);
  };

  it('creates a policy through its editor: the on-call person, then a channel', async () => {
    await look('escalation-policies-empty');
    await page.getByRole('link', { name: 'Create a policy' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create an escalation policy' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Business critical');
    await page.getByLabel('Add to step 1').selectOption({ label: 'Primary (whoever is on call)' });
    await page.getByRole('button', { name: 'Add to step 1' }).click();
    await page.getByLabel('Minutes step 1 waits for an acknowledgement').fill('1');
    // Saving a step that notifies no one is refused at the step, before anything is sent.
    await page.getByRole('button', { name: 'Add a step' }).click();
    await page.getByRole('button', { name: 'Create the policy' }).click();
    await expect
      .poll(() => page.getByRole('group', { name: 'Step 2' }).locator('.error-text').textContent())
      .toBeTruthy();
    await page.getByLabel('Add to step 2').selectOption({ label: 'Ops hook (channel)' });
    await page.getByRole('button', { name: 'Add to step 2' }).click();
    await look('escalation-policy-editor');
    await page
      .getByRole('form', { name: 'New escalation policy' })
      .screenshot({ path: join(SCREENSHOTS, 'app-escalation-policy-form.png') });
    await page.getByLabel('Minutes step 2 waits for an acknowledgement').fill('0');
    await page.getByRole('button', { name: 'Create the policy' }).click();
    await page.getByRole('heading', { level: 1, name: 'Business critical' }).waitFor();
    policyId = Number(new URL(page.url()).pathname.split('/').at(-1));
    const stored = await api().request<{ steps: unknown[]; repeat: number }>(
      'GET',
      `/api/escalation-policies/${policyId}`,
      { token: token() },
    );
    expect(stored.body.steps).toMatchObject([
      { targets: [{ schedule: expect.any(Number) }], waitMinutes: 1 },
      { targets: [{ channel: expect.any(Number) }], waitMinutes: 0 },
    ]);
    expect(stored.body.repeat).toBe(0);

    await page.getByRole('link', { name: '← Escalation policies' }).click();
    await page.getByRole('link', { name: 'Business critical' }).waitFor();
    await expect
      .poll(() => page.locator('td[data-label="Steps"]').textContent())
      .toContain('Primary (whoever is on call) — waits 1 minOps hook (channel) — goes on at once');
    await look('escalation-policies');
  });

  it('adds an SMS contact method and verifies it with the code the Twilio receiver was sent', async () => {
    await page.goto(`${api().api.url}/account`);
    const section = page.getByRole('region', { name: 'My contact methods' });
    await section.getByText('None yet: you cannot be paged until you add one.').waitFor();
    const adding = page.getByRole('form', { name: 'Add a contact method' });
    // A type nothing in the organization sends to: the API says what an admin must add.
    await adding.getByLabel('Type', { exact: true }).selectOption('pushover');
    await adding.getByLabel('Address', { exact: true }).fill('uQiRzpo4DXghDmr9QzzfQu27cmVRsG');
    await adding.getByRole('button', { name: 'Add and send a code' }).click();
    await expect
      .poll(() => adding.getByRole('alert').textContent())
      .toContain('an admin must add an organization-wide Pushover channel');
    expect(await adding.getByLabel('Type', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await look('contact-method-refused');

    await adding.getByLabel('Type', { exact: true }).selectOption('sms');
    await adding.getByLabel('Address', { exact: true }).fill('015112345679');
    await adding.getByLabel('Label (optional)').fill('work phone');
    await adding.getByRole('button', { name: 'Add and send a code' }).click();
    // The schema's words at the address, before anything is sent.
    await expect
      .poll(() => adding.getByLabel('Address', { exact: true }).getAttribute('aria-invalid'))
      .toBe('true');
    expect(texts()).toHaveLength(0);
    // Written as people write numbers: the app takes the spaces and dashes out.
    await adding
      .getByLabel('Address', { exact: true })
      .fill(`${PHONE.slice(0, 3)} ${PHONE.slice(3, 6)}-${PHONE.slice(6)}`);
    await adding.getByLabel('Only on some days and hours').check();
    await adding.getByRole('group', { name: 'Days' }).getByLabel('Sat').check();
    await adding.getByRole('group', { name: 'Days' }).getByLabel('Sun').check();
    await adding.getByLabel('From', { exact: true }).fill('00:00');
    await adding.getByLabel('To', { exact: true }).fill('00:00');
    await adding.getByLabel('Time zone', { exact: true }).selectOption('Europe/Berlin');
    await look('contact-method-add');
    // A double click adds it once and sends one code, with no refusal of the second click shown.
    await adding.getByRole('button', { name: 'Add and send a code' }).dblclick();

    const verifying = page.getByRole('form', { name: `Verify ${PHONE}` });
    await verifying.getByText(`A code was sent to ${PHONE}`).waitFor();
    const code = verifying.getByLabel(`Code sent to ${PHONE}`);
    // The next step is the code: the control has the focus.
    await expect.poll(() => code.evaluate((input) => input === document.activeElement)).toBe(true);
    await until(async () => texts().length === 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(texts()).toHaveLength(1);
    expect(await adding.getByText('already one of yours').count()).toBe(0);
    const sent = /code is (\d{6})/.exec(form(texts()[0] as ReceivedRequest).get('Body') ?? '')?.[1];
    expect(sent).toMatch(/^\d{6}$/);
    // A new code within the minute is refused, and the page says when to ask again.
    await verifying.getByRole('button', { name: 'Send a new code' }).click();
    await expect
      .poll(() => verifying.getByRole('alert').textContent())
      .toMatch(/No new code now: a code was sent less than a minute ago\. You can ask again in \d+ seconds/);
    expect(texts()).toHaveLength(1);
    await look('contact-method-code');
    await code.fill(sent as string);
    await verifying.getByRole('button', { name: 'Verify' }).click();
    await section.getByText(`Verified: you can be paged at ${PHONE}.`).waitFor();
    await expect
      .poll(() => section.locator('ul.contact-methods > li').textContent())
      .toContain('Every day, all day, Europe/Berlin time; told of alerts, recoveries and acknowledgements.');
    await look('contact-methods');
    await section.screenshot({ path: join(SCREENSHOTS, 'app-contact-methods-section.png') });
  });

  it('chooses the policy as the organization’s default: websites and customers name it as their fallback', async () => {
    await page.goto(`${api().api.url}/settings`);
    const policy = page.getByLabel('Default escalation policy');
    await expect
      .poll(() => policy.locator('option').allTextContents())
      .toEqual(['None (no escalation: alerts go to their channels only)', 'Business critical']);
    await policy.selectOption({ label: 'Business critical' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    const organization = await api().request<{ escalationPolicyId: number | null }>(
      'GET',
      '/api/organization',
      {
        token: token(),
      },
    );
    expect(organization.body.escalationPolicyId).toBe(policyId);
    await look('settings-escalation');

    await page.goto(`${api().api.url}/customers/${stack.customerId}`);
    const customerPolicy = page.getByLabel('Escalation policy');
    await expect
      .poll(() => customerPolicy.locator('option:checked').textContent())
      .toBe('None (falls back to the organization’s default: Business critical)');
  });

  it('shows each escalation step on the incident’s timeline', async () => {
    site.route('GET', '/shop', 503, 'down');
    const website = await api().request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token: token(),
      body: { customerId: stack.customerId, name: 'Shop', url: `${site.url}/shop`, checkInterval: 10 },
    });
    expect(website.status, JSON.stringify(website.body)).toBe(201);
    await page.goto(`${api().api.url}/websites/${website.body.publicId}/edit`);
    await expect
      .poll(() => page.getByLabel('Escalation policy').locator('option:checked').textContent())
      .toBe('None (falls back to the organization’s default: Business critical)');

    let incident: string | null = null;
    await until(async () => {
      incident = (await stack.status(website.body.id)).openIncidentId;
      return incident !== null;
    }, 60_000);
    // The on-call admin is paged by SMS, then the channel hears of it.
    await until(async () => hooks.to('/ops').length > 0, 60_000);
    expect(texts().filter((t) => /Acknowledge/.test(form(t).get('Body') ?? ''))).toHaveLength(1);
    await page.goto(`${api().api.url}/incidents/${incident}`);
    const timeline = page.locator('#timeline');
    await expect
      .poll(() => timeline.textContent(), { timeout: 15_000 })
      .toContain('Business critical, step 2 of 2');
    const steps = timeline.locator('li', { hasText: 'Escalation: Business critical' });
    // The schedule is named once the schedules are read.
    await expect
      .poll(() => steps.first().textContent())
      .toMatch(/Escalation: Business critical, step 1 of 2✓ A admin \(on call in Primary\) by sms: sent$/);
    expect(await steps.nth(1).textContent()).toMatch(/step 2 of 2✓ Ops hook: sent$/);
    // The channel's delivery in words, not the event's code.
    await expect.poll(() => timeline.textContent()).toContain('Website down: delivered to Ops hook');
    expect(await steps.first().getByRole('link', { name: 'Business critical' }).getAttribute('href')).toBe(
      `/escalation-policies/${policyId}`,
    );
    await look('incident-escalation');
    await timeline.screenshot({ path: join(SCREENSHOTS, 'app-incident-escalation-timeline.png') });
  });

  it('refuses to delete the policy while the organization’s default uses it, and says so', async () => {
    await page.goto(`${api().api.url}/escalation-policies/${policyId}`);
    await page.getByRole('button', { name: 'Delete the policy…' }).click();
    await page.getByRole('dialog', { name: 'Delete Business critical?' }).waitFor();
    await page.getByRole('button', { name: 'Delete the policy', exact: true }).click();
    const refusal = page.getByRole('region', { name: 'Delete' }).getByRole('alert');
    await expect
      .poll(() => refusal.textContent())
      .toMatch(/The policy is in use by .*choose another policy there first/);
    expect(
      (await api().request('GET', `/api/escalation-policies/${policyId}`, { token: token() })).status,
    ).toBe(200);
    await look('escalation-policy-in-use');
    expect(pageErrors).toEqual([]);
  });
});
