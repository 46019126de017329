import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { startWorker } from '../apps/worker/worker.js';
import { findFreePort } from '../libs/embedded/index.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { type Receiver, startReceiver } from './support/receiver.js';

/** A Prometheus sample's value from an exposition text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    if (wanted.every((pair) => inside.split(',').includes(pair))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

/** The worker and the notifier serve their own metrics and probes on METRICS_PORT. */
describe('metrics of the worker, the notifier and the API', () => {
  let api: TestApi;
  let worker: RunningService;
  let notifier: RunningService;
  let site: Receiver;
  let workerUrl: string;
  let notifierUrl: string;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true', RECHECK_DELAY_SECONDS: '1' });
    ({ token } = await api.createOrganization(['admin']));
    site = await startReceiver();
    const [workerPort, notifierPort] = [await findFreePort(), await findFreePort()];
    workerUrl = `http://127.0.0.1:${workerPort}`;
    notifierUrl = `http://127.0.0.1:${notifierPort}`;
    const silent = createLogger('test', 'silent');
    worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.50', NODE_ID: 'metrics', METRICS_PORT: workerPort },
      silent,
    );
    notifier = await startNotifier({ ...api.config, METRICS_PORT: notifierPort }, silent);
  }, 60_000);
  afterAll(async () => {
    await notifier?.stop();
    await worker?.stop();
    await site?.close();
    await api?.stop();
  });

  it('count checks, their phases and lag, the queue, and deliveries, with no website in any label', async () => {
    const customerId = await createCustomer(
      api,
      token,
      (
        await createPackage(api, token, {
          limits: { minCheckIntervalSeconds: 10 },
          alerting: { confirmations: 1 },
        })
      ).id,
    );
    await api.request('POST', '/api/notification-channels', {
      token,
      body: { type: 'webhook', name: 'Ops', config: { url: `${site.url}/hook` } },
    });
    for (const path of ['/up', '/down']) {
      const created = await api.request('POST', '/api/websites', {
        token,
        body: { customerId, name: path, url: `${site.url}${path}`, checkInterval: 10, timeoutSeconds: 5 },
      });
      expect(created.status).toBe(201);
    }
    site.route('GET', '/down', 503, 'down');
    const scrape = async (url: string) => (await fetch(`${url}/metrics`)).text();
    await expect
      .poll(
        async () =>
          sample(await scrape(workerUrl), 'webmon_checks_total', { region: 'local', status: 'down' }),
        {
          timeout: 30_000,
          interval: 250,
        },
      )
      .toBeGreaterThanOrEqual(1);
    await expect
      .poll(
        async () =>
          sample(await scrape(notifierUrl), 'webmon_deliveries_total', {
            channel_type: 'webhook',
            outcome: 'succeeded',
          }),
        { timeout: 30_000, interval: 250 },
      )
      .toBeGreaterThanOrEqual(1);

    const checks = await scrape(workerUrl);
    expect(sample(checks, 'webmon_checks_total', { region: 'local', status: 'up' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      sample(checks, 'webmon_check_duration_seconds_count', { region: 'local', phase: 'total' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(checks, 'webmon_schedule_lag_seconds_count', { region: 'local' })).toBeGreaterThanOrEqual(
      2,
    );
    expect(
      sample(checks, 'webmon_due_checks', { region: 'local', lane: 'http', state: 'scheduled' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(checks, 'webmon_checks_dropped_total', { region: 'local', reason: 'stale' }) ?? 0).toBe(0);
    const deliveries = await scrape(notifierUrl);
    expect(
      sample(deliveries, 'webmon_delivery_duration_seconds_count', { channel_type: 'webhook' }),
    ).toBeGreaterThanOrEqual(1);
    // The API's own: requests by route and status, websites by status, open incidents.
    const control = await (await fetch(`${api.api.url}/metrics`)).text();
    expect(
      sample(control, 'webmon_http_requests_total', { route: 'POST /api/websites', status: '201' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(control, 'webmon_websites', { status: 'down' })).toBeGreaterThanOrEqual(1);
    expect(sample(control, 'webmon_websites', { status: 'up' })).toBeGreaterThanOrEqual(1);
    expect(sample(control, 'webmon_incidents_open', {})).toBeGreaterThanOrEqual(1);
    // Every metric the Grafana dashboard draws is one these processes expose.
    const dashboard = readFileSync('docs/grafana/webmon.json', 'utf8');
    const drawn = new Set(dashboard.match(/\b(?:webmon|http)_[a-z_]+/g));
    const exposed = `${checks}\n${deliveries}\n${control}`;
    for (const name of drawn) {
      const family = name.replace(/_(bucket|count|sum)$/, '');
      expect(exposed, name).toMatch(new RegExp(`^# TYPE ${family} `, 'm'));
    }
    for (const text of [checks, deliveries, control]) {
      expect(text).not.toContain(site.url);
      expect(text).not.toMatch(/website_?id|organization/i);
    }
  }, 90_000);

  it('count websites under the status the API reports of each (never checked and paused: paused)', async () => {
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Paused');
    for (const n of [1, 2, 3]) {
      const created = await api.request('POST', '/api/websites', {
        token,
        body: { customerId, name: `Paused ${n}`, url: `${site.url}/paused/${n}`, paused: true },
      });
      expect(created.status).toBe(201);
    }
    const reported = async () => {
      const counts = new Map<string, number>();
      const websites = await api.db
        .collection<{ id: number }>('websites')
        .find({}, { projection: { id: 1 } })
        .toArray();
      for (const { id } of websites) {
        const { status } = (
          await api.request<{ status: string }>('GET', `/api/websites/${id}/status`, { token })
        ).body;
        counts.set(status, (counts.get(status) ?? 0) + 1);
      }
      return counts;
    };
    const exposed = async () => {
      const text = await (await fetch(`${api.api.url}/metrics`)).text();
      return new Map(
        ['up', 'degraded', 'down', 'maintenance', 'paused', 'cancelled', 'unmonitored', 'unknown']
          .map((status) => [status, sample(text, 'webmon_websites', { status }) ?? 0] as const)
          .filter(([, count]) => count > 0),
      );
    };
    // The gauge is read at most every 15 s: it agrees once it read again.
    await expect
      .poll(async () => JSON.stringify([...(await exposed())].sort()), { timeout: 40_000, interval: 1000 })
      .toBe(JSON.stringify([...(await reported())].sort()));
    expect((await exposed()).get('paused')).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('the organization’s open incidents, across customers, and no other organization’s', async () => {
    type Incidents = { items: Array<{ websiteId: number; resolvedAt: string | null }> };
    const open = await api.request<Incidents>('GET', '/api/incidents?open=true', { token });
    expect(open.status).toBe(200);
    expect(open.body.items.length).toBeGreaterThanOrEqual(1);
    expect(open.body.items.every((incident) => incident.resolvedAt === null)).toBe(true);
    const resolved = await api.request<Incidents>('GET', '/api/incidents?open=false', { token });
    expect(resolved.body.items.every((incident) => incident.resolvedAt !== null)).toBe(true);
    const other = await api.createOrganization(['read']);
    expect(
      (await api.request<Incidents>('GET', '/api/incidents', { token: other.token })).body.items,
    ).toEqual([]);
    expect((await api.request('GET', '/api/incidents?open=yes', { token })).status).toBe(400);
  });

  it('answer /healthz and /readyz', async () => {
    for (const url of [workerUrl, notifierUrl]) {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready', checks: { mongodb: 'up', redis: 'up' } });
    }
  });
});
