import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RequestGate } from './request-gate.js';

/** Runs `count` requests of `ms` each to `host` through the gate, noting starts and the most at once. */
async function load(
  gate: RequestGate,
  host: string,
  count: number,
  ms: number,
  signal = new AbortController().signal,
) {
  const starts: number[] = [];
  let inFlight = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      const release = await gate.acquire(host, 1, signal);
      starts.push(performance.now());
      most = Math.max(most, ++inFlight);
      await sleep(ms);
      inFlight--;
      release();
    }),
  );
  return { starts, most };
}

describe('the politeness gate', () => {
  it('keeps a host within its requests at once', async () => {
    const gate = new RequestGate({ perHostConcurrency: 3, perHostPerSecond: 1000, concurrency: 100 });
    const { most } = await load(gate, 'a.test', 12, 20);
    expect(most).toBe(3);
    gate.close();
  });

  it('spaces the starts to one host by its rate', async () => {
    const gate = new RequestGate({ perHostConcurrency: 10, perHostPerSecond: 20, concurrency: 100 });
    const { starts } = await load(gate, 'a.test', 6, 1);
    for (let n = 1; n < starts.length; n++) expect(starts[n]! - starts[n - 1]!).toBeGreaterThanOrEqual(49);
    gate.close();
  });

  it('does not let one slow host hold back another', async () => {
    const gate = new RequestGate({ perHostConcurrency: 1, perHostPerSecond: 1000, concurrency: 10 });
    const slow = load(gate, 'slow.test', 3, 200);
    const started = performance.now();
    await load(gate, 'fast.test', 5, 1);
    expect(performance.now() - started).toBeLessThan(150);
    await slow;
    gate.close();
  });

  it('keeps all hosts within the total', async () => {
    const gate = new RequestGate({ perHostConcurrency: 5, perHostPerSecond: 1000, concurrency: 4 });
    let inFlight = 0;
    let most = 0;
    await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((host) =>
        Array.from({ length: 3 }, async () => {
          const release = await gate.acquire(host, 1, new AbortController().signal);
          most = Math.max(most, ++inFlight);
          await sleep(10);
          inFlight--;
          release();
        }),
      ),
    );
    expect(most).toBe(4);
    gate.close();
  });

  it('serves the lowest priority first', async () => {
    const gate = new RequestGate({ perHostConcurrency: 1, perHostPerSecond: 1000, concurrency: 10 });
    const signal = new AbortController().signal;
    const first = await gate.acquire('a.test', 5, signal);
    const order: number[] = [];
    const waits = [9, 3, 7, 0].map((priority) =>
      gate.acquire('a.test', priority, signal).then((release) => {
        order.push(priority);
        release();
      }),
    );
    first();
    await Promise.all(waits);
    expect(order).toEqual([0, 3, 7, 9]);
    gate.close();
  });

  it('lets a waiter go when its signal aborts', async () => {
    const gate = new RequestGate({ perHostConcurrency: 1, perHostPerSecond: 1000, concurrency: 10 });
    const abort = new AbortController();
    const held = await gate.acquire('a.test', 1, abort.signal);
    const waiting = gate.acquire('a.test', 1, abort.signal);
    abort.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    held();
    const again = await gate.acquire('a.test', 1, new AbortController().signal);
    again();
    gate.close();
  });
});
