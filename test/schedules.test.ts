import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import {
  CheckScheduler,
  cadenceOffsetMs,
  DueSet,
  nextCheckAt,
  regionDueKey,
  websiteCheckMember,
} from '../libs/scheduler/index.js';
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
  let due: DueSet;
  let organizationId: number;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    await api.serveRegion('local');
    ({ token, organizationId } = await api.createOrganization(['admin']));
    customerId = await createCustomer(
      api,
      token,
      (await createPackage(api, token, { limits: { minCheckIntervalSeconds: 10 } })).id,
    );
    target = await startHttpTarget();
    redis = new Redis(api.config.REDIS_URL);
    // The BullMQ queue checks ran on before they were due in sorted sets (what an upgrade leaves).
    queue = new Queue('checks-local', { connection: redis, prefix: api.config.REDIS_KEY_PREFIX });
    due = new DueSet(redis, regionDueKey(api.config.REDIS_KEY_PREFIX, 'local', 'http'));
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
  /** When the website's check is due in the region's HTTP lane (undefined: not in it). */
  const dueAt = async (id: number) => (await due.members()).find(({ member }) => member.websiteId === id)?.at;
  const planAndDue = async () => [
    ...(await redis.keys(`${api.config.REDIS_KEY_PREFIX}:checks-local:*`)),
    due.key,
  ];

  it('plans a website on its cadence and checks a new one at once', async () => {
    const before = Date.now();
    const site = await website('/ok');
    expect(await redis.hget(`${api.config.REDIS_KEY_PREFIX}:checks-local:webmon-plan`, String(site.id))).toBe(
      `300:${organizationId}`,
    );
    expect(await scheduledInterval(api, site.id)).toBe(300_000);
    // New: due now, not at its slot up to five minutes away.
    const at = await dueAt(site.id);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it('a flushed Redis is rebuilt from MongoDB when a worker starts; orphans and stale schedulers go', async () => {
    const kept = await website('/ok');
    const paused = await website('/ok');
    await api.db.collection('websites').updateOne({ id: paused.id }, { $set: { paused: true } });
    await redis.del(...(await planAndDue()));
    expect(await scheduledInterval(api, kept.id)).toBeUndefined();
    // What checks on BullMQ left (an upgrade): a per-website and a bucket Job Scheduler, a bucket's
    // set, the slots done; and a website Redis knows but MongoDB does not.
    await queue.upsertJobScheduler(
      'website-999999',
      { every: 60_000 },
      { name: 'check', data: { websiteId: 999_999, organizationId: 1, region: 'local' } },
    );
    await queue.upsertJobScheduler(
      'bucket-300-7',
      { every: 300_000, offset: 7001 },
      { name: 'bucket', data: { region: 'local', intervalSeconds: 300, slot: 7 } },
    );
    const former = `${api.config.REDIS_KEY_PREFIX}:checks-local:webmon`;
    await redis.sadd(`${former}-bucket:300:7`, `${organizationId}:${kept.id}`);
    await redis.hset(`${former}-done`, String(kept.id), '1');
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
      expect(await queue.getJobSchedulers(0, -1)).toEqual([]);
      expect(await redis.exists(`${former}-bucket:300:7`, `${former}-done`)).toBe(0);
      expect(await scheduledInterval(api, 999_998)).toBeUndefined();
      expect(await dueAt(999_998)).toBeUndefined();
      expect(await scheduledInterval(api, paused.id)).toBeUndefined();
      expect(await dueAt(paused.id)).toBeUndefined();
    } finally {
      await worker.stop();
    }
  });

  it('rebuilding after a flush restores schedules without firing every website at once', async () => {
    const site = await website('/ok');
    await redis.del(...(await planAndDue()));
    const before = Date.now();
    await withServices(api, async (services) => {
      await services.reconciler.run();
      expect(await scheduledInterval(api, site.id)).toBe(300_000);
      // At its next slot, not now.
      expect(await dueAt(site.id)).toBe(nextCheckAt(site.id, 300_000, before));
    });
  });

  it('a worker killed mid-check (SIGKILL) has its check taken over by another when its lease ends', async () => {
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

  it('a claimed check is not taken again while its worker holds it; a re-plan while it runs wins', async () => {
    const site = await website('/ok');
    const member = websiteCheckMember(site.id, organizationId);
    const now = Date.now();
    await due.schedule(member, now - 1);
    const [claimed] = await due.claim(now, 10, 60_000);
    expect(claimed?.member).toEqual(member);
    expect(claimed?.plannedAt).toBe(now - 1);
    // Held: another worker finds nothing due; it learns when to look again (the lease's end at most).
    const other = await due.exchange([], now + 1, 10, 60_000);
    expect(other.claimed.filter((c) => c.member.websiteId === site.id)).toEqual([]);
    expect(other.nextAt).toBeLessThanOrEqual(now + 60_000);
    // Put back at its next slot.
    const next = nextCheckAt(site.id, 300_000, now);
    await due.exchange([{ claimed: claimed!, nextAt: next }], now, 0, 60_000);
    expect(await dueAt(site.id)).toBe(next);
    // A check now while one runs: the put-back of the running one does not undo it.
    const [again] = await due.claim(next, 10, 60_000);
    await due.scheduleBy(member, next + 5);
    await due.exchange([{ claimed: again!, nextAt: next + 300_000 }], next, 0, 60_000);
    expect(await dueAt(site.id)).toBe(next + 5);
  });

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
    // Put back at its next slot as the worker stopped, not left to its lease's end.
    const at = await dueAt(site.id);
    expect(at).toBeGreaterThan(Date.now());
    expect(((at ?? 0) - cadenceOffsetMs(site.id, 300_000)) % 300_000).toBe(0);
  }, 30_000);
});
