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

  it('withLockedKey reads the key as the lock is taken and writes it as the lock is released', async () => {
    const mutex = new RedisMutex(redis, prefix);
    const key = `${prefix}:state:r5`;
    await redis.set(key, 'before');
    const seen = await mutex.withLockedKey('r5', key, async (value) => {
      // Held meanwhile, and nothing written yet.
      expect(await redis.exists(`${prefix}:lock:r5`)).toBe(1);
      expect(await redis.get(key)).toBe('before');
      return { result: value, write: { value: 'after', ttlSeconds: 60 } };
    });
    expect(seen).toBe('before');
    expect(await redis.get(key)).toBe('after');
    expect(await redis.ttl(key)).toBeGreaterThan(50);
    expect(await redis.exists(`${prefix}:lock:r5`)).toBe(0);

    // A missing key reads as null; work that writes nothing leaves the key as it was.
    expect(
      await mutex.withLockedKey('r5', `${prefix}:state:none`, async (value) => ({ result: value })),
    ).toBeNull();
    expect(await mutex.withLockedKey('r5', key, async () => ({ result: 1 }))).toBe(1);
    expect(await redis.get(key)).toBe('after');
  });

  it('withLockedKey: failed work writes nothing and releases; it waits for a holder of withLock', async () => {
    const mutex = new RedisMutex(redis, prefix);
    const key = `${prefix}:state:r6`;
    await expect(
      mutex.withLockedKey('r6', key, async () => {
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await redis.exists(key, `${prefix}:lock:r6`)).toBe(0);

    const order: string[] = [];
    await Promise.all([
      mutex.withLock('r6', async () => {
        order.push('plain+');
        await new Promise((resolve) => setTimeout(resolve, 50));
        order.push('plain-');
      }),
      new Promise((resolve) => setTimeout(resolve, 10)).then(() =>
        mutex.withLockedKey('r6', key, async () => {
          order.push('keyed');
          return { result: undefined };
        }),
      ),
    ]);
    expect(order).toEqual(['plain+', 'plain-', 'keyed']);
  });

  it('withLockedKey never releases a lock another holder took over after ours expired', async () => {
    const mutex = new RedisMutex(redis, prefix, { ttlMs: 50 });
    const key = `${prefix}:state:r7`;
    await mutex.withLockedKey('r7', key, async () => {
      await new Promise((resolve) => setTimeout(resolve, 80));
      await redis.set(`${prefix}:lock:r7`, 'someone-else', 'PX', 10_000);
      return { result: undefined, write: { value: 'ours', ttlSeconds: 60 } };
    });
    expect(await redis.get(`${prefix}:lock:r7`)).toBe('someone-else');
    expect(await redis.get(key)).toBe('ours');
  });
});
