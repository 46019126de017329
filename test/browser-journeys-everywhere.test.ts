import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { createLogger } from '../libs/logging/index.js';
import { MONITOR_KINDS } from '../libs/monitors/kinds/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { DueSet, regionDueKey } from '../libs/scheduler/index.js';
import { createCustomer, createPackage, until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser, signIn, withCookie } from './support/people.js';
import { type Receiver, startReceiver } from './support/receiver.js';
import {
  purchaseJourney,
  shopPlaceholders,
  signInSteps,
  startTestShop,
  type TestShop,
} from './support/test-shop.js';

/** Where people reach the service: alerts' links start with it (the API itself answers them here). */
const PUBLIC_URL = 'http://monitor.agency.test';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Result {
  region: string;
  at: string;
  status: string;
  cause: string | null;
  evidence?: { runId?: string; screenshots?: string[] };
}
interface Incident {
  id: string;
  monitor: { kind: string; id: number } | null;
  screenshotUrl: string | null;
  cause: string;
  regions: string[];
  resolvedAt: string | null;
}
interface Alert {
  type: string;
  data: {
    incident: string | null;
    monitor?: { kind: string; monitorId: number; name: string };
    result: { error: { message: string } | null } | null;
    screenshotUrl?: string;
    incidentUrl?: string;
  };
}

/** A journey whose failing step names the secret: what a run says of it must blank it. */
const greeting = (shop: TestShop) => ({
  kind: 'browser',
  name: 'Greets the buyer',
  intervalSeconds: 3600,
  timeoutSeconds: 60,
  ...shopPlaceholders(shop),
  steps: [
    ...signInSteps(shop),
    { action: 'click', locator: { by: 'text', text: 'Welcome back {{secret.PASSWORD}}' }, timeoutMs: 1500 },
  ],
});

/** The shop's API: sign in, then the account with the token. */
const accountFlow = (shop: TestShop) => ({
  kind: 'api-flow',
  name: 'Account API',
  intervalSeconds: 3600,
  variables: { shop: shop.url },
  secrets: { PASSWORD: shop.password },
  steps: [
    {
      name: 'Sign in',
      request: {
        method: 'POST',
        url: '{{shop}}/api/sign-in',
        headers: { 'Content-Type': 'application/json' },
        body: `{"email": "${shop.email}", "password": "{{secret.PASSWORD}}"}`,
      },
      extract: [{ name: 'token', from: 'jsonBody', path: '$.token' }],
    },
    { name: 'Me', request: { url: '{{shop}}/api/me', headers: { Authorization: 'Bearer {{token}}' } } },
  ],
});

describe('a browser journey everywhere a check shows: alerts, incidents, regions, uptime, status page, report', {
  timeout: 300_000,
}, () => {
  let shop: TestShop;
  let stack: MonitoringStack;
  let notifier: RunningService;
  let receiver: Receiver;
  let redis: Redis;
  let customerId: number;
  let website: { id: number; publicId: string };
  let client: string;
  let otherClient: string;
  const monitors: Record<'purchase' | 'greeting' | 'flow', number> = { purchase: 0, greeting: 0, flow: 0 };

  const request = <T>(method: string, path: string, body?: unknown) =>
    stack.api.request<T>(method, path, { token: stack.token, ...(body === undefined ? {} : { body }) });

  /** The monitor's next run, played by the worker's lane as its schedule would (made due now), and its result. */
  async function runByWorker(kind: 'browser' | 'api-flow', monitorId: number): Promise<Result> {
    const results = async () =>
      (await request<{ items: Result[] }>('GET', `/api/monitors/${monitorId}/results`)).body.items;
    const before = (await results()).length;
    const { REDIS_KEY_PREFIX: prefix, NODE_REGION: region } = stack.api.config;
    await new DueSet(redis, regionDueKey(prefix, region, MONITOR_KINDS[kind].lane)).schedule(
      { kind, monitorId, organizationId: stack.organizationId, websiteId: website.id },
      Date.now(),
    );
    await expect
      .poll(async () => (await results()).length, { timeout: 60_000, interval: 250 })
      .toBeGreaterThan(before);
    return (await results())[0] as Result;
  }

  /** What the receiver was told of `type` (the webhook's payloads). */
  const told = (type: string, monitorId: number) =>
    receiver
      .to('/hooks/journeys')
      .map((hook) => hook.json as Alert)
      .filter((alert) => alert.type === type && alert.data.monitor?.monitorId === monitorId);

  beforeAll(async () => {
    shop = await startTestShop();
    stack = await startMonitoringStack('journeys-everywhere', { rollupFlushMs: 300 }, { PUBLIC_URL });
    notifier = await startNotifier(stack.api.config, createLogger('notifier', 'silent'));
    receiver = await startReceiver();
    redis = new Redis(stack.api.config.REDIS_URL);
    const pkg = await createPackage(stack.api, stack.token, {
      limits: { minBrowserIntervalSeconds: 60 },
      alerting: { confirmations: 1, recoveryConfirmations: 1 },
    });
    customerId = await createCustomer(stack.api, stack.token, pkg.id, 'Tea Shop Ltd');
    const otherCustomer = await createCustomer(stack.api, stack.token, pkg.id, 'Someone else');
    const created = await request<{ id: number; publicId: string }>('POST', '/api/websites', {
      customerId,
      name: 'Tea Shop',
      url: `${shop.url}/`,
    });
    expect(created.status).toBe(201);
    website = created.body;
    for (const body of [
      { type: 'webhook', name: 'Hooks', config: { url: `${receiver.url}/hooks/journeys` } },
      { type: 'slack', name: 'Slack', config: { webhookUrl: `${receiver.url}/services/T0/B0/journeys` } },
    ]) {
      const channel = await request('POST', '/api/notification-channels', { ...body, scope: { customerId } });
      expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    }
    for (const [key, body] of [
      ['purchase', purchaseJourney(shop)],
      ['greeting', greeting(shop)],
      ['flow', accountFlow(shop)],
    ] as const) {
      const made = await request<{ id: number }>('POST', `/api/websites/${website.id}/monitors`, body);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      monitors[key] = made.body.id;
    }
    // Each is run once as it is made (its first run is due at once): its status known from there on.
    for (const id of Object.values(monitors))
      await until(
        async () =>
          (await request<{ status: string }>('GET', `/api/monitors/${id}`)).body.status !== 'unknown',
        60_000,
      );
    const { organizationId } = stack;
    client = await signIn(
      stack.api,
      (await createUser(stack.api, organizationId, 'client', customerId)).email,
    );
    otherClient = await signIn(
      stack.api,
      (await createUser(stack.api, organizationId, 'client', otherCustomer)).email,
    );
  }, 120_000);
  afterAll(async () => {
    redis?.disconnect();
    await notifier?.stop();
    await stack?.stop();
    await receiver?.close();
    await shop?.close();
  });

  it('a failing run alerts each channel with the failing step and its screenshot’s link, which opens for the customer only', async () => {
    expect((await request<{ status: string }>('GET', `/api/monitors/${monitors.purchase}`)).body.status).toBe(
      'up',
    );
    shop.faults = { ...shop.faults, noBasketButton: true };
    const failed = await runByWorker('browser', monitors.purchase).finally(() => {
      shop.faults = { ...shop.faults, noBasketButton: false };
    });
    expect(failed).toMatchObject({ status: 'down', cause: 'Step 9 (Add to basket): not done within 2 s' });
    const runId = failed.evidence?.runId;
    expect(failed.evidence?.screenshots).toEqual(['failure']);

    await expect.poll(() => told('browser.down', monitors.purchase).length, { timeout: 20_000 }).toBe(1);
    const [alert] = told('browser.down', monitors.purchase);
    const screenshotPath = `/api/websites/${website.publicId}/results/${runId}/screenshot`;
    expect(alert?.data).toMatchObject({
      monitor: { kind: 'browser', name: 'Buy a teapot' },
      result: { error: { message: 'Step 9 (Add to basket): not done within 2 s' } },
      screenshotUrl: `${PUBLIC_URL}${screenshotPath}`,
      incidentUrl: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/incidents/`)),
    });
    await expect
      .poll(
        () =>
          receiver
            .to('/services/T0/B0/journeys')
            .map((r) => r.body)
            .join('\n'),
        { timeout: 20_000 },
      )
      .toContain(`<${PUBLIC_URL}${screenshotPath}|Screenshot of the failing step>`);
    const slack = receiver.to('/services/T0/B0/journeys').find((r) => r.body.includes('Buy a teapot'));
    expect(slack?.body).toContain('Step 9 (Add to basket): not done within 2 s');

    // The link is the API's: the customer's client signed in sees the page, others are refused.
    const own = await withCookie<string>(stack.api, client, 'GET', screenshotPath);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/png');
    const png = await fetch(`${stack.api.api.url}${screenshotPath}`, { headers: { cookie: client } });
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(0, 8)
        .equals(PNG_SIGNATURE),
    ).toBe(true);
    expect((await withCookie(stack.api, otherClient, 'GET', screenshotPath)).status).toBe(404);
    expect((await stack.api.request('GET', screenshotPath)).status).toBe(401);
  });

  it('the incident names the step; it recovers with browser.up; results and incidents name their region; uptime from its incidents', async () => {
    const incidentId = told('browser.down', monitors.purchase)[0]?.data.incident;
    const incident = (await request<Incident>('GET', `/api/incidents/${incidentId}`)).body;
    const { NODE_REGION: region } = stack.api.config;
    expect(incident).toMatchObject({
      monitor: { kind: 'browser', id: monitors.purchase },
      cause: 'Step 9 (Add to basket): not done within 2 s',
      regions: [region],
      resolvedAt: null,
    });
    // The page at the failure that opened it, as its alert linked it.
    const alerted = told('browser.down', monitors.purchase)[0]?.data.screenshotUrl;
    expect(incident.screenshotUrl).toMatch(/^\/api\/websites\/.+\/results\/[0-9a-f]{24}\/screenshot$/);
    expect(alerted).toBe(`${PUBLIC_URL}${incident.screenshotUrl}`);

    expect((await runByWorker('browser', monitors.purchase)).status).toBe('up');
    await expect.poll(() => told('browser.up', monitors.purchase).length, { timeout: 20_000 }).toBe(1);
    expect(told('browser.up', monitors.purchase)[0]?.data).not.toHaveProperty('screenshotUrl');
    const resolved = await request<Incident>('GET', `/api/incidents/${incidentId}`);
    expect(resolved.body.resolvedAt).not.toBeNull();

    const results = await request<{ items: Result[] }>('GET', `/api/monitors/${monitors.purchase}/results`);
    // Newest first: the run that recovered, the one that failed, the first (each from the worker's region).
    expect(results.body.items.map((r) => r.status).slice(0, 2)).toEqual(['up', 'down']);
    expect(new Set(results.body.items.map((r) => r.region))).toEqual(new Set([region]));
    const uptime = await request<{ uptimePercent: number; downtimeSeconds: number }>(
      'GET',
      `/api/monitors/${monitors.purchase}/uptime?period=24h`,
    );
    expect(uptime.body.downtimeSeconds).toBeGreaterThan(0);
    expect(uptime.body.uptimePercent).toBeLessThan(100);
  });

  it('no secret reaches an alert, an event, an incident or a result, though the failing step names it', async () => {
    // Its first run, as it was made, failed and told.
    const results = await request<{ items: Result[] }>('GET', `/api/monitors/${monitors.greeting}/results`);
    const failed = results.body.items.at(-1) as Result;
    expect(failed.status).toBe('down');
    expect(failed.cause).toMatch(/^Step 5 /);
    expect(failed.cause).not.toContain(shop.password);
    await expect.poll(() => told('browser.down', monitors.greeting).length, { timeout: 20_000 }).toBe(1);
    await expect
      .poll(() => receiver.to('/services/').filter((r) => r.body.includes('Greets the buyer')).length, {
        timeout: 20_000,
      })
      .toBe(1);
    const [alert] = told('browser.down', monitors.greeting);
    expect(alert?.data.result?.error?.message).toBe(failed.cause);
    expect(alert?.data.screenshotUrl).toContain(`/results/${failed.evidence?.runId}/screenshot`);
    const { db } = stack.api;
    const stored = await Promise.all(
      ['events', 'incidents', 'monitor_log', 'website_monitors'].map((name) =>
        db.collection(name).find({}).toArray(),
      ),
    );
    const everything = JSON.stringify([receiver.requests.map((r) => r.body), stored]);
    expect(everything).toContain('Greets the buyer');
    expect(everything).not.toContain(shop.password);
  });

  it('the public status page shows each journey as a component, its status and day bars, no cause', async () => {
    const slug = `tea-${website.id}`;
    const page = await request<{ id: number }>('POST', '/api/status-pages', {
      slug,
      title: 'Tea Shop status',
      customerId,
    });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    expect((await request('PATCH', `/api/status-pages/${page.body.id}`, { public: true })).status).toBe(200);
    type Component = {
      kind: string;
      name: string;
      status: string;
      days: Array<{ uptimePercent: number | null }>;
    };
    const components = async () => {
      const shown = await stack.api.request<{ websites: Array<{ monitors: Component[] }> }>(
        'GET',
        `/status/${slug}.json`,
      );
      return shown.body.websites[0]?.monitors ?? [];
    };
    await expect
      .poll(async () => (await components()).map((c) => [c.kind, c.name, c.status]), { timeout: 30_000 })
      .toEqual([
        ['Website journey', 'Buy a teapot', 'up'],
        ['Website journey', 'Greets the buyer', 'down'],
        ['API', 'Account API', expect.any(String)],
      ]);
    const [bought, greets] = await components();
    expect(bought?.days).toHaveLength(90);
    expect(bought?.days.at(-1)?.uptimePercent).toBeLessThan(100);
    expect(greets?.days.at(-1)?.uptimePercent).toBeLessThan(100);
    const html = String((await stack.api.request('GET', `/status/${slug}`)).body);
    expect(html).toContain('Website journey: Buy a teapot');
    for (const shown of [JSON.stringify(await components()), html]) {
      expect(shown).not.toContain('Step 9');
      expect(shown).not.toContain(shop.password);
      expect(shown).not.toContain('/results/');
    }
  });

  it('the client report: each journey’s and API flow’s runs, success rate and steps’ medians, for the customer only', async () => {
    expect((await runByWorker('api-flow', monitors.flow)).status).toBe('up');
    const today = new Date().toISOString().slice(0, 10);
    const path = `/api/customers/${customerId}/reports?from=${today}&to=${today}`;
    type Runs = {
      runs: number;
      passedRuns: number;
      successRatePercent: number | null;
      steps: Array<{ step: number; name: string; medianMs: number | null }>;
    };
    type Shown = { websites: Array<{ monitors: Array<{ id: number; name: string; runs?: Runs }> }> };
    const runsOf = async (id: number) =>
      (await withCookie<Shown>(stack.api, client, 'GET', path)).body.websites[0]?.monitors.find(
        (m) => m.id === id,
      )?.runs;
    // Every stored run is counted (the worker writes its counts every flush: 300 ms here).
    const stored = (await request<{ items: Result[] }>('GET', `/api/monitors/${monitors.purchase}/results`))
      .body.items;
    const passed = stored.filter((r) => r.status === 'up').length;
    await expect
      .poll(async () => (await runsOf(monitors.purchase))?.runs, { timeout: 20_000 })
      .toBe(stored.length);
    const bought = await runsOf(monitors.purchase);
    const rate = Math.round((passed / stored.length) * 100_000) / 1000;
    expect(bought).toMatchObject({ passedRuns: passed, successRatePercent: rate });
    expect(bought?.steps).toHaveLength(10);
    expect(bought?.steps[8]).toMatchObject({ step: 9, name: 'Add to basket' });
    expect(bought?.steps.every((step) => step.medianMs !== null && step.medianMs >= 0)).toBe(true);
    await expect.poll(async () => (await runsOf(monitors.greeting))?.successRatePercent).toBe(0);
    await expect
      .poll(async () => (await runsOf(monitors.flow))?.successRatePercent, { timeout: 20_000 })
      .toBe(100);
    expect((await runsOf(monitors.flow))?.steps.map((step) => step.name)).toEqual(['Sign in', 'Me']);

    const json = JSON.stringify((await withCookie(stack.api, client, 'GET', path)).body);
    expect(json).not.toContain(shop.password);
    expect(json).not.toContain('runId');
    const html = String((await withCookie(stack.api, client, 'GET', `${path}&format=html`)).body);
    expect(html).toContain(
      `Browser journey: Buy a teapot — ${rate.toFixed(3)} % of ${stored.length} runs passed`,
    );
    expect(html).toMatch(/API flow: Account API — 100\.000 % of \d+ runs? passed/);
    expect((await withCookie(stack.api, otherClient, 'GET', path)).status).toBe(404);
  });
});
