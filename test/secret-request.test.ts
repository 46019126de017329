import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { type Receiver, startReceiver } from './support/receiver.js';

const SECRETS = ['Bearer s3cr3t-auth-A', 'k3y-value-B', 'token=b0dy-C', 'session=c00kie-D'];

type View = {
  publicId: string;
  customHeaders: Record<string, string>;
  secretHeaderNames: string[];
  requestBody: string | null;
  requestBodySecret: boolean;
};

/**
 * Credentials in what a check sends (Authorization, Cookie, headers marked secret, a secret body)
 * are sealed at rest and reach only the monitored site: not responses, data, results, events or
 * debug logs.
 */
describe('secret request settings', () => {
  let api: TestApi;
  let admin: string;
  let reader: string;
  let customerId: number;
  let site: Receiver;
  let hooks: Receiver;
  let worker: RunningService;
  let notifier: RunningService;
  let logs = '';
  const sink = () =>
    new Writable({
      write(chunk, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true', RECHECK_DELAY_SECONDS: '1' });
    let organizationId: number;
    ({ token: admin, organizationId } = await api.createOrganization(['admin']));
    reader = await api.createToken(organizationId, ['read']);
    customerId = await createCustomer(
      api,
      admin,
      (
        await createPackage(api, admin, {
          limits: { minCheckIntervalSeconds: 10 },
          alerting: { confirmations: 1 },
        })
      ).id,
    );
    site = await startReceiver();
    hooks = await startReceiver();
    worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.40', NODE_ID: 'secrets' },
      createLogger('worker', 'debug', sink()),
    );
    notifier = await startNotifier(api.config, createLogger('notifier', 'debug', sink()));
  }, 60_000);
  afterAll(async () => {
    await notifier?.stop();
    await worker?.stop();
    await site?.close();
    await hooks?.close();
    await api?.stop();
  });

  const create = () =>
    api.request<View>('POST', '/api/websites', {
      token: admin,
      body: {
        customerId,
        name: 'Secret API',
        url: `${site.url}/api/health`,
        httpMethod: 'POST',
        checkInterval: 10,
        timeoutSeconds: 5,
        customHeaders: { Authorization: SECRETS[0], Accept: 'application/json', Cookie: SECRETS[3] },
        secretHeaders: { 'X-Api-Key': SECRETS[1] },
        requestBody: SECRETS[2],
        requestBodySecret: true,
      },
    });

  it('are sent to the site, sealed at rest, never returned, logged, stored in results or told in events', async () => {
    await api.request('POST', '/api/notification-channels', {
      token: admin,
      body: { type: 'webhook', name: 'All', config: { url: `${hooks.url}/hook` } },
    });
    site.defaultStatus = 503;
    const created = await create();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      customHeaders: { Accept: 'application/json' },
      secretHeaderNames: expect.arrayContaining(['Authorization', 'Cookie', 'X-Api-Key']),
      requestBody: null,
      requestBodySecret: true,
    });
    for (const token of [admin, reader]) {
      const read = await api.request('GET', `/api/websites/${created.body.publicId}`, { token });
      expect(read.status).toBe(200);
      for (const secret of SECRETS) expect(JSON.stringify(read.body)).not.toContain(secret);
    }
    const list = await api.request('GET', `/api/websites?customerId=${customerId}`, { token: reader });
    for (const secret of SECRETS) expect(JSON.stringify(list.body)).not.toContain(secret);

    // The check sends them in clear; the site answers 503, so a down event is told to the webhook.
    await expect.poll(() => site.to('/api/health').length, { timeout: 20_000 }).toBeGreaterThan(0);
    const sent = site.to('/api/health')[0];
    expect(sent?.headers.authorization).toBe(SECRETS[0]);
    expect(sent?.headers['x-api-key']).toBe(SECRETS[1]);
    expect(sent?.headers.cookie).toBe(SECRETS[3]);
    expect(sent?.body).toBe(SECRETS[2]);
    await expect.poll(() => hooks.to('/hook').length, { timeout: 30_000 }).toBeGreaterThan(0);

    const stored = JSON.stringify([
      await api.db.collection('websites').find({}).toArray(),
      await api.db.collection('check_results').find({}).toArray(),
      await api.db.collection('events').find({}).toArray(),
      await api.db.collection('deliveries').find({}).toArray(),
    ]);
    const told = JSON.stringify(hooks.requests);
    // Debug level, and what the worker and the notifier said about this check and its delivery.
    expect(logs).toContain('delivered');
    // LOG_LEVEL=debug tells each check's decision: the website, region, status and what failed.
    const decided = logs
      .split('\n')
      .filter((line) => line.includes('"check decided"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(decided.find((line) => line.health === 'down')).toMatchObject({
      websiteId: expect.any(Number),
      region: api.config.NODE_REGION,
      status: 'down',
      httpStatus: 503,
      failing: [expect.stringContaining('status')],
      told: ['website.down'],
    });
    for (const secret of SECRETS) {
      expect(stored).not.toContain(secret);
      expect(told).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  }, 90_000);

  it('omitted secrets are kept (also in a full update), null removes one, a clear copy is refused', async () => {
    site.defaultStatus = 200;
    const { publicId } = (await create()).body;
    const full = await api.request<View>('PATCH', `/api/websites/${publicId}`, {
      token: admin,
      body: {
        customerId,
        name: 'Secret API',
        url: `${site.url}/api/v2`,
        checkInterval: 10,
        timeoutSeconds: 5,
      },
    });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ customHeaders: {}, requestBodySecret: true });
    expect(full.body.secretHeaderNames).toHaveLength(3);

    const clash = await api.request<{ errors: Array<{ path: string }> }>(
      'PATCH',
      `/api/websites/${publicId}`,
      {
        token: admin,
        body: { customHeaders: { 'X-Api-Key': 'in clear' } },
      },
    );
    expect(clash.status).toBe(400);
    expect(clash.body.errors[0]?.path).toBe('customHeaders.X-Api-Key');

    const removed = await api.request<View>('PATCH', `/api/websites/${publicId}`, {
      token: admin,
      body: { secretHeaders: { 'X-Api-Key': null } },
    });
    expect(removed.body.secretHeaderNames).not.toContain('X-Api-Key');

    const unmarked = await api.request<{ errors: Array<{ path: string }> }>(
      'PATCH',
      `/api/websites/${publicId}`,
      {
        token: admin,
        body: { requestBodySecret: false },
      },
    );
    expect(unmarked.status).toBe(400);
    expect(unmarked.body.errors[0]?.path).toBe('requestBody');
    const clear = await api.request<View>('PATCH', `/api/websites/${publicId}`, {
      token: admin,
      body: { requestBodySecret: false, requestBody: 'public=1' },
    });
    expect(clear.body).toMatchObject({ requestBody: 'public=1', requestBodySecret: false });
  });

  it('credential headers stored in clear before are sealed when the API starts, once', async () => {
    const { publicId } = (await create()).body;
    const websites = api.db.collection<{
      publicId: string;
      customHeaders: Array<{ name: string; value: string }>;
    }>('websites');
    // As a website stored before the change looks.
    await websites.updateOne(
      { publicId },
      { $set: { customHeaders: [{ name: 'Authorization', value: 'Bearer legacy-E' }], secretHeaders: [] } },
    );
    const restarted = await TestApi.start({ MONGODB_URL: api.config.MONGODB_URL });
    try {
      const after = await websites.findOne({ publicId });
      expect(JSON.stringify(after)).not.toContain('legacy-E');
      const view = await restarted.request<View>('GET', `/api/websites/${publicId}`, { token: admin });
      expect(view.body.secretHeaderNames).toEqual(['Authorization']);
    } finally {
      await restarted.stop();
    }
  });
});
