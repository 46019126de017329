import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { EventOutbox } from '../libs/events/index.js';
import { RedisMutex } from '../libs/locks/index.js';
import { createLogger } from '../libs/logging/index.js';
import {
  afterResult,
  type EventWebsite,
  IncidentTimelines,
  type MonitorStateDocument,
  MonitorStateRepository,
  MonitorTransitions,
  type TransitionPlan,
} from '../libs/monitoring/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { commandOn, type MongoFaultProxy, startMongoFaultProxy } from './support/mongo-fault-proxy.js';
import { startHttpTarget, type Target } from './support/targets.js';

const silent = createLogger('test', 'silent');

/** A result of one region, as the check runner decides it (one failure confirms). */
function resultPlan(state: MonitorStateDocument, status: 'up' | 'down', at: Date): TransitionPlan {
  const outcome = afterResult(
    state,
    {
      region: 'eu',
      status,
      startedAt: at,
      inMaintenance: false,
      checks: [],
      cause: status === 'down' ? 'HTTP 503' : null,
    },
    {
      confirmations: 1,
      recoveryConfirmations: 1,
      regionQuorum: 1,
      regions: ['eu'],
      freshWithinMs: 60_000,
      reminderIntervalMinutes: 0,
    },
  );
  return { trigger: `result:eu:${at.getTime()}`, at, outcome, details: { result: null } };
}

describe('the monitor transition path under races and failures (real FerretDB and Redis)', () => {
  let api: TestApi;
  let proxy: MongoFaultProxy;
  let proxied: MongoClient;
  let redis: Redis;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true', RECHECK_DELAY_SECONDS: '1' });
    proxy = await startMongoFaultProxy(api.config.MONGODB_URL);
    proxied = new MongoClient(proxy.url);
    await proxied.connect();
    redis = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis.disconnect();
    await proxied.close();
    await proxy.close();
    await api.stop();
  });

  /** A transition path of its own (one process's), over MongoDB directly or through the proxy. */
  const path = (db = api.db, ttlMs = 1000) => {
    const states = new MonitorStateRepository(db, redis, api.config.REDIS_KEY_PREFIX, { timeoutMS: 10_000 });
    return {
      states,
      transitions: new MonitorTransitions({
        states,
        outbox: new EventOutbox(db, { timeoutMS: 10_000 }),
        timelines: new IncidentTimelines(db),
        // Short, and renewed no longer than it lasts: a holder stalled past a second loses it.
        mutex: new RedisMutex(redis, api.config.REDIS_KEY_PREFIX, {
          ttlMs,
          maxHoldMs: ttlMs,
          waitMs: 10_000,
        }),
        logger: silent,
      }),
    };
  };

  // A decides "down" from a result and its write of the state stalls 3 s on the way to MongoDB; B,
  // with a later result, gets the lock once A's has expired and decides from the state A never
  // wrote to Redis. Either MongoDB gets B's state first (A's late write is refused by the fence) or
  // A's first (A finds its lock gone before it tells anything): the status is B's either way.
  for (const [order, websiteId, bThinksMs] of [
    ['B’s write lands first', 910_001, 0],
    ['A’s write lands first', 910_003, 3500],
  ] as const)
    it(`a holder stalled on its MongoDB write past the lock’s TTL tells nothing and the status is the newer holder’s (${order})`, async () => {
      const website: EventWebsite = {
        organizationId: 1,
        id: websiteId,
        publicId: randomUUID(),
        name: 'Raced',
        url: 'https://raced.example.com/',
        customerId: 1,
      };
      const a = path(proxied.db(api.db.databaseName));
      // B's own lock outlasts its slow write.
      const b = path(proxied.db(api.db.databaseName), 10_000);
      // Up, and in MongoDB.
      await b.transitions.run(website, (state) => ({
        result: undefined,
        plan: resultPlan(state, 'up', new Date(Date.now() - 10_000)),
      }));

      const stalled = proxy.delayOnce(commandOn('update', 'monitor_states'), 3000);
      const aDone = a.transitions.run(
        website,
        (state) => ({ result: 'A', plan: resultPlan(state, 'down', new Date(Date.now() - 5000)) }),
        'defer-if-away',
      );
      await stalled;
      // B's write of the state takes this long on its way (A's is held 3 s).
      if (bThinksMs > 0) void proxy.delayOnce(commandOn('update', 'monitor_states'), bThinksMs);
      const bDone = await b.transitions.run(
        website,
        (state) => ({ result: 'B', plan: resultPlan(state, 'up', new Date()) }),
        'defer-if-away',
      );
      const aOutcome = await aDone;

      expect(bDone).toMatchObject({ result: 'B', refused: false });
      expect(aOutcome).toMatchObject({ result: 'A', refused: true, kept: null });
      expect(a.transitions.refusedWrites).toBe(1);
      const now = await b.states.load(website.organizationId, website.id);
      expect(now).toMatchObject({ health: 'up', openIncidentId: null, fence: bDone.state.fence });
      const stored = await api.db.collection('monitor_states').findOne({ websiteId: website.id });
      expect(stored).toMatchObject({ health: 'up', fence: bDone.state.fence });
      // A's decision told nothing and opened nothing.
      expect(await api.db.collection('incidents').countDocuments({ websiteId: website.id })).toBe(0);
      expect(await api.db.collection('events').countDocuments({ websiteId: website.id })).toBe(0);
    }, 30_000);

  it('the reconciler resolves an open incident its website’s state does not name, and leaves the named one', async () => {
    const { states, transitions } = path();
    const website: EventWebsite = {
      organizationId: 2,
      id: 910_002,
      publicId: randomUUID(),
      name: 'Orphaned',
      url: 'https://orphaned.example.com/',
      customerId: 1,
    };
    const down = await transitions.run(website, (state) => ({
      result: undefined,
      plan: resultPlan(state, 'down', new Date(Date.now() - 120_000)),
    }));
    const named = down.state.openIncidentId;
    expect(named).not.toBeNull();
    // Left by a transition whose state never became the website's.
    await states.insertIncident({
      id: randomUUID(),
      organizationId: website.organizationId,
      websiteId: website.id,
      startedAt: new Date(Date.now() - 90_000),
      resolvedAt: null,
      cause: 'HTTP 503',
      regions: ['eu'],
    });
    const open = () =>
      api.db
        .collection('incidents')
        .find({ websiteId: website.id, resolvedAt: null }, { projection: { _id: 0, id: 1 } })
        .toArray();
    expect(await open()).toHaveLength(2);
    expect(await transitions.resolveOrphanIncidents(60_000)).toBe(1);
    expect(await open()).toEqual([{ id: named }]);
  });

  describe('with a worker whose MongoDB refuses the first event insert', () => {
    let target: Target;
    let stopWorker: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      target = await startHttpTarget();
    });
    afterAll(async () => {
      await stopWorker?.();
      await target.close();
    });

    it('a website going down opens exactly one incident and tells website.down once', async () => {
      const { token, organizationId } = await api.createOrganization(['admin']);
      const pkg = await createPackage(api, token, {
        limits: { minCheckIntervalSeconds: 10 },
        alerting: { confirmations: 1 },
      });
      const customerId = await createCustomer(api, token, pkg.id);
      const refused = proxy.dropOnce(commandOn('insert', 'events'));
      const worker = await startWorker(
        { ...api.config, MONGODB_URL: proxy.url, NODE_PUBLIC_IP: '203.0.113.40', NODE_ID: 'replay' },
        silent,
      );
      stopWorker = () => worker.stop();
      const created = await api.request<{ id: number }>('POST', '/api/websites', {
        token,
        body: { customerId, name: 'Failing', url: `${target.url}/status/503`, checkInterval: 10 },
      });
      expect(created.status).toBe(201);
      const websiteId = created.body.id;
      await refused;
      const events = () =>
        api.db.collection('events').find({ organizationId, websiteId, type: 'website.down' }).toArray();
      await expect.poll(async () => (await events()).length, { timeout: 30_000, interval: 200 }).toBe(1);
      // Further checks of the down website (10 s apart) tell nothing new and open nothing new.
      const checks = () => api.db.collection('check_results').countDocuments({ websiteId });
      const seen = await checks();
      await expect.poll(checks, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(seen + 1);
      const incidents = await api.db.collection('incidents').find({ websiteId }).toArray();
      expect(incidents).toHaveLength(1);
      expect(incidents[0]).toMatchObject({ resolvedAt: null });
      const [event] = await events();
      expect(event).toMatchObject({ data: { incident: incidents[0]?.id } });
      expect(await api.db.collection('events').countDocuments({ websiteId })).toBe(1);
      const status = await api.request<{ openIncidentId: string }>(
        'GET',
        `/api/websites/${websiteId}/status`,
        {
          token,
        },
      );
      expect(status.body.openIncidentId).toBe(incidents[0]?.id);
    }, 90_000);
  });
});
