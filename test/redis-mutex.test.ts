import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { LockTimeoutError, RedisMutex } from '../libs/locks/index.js';

describe('RedisMutex (real Redis)', () => {
  const redis = new Redis(inject('redisUrl'));
  const prefix = `mutex-${randomUUID()}`;
  afterAll(() => redis.disconnect());

  it('serializes holders of one resource and releases the lock after the work', async () => {
    const mutex = new RedisMutex(redis, prefix);
    const order: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        mutex.withLock('r1', async () => {
          order.push(`${name}+`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          order.push(`${name}-`);
        }),
      ),
    );
    for (let i = 0; i < order.length; i += 2) expect(order[i]?.[0]).toBe(order[i + 1]?.[0]);
    expect(await redis.exists(`${prefix}:lock:r1`)).toBe(0);
  });

  it('releases when Redis lost its scripts (SCRIPT FLUSH), and never a lock another holder took over', async () => {
    const mutex = new RedisMutex(redis, prefix, { ttlMs: 50 });
    await redis.script('FLUSH');
    await mutex.withLock('r2', async () => undefined);
    expect(await redis.exists(`${prefix}:lock:r2`)).toBe(0);

    await mutex.withLock('r3', async () => {
      // Ours expired and someone else holds it now: our release must leave theirs.
      await new Promise((resolve) => setTimeout(resolve, 80));
      await redis.set(`${prefix}:lock:r3`, 'someone-else', 'PX', 10_000);
    });
    expect(await redis.get(`${prefix}:lock:r3`)).toBe('someone-else');
  });

  it('gives up after waitMs with an error naming the resource', async () => {
    const holder = new RedisMutex(redis, prefix, { ttlMs: 5000 });
    const waiter = new RedisMutex(redis, prefix, { waitMs: 100 });
    await holder.withLock('r4', async () => {
      await expect(waiter.withLock('r4', async () => undefined)).rejects.toBeInstanceOf(LockTimeoutError);
    });
  });
});
