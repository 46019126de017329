import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { type EmbeddedServer, findFreePort, startRedisServer } from '../libs/embedded/index.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { createCustomer, createPackage } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { type Receiver, startReceiver } from './support/receiver.js';
import { type SiteFarm, startSiteFarm } from './support/site-farm.js';

/**
 * Redis losing all its data (FLUSHALL here; a restart without persistence is the same) while the
 * worker checks and the notifier retries: everything MongoDB knows is rebuilt within seconds. A
 * Redis of its own, since FLUSHALL would wipe other test files' keys.
 */
describe('when Redis loses its data', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'webmon-redis-loss-'));
  let redisServer: EmbeddedServer;
  let redis: Redis;
  let stack: MonitoringStack;
  let notifier: RunningService;
  let receiver: Receiver;
  let farm: SiteFarm;

  beforeAll(async () => {
    redisServer = await startRedisServer({ port: await findFreePort(), dataDir: join(dataDir, 'redis') });
    redis = new Redis(redisServer.url);
    // A first retry 10 s after a failed delivery attempt (SPEC's 5 s, doubled).
    stack = await startMonitoringStack(
      'redis-loss',
      {},
      {
        REDIS_URL: redisServer.url,
        DELIVERY_RETRY_SCALE: '2',
      },
    );
    notifier = await startNotifier(stack.api.config, createLogger('notifier', 'silent'));
    receiver = await startReceiver();
    farm = await startSiteFarm();
  }, 120_000);
  afterAll(async () => {
    await notifier?.stop();
    await stack?.stop();
    await receiver?.close();
    farm?.close();
    redis?.disconnect();
    await redisServer?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('checks resume within 20 s for every website, spread over the interval as before', async () => {
    const { api, token, customerId } = stack;
    const sites = 30;
    await farm.createSites(api, token, customerId, sites, 10);
    const { hits } = farm;
    /** How many websites were checked at least `times` times after `since`. */
    const checkedAfter = (since: number, times = 1) =>
      [...Array(sites).keys()].filter((n) => (hits.get(n) ?? []).filter((at) => at > since).length >= times)
        .length;
    await expect.poll(() => checkedAfter(0), { timeout: 60_000, interval: 250 }).toBe(sites);

    await redis.flushall();
    // Checks already running when the data went finish within a second; later ones are rebuilt.
    const flushedAt = Date.now();
    const since = flushedAt + 2000;
    await expect.poll(() => checkedAfter(since), { timeout: 30_000, interval: 250 }).toBe(sites);
    const resumedBy = Math.max(
      ...[...Array(sites).keys()].map((n) => (hits.get(n) ?? []).find((at) => at > since) ?? Infinity),
    );
    expect(resumedBy - flushedAt).toBeLessThanOrEqual(20_000);

    // Two intervals once every website is back, as the checks count them (not the clock, which a
    // loaded machine outruns): each website checked twice; no second with more than 3× the mean.
    const windowStart = Date.now();
    await expect.poll(() => checkedAfter(windowStart, 2), { timeout: 60_000, interval: 250 }).toBe(sites);
    const windowMs = Date.now() - windowStart;
    const inWindow = (at: number) => at > windowStart && at <= windowStart + windowMs;
    const perSecond = new Map<number, number>();
    for (const at of [...hits.values()].flat().filter(inWindow)) {
      const second = Math.floor((at - windowStart) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    const mean = [...perSecond.values()].reduce((sum, n) => sum + n, 0) / (windowMs / 1000);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(3 * mean);
  }, 180_000);

  it('a maintenance window and a cancellation planned before the loss still happen on time', async () => {
    const { api, token } = stack;
    const leaving = await createCustomer(
      api,
      token,
      (await createPackage(api, token, { limits: { minCheckIntervalSeconds: 10 } })).id,
    );
    const website = async (customerId: number, n: number) => {
      const created = await api.request<{ id: number }>('POST', '/api/websites', {
        token,
        body: {
          customerId,
          name: `Site ${n}`,
          url: `${farm.url}/site/${n}`,
          checkInterval: 60,
          timeoutSeconds: 5,
        },
      });
      expect(created.status).toBe(201);
      return created.body.id;
    };
    const maintained = await website(stack.customerId, 100);
    const cancelled = await website(leaving, 101);
    await expect.poll(async () => (await stack.status(maintained)).status, { timeout: 20_000 }).toBe('up');
    const at = Date.now() + 20_000;
    const window = await api.request('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: maintained,
        title: 'Upgrade',
        startsAt: new Date(at).toISOString(),
        endsAt: new Date(at + 120_000).toISOString(),
      },
    });
    expect(window.status).toBe(201);
    const marked = await api.request('PATCH', `/api/customers/${leaving}`, {
      token,
      body: { status: 'marked_for_cancellation', cancellationDate: new Date(at).toISOString() },
    });
    expect(marked.status).toBe(200);
    // Both timers are delayed jobs in Redis: gone with the data, rebuilt from MongoDB.
    await redis.flushall();
    const status = async (id: number) => (await stack.status(id)).status;
    await expect
      .poll(() => status(maintained), { timeout: at - Date.now() + 15_000, interval: 250 })
      .toBe('maintenance');
    await expect
      .poll(() => status(cancelled), { timeout: at - Date.now() + 15_000, interval: 250 })
      .toBe('cancelled');
    expect(Date.now()).toBeGreaterThanOrEqual(at);
  }, 90_000);

  it('a delivery waiting for its retry is attempted again and arrives', async () => {
    const { api, token } = stack;
    const channel = await api.request<{ id: number }>('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'webhook',
        name: 'Retried',
        scope: { listedOnly: true },
        config: { url: `${receiver.url}/hooks/retried` },
      },
    });
    expect(channel.status).toBe(201);
    receiver.answer(503);
    const sent = await api.request<{ id: number }>(
      'POST',
      `/api/notification-channels/${channel.body.id}/test`,
      { token },
    );
    expect(sent.status).toBe(202);
    await expect.poll(() => receiver.to('/hooks/retried').length, { timeout: 20_000 }).toBe(1);
    // The retry's delayed job goes with the data; what it owes stays in MongoDB.
    await redis.flushall();
    const delivery = async () =>
      (
        await api.request<{ status: string; attempts: Array<{ httpStatus: number | null }> }>(
          'GET',
          `/api/notification-channels/${channel.body.id}/deliveries/${sent.body.id}`,
          { token },
        )
      ).body;
    await expect
      .poll(async () => (await delivery()).status, { timeout: 45_000, interval: 250 })
      .toBe('succeeded');
    expect((await delivery()).attempts.map((attempt) => attempt.httpStatus)).toEqual([503, 200]);
    expect(receiver.to('/hooks/retried')).toHaveLength(2);
  }, 90_000);
});
