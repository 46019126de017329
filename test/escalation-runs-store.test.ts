import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { type EscalationRun, EscalationRuns } from '../libs/escalation/index.js';
import { RedisMutex } from '../libs/locks/index.js';
import { createLogger } from '../libs/logging/index.js';
import { useStores } from './support/stores.js';

/**
 * Escalation runs on real FerretDB and Redis: each run's current version in Redis, MongoDB's copy
 * written behind it; read from MongoDB when Redis lost it; a copy left behind by a writer that died
 * before writing MongoDB is judged on Redis's version by the sweep, and written again.
 */
describe('escalation runs kept in Redis, written behind to MongoDB', () => {
  const stores = useStores();
  let stored: Collection<EscalationRun>;
  const prefix = `esc-runs-${randomUUID()}`;
  const runsStore = () =>
    new EscalationRuns(stores.client.db(), {
      redis: stores.redis,
      prefix,
      mutex: new RedisMutex(stores.redis, prefix),
      logger: createLogger('test', 'silent'),
    });
  const newRun = (now: Date): EscalationRun => ({
    _id: randomUUID(),
    organizationId: 1,
    websiteId: 2,
    event: {
      id: randomUUID(),
      type: 'website.down',
      createdAt: now.toISOString(),
      organizationId: 1,
      data: { website: null, previousStatus: 'up', status: 'down', incident: null, result: null },
    },
    policy: { policyId: 3, name: 'Ops', steps: [{ targets: [{ channel: 4 }], waitMinutes: 1 }], repeat: 1 },
    state: 'active',
    next: { round: 0, step: 0, dueAt: now },
    sending: null,
    paged: [],
    startedAt: now,
    endedAt: null,
  });
  const redisKey = (id: string) => `${prefix}:escalation-run:${id}`;

  beforeAll(() => {
    stored = stores.client.db().collection<EscalationRun>('escalation_runs');
  });

  it('claims, finishes and stops a run in Redis; MongoDB has each change a moment later, and serves it once Redis lost it', async () => {
    const runs = runsStore();
    const now = new Date();
    const run = newRun(now);
    expect(await runs.start(run)).toBe(true);
    expect(await runs.start(run)).toBe(false);
    const claimed = await runs.claim(run._id, { round: 0, step: 0 }, now);
    expect(claimed?.sending).toEqual({ round: 0, step: 0, since: now });
    // Claimed once: the same step again is refused, from Redis's version.
    expect(await runs.claim(run._id, { round: 0, step: 0 }, now)).toBeNull();
    const dueAt = new Date(now.getTime() + 60_000);
    await runs.finish(run._id, { round: 0, step: 0 }, { round: 0, step: 1, dueAt }, [9], now);
    await expect
      .poll(async () => (await stored.findOne({ _id: run._id }))?.next?.dueAt, {
        timeout: 5000,
        interval: 100,
      })
      .toEqual(dueAt);
    expect((await stored.findOne({ _id: run._id }))?.paged).toEqual([9]);
    // Redis lost it: MongoDB's copy answers, with its dates.
    await stores.redis.del(redisKey(run._id));
    expect((await runs.find(run._id))?.next).toEqual({ round: 0, step: 1, dueAt });
    const stopped = await runs.stop(run._id, 'resolved', new Date());
    expect(stopped?.state).toBe('active');
    expect((await runs.find(run._id))?.state).toBe('resolved');
    await runs.close();
    expect((await stored.findOne({ _id: run._id }))?.state).toBe('resolved');
  });

  it("judges a run the sweep finds on Redis's version, and writes MongoDB's copy again when it was left behind", async () => {
    const runs = runsStore();
    const now = new Date(Date.now() - 120_000);
    const run = newRun(now);
    expect(await runs.start(run)).toBe(true);
    await runs.close();
    // A notifier claimed the step and died before writing MongoDB: only Redis knows.
    const claimedThere = { ...run, next: null, sending: { round: 0, step: 0, since: now }, revision: 5 };
    await stores.redis.set(redisKey(run._id), JSON.stringify(claimedThere));
    const found = await runs.due(new Date(), new Date(Date.now() - 60_000), 100);
    // MongoDB's copy says the step is due; Redis's says it is half-sent since two minutes ago.
    expect(found.due.map((r) => r._id)).not.toContain(run._id);
    expect(found.stalled.map((r) => r._id)).toContain(run._id);
    await runs.close();
    const repaired = await stored.findOne({ _id: run._id });
    expect({ revision: repaired?.revision, next: repaired?.next, since: repaired?.sending?.since }).toEqual({
      revision: 5,
      next: null,
      since: now,
    });
    expect(await runs.takeOver(claimedThere, new Date())).toBe(true);
    await runs.close();
  });
});
