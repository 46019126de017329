import calculateSlot from 'cluster-key-slot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { checksQueueName } from '../libs/scheduler/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { type Receiver, startReceiver } from './support/receiver.js';
import { type LocalRedisCluster, startLocalRedisCluster } from './support/redis-cluster.js';
import { type SiteFarm, startSiteFarm } from './support/site-farm.js';

/**
 * The whole service (API, a worker in each of two regions, the notifier) on a three-node Redis
 * Cluster (REDIS_CLUSTER=true): each region's queue in one hash slot of its own node, the
 * per-website keys spread over every node, and a node losing its data noticed and rebuilt.
 */
describe('on a Redis Cluster', () => {
  let cluster: LocalRedisCluster;
  let api: TestApi;
  let token: string;
  let customerId: number;
  let farm: SiteFarm;
  let receiver: Receiver;
  let regions: [string, string];
  const services: RunningService[] = [];
  /** The node serving a region's check queue (and our keys beside it). */
  const queueNode = (region: string) => cluster.ownerOf(calculateSlot(checksQueueName(region)));

  beforeAll(async () => {
    cluster = await startLocalRedisCluster(3);
    api = await TestApi.start({
      REDIS_URL: cluster.url,
      REDIS_CLUSTER: 'true',
      ALLOW_PRIVATE_TARGETS: 'true',
      RECHECK_DELAY_SECONDS: '1',
    });
    // Two region names whose queues hash to different nodes, the first not on the node a single
    // data marker would live on (so only a marker per node notices that node's loss).
    const singleMarker = cluster.ownerOf(calculateSlot(`${api.config.REDIS_KEY_PREFIX}:webmon-data-marker`));
    const names = [...Array(50).keys()].map((n) => `cl${n}`);
    const first = names.find((name) => queueNode(name) !== singleMarker);
    const second = names.find((name) => first && queueNode(name) !== queueNode(first));
    if (!first || !second) throw new Error('no two region names on different nodes');
    regions = [first, second];
    const organization = await api.createOrganization(['admin']);
    token = organization.token;
    const pkg = await createPackage(api, token, {
      features: { multiRegion: true },
      limits: { minCheckIntervalSeconds: 10 },
      alerting: { confirmations: 2 },
    });
    customerId = await createCustomer(api, token, pkg.id);
    for (const [n, region] of regions.entries())
      services.push(
        await startWorker(
          {
            ...api.config,
            NODE_REGION: region,
            NODE_ID: `cluster-${region}`,
            NODE_PUBLIC_IP: `203.0.113.${30 + n}`,
          },
          createLogger('worker', api.config.LOG_LEVEL),
        ),
      );
    services.push(await startNotifier(api.config, createLogger('notifier', api.config.LOG_LEVEL)));
    farm = await startSiteFarm();
    receiver = await startReceiver();
  }, 120_000);
  afterAll(async () => {
    for (const service of services) await service.stop();
    await api?.stop();
    farm?.close();
    await receiver?.close();
    await cluster?.stop();
  });

  const results = () => api.db.collection<{ websiteId: number; region: string }>('check_results');
  /** Websites with a stored result of `region` after `since`. */
  const checkedIn = async (region: string, ids: number[], since = new Date(0)) =>
    new Set(
      (
        await results()
          .find({ websiteId: { $in: ids }, region, startedAt: { $gt: since } })
          .toArray()
      ).map((result) => result.websiteId),
    ).size;

  it('checks every website in both regions, with the queues and keys spread over the nodes', async () => {
    const ids = await farm.createSites(api, token, customerId, 12, 10);
    for (const region of regions)
      await expect.poll(() => checkedIn(region, ids), { timeout: 40_000, interval: 500 }).toBe(ids.length);

    const prefix = api.config.REDIS_KEY_PREFIX;
    const keysOf = (node: number) => cluster.clients[node]?.keys(`${prefix}:*`) ?? Promise.resolve([]);
    const perNode = await Promise.all(cluster.nodes.map((_, n) => keysOf(n)));
    // Each region's queue and our bucket keys beside it: all on the node of its hash slot, none elsewhere.
    for (const region of regions) {
      const tagged = (key: string) => key.startsWith(`${prefix}:{${checksQueueName(region)}}:`);
      const at = perNode.map((keys) => keys.filter(tagged).length);
      expect(at[queueNode(region)]).toBeGreaterThan(0);
      expect(at.reduce((sum, n) => sum + n, 0)).toBe(at[queueNode(region)]);
      expect(perNode[queueNode(region)]?.some((key) => key.endsWith(':webmon-plan'))).toBe(true);
    }
    // The per-website keys (hot monitor states, website revisions) land on every node.
    for (const keys of perNode)
      expect(keys.filter((key) => key.includes(':monitor-state:')).length).toBeGreaterThan(0);
    // The list reads every hot state at once (keys of many slots: no single MGET can).
    const listed = await api.request<Array<{ id: number; status: string }>>(
      'GET',
      `/api/websites?customerId=${customerId}`,
      { token },
    );
    expect(listed.status).toBe(200);
    expect(
      listed.body.filter((website) => ids.includes(website.id)).map((website) => website.status),
    ).toEqual(ids.map(() => 'up'));
  }, 90_000);

  it('a worker started after its websites exist loads them all at once and checks them', async () => {
    const ids = await farm.createSites(api, token, customerId, 6, 10);
    const [, second] = regions;
    await expect.poll(() => checkedIn(second, ids), { timeout: 40_000, interval: 500 }).toBe(ids.length);
    const old = services.splice(1, 1)[0];
    await old?.stop();
    const restartedAt = new Date();
    services.push(
      await startWorker(
        {
          ...api.config,
          NODE_REGION: second,
          NODE_ID: `cluster-${second}-2`,
          NODE_PUBLIC_IP: '203.0.113.39',
        },
        createLogger('worker', api.config.LOG_LEVEL),
      ),
    );
    await expect
      .poll(() => checkedIn(second, ids, restartedAt), { timeout: 40_000, interval: 500 })
      .toBe(ids.length);
  }, 90_000);

  it('an outage is confirmed and its alert delivered through the cluster', async () => {
    const channel = await api.request('POST', '/api/notification-channels', {
      token,
      body: { type: 'webhook', name: 'Cluster', config: { url: `${receiver.url}/hooks/cluster` } },
    });
    expect(channel.status).toBe(201);
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: {
        customerId,
        name: 'Gone',
        url: `${farm.url.replace(/:\d+$/, ':1')}/gone`,
        checkInterval: 10,
        timeoutSeconds: 2,
      },
    });
    expect(created.status).toBe(201);
    const status = async () =>
      (await api.request<{ status: string }>('GET', `/api/websites/${created.body.id}/status`, { token }))
        .body.status;
    await expect.poll(status, { timeout: 40_000, interval: 500 }).toBe('down');
    await expect
      .poll(
        () =>
          receiver.to('/hooks/cluster').filter((request) => request.body.includes('"website.down"')).length,
        { timeout: 30_000, interval: 250 },
      )
      .toBeGreaterThan(0);
  }, 90_000);

  it('a node that loses its data is noticed and what it held rebuilt: every website checked again', async () => {
    const ids = await farm.createSites(api, token, customerId, 6, 10);
    const [first] = regions;
    await expect.poll(() => checkedIn(first, ids), { timeout: 40_000, interval: 500 }).toBe(ids.length);
    // The node of the first region's queue forgets everything (a restart without persistence).
    await cluster.clients[queueNode(first)]?.flushall();
    const flushedAt = new Date(Date.now() + 2000);
    await expect
      .poll(() => checkedIn(first, ids, flushedAt), { timeout: 30_000, interval: 500 })
      .toBe(ids.length);
    const plan = await cluster.clients[queueNode(first)]?.hlen(
      `${api.config.REDIS_KEY_PREFIX}:{${checksQueueName(first)}}:webmon-plan`,
    );
    expect(plan).toBeGreaterThanOrEqual(ids.length);
  }, 90_000);
});
