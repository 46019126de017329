import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiServices, composeApi } from '../apps/api/compose.js';
import { CustomerCache, customerRevisions } from '../libs/customers/index.js';
import { BatchInserter, isDuplicateKey } from '../libs/db/index.js';
import { createLogger } from '../libs/logging/index.js';
import {
  type MonitorStateDocument,
  MonitorStateRepository,
  MonitorTransitions,
} from '../libs/monitoring/index.js';
import { WebsiteCache } from '../libs/websites/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

describe('hot state in Redis, durable state in MongoDB', () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let redis: Redis;
  let services: ApiServices;

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token } = await api.createOrganization(['admin']));
    redis = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: 1 });
    services = composeApi({
      db: api.db,
      redis,
      config: api.config,
      logger: createLogger('test', 'silent'),
    });
  });
  afterAll(async () => {
    await services.close();
    redis.disconnect();
    await api.stop();
  });

  /** Makes `state` the website's, through the one transition path. */
  const save = (states: MonitorStateRepository, state: MonitorStateDocument) =>
    new MonitorTransitions({
      states,
      outbox: services.events,
      timelines: services.timelines,
      mutex: services.mutex,
      logger: createLogger('test', 'silent'),
    }).adjust(state.organizationId, state.websiteId, 'test', () => state);

  const createWebsite = async () =>
    (
      await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token,
        body: {
          customerId: await createCustomer(api, token, (await createPackage(api, token)).id),
          name: 'Cached',
          url: 'https://cached.example.com/',
          paused: true,
        },
      })
    ).body;

  describe('monitor states', () => {
    const stored = (websiteId: number) =>
      api.db.collection('monitor_states').findOne({ websiteId }, { projection: { _id: 0 } });

    it('a steady result changes only the Redis copy; a change of health reaches MongoDB at once', async () => {
      const states = new MonitorStateRepository(api.db, redis, api.config.REDIS_KEY_PREFIX);
      const websiteId = 900_001;
      const first = await states.load(organizationId, websiteId);
      await save(states, { ...first, health: 'up', notifiedHealth: 'up', lastResultAt: new Date(1000) });
      expect(await stored(websiteId)).toMatchObject({ health: 'up', lastResultAt: new Date(1000) });

      // Counters, the last result time and the latest failure's wording change per check: Redis only.
      for (let second = 2; second <= 5; second++) {
        const state = await states.load(organizationId, websiteId);
        await save(states, {
          ...state,
          lastResultAt: new Date(second * 1000),
          lastCause: `size ${second} bytes`,
        });
      }
      expect((await states.load(organizationId, websiteId)).lastResultAt).toEqual(new Date(5000));
      expect(await stored(websiteId)).toMatchObject({ lastResultAt: new Date(1000), lastCause: null });

      const steady = await states.load(organizationId, websiteId);
      await save(states, { ...steady, health: 'down', lastResultAt: new Date(6000) });
      expect(await stored(websiteId)).toMatchObject({
        health: 'down',
        notifiedHealth: 'up',
        lastResultAt: new Date(6000),
      });
    });

    it('a first write is an insert; one for a state MongoDB has after all replaces it', async () => {
      const states = new MonitorStateRepository(api.db, redis, api.config.REDIS_KEY_PREFIX);
      const websiteId = 900_003;
      const fresh = await states.load(organizationId, websiteId);
      expect(fresh.persisted).toBeNull();
      await save(states, { ...fresh, health: 'up', notifiedHealth: 'up' });
      // A copy that never saw that write (a crash between MongoDB and Redis) writes again.
      await save(states, { ...fresh, health: 'degraded', notifiedHealth: 'degraded' });
      expect(await api.db.collection('monitor_states').countDocuments({ websiteId })).toBe(1);
      expect(await stored(websiteId)).toMatchObject({ health: 'degraded' });
    });

    it('without the Redis copy (a flushed Redis) the state comes back from MongoDB with what matters', async () => {
      const states = new MonitorStateRepository(api.db, redis, api.config.REDIS_KEY_PREFIX);
      const websiteId = 900_002;
      const state = await states.load(organizationId, websiteId);
      const maintenance = { windowId: 7, startsAt: new Date(10_000), endsAt: new Date(20_000) };
      await save(states, {
        ...state,
        health: 'down',
        notifiedHealth: 'down',
        openIncidentId: 'incident-1',
        maintenance,
        maintenanceBoundaryAt: maintenance.endsAt,
      });
      await redis.del(`${api.config.REDIS_KEY_PREFIX}:monitor-state:${websiteId}`);
      expect(await states.load(organizationId, websiteId)).toMatchObject({
        health: 'down',
        notifiedHealth: 'down',
        openIncidentId: 'incident-1',
        maintenance,
        maintenanceBoundaryAt: maintenance.endsAt,
      });
      // And never to another organization.
      expect((await states.load(organizationId + 1, websiteId)).health).toBe('unknown');
    });
  });

  it('prime gives websites without a hot copy theirs from MongoDB, or a new one, in bulk', async () => {
    const states = new MonitorStateRepository(api.db, redis, api.config.REDIS_KEY_PREFIX);
    const [inMongo, fresh, hot] = [900_010, 900_011, 900_012];
    await save(states, {
      ...(await states.load(organizationId, inMongo)),
      health: 'down',
      notifiedHealth: 'down',
    });
    await save(states, {
      ...(await states.load(organizationId, hot)),
      health: 'degraded',
      notifiedHealth: 'degraded',
    });
    const keyOf = (id: number) => `${api.config.REDIS_KEY_PREFIX}:monitor-state:${id}`;
    await redis.del(keyOf(inMongo));
    await api.db.collection('monitor_states').updateOne({ websiteId: hot }, { $set: { health: 'up' } });

    const primed = await states.prime([inMongo, fresh, hot].map((id) => ({ organizationId, id })));
    expect(primed).toBe(2);
    expect(await redis.exists(keyOf(inMongo), keyOf(fresh))).toBe(2);
    expect((await states.load(organizationId, inMongo)).health).toBe('down');
    expect((await states.load(organizationId, fresh)).health).toBe('unknown');
    // A hot copy already there is left alone (it is newer than MongoDB's).
    expect((await states.load(organizationId, hot)).health).toBe('degraded');
  });

  it('BatchInserter settles each insert with its own outcome', async () => {
    const collection = api.db.collection<{ _id: string; n: number }>('batch_inserter_test');
    await collection.insertOne({ _id: 'taken', n: 0 });
    const inserter = new BatchInserter(collection, { flushEveryMs: 20 });
    const outcomes = await Promise.allSettled(
      ['a', 'taken', 'b'].map((id, n) => inserter.insert({ _id: id, n })),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(isDuplicateKey((outcomes[1] as PromiseRejectedResult).reason)).toBe(true);
    expect(await collection.countDocuments()).toBe(3);
  });

  describe('the workers’ website cache', () => {
    const newCache = (capacity = 1000) =>
      new WebsiteCache(
        { websites: services.websiteRepository, revisions: services.websiteRevisions },
        capacity,
      );

    it('keeps at most its capacity, dropping the oldest entry', async () => {
      const sites = [await createWebsite(), await createWebsite(), await createWebsite()];
      const cache = newCache(2);
      for (const site of sites) await cache.get(organizationId, site.id);
      for (const site of sites)
        await api.db.collection('websites').updateOne({ id: site.id }, { $set: { name: 'Behind its back' } });
      const names = [];
      for (const site of [...sites].reverse()) names.push((await cache.get(organizationId, site.id))?.name);
      // The two kept were served from memory; the first, dropped, was read again from MongoDB.
      expect(names).toEqual(['Cached', 'Cached', 'Behind its back']);
    });

    it('serves a website from memory until a write through the repository changes its revision', async () => {
      const site = await createWebsite();
      const cache = newCache();
      expect((await cache.get(organizationId, site.id))?.name).toBe('Cached');

      // Written behind the repository's back (no revision change): the cache does not read MongoDB.
      await api.db.collection('websites').updateOne({ id: site.id }, { $set: { name: 'Behind its back' } });
      expect((await cache.get(organizationId, site.id))?.name).toBe('Cached');

      // Through the API: the revision changes and the next read sees the write.
      await api.request('PATCH', `/api/websites/${site.publicId}`, { token, body: { name: 'Renamed' } });
      expect((await cache.get(organizationId, site.id))?.name).toBe('Renamed');

      expect(await cache.get(organizationId + 1, site.id)).toBeNull();
      await api.request('DELETE', `/api/websites/${site.publicId}`, { token });
      expect(await cache.get(organizationId, site.id)).toBeNull();
    });

    it('getMany (the API’s lists) reads only the websites changed since, in the order asked, none of another organization', async () => {
      const [one, two, three] = [await createWebsite(), await createWebsite(), await createWebsite()];
      const cache = newCache();
      const names = async (ids: number[], organization = organizationId) =>
        (await cache.getMany(organization, ids)).map((w) => `${w.id}:${w.name}`);
      expect(await names([three.id, one.id, 999_999, two.id])).toEqual([
        `${three.id}:Cached`,
        `${one.id}:Cached`,
        `${two.id}:Cached`,
      ]);
      for (const site of [one, two])
        await api.db.collection('websites').updateOne({ id: site.id }, { $set: { name: 'Behind its back' } });
      await api.request('PATCH', `/api/websites/${two.publicId}`, { token, body: { name: 'Renamed' } });
      // One unchanged from memory (the write behind its back unseen), the one renamed read again.
      expect(await names([one.id, two.id])).toEqual([`${one.id}:Cached`, `${two.id}:Renamed`]);
      expect(await names([one.id, two.id], organizationId + 1)).toEqual([]);
      await api.request('DELETE', `/api/websites/${three.publicId}`, { token });
      expect(await names([three.id])).toEqual([]);
    });

    it('prime loads the listed websites in one scan, with their revisions', async () => {
      const [one, two] = [await createWebsite(), await createWebsite()];
      const cache = newCache();
      const primed = await cache.prime([one.id, two.id, 999_999]);
      expect(primed.map((w) => w.id).sort()).toEqual([one.id, two.id].sort());
      await api.db.collection('websites').updateOne({ id: one.id }, { $set: { name: 'Behind its back' } });
      expect((await cache.get(organizationId, one.id))?.name).toBe('Cached');
      await api.request('PATCH', `/api/websites/${two.publicId}`, { token, body: { name: 'Renamed' } });
      expect((await cache.get(organizationId, two.id))?.name).toBe('Renamed');
    });

    it('an unchanged website is still served from memory an hour later (no re-read per interval)', async () => {
      const site = await createWebsite();
      const cache = newCache();
      await cache.get(organizationId, site.id);
      await api.db.collection('websites').updateOne({ id: site.id }, { $set: { name: 'Behind its back' } });
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000 });
      try {
        expect((await cache.get(organizationId, site.id))?.name).toBe('Cached');
      } finally {
        vi.useRealTimers();
      }
    });

    it('a lost revision (flushed Redis) makes the next read go to MongoDB', async () => {
      const site = await createWebsite();
      const cache = newCache();
      await cache.get(organizationId, site.id);
      await api.db.collection('websites').updateOne({ id: site.id }, { $set: { name: 'Changed' } });
      await redis.del(`${api.config.REDIS_KEY_PREFIX}:website-rev:${site.id}`);
      expect((await cache.get(organizationId, site.id))?.name).toBe('Changed');
    });
  });

  describe('the API’s customer cache (its lists say which websites’ customers are cancelled)', () => {
    const newCache = () =>
      new CustomerCache(
        services.customerRepository,
        customerRevisions(redis, api.config.REDIS_KEY_PREFIX),
        100,
      );

    it('serves a customer from memory until a write through the repository, in any process, changes its revision', async () => {
      const customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Kept');
      // Two API processes: each keeps its own copies, both see a write either made.
      const [one, other] = [newCache(), newCache()];
      for (const cache of [one, other])
        expect((await cache.findByIds(organizationId, [customerId])).map((c) => [c.name, c.status])).toEqual([
          ['Kept', 'active'],
        ]);
      await api.db
        .collection('customers')
        .updateOne({ id: customerId }, { $set: { name: 'Behind its back' } });
      expect((await one.findByIds(organizationId, [customerId]))[0]?.name).toBe('Kept');

      // Cancelled through the API (another process than either cache's): both read it again.
      const cancelled = await api.request('PATCH', `/api/customers/${customerId}`, {
        token,
        body: { status: 'marked_for_cancellation' },
      });
      expect(cancelled.status).toBe(200);
      for (const cache of [one, other])
        expect((await cache.findByIds(organizationId, [customerId])).map((c) => c.status)).toEqual([
          'marked_for_cancellation',
        ]);
      // Another organization's caller never gets it, kept or not.
      expect(await one.findByIds(organizationId + 1_000_000, [customerId])).toEqual([]);

      // Deleted: gone from both at once, not served from memory.
      expect((await api.request('DELETE', `/api/customers/${customerId}`, { token })).status).toBe(204);
      for (const cache of [one, other])
        expect(await cache.findByIds(organizationId, [customerId])).toEqual([]);
    });

    it('never keeps a copy under a missing revision: a write whose revision Redis lost since is seen', async () => {
      const customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Before');
      const revisionKey = `${api.config.REDIS_KEY_PREFIX}:customer-rev:${customerId}`;
      // No revision (expired after 30 days untouched, or lost with Redis' data) when first read.
      await redis.del(revisionKey);
      const cache = newCache();
      expect((await cache.findByIds(organizationId, [customerId]))[0]?.name).toBe('Before');
      // Renamed elsewhere (its revision moved), then Redis loses that revision too.
      await api.request('PATCH', `/api/customers/${customerId}`, { token, body: { name: 'After' } });
      await redis.del(revisionKey);
      expect((await cache.findByIds(organizationId, [customerId]))[0]?.name).toBe('After');
    });
  });
});
