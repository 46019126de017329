import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import { BUCKET_JOB_NAME, bucketOf, CheckScheduler, spreadOffsetMs } from '../libs/scheduler/index.js';
import {
  createCustomer,
  createPackage,
  scheduledInterval,
  TestApi,
  withServices,
} from './support/harness.js';
import { slowHits, startHttpTarget, type Target } from './support/targets.js';

describe('schedules, reconciliation and worker failures', () => {
  let api: TestApi;
  let token: string;
  let customerId: number;
  let target: Target;
  let redis: Redis;
  let queue: Queue;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    await api.serveRegion('local');
    ({ token } = await api.createOrganization(['admin']));
    customerId = await createCustomer(
      api,
      token,
      (await createPackage(api, token, { limits: { minCheckIntervalSeconds: 10 } })).id,
    );
    target = await startHttpTarget();
    redis = new Redis(api.config.REDIS_URL);
    queue = new Queue('checks-local', { connection: redis, prefix: api.config.REDIS_KEY_PREFIX });
  });
  afterAll(async () => {
    await queue.close();
    redis.disconnect();
    await target.close();
    await api.stop();
  });

  const website = async (path: string, extra: Record<string, unknown> = {}) =>
    (
      await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token,
        body: {
          customerId,
          name: 'S',
          url: `${target.url}${path}`,
          checkInterval: 300,
          timeoutSeconds: 10,
          ...extra,
        },
      })
    ).body;
  const resultsOf = (id: number) => api.db.collection('check_results').find({ websiteId: id }).toArray();

  it('spreads websites over the interval and checks a new one at once', async () => {
    const site = await website('/ok');
    // Its bucket: the websites of the same interval whose offset falls in the same second.
    const bucket = bucketOf(site.id, 300);
    expect(bucket.slot).toBe(Math.floor(spreadOffsetMs(site.id, 300_000) / 1000));
    const scheduler = await queue.getJobScheduler(bucket.schedulerId);
    expect(Number(scheduler?.every)).toBe(300_000);
    expect(Number(scheduler?.offset)).toBe(bucket.offsetMs);
    const members = await redis.smembers(
      `${api.config.REDIS_KEY_PREFIX}:checks-local:webmon-bucket:300:${bucket.slot}`,
    );
    expect(members.filter((member) => member.endsWith(`:${site.id}`))).toHaveLength(1);
    expect(await scheduledInterval(api, site.id)).toBe(300_000);
    expect(await queue.getJob(`first-${site.id}-local`)).toBeDefined();
  });

  it('a flushed Redis is rebuilt from MongoDB when a worker starts; orphans and stale schedulers go', async () => {
    const kept = await website('/ok');
    const paused = await website('/ok');
    await api.db.collection('websites').updateOne({ id: paused.id }, { $set: { paused: true } });
    const keys = await redis.keys(`${api.config.REDIS_KEY_PREFIX}:checks-local:*`);
    await redis.del(...keys);
    expect(await scheduledInterval(api, kept.id)).toBeUndefined();
    // A per-website scheduler of an older version, and a website Redis knows but MongoDB does not.
    await queue.upsertJobScheduler(
      'website-999999',
      { every: 60_000 },
      { name: 'check', data: { websiteId: 999_999, organizationId: 1, region: 'local' } },
    );
    const scheduler = new CheckScheduler(redis, api.config.REDIS_KEY_PREFIX);
    const stray = { organizationId: 1, intervalSeconds: 60, regions: ['local'], previousRegions: [] };
    await scheduler.apply({ ...stray, websiteId: 999_998, firstCheck: { where: 'none' } });
    // The paused website still has a schedule in Redis that MongoDB no longer wants.
    await scheduler.apply({
      ...stray,
      websiteId: paused.id,
      intervalSeconds: 300,
      firstCheck: { where: 'none' },
    });
    await scheduler.close();

    const worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.11' },
      createLogger('worker', 'silent'),
    );
    try {
      expect(await scheduledInterval(api, kept.id)).toBe(300_000);
      expect(await queue.getJobScheduler('website-999999')).toBeUndefined();
      expect(await scheduledInterval(api, 999_998)).toBeUndefined();
      // Its bucket is empty now: its Job Scheduler went too.
      expect(await queue.getJobScheduler(bucketOf(999_998, 60).schedulerId)).toBeUndefined();
      expect(await scheduledInterval(api, paused.id)).toBeUndefined();
    } finally {
      await worker.stop();
    }
  });

  it('rebuilding after a flush restores schedulers without firing every website at once', async () => {
    const site = await website('/ok');
    await redis.del(...(await redis.keys(`${api.config.REDIS_KEY_PREFIX}:checks-local:*`)));
    await withServices(api, async (services) => {
      await services.reconciler.run();
      expect(await scheduledInterval(api, site.id)).toBe(300_000);
      expect(await queue.getJob(`first-${site.id}-local`)).toBeUndefined();
      expect(await queue.getWaitingCount()).toBe(0);
    });
  });

  it('a worker killed mid-check (SIGKILL) has its job taken over by another', async () => {
    const before = slowHits;
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/main.ts'], {
      env: {
        ...process.env,
        MONGODB_URL: api.config.MONGODB_URL,
        REDIS_URL: api.config.REDIS_URL,
        REDIS_KEY_PREFIX: api.config.REDIS_KEY_PREFIX,
        SECRETS_KEY: api.config.SECRETS_KEY!.toString('base64'),
        ALLOW_PRIVATE_TARGETS: 'true',
        NODE_PUBLIC_IP: '203.0.113.12',
        NODE_ID: 'doomed',
        CHECK_JOB_LOCK_SECONDS: '3',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    const site = await website('/slow-counted');
    // The child's start (tsx) is slow on a busy machine: the bound is generous, not a fixed time.
    await expect.poll(() => slowHits > before, { timeout: 120_000, interval: 100 }).toBe(true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(await resultsOf(site.id)).toHaveLength(0);

    const rescuer = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.13', NODE_ID: 'rescuer' },
      createLogger('worker', 'silent'),
      { lockDurationMs: 3000 },
    );
    try {
      await expect
        .poll(async () => (await resultsOf(site.id)).length, { timeout: 20_000, interval: 250 })
        .toBe(1);
      expect((await resultsOf(site.id))[0]).toMatchObject({ nodeId: 'rescuer', httpStatus: 200 });
    } finally {
      await rescuer.stop();
    }
  }, 180_000);

  it('a bucket taken over from a worker that died checks only the websites it had not checked', async () => {
    const done = await website('/ok');
    const pending = await website('/ok');
    const worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.15', NODE_ID: 'taker' },
      createLogger('worker', 'silent'),
    );
    try {
      // Their first checks, then the state a killed worker leaves: one bucket holding both, the
      // first website already checked for this slot, the job back in the queue.
      await expect
        .poll(async () => (await resultsOf(done.id)).length + (await resultsOf(pending.id)).length, {
          timeout: 20_000,
        })
        .toBe(2);
      const prefix = `${api.config.REDIS_KEY_PREFIX}:checks-local`;
      const organization = (await api.db.collection('websites').findOne({ id: done.id }))?.organizationId;
      await redis.sadd(
        `${prefix}:webmon-bucket:77:3`,
        `${organization}:${done.id}`,
        `${organization}:${pending.id}`,
      );
      const slot = Date.now();
      await redis.hset(`${prefix}:webmon-done`, String(done.id), String(slot));
      await queue.add(
        BUCKET_JOB_NAME,
        { region: 'local', intervalSeconds: 77, slot: 3 },
        { timestamp: slot, removeOnComplete: false },
      );
      await expect.poll(async () => (await resultsOf(pending.id)).length, { timeout: 20_000 }).toBe(2);
      expect(await resultsOf(done.id)).toHaveLength(1);
      // Marked done after its check returns (the result is visible a moment before): polled, not read once.
      await expect
        .poll(async () => Number(await redis.hget(`${prefix}:webmon-done`, String(pending.id))), {
          timeout: 10_000,
        })
        .toBe(slot);
    } finally {
      await worker.stop();
    }
  }, 60_000);

  it('a graceful stop finishes the check in hand and stores its result exactly once', async () => {
    const worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.14', NODE_ID: 'graceful' },
      createLogger('worker', 'silent'),
    );
    const before = slowHits;
    const site = await website('/slow-counted');
    await expect.poll(() => slowHits > before, { timeout: 20_000, interval: 100 }).toBe(true);
    await worker.stop();
    const stored = await resultsOf(site.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ nodeId: 'graceful', httpStatus: 200 });
    expect(await queue.getJob(`first-${site.id}-local`)).toBeUndefined();
  }, 30_000);
});
