import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../libs/logging/index.js';
import {
  type DueMember,
  DueSet,
  isStale,
  type LaneWork,
  nextSlotAfter,
  spreadOffsetMs,
  startDueLanes,
} from '../libs/scheduler/index.js';

const logger = createLogger('due-lanes-test', 'silent');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const member = (id: number, kind = 'http'): DueMember => ({
  kind,
  monitorId: id,
  organizationId: 1,
  websiteId: id,
});

interface Run {
  id: number;
  plannedAt: number;
  startedAt: number;
}

describe('due lanes: every kind scheduled through sorted sets on real Redis', () => {
  const redis = new Redis(inject('redisUrl'));
  const prefix = `lanes-${randomUUID()}`;
  afterAll(() => redis.disconnect());

  /** A lane whose runs are recorded, each taking `takesMs`, put back at the next slot of `everyMs`. */
  const lane = (
    key: string,
    options: { everyMs: number; takesMs: number; concurrency: number; leaseMs?: number },
  ) => {
    const runs: Run[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const work: LaneWork = {
      set: new DueSet(redis, `${prefix}:${key}`),
      concurrency: options.concurrency,
      leaseMs: options.leaseMs ?? 30_000,
      async run(due, plannedAt) {
        runs.push({ id: due.monitorId, plannedAt, startedAt: Date.now() });
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await sleep(options.takesMs);
        running--;
        return nextSlotAfter(Date.now(), options.everyMs, spreadOffsetMs(due.monitorId, options.everyMs));
      },
    };
    return { work, runs, mostAtOnce: () => mostAtOnce };
  };

  it('runs each member at every slot of its cadence, within milliseconds of it, once per slot', async () => {
    const http = lane('cadence', { everyMs: 1000, takesMs: 5, concurrency: 10 });
    const now = Date.now();
    for (const id of [7, 8, 9])
      await http.work.set.schedule(member(id), nextSlotAfter(now, 1000, spreadOffsetMs(id, 1000)));
    const lanes = startDueLanes({ http: http.work }, { logger });
    await expect.poll(() => http.runs.length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(12);
    await lanes.stop();
    for (const id of [7, 8, 9]) {
      const own = http.runs.filter((run) => run.id === id);
      // Every slot of its cadence, none twice, none skipped.
      for (const [i, run] of own.entries()) {
        expect((run.plannedAt - spreadOffsetMs(id, 1000)) % 1000).toBe(0);
        if (i > 0) expect(run.plannedAt - (own[i - 1] as Run).plannedAt).toBe(1000);
        expect(isStale(run.plannedAt, run.startedAt, 1000)).toBe(false);
      }
    }
    const lags = http.runs.map((run) => run.startedAt - run.plannedAt).sort((a, b) => a - b);
    expect(lags[0]).toBeGreaterThanOrEqual(0);
    // The batch window (20 ms) and a shared machine's timers: far under the interval.
    expect(lags[Math.floor(lags.length * 0.9)]).toBeLessThan(250);
  }, 30_000);

  it('a full slow lane never delays another lane: its members wait in Redis, not in the worker', async () => {
    const slow = lane('slow', { everyMs: 1000, takesMs: 3000, concurrency: 2 });
    const http = lane('fast-beside', { everyMs: 1000, takesMs: 5, concurrency: 10 });
    const now = Date.now();
    for (let id = 100; id < 120; id++) await slow.work.set.schedule(member(id, 'icmp'), now);
    await http.work.set.schedule(member(5), nextSlotAfter(now, 1000, spreadOffsetMs(5, 1000)));
    const lanes = startDueLanes({ slow: slow.work, http: http.work }, { logger });
    await expect.poll(() => http.runs.length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(5);
    await lanes.stop();
    expect(slow.mostAtOnce()).toBe(2);
    // Only what the slow lane could take left its set: the rest stayed due in Redis.
    expect((await slow.work.set.counts(Date.now())).due).toBeGreaterThanOrEqual(14);
    for (const run of http.runs) expect(run.startedAt - run.plannedAt).toBeLessThan(250);
  }, 30_000);

  it('a check running longer than its lease is not taken by another worker: leases are renewed while it runs', async () => {
    const first = lane('renewed', { everyMs: 60_000, takesMs: 3500, concurrency: 5, leaseMs: 1000 });
    const second = { ...first.work };
    await first.work.set.schedule(member(42), Date.now());
    // Two workers on one set.
    const a = startDueLanes({ http: first.work }, { logger, maxSleepMs: 100 });
    const b = startDueLanes({ http: second }, { logger, maxSleepMs: 100 });
    await expect.poll(() => first.runs.length, { timeout: 5_000, interval: 50 }).toBe(1);
    await sleep(4_000);
    await Promise.all([a.stop(), b.stop()]);
    expect(first.runs).toHaveLength(1);
    expect(first.mostAtOnce()).toBe(1);
    // Put back at its next slot when done.
    const at = (await first.work.set.members())[0]?.at ?? 0;
    expect(at).toBe(nextSlotAfter(at - 1, 60_000, spreadOffsetMs(42, 60_000)));
  }, 30_000);

  it("a dead worker's claim ends with its lease: another worker takes the check then", async () => {
    const set = new DueSet(redis, `${prefix}:dead`);
    const now = Date.now();
    await set.schedule(member(9), now);
    // Claimed by a worker that dies: never put back, never renewed.
    expect(await set.claim(now, 10, 1500)).toHaveLength(1);
    const rescuer = lane('dead', { everyMs: 60_000, takesMs: 1, concurrency: 5 });
    const lanes = startDueLanes({ http: rescuer.work }, { logger, maxSleepMs: 100 });
    await expect.poll(() => rescuer.runs.length, { timeout: 5_000, interval: 50 }).toBe(1);
    await lanes.stop();
    expect(rescuer.runs[0]?.plannedAt).toBe(now + 1500);
    expect(rescuer.runs[0]?.startedAt).toBeGreaterThanOrEqual(now + 1500);
  }, 30_000);
});
