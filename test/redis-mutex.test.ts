import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type Lease, LockTimeoutError, RedisMutex } from '../libs/locks/index.js';

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
    expect(seen).toEqual({ result: 'before', refused: false });
    expect(await redis.get(key)).toBe('after');
    expect(await redis.ttl(key)).toBeGreaterThan(50);
    expect(await redis.exists(`${prefix}:lock:r5`)).toBe(0);

    // A missing key reads as null; work that writes nothing leaves the key as it was.
    expect(
      (await mutex.withLockedKey('r5', `${prefix}:state:none`, async (value) => ({ result: value }))).result,
    ).toBeNull();
    expect((await mutex.withLockedKey('r5', key, async () => ({ result: 1 }))).result).toBe(1);
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
    let releasePlain = () => {};
    const plainHeld = new Promise<void>((held) => {
      void mutex.withLock('r6', async () => {
        order.push('plain+');
        held();
        await new Promise<void>((release) => {
          releasePlain = release;
        });
        order.push('plain-');
      });
    });
    await plainHeld;
    const keyed = mutex.withLockedKey('r6', key, async () => {
      order.push('keyed');
      return { result: undefined };
    });
    // The keyed holder is waiting: it tried (and retried) while the plain one held the lock.
    await until(async () => (await redis.get(`${prefix}:lock:r6`)) !== null && order.length === 1);
    releasePlain();
    await keyed;
    expect(order).toEqual(['plain+', 'plain-', 'keyed']);
  });

  it('withLockedKey writes nothing when its lock expired and another holder took it (fenced), and never releases theirs', async () => {
    const mutex = new RedisMutex(redis, prefix, { ttlMs: 50, maxHoldMs: 50 });
    const key = `${prefix}:state:r7`;
    await redis.set(key, 'newer holder’s');
    const outcome = await mutex.withLockedKey('r7', key, async (_value, lease) => {
      // Ours expires (no renewal past maxHoldMs) and another holder takes the lock and writes.
      await until(async () => (await redis.exists(`${prefix}:lock:r7`)) === 0);
      await redis.set(`${prefix}:lock:r7`, 'someone-else', 'PX', 10_000);
      expect(lease.lost).toBe(false);
      return { result: 'late', write: { value: 'ours, late', ttlSeconds: 60 } };
    });
    expect(outcome).toEqual({ result: 'late', refused: true });
    expect(await redis.get(`${prefix}:lock:r7`)).toBe('someone-else');
    expect(await redis.get(key)).toBe('newer holder’s');
  });

  it('renews the lock while the work runs, so a holder slower than the TTL keeps it', async () => {
    const mutex = new RedisMutex(redis, prefix, { ttlMs: 300 });
    const key = `${prefix}:state:r8`;
    const outcome = await mutex.withLockedKey('r8', key, async (_value, lease) => {
      // Three TTLs of work: without renewal the lock would be gone after the first.
      for (let i = 0; i < 9; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await redis.exists(`${prefix}:lock:r8`)).toBe(1);
      }
      expect(lease.lost).toBe(false);
      return { result: 'slow', write: { value: 'written', ttlSeconds: 60 } };
    });
    expect(outcome).toEqual({ result: 'slow', refused: false });
    expect(await redis.get(key)).toBe('written');
  });

  it('hands each holding a fence above the last, and says when the last holder let its lock expire', async () => {
    const mutex = new RedisMutex(redis, prefix, { ttlMs: 100, maxHoldMs: 100 });
    const key = `${prefix}:state:r9`;
    const lease = (work: (lease: Lease) => Promise<void> = async () => undefined) =>
      mutex.withLockedKey('r9', key, async (_value, held) => {
        await work(held);
        return { result: held };
      });
    const first = (await lease()).result;
    const second = (await lease()).result;
    expect(second.fence).toBeGreaterThan(first.fence);
    expect(second.lapsed).toBe(false);
    // A holder stalls past its lock: the next one is told, and still gets a higher fence.
    let stalled: Lease | undefined;
    const stalling = lease(async (held) => {
      stalled = held;
      await until(async () => (await redis.exists(`${prefix}:lock:r9`)) === 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    await until(async () => stalled !== undefined && (await redis.exists(`${prefix}:lock:r9`)) === 0);
    const next = (await lease()).result;
    expect(next.lapsed).toBe(true);
    expect(next.fence).toBeGreaterThan(stalled?.fence ?? Number.POSITIVE_INFINITY);
    await stalling;
    // `next` wrote nothing fenced after the lapsed holder: the holding after it is told as well,
    // until one says it settled it.
    const told = await mutex.withLockedKey('r9', key, async (_value, held) => ({
      result: held,
      settled: true,
    }));
    expect(told.result.lapsed).toBe(true);
    expect((await lease()).result.lapsed).toBe(false);
    // Redis's clock, not a counter: a flushed fence key does not send fences back.
    await redis.del(`${prefix}:lock:r9:fence`);
    expect((await lease()).result.fence).toBeGreaterThan(told.result.fence);
  });
});

/** Waits until `condition` holds (polling), for at most 10 s. */
async function until(condition: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
