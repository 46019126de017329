import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  type CheckJobData,
  CheckScheduler,
  checksQueueName,
  isStale,
  plannedAtOf,
} from '../libs/scheduler/index.js';

describe('check schedule timing (real BullMQ on Redis)', () => {
  const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  const prefix = `timing-${randomUUID()}`;
  afterAll(() => redis.disconnect());

  it('dates every scheduled run at its own slot, so none is taken for stale', async () => {
    const scheduler = new CheckScheduler(redis, prefix);
    await scheduler.apply({
      websiteId: 7,
      organizationId: 1,
      intervalSeconds: 1,
      regions: ['timing'],
      previousRegions: [],
      firstCheck: { where: 'none' },
    });
    const runs: Array<{ slot: number; plannedAt: number; startedAt: number }> = [];
    const worker = new Worker<CheckJobData>(
      checksQueueName('timing'),
      async (job) => {
        // A scheduled run's id ends with its slot (epoch ms).
        runs.push({
          slot: Number(job.id?.split(':').at(-1)),
          plannedAt: plannedAtOf(job),
          startedAt: Date.now(),
        });
      },
      { connection: redis.duplicate(), prefix },
    );
    try {
      await expect.poll(() => runs.length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(4);
    } finally {
      await worker.close();
      await scheduler.close();
    }
    for (const run of runs) {
      expect(run.plannedAt).toBe(run.slot);
      expect(isStale(run.plannedAt, run.startedAt, 1000)).toBe(false);
    }
  }, 30_000);
});
