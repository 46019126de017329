import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit, ConcurrencyLimitFullError } from './concurrency-limit.js';

describe('ConcurrencyLimit', () => {
  it('never runs more than its limit at once and runs every task, in order of arrival', async () => {
    const limit = new ConcurrencyLimit(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limit.run(async () => {
          started.push(i);
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 2 + (i % 3)));
          running--;
          return i * 2;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('frees the slot of a task that throws', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('refuses a task at once when maxWaiting tasks wait already, and takes one again once they ran', async () => {
    const limit = new ConcurrencyLimit(1, { maxWaiting: 2, resource: 'The page builder' });
    let release = () => {};
    const running = limit.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = [limit.run(async () => 1), limit.run(async () => 2)];
    const refused = limit.run(async () => 3);
    await expect(refused).rejects.toBeInstanceOf(ConcurrencyLimitFullError);
    // The refusal names what is busy: the caller's 503 says it.
    await expect(refused).rejects.toMatchObject({ resource: 'The page builder', maxWaiting: 2 });
    release();
    await running;
    expect(await Promise.all(waiting)).toEqual([1, 2]);
    await expect(limit.run(async () => 4)).resolves.toBe(4);
  });

  it('refuses a limit below 1', () => {
    expect(() => new ConcurrencyLimit(0)).toThrow(/positive integer/);
  });
});
