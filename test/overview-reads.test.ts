import { Redis } from 'ioredis';
import type { Db, Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomerRepository } from '../libs/customers/index.js';
import { type OverviewDeps, websiteOverview } from '../libs/dashboard/index.js';
import {
  CheckFeed,
  listedStatuses,
  MonitorStateRepository,
  RollupRepository,
} from '../libs/monitoring/index.js';
import { MonitorSummaries } from '../libs/monitors/index.js';
import { WebsiteRepository } from '../libs/websites/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { judgedByPrimaryKey } from './support/read-plan.js';
import { connectRecordingFinds } from './support/recorded-finds.js';

/** The one read that is not by key: the regions that write rollups, a collection of a few documents. */
const BOUNDED_SCANS = new Set(['rollup_regions']);

/**
 * What the overview's pictures cost MongoDB, by id or by page: every `find` by primary key (FerretDB
 * 1.24 scans anything else), so a page costs the same at 10 websites and at 10,000.
 */
describe('the overview’s reads (GET /api/dashboard/websites)', () => {
  let api: TestApi;
  let monitored: MongoClient;
  let db: Db;
  let redis: Redis;
  let organizationId: number;
  let ids: number[];
  const finds: Document[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    let token: string;
    ({ organizationId, token } = await api.createOrganization());
    await api.serveRegion();
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    const batch = await api.request<{ items: Array<{ website: { id: number } }> }>(
      'POST',
      '/api/websites/batch',
      {
        token,
        body: {
          items: Array.from({ length: 5 }, (_, n) => ({
            customerId,
            name: `Read ${n}`,
            url: `https://read-${n}.example.com/`,
          })),
        },
      },
    );
    ids = batch.body.items.map((item) => item.website.id);
    monitored = await connectRecordingFinds(api.config.MONGODB_URL, finds);
    db = monitored.db();
    redis = new Redis(api.config.REDIS_URL);
    const feed = new CheckFeed(redis, api.config.REDIS_KEY_PREFIX);
    for (const websiteId of ids.slice(0, 3))
      await feed.told(
        {
          organizationId,
          websiteId,
          startedAt: new Date(),
          status: 'up',
          error: null,
          timings: { dns: 1, connect: 1, tls: 1, ttfb: 50, download: 1, total: 54 },
        },
        { customerId },
        { reported: null, health: 'up' },
      );
  });
  afterAll(async () => {
    redis?.disconnect();
    await monitored?.close();
    await api?.stop();
  });

  const deps = (): OverviewDeps => {
    const states = new MonitorStateRepository(db, redis, api.config.REDIS_KEY_PREFIX);
    const customers = new CustomerRepository(db);
    const websites = new WebsiteRepository(db);
    return {
      statuses: listedStatuses({ states, customers }),
      rollups: new RollupRepository(db),
      incidents: (org, websiteIds, since) => states.incidentsOfWebsites(org, websiteIds, since),
      monitors: (websiteIds) => new MonitorSummaries(redis, api.config.REDIS_KEY_PREFIX).of(websiteIds),
      websites: {
        listPage: (org, options) => websites.listPage(org, options),
        byIds: (org, websiteIds) => websites.findByIds(org, websiteIds),
      },
      customers,
      recentChecks: (websiteIds) => new CheckFeed(redis, api.config.REDIS_KEY_PREFIX).recent(websiteIds),
    };
  };

  it.each<[string, () => Parameters<typeof websiteOverview>[2]]>([
    ['three websites by id', () => ({ ids: ids.slice(0, 3) })],
    ['a page of 100', () => ({ limit: 100 })],
  ])(
    '%s: every find is a primary-key read (but the regions’ few)',
    async (_name, selection) => {
      finds.length = 0;
      const overview = await websiteOverview(deps(), organizationId, selection());
      expect(overview.items.length).toBeGreaterThan(0);
      expect(overview.items.filter((item) => item.recentChecks.length === 1).length).toBe(3);
      const sent = finds.filter((find) => !BOUNDED_SCANS.has(find.find));
      expect(sent.length).toBeGreaterThan(0);
      for (const find of sent) {
        // An equality on `_id` is a key read even where the store has no plan to show (a collection
        // not made yet: no incident so far); any other filter is explained.
        if (Object.keys(find.filter).length === 1 && typeof find.filter._id !== 'object') continue;
        const { byKey, plan } = await judgedByPrimaryKey(db, find);
        expect(byKey, `${find.find} ${JSON.stringify(find.filter)}: ${plan}`).toBe(true);
      }
    },
    60_000,
  );
});
