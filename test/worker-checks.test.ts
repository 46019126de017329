import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApi } from '../apps/api/compose.js';
import { createLogger } from '../libs/logging/index.js';
import { systemResolve, TlsContexts } from '../libs/probe/index.js';
import { createCustomer, createPackage, type TestApi } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { issue } from './support/pki-forge.js';
import { startHttpsTarget, type Target } from './support/targets.js';

const ca = issue({ commonName: 'webmon worker test CA', isCa: true, validToDays: 30 });

describe('worker: scheduled checks end to end', () => {
  let stack: MonitoringStack;
  let api: TestApi;
  let token: string;
  let customerId: number;
  let target: Target;

  beforeAll(async () => {
    stack = await startMonitoringStack('test-node', {
      // shop.test is this machine, and the test CA is trusted: the probe's edge to the network.
      probe: {
        tls: new TlsContexts([ca.cert]),
        resolve: (hostname) =>
          hostname === 'shop.test' ? Promise.resolve(['127.0.0.1']) : systemResolve(hostname),
      },
    });
    ({ api, token, customerId, target } = stack);
  });
  afterAll(() => stack.stop());

  const status = (id: number) => stack.status(id);

  it('checks on schedule, confirms a failure with a quick re-check, opens and resolves an incident', async () => {
    const created = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Local', url: `${target.url}/ok`, checkInterval: 10, timeoutSeconds: 5 },
    });
    const { id, publicId } = created.body;

    await expect.poll(async () => (await status(id)).status, { timeout: 15_000, interval: 200 }).toBe('up');
    const results = await api.request<{ items: Array<Record<string, unknown>> }>(
      'GET',
      `/api/websites/${id}/results`,
      { token },
    );
    expect(results.body.items[0]).toMatchObject({
      websiteId: id,
      region: 'local',
      nodeId: 'test-node',
      status: 'up',
      httpStatus: 200,
      sizeBytes: 28,
      error: null,
      inMaintenance: false,
      ssl: null,
    });
    expect(
      ((results.body.items[0]?.checks ?? []) as Array<{ name: string; outcome: string }>).map((c) => [
        c.name,
        c.outcome,
      ]),
    ).toEqual([
      ['status', 'pass'],
      ['responseTime', 'pass'],
    ]);
    await api.request('PATCH', `/api/websites/${id}/check-config`, {
      token,
      body: { checkKeywordEnabled: true, keyword: 'Welcome' },
    });

    // The target starts failing: two down results (the second from the quick re-check) confirm it.
    await api.request('PATCH', `/api/websites/${publicId}`, {
      token,
      body: { url: `${target.url}/status/503` },
    });
    await expect.poll(async () => (await status(id)).status, { timeout: 20_000, interval: 200 }).toBe('down');
    const down = await status(id);
    expect(down.openIncidentId).toEqual(expect.any(String));
    const incidents = await api.request<{
      items: Array<{ id: string; resolvedAt: string | null; cause: string }>;
    }>('GET', `/api/websites/${id}/incidents`, { token });
    expect(incidents.body.items[0]).toMatchObject({
      id: down.openIncidentId,
      resolvedAt: null,
      cause: expect.stringContaining('503'),
    });

    // A changed URL is checked at once: stay down a little, so the downtime counts whole seconds.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await api.request('PATCH', `/api/websites/${publicId}`, { token, body: { url: `${target.url}/ok` } });
    await expect.poll(async () => (await status(id)).status, { timeout: 20_000, interval: 200 }).toBe('up');
    const resolved = await api.request<{ items: Array<{ resolvedAt: string | null }> }>(
      'GET',
      `/api/websites/${id}/incidents`,
      { token },
    );
    expect(resolved.body.items[0]?.resolvedAt).toEqual(expect.any(String));
    const latest = await api.request<{ items: Array<{ checks: Array<{ name: string; outcome: string }> }> }>(
      'GET',
      `/api/websites/${id}/results?limit=1`,
      { token },
    );
    expect(latest.body.items[0]?.checks.find((c) => c.name === 'keyword')?.outcome).toBe('pass');

    const events = await api.db.collection('events').find({ websiteId: id }).sort({ createdAt: 1 }).toArray();
    expect(events.map((e) => e.type)).toEqual(['website.down', 'website.up']);
    expect(events[0]?.data).toMatchObject({
      previousStatus: 'up',
      status: 'down',
      website: { id, publicId },
    });

    const uptime = await api.request<{ uptimePercent: number; checks: number; downtimeSeconds: number }>(
      'GET',
      `/api/websites/${id}/uptime?period=24h`,
      { token },
    );
    expect(uptime.body.checks).toBeGreaterThanOrEqual(4);
    expect(uptime.body.downtimeSeconds).toBeGreaterThan(0);
    expect(uptime.body.uptimePercent).toBeLessThan(100);
  }, 60_000);

  it('lists a website with the time of its latest check, also when the check changed nothing durable', async () => {
    const created = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Listed', url: `${target.url}/ok`, checkInterval: 10, timeoutSeconds: 5 },
    });
    const id = created.body.id;
    // The first check writes the new state to MongoDB; the next one (still up) only its hot copy.
    const results = () => api.db.collection('check_results').countDocuments({ websiteId: id });
    await expect.poll(results, { timeout: 25_000, interval: 200 }).toBeGreaterThanOrEqual(2);
    const status = await api.request<{ lastCheckedAt: string }>('GET', `/api/websites/${id}/status`, {
      token,
    });
    const listed = await api.request<Array<{ id: number; status: string; lastCheckedAt: string | null }>>(
      'GET',
      `/api/websites?customerId=${customerId}`,
      { token },
    );
    expect(listed.body.find((w) => w.id === id)).toMatchObject({
      status: 'up',
      lastCheckedAt: status.body.lastCheckedAt,
    });
    await api.request('PATCH', `/api/websites/${created.body.publicId}`, { token, body: { paused: true } });
  }, 40_000);

  it('a body longer than the probe reads is flagged truncated, its size a lower bound', async () => {
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Huge', url: `${target.url}/big`, checkInterval: 300, timeoutSeconds: 20 },
    });
    type Result = { truncated: boolean; sizeBytes: number; httpStatus: number };
    const latest = async () =>
      (
        await api.request<{ items: Result[] }>('GET', `/api/websites/${created.body.id}/results?limit=1`, {
          token,
        })
      ).body.items[0];
    await expect.poll(latest, { timeout: 30_000, interval: 250 }).toBeDefined();
    const result = (await latest()) as Result;
    expect(result).toMatchObject({ httpStatus: 200, truncated: true });
    expect(result.sizeBytes).toBeGreaterThanOrEqual(10 * 1024 * 1024);

    const small = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Small', url: `${target.url}/ok`, checkInterval: 300, timeoutSeconds: 5 },
    });
    await expect
      .poll(
        async () =>
          (
            await api.request<{ items: Result[] }>('GET', `/api/websites/${small.body.id}/results?limit=1`, {
              token,
            })
          ).body.items[0]?.truncated,
        { timeout: 30_000, interval: 250 },
      )
      .toBe(false);
  }, 60_000);

  it('tells an expiring certificate once (ssl.expiring), not on every check', async () => {
    const https = await startHttpsTarget(
      issue({ commonName: 'shop.test', names: ['shop.test'], issuer: ca, validToDays: 5 }),
    );
    try {
      const created = await api.request<{ id: number }>('POST', '/api/websites', {
        token,
        body: {
          customerId,
          name: 'Expiring',
          url: `https://shop.test:${https.port}/ok`,
          checkInterval: 10,
          timeoutSeconds: 5,
        },
      });
      const { id } = created.body;
      const results = async () =>
        (await api.request<{ items: unknown[] }>('GET', `/api/websites/${id}/results`, { token })).body.items
          .length;
      await expect.poll(results, { timeout: 25_000, interval: 250 }).toBeGreaterThanOrEqual(2);
      const events = await api.db
        .collection<{ type: string; data: { ssl: { daysLeft: number } | null; website: { id: number } } }>(
          'events',
        )
        .find({ websiteId: id, type: /^ssl\./ })
        .toArray();
      expect(events.map((e) => e.type)).toEqual(['ssl.expiring']);
      expect(events[0]?.data.ssl?.daysLeft).toBeGreaterThanOrEqual(4);
      expect(events[0]?.data.website.id).toBe(id);
      expect((await status(id)).status).toBe('degraded');
    } finally {
      await https.close();
    }
  }, 40_000);

  it('reminds that a website is still down every reminderIntervalMinutes, once per interval', async () => {
    const pkg = await createPackage(api, token, {
      limits: { minCheckIntervalSeconds: 10 },
      alerting: { confirmations: 2, reminderIntervalMinutes: 1 },
    });
    const reminded = await createCustomer(api, token, pkg.id, 'Reminded');
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: {
        customerId: reminded,
        name: 'Down',
        url: `${target.url}/status/503`,
        checkInterval: 10,
        timeoutSeconds: 5,
      },
    });
    const { id } = created.body;
    const downEvents = async () =>
      (
        await api.db
          .collection<{ data: { reminder?: boolean } }>('events')
          .find({ websiteId: id, type: 'website.down' })
          .toArray()
      ).map((e) => e.data.reminder === true);
    await expect.poll(downEvents, { timeout: 20_000, interval: 200 }).toEqual([false]);

    // As if it went down two minutes ago: the next check is past the interval.
    const redis = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: 1 });
    const services = composeApi({
      db: api.db,
      redis,
      config: api.config,
      logger: createLogger('test', 'silent'),
    });
    try {
      await services.transitions.adjust(stack.organizationId, id, 'test', (state) => ({
        ...state,
        since: new Date(Date.now() - 120_000),
      }));
    } finally {
      await services.close();
      redis.disconnect();
    }
    await expect.poll(downEvents, { timeout: 20_000, interval: 200 }).toEqual([false, true]);
    // The reminder restarted the clock: the checks of the next minute tell nothing more.
    const results = async () =>
      (await api.request<{ items: unknown[] }>('GET', `/api/websites/${id}/results?limit=100`, { token }))
        .body.items.length;
    const before = await results();
    // Two more checks (10 s apart); a loaded machine may take longer than their interval.
    await expect.poll(results, { timeout: 45_000, interval: 250 }).toBeGreaterThan(before + 1);
    expect(await downEvents()).toEqual([false, true]);
  }, 100_000);

  it('runs the HTTPS redirect check with the others: pass when http:// redirects to https://, down when not', async () => {
    const https = await startHttpsTarget(
      issue({ commonName: 'shop.test', names: ['shop.test'], issuer: ca }),
    );
    const redirector = createServer((_req, res) => {
      res.writeHead(301, { location: `https://shop.test:${https.port}/ok` }).end();
    }).listen(0, '127.0.0.1');
    await once(redirector, 'listening');
    const redirectorPort = (redirector.address() as AddressInfo).port;
    try {
      const latest = async (url: string) => {
        const created = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
          token,
          body: { customerId, name: 'Redirect', url, checkInterval: 10, timeoutSeconds: 5, paused: true },
        });
        const { id, publicId } = created.body;
        await api.request('PATCH', `/api/websites/${id}/check-config`, {
          token,
          body: { checkHttpsRedirectEnabled: true },
        });
        await api.request('PATCH', `/api/websites/${publicId}`, { token, body: { paused: false } });
        let result: Record<string, unknown> | undefined;
        await expect
          .poll(
            async () => {
              const page = await api.request<{ items: Array<Record<string, unknown>> }>(
                'GET',
                `/api/websites/${id}/results?limit=1`,
                { token },
              );
              result = page.body.items[0];
              return result !== undefined;
            },
            { timeout: 15_000, interval: 200 },
          )
          .toBe(true);
        const checks = result?.checks as Array<{ name: string; outcome: string; message: string }>;
        return { result, redirectCheck: checks.find((c) => c.name === 'httpsRedirect') };
      };

      const good = await latest(`http://shop.test:${redirectorPort}/`);
      expect(good.redirectCheck).toMatchObject({ outcome: 'pass' });
      expect(good.result).toMatchObject({
        status: 'up',
        httpStatus: 200,
        redirects: [{ url: `http://shop.test:${redirectorPort}/`, status: 301 }],
        ssl: { valid: true, subject: expect.stringContaining('shop.test') },
      });

      const plain = await latest(`http://shop.test:${target.port}/ok`);
      expect(plain.redirectCheck).toMatchObject({ outcome: 'fail', message: expect.stringContaining('200') });
      expect(plain.result).toMatchObject({ status: 'down', httpStatus: 200 });
    } finally {
      redirector.close();
      await https.close();
    }
  }, 40_000);

  it('pages results with a cursor, newest first, without gaps or repeats', async () => {
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: {
        customerId,
        name: 'Paged',
        url: `${target.url}/ok`,
        checkInterval: 10,
        timeoutSeconds: 5,
        paused: true,
      },
    });
    const id = created.body.id;
    const base = Date.now() - 3_600_000;
    const website = await api.db.collection('websites').findOne({ id });
    await api.db.collection('check_results').insertMany(
      Array.from({ length: 25 }, (_, i) => ({
        organizationId: website?.organizationId,
        websiteId: id,
        region: i % 2 ? 'eu' : 'us',
        nodeId: 'n',
        startedAt: new Date(base + Math.floor(i / 2) * 1000),
        status: 'up',
        inMaintenance: false,
        httpStatus: 200,
        sizeBytes: 1,
        timings: { dns: 0, connect: 0, tls: 0, ttfb: 1, download: 0, total: 1 },
        redirects: [],
        error: null,
        checks: [],
        ssl: null,
        retainUntil: new Date(Date.now() + 86_400_000),
      })),
    );

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: {
        status: number;
        body: { items: Array<{ startedAt: string; region: string }>; nextCursor: string | null };
      } = await api.request(
        'GET',
        `/api/websites/${id}/results?limit=7${cursor ? `&cursor=${cursor}` : ''}`,
        { token },
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((r) => `${r.startedAt}/${r.region}`));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(
      [...seen]
        .sort()
        .reverse()
        .map((s) => s.split('/')[0]),
    ).toEqual(seen.map((s) => s.split('/')[0]));
    expect((await api.request('GET', `/api/websites/${id}/results?cursor=garbage`, { token })).status).toBe(
      400,
    );
    expect((await api.request('GET', `/api/websites/${id}/results?limit=5000`, { token })).status).toBe(400);
  });
});
