import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApi } from '../apps/api/compose.js';
import { createLogger } from '../libs/logging/index.js';
import { MaintenanceSync } from '../libs/maintenance/index.js';
import { MonitorStateRepository } from '../libs/monitoring/index.js';
import type { TestApi } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import type { Target } from './support/targets.js';

type Event = { type: string; createdAt: Date; data: Record<string, unknown> };

describe('maintenance windows with a worker: results marked, alerts held back and told once after', () => {
  let stack: MonitoringStack;
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let customerId: number;
  let target: Target;

  beforeAll(async () => {
    stack = await startMonitoringStack('maintenance-node');
    ({ api, token, organizationId, customerId, target } = stack);
  });
  afterAll(() => stack.stop());

  const createWebsite = async (path: string) =>
    (
      await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token,
        body: { customerId, name: 'M', url: `${target.url}${path}`, checkInterval: 10, timeoutSeconds: 5 },
      })
    ).body;
  const status = (id: number) => stack.status(id);
  const events = async (id: number) =>
    (await api.db.collection<Event>('events').find({ websiteId: id }).sort({ createdAt: 1 }).toArray()).map(
      (e) => e.type,
    );
  const results = async (id: number) =>
    (
      await api.request<{ items: Array<{ status: string; inMaintenance: boolean; startedAt: string }> }>(
        'GET',
        `/api/websites/${id}/results?limit=100`,
        { token },
      )
    ).body.items;

  it('a target failing inside a window: results in maintenance, status maintenance, no down alert until the end, then one', async () => {
    const site = await createWebsite('/ok');
    await expect
      .poll(async () => (await status(site.id)).status, { timeout: 15_000, interval: 200 })
      .toBe('up');

    const endsAt = Date.now() + 22_000;
    const window = await api.request<{ id: number }>('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: site.id,
        title: 'Database upgrade',
        startsAt: new Date(Date.now() - 1000).toISOString(),
        endsAt: new Date(endsAt).toISOString(),
      },
    });
    expect(window.status).toBe(201);
    await expect
      .poll(() => events(site.id), { timeout: 10_000, interval: 200 })
      .toEqual(['maintenance.started']);
    expect((await status(site.id)).status).toBe('maintenance');

    await api.request('PATCH', `/api/websites/${site.publicId}`, {
      token,
      body: { url: `${target.url}/status/503` },
    });
    // Two down results (the second from the quick re-check) confirm the failure, inside the window.
    await expect
      .poll(async () => (await results(site.id)).filter((r) => r.status === 'down').length, {
        timeout: 15_000,
        interval: 200,
      })
      .toBeGreaterThanOrEqual(2);
    expect(Date.now()).toBeLessThan(endsAt);
    const inside = await results(site.id);
    expect(inside.filter((r) => r.status === 'down').every((r) => r.inMaintenance)).toBe(true);
    expect((await status(site.id)).status).toBe('maintenance');
    expect(await events(site.id)).toEqual(['maintenance.started']);
    const incidentsInside = await api.request<{ items: unknown[] }>(
      'GET',
      `/api/websites/${site.id}/incidents`,
      {
        token,
      },
    );
    expect(incidentsInside.body.items).toEqual([]);

    // The window ends: maintenance.ended, then the one down notification it held back, with its incident.
    // (The failing URL was checked at once after the PATCH, so the end may still be 20 s away.)
    await expect
      .poll(() => events(site.id), { timeout: endsAt - Date.now() + 15_000, interval: 250 })
      .toEqual(['maintenance.started', 'maintenance.ended', 'website.down']);
    expect(Date.now()).toBeGreaterThanOrEqual(endsAt);
    const after = await status(site.id);
    expect(after.status).toBe('down');
    expect(after.openIncidentId).toEqual(expect.any(String));
    const [started, ended, down] = await api.db
      .collection<Event>('events')
      .find({ websiteId: site.id })
      .sort({ createdAt: 1 })
      .toArray();
    expect(started?.data).toMatchObject({
      previousStatus: 'up',
      status: 'maintenance',
      maintenance: { windowId: window.body.id, title: 'Database upgrade' },
    });
    expect(ended?.data).toMatchObject({ previousStatus: 'maintenance', status: 'down' });
    // Told after the window, the down still carries the result that says why.
    expect(down?.data).toMatchObject({
      previousStatus: 'up',
      status: 'down',
      incident: after.openIncidentId,
      result: { httpStatus: 503, region: 'local' },
    });
    const incidents = await api.request<{ items: Array<{ cause: string; startedAt: string }> }>(
      'GET',
      `/api/websites/${site.id}/incidents`,
      { token },
    );
    expect(incidents.body.items).toHaveLength(1);
    expect(incidents.body.items[0]?.cause).toContain('503');
    expect(new Date(incidents.body.items[0]?.startedAt ?? 0).getTime()).toBeGreaterThanOrEqual(endsAt);

    // Checks after the window are not in maintenance, and tell nothing more while still down.
    await expect
      .poll(
        async () =>
          (await results(site.id)).some((r) => Date.parse(r.startedAt) >= endsAt && !r.inMaintenance),
        {
          timeout: 15_000,
          interval: 250,
        },
      )
      .toBe(true);
    expect(await events(site.id)).toEqual(['maintenance.started', 'maintenance.ended', 'website.down']);
  }, 90_000);

  it('deleting a running window ends the maintenance at once', async () => {
    const site = await createWebsite('/ok');
    await expect
      .poll(async () => (await status(site.id)).status, { timeout: 15_000, interval: 200 })
      .toBe('up');
    const window = await api.request<{ id: number }>('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: site.id,
        title: 'Long',
        startsAt: new Date(Date.now() - 1000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    await expect
      .poll(async () => (await status(site.id)).status, { timeout: 10_000, interval: 200 })
      .toBe('maintenance');
    expect(
      (await api.request('DELETE', `/api/maintenance-windows/${window.body.id}`, { token })).status,
    ).toBe(204);
    await expect
      .poll(async () => (await status(site.id)).status, { timeout: 10_000, interval: 200 })
      .toBe('up');
    // Nothing changed inside, so nothing but the two maintenance events was told.
    expect(await events(site.id)).toEqual(['maintenance.started', 'maintenance.ended']);
  }, 40_000);

  it('a flushed Redis gets its boundary jobs back from the reconciler', async () => {
    const site = await createWebsite('/ok');
    const startsAt = new Date(Date.now() + 3_600_000);
    await api.request('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: site.id,
        title: 'Later',
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + 600_000).toISOString(),
      },
    });
    const redis = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: 1 });
    const states = new MonitorStateRepository(api.db, redis, api.config.REDIS_KEY_PREFIX);
    await expect
      .poll(
        async () => (await states.load(organizationId, site.id)).maintenanceBoundaryAt?.getTime() ?? null,
        {
          timeout: 10_000,
          interval: 200,
        },
      )
      .toBe(startsAt.getTime());

    const services = composeApi({
      db: api.db,
      redis,
      config: api.config,
      logger: createLogger('test', 'silent'),
    });
    try {
      // Planned right after the state that names it is written: polled, not read once.
      await expect.poll(() => services.maintenanceQueue.hasBoundary(site.id, startsAt)).toBe(true);
      // The boundary jobs and the hot copies of the monitor states go; MongoDB keeps the durable part.
      for (const pattern of ['maintenance:*', 'monitor-state:*'])
        await redis.del(...(await redis.keys(`${api.config.REDIS_KEY_PREFIX}:${pattern}`)));
      expect(await services.maintenanceQueue.hasBoundary(site.id, startsAt)).toBe(false);
      const sync = new MaintenanceSync({
        windows: services.maintenanceWindows,
        websites: services.websiteRepository,
        states,
        transitions: services.transitions,
        results: services.results,
        mutex: services.mutex,
        queue: services.maintenanceQueue,
        logger: createLogger('test', 'silent'),
      });
      const report = await sync.reconcile();
      expect(report?.synced).toBeGreaterThanOrEqual(1);
      expect(await services.maintenanceQueue.hasBoundary(site.id, startsAt)).toBe(true);
      // In step now: a second run syncs nothing for this website.
      expect((await sync.reconcile())?.synced).toBe(0);
    } finally {
      await services.close();
      redis.disconnect();
    }
  });
});
