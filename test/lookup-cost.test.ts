import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Db, Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServices, composeApi } from '../apps/api/compose.js';
import { AuditEventRepository } from '../libs/audit/index.js';
import { ApiTokenRepository, apiTokenIndexes, hashToken } from '../libs/auth/index.js';
import { ensureIndexes, ID_LISTS, KEY_LOOKUPS, KeyLookup, TenantResources } from '../libs/db/index.js';
import { createLogger } from '../libs/logging/index.js';
import { StatusPageRepository, statusPageIndexes } from '../libs/status-pages/index.js';
import {
  createWebsiteBody,
  toWebsiteView,
  WebsiteRepository,
  websiteIndexes,
} from '../libs/websites/index.js';
import { createCustomer, createPackage, TestApi, until } from './support/harness.js';
import { commandByPrimaryKey, judgedByPrimaryKey } from './support/read-plan.js';
import { connectRecordingFinds } from './support/recorded-finds.js';

/**
 * What a PATCH of a website's fields sends MongoDB besides the token's read (below), by command
 * and collection: each by primary key, so a rename costs the same at 50 and 10,000 websites. No
 * read of the monitoring nodes (a scan): a change that cannot move the website keeps its regions.
 */
const PATCH_PATH: Record<string, string> = {
  'find key_lookups': "where the publicId's website is (once per process: it never moves)",
  'find websites': 'the website as stored, under its lock (once: the audit log takes it from the update)',
  'find customers': 'its customer, by _id (once per process: then kept under its revision)',
  'find packages': "the customer's package, by _id (once per process: then kept under its revision)",
  'update websites': 'the write, by _id',
  'insert audit_events': 'the audit event under its number (the insert claims its _id)',
  'update audit_heads': "the organization's audit head raised, by _id",
  'findAndModify audit_heads':
    "the head's next number, when this process stored none of the organization's lately",
};

describe('lookups on request paths read by primary key (FerretDB explain / documents examined)', () => {
  let api: TestApi;
  let monitored: MongoClient;
  let db: Db;
  let token: string;
  let organizationId: number;
  let customerId: number;
  /** Customers without websites: one to list, one to count (each lookup's first read is the one judged). */
  let listedEmpty: number;
  let countedEmpty: number;
  let website: { id: number; publicId: string };
  /** An API process's services on the recording client: what they send is theirs alone. */
  let services: ApiServices;
  let redis: Redis;
  const slug = `lookup-${randomUUID().slice(0, 8)}`;
  const finds: Document[] = [];
  const commands: Array<{ name: string; command: Document }> = [];

  /** The `find` commands `work` sends. */
  async function findsOf(work: () => Promise<unknown>): Promise<Document[]> {
    finds.length = 0;
    await work();
    return [...finds];
  }

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token } = await api.createOrganization());
    // A region serves: the website is placed and scheduled, as in production.
    await api.serveRegion();
    const pkg = await createPackage(api, token);
    customerId = await createCustomer(api, token, pkg.id);
    listedEmpty = await createCustomer(api, token, pkg.id);
    countedEmpty = await createCustomer(api, token, pkg.id);
    website = (
      await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token,
        body: { customerId, name: 'Shop', url: 'https://shop.example.com/', checkInterval: 60 },
      })
    ).body;
    const page = await api.request('POST', '/api/status-pages', {
      token,
      body: { slug, title: 'Shop status', customerId, public: true },
    });
    expect(page.status).toBe(201);
    monitored = await connectRecordingFinds(api.config.MONGODB_URL, finds, commands);
    db = monitored.db();
    redis = new Redis(api.config.REDIS_URL);
    services = composeApi({ db, redis, config: api.config, logger: createLogger('test', 'silent') });
  });
  afterAll(async () => {
    await services?.close();
    redis?.disconnect();
    await monitored?.close();
    await api?.stop();
  });

  const lookups: Array<[string, () => Promise<unknown>]> = [
    ['website by publicId (badges)', () => new WebsiteRepository(db).findByPublicId(website.publicId)],
    [
      'website by publicId in an organization (PATCH/GET /api/websites/{publicId})',
      () => new WebsiteRepository(db).findByRef(organizationId, { publicId: website.publicId }),
    ],
    ['website by an unknown publicId', () => new WebsiteRepository(db).findByPublicId(randomUUID())],
    ['status page by slug (/status/<slug>)', () => new StatusPageRepository(db).findBySlug(slug)],
    ['status page by an unknown slug', () => new StatusPageRepository(db).findBySlug(`no-${randomUUID()}`)],
    ['token by hash (every request)', () => new ApiTokenRepository(db).findActiveByHash(hashToken(token))],
    [
      'a customer by id (TenantResources: customers, packages, channels, windows, pages)',
      () => new TenantResources(db, 'customers').findById(organizationId, customerId),
    ],
    [
      'websites of a customer (a status page)',
      () => new WebsiteRepository(db).listByCustomer(organizationId, customerId),
    ],
    [
      'a page of the organization’s websites (GET /api/websites?limit=100)',
      () => new WebsiteRepository(db).listPage(organizationId, { limit: 100 }),
    ],
    [
      'the next page (GET /api/websites?afterId=…)',
      () => new WebsiteRepository(db).listPage(organizationId, { afterId: website.id, limit: 100 }),
    ],
    [
      'a page of one customer’s websites (GET /api/websites?customerId=…&limit=100)',
      () => new WebsiteRepository(db).listPage(organizationId, { customerId, limit: 100 }),
    ],
    [
      'websites of a customer without any yet (its status page, its list)',
      () => new WebsiteRepository(db).listByCustomer(organizationId, listedEmpty),
    ],
    [
      'website count of a customer without any yet (maxWebsites: its first website, a website moved to it)',
      () => new WebsiteRepository(db).countByCustomer(organizationId, countedEmpty),
    ],
  ];

  // Longer than a plan is awaited (the keeper adds SQLite's `_id` index to a new collection within
  // seconds): a scan fails naming its plan, not the test's time.
  it.each(lookups)(
    '%s: every find is a primary-key read',
    async (_name, lookup) => {
      const sent = await findsOf(lookup);
      expect(sent.length).toBeGreaterThan(0);
      for (const find of sent) {
        const { byKey, plan } = await judgedByPrimaryKey(db, find);
        expect(byKey, `${find.find} ${JSON.stringify(find.filter)}: ${plan}`).toBe(true);
      }
    },
    30_000,
  );

  const patches: Array<[string, Record<string, unknown>]> = [
    ['a rename', { name: 'Shop renamed' }],
    ['a URL change', { url: 'https://shop-2.example.com/' }],
    ['a method change', { httpMethod: 'HEAD' }],
    ['new headers', { customHeaders: { 'x-env': 'production' } }],
    ['an interval change', { checkInterval: 120 }],
  ];

  it.each(patches)(
    'PATCH /api/websites/{publicId}, %s: every command is named (PATCH_PATH) and by primary key',
    async (_name, body) => {
      const audit = new AuditEventRepository(db);
      const input = createWebsiteBody.partial().parse(body);
      // Twice: the first also finds where the publicId's website is (once per process).
      for (let pass = 0; pass < 2; pass++) {
        commands.length = 0;
        const { website: updated } = await services.websites.update(organizationId, website.publicId, input);
        expect(toWebsiteView(updated)).toMatchObject(body);
        await audit.append({
          organizationId,
          at: new Date(),
          actor: { type: 'token', id: 1, scopes: ['write'] },
          action: 'updateWebsite',
          method: 'PATCH',
          route: '/api/websites/:websiteRef',
          resource: 'websites',
          resourceId: String(website.id),
          outcome: 'succeeded',
          status: 200,
          address: '127.0.0.1',
          requestId: randomUUID(),
          changes: [],
        });
        // The audit head is raised after the insert, unawaited.
        await until(async () => commands.some(({ name, command }) => command[name] === 'audit_heads'), 5_000);
        const sent = commands.map(({ name, command }) => ({ op: `${name} ${command[name]}`, name, command }));
        expect(sent.map(({ op }) => op)).toContain('update websites');
        // Known after the first: the website is the one read, its owner comes from memory.
        if (pass === 1)
          expect(sent.filter(({ name }) => name === 'find').map(({ op }) => op)).toEqual(['find websites']);
        for (const { op, name, command } of sent) {
          expect(PATCH_PATH, `${op} ${JSON.stringify(command)}: not on the path`).toHaveProperty([op]);
          const { byKey, plan } = await commandByPrimaryKey(db, name, command);
          expect(byKey, `${op}: ${plan}`).toBe(true);
        }
      }
    },
    30_000,
  );

  it('the lookups find what they should', async () => {
    expect((await new WebsiteRepository(db).findByPublicId(website.publicId))?.id).toBe(website.id);
    expect(
      await new WebsiteRepository(db).findByRef(organizationId + 1, { publicId: website.publicId }),
    ).toBe(null);
    expect((await new StatusPageRepository(db).findBySlug(slug))?.title).toBe('Shop status');
    expect((await new ApiTokenRepository(db).findActiveByHash(hashToken(token)))?.organizationId).toBe(
      organizationId,
    );
    expect(
      (await new WebsiteRepository(db).listByCustomer(organizationId, customerId)).map((w) => w.id),
    ).toEqual([website.id]);
    expect(await new WebsiteRepository(db).listByCustomer(organizationId, listedEmpty)).toEqual([]);
    expect(await new WebsiteRepository(db).countByCustomer(organizationId, countedEmpty)).toBe(0);
  });

  it('a publicId found once is one primary-key read after (its website keeps it for life); a deleted website is looked up afresh', async () => {
    const websites = new WebsiteRepository(db);
    const created = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Once', url: 'https://once.example.com/', checkInterval: 60 },
    });
    const { publicId } = created.body;
    expect((await findsOf(() => websites.findByPublicId(publicId))).map((f) => f.filter)).toEqual([
      { _id: `websites.publicId/${publicId}` },
      { _id: `w${created.body.id}` },
    ]);
    expect((await findsOf(() => websites.findByPublicId(publicId))).map((f) => f.filter)).toEqual([
      { _id: `w${created.body.id}` },
    ]);
    expect((await api.request('DELETE', `/api/websites/${publicId}`, { token })).status).toBe(204);
    expect(await websites.findByPublicId(publicId)).toBe(null);
  });

  it('a resource stored without its id entry is found by a scan once, then by primary key', async () => {
    const notes = new TenantResources(db, 'notes');
    const now = new Date();
    await db.collection('notes').insertOne({ id: 7, organizationId, createdAt: now, updatedAt: now });
    expect((await notes.findById(organizationId, 7))?.id).toBe(7);
    const sent = await findsOf(() => notes.findById(organizationId, 7));
    expect(sent.map((find) => find.filter)).toEqual([{ _id: 'notes.id/7' }, { _id: expect.anything() }]);
    expect(await notes.findById(organizationId + 1, 7)).toBe(null);
    expect(await notes.delete(organizationId, 7)).toBe(true);
    expect(await notes.findById(organizationId, 7)).toBe(null);
  });

  it("a customer's websites are listed as they come and go", async () => {
    const websites = new WebsiteRepository(db);
    const created = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Docs', url: 'https://docs.example.com/', checkInterval: 60 },
    });
    expect((await websites.listByCustomer(organizationId, customerId)).map((w) => w.id)).toEqual([
      website.id,
      created.body.id,
    ]);
    expect((await api.request('DELETE', `/api/websites/${created.body.publicId}`, { token })).status).toBe(
      204,
    );
    expect((await websites.listByCustomer(organizationId, customerId)).map((w) => w.id)).toEqual([
      website.id,
    ]);
    expect(await websites.listByCustomer(organizationId + 1, customerId)).toEqual([]);
  });

  it("a customer's many websites are read a few at a time, not all at once", async () => {
    const counters = db.collection<{ _id: string; websiteIds?: number[] }>('website_counts');
    const counter = await counters.findOne({ _id: `c${customerId}` });
    const many = Array.from({ length: 100 }, (_, n) => 1_000_000 + n);
    await counters.updateOne({ _id: `c${customerId}` }, { $push: { websiteIds: { $each: many } } });
    // Reads asked of the driver and not done (waiting for a connection or running): each takes one.
    let asked = 0;
    let most = 0;
    const checkingOut = () => {
      most = Math.max(most, ++asked);
    };
    const done = () => {
      asked--;
    };
    monitored
      .on('connectionCheckOutStarted', checkingOut)
      .on('connectionCheckedIn', done)
      .on('connectionCheckOutFailed', done);
    try {
      const listed = await new WebsiteRepository(db).listByCustomer(organizationId, customerId);
      expect(listed.map((w) => w.id)).toContain(website.id);
    } finally {
      monitored
        .off('connectionCheckOutStarted', checkingOut)
        .off('connectionCheckedIn', done)
        .off('connectionCheckOutFailed', done);
      await counters.updateOne({ _id: `c${customerId}` }, { $set: { websiteIds: counter?.websiteIds } });
    }
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(16);
  });

  it("websites stored before the organization's list was kept are listed: the list is built at its first page, once", async () => {
    const list = db.collection(ID_LISTS);
    const headKey = `websites.organizationId/${organizationId}`;
    const head = await list.findOne({ _id: headKey as never });
    expect(head).not.toBe(null);
    // As after an upgrade: no list at all; the websites are there.
    await list.deleteMany({ _id: { $regex: `^websites\\.organizationId/${organizationId}(/|$)` } as never });
    const expected = (
      await db
        .collection('websites')
        .find({ organizationId }, { projection: { _id: 0, id: 1 } })
        .sort({ id: 1 })
        .toArray()
    ).map((w) => w.id as number);
    const websites = new WebsiteRepository(db);
    expect((await websites.listPage(organizationId, { limit: 100 })).map((w) => w.id)).toEqual(expected);
    // Built: the next page reads the list and the websites by primary key only.
    const sent = await findsOf(() => websites.listPage(organizationId, { limit: 100 }));
    for (const find of sent) expect(Object.keys(find.filter)).toEqual(['_id']);
    // Through the API too, with a website added since.
    const added = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Later', url: 'https://later.example.com/', checkInterval: 60 },
    });
    const listed = () => api.request<Array<{ id: number }>>('GET', '/api/websites?limit=100', { token });
    expect((await listed()).body.map((w) => w.id)).toEqual([...expected, added.body.id]);
    // …and one deleted leaves it.
    expect((await api.request('DELETE', `/api/websites/${added.body.publicId}`, { token })).status).toBe(204);
    expect((await listed()).body.map((w) => w.id)).toEqual(expected);
  });

  it('"not found" is answered from memory the second time, and what is created after is found at once', async () => {
    const websites = new WebsiteRepository(db);
    const unknown = randomUUID();
    expect(await websites.findByPublicId(unknown)).toBe(null);
    expect(await findsOf(() => websites.findByPublicId(unknown))).toEqual([]);
    const pages = new StatusPageRepository(db);
    const wanted = `soon-${randomUUID().slice(0, 8)}`;
    expect(await pages.findBySlug(wanted)).toBe(null);
    expect(await findsOf(() => pages.findBySlug(wanted))).toEqual([]);
    // The API runs in this process: its create clears the cache these repositories share.
    const created = await api.request('POST', '/api/status-pages', {
      token,
      body: { slug: wanted, title: 'Soon', customerId, public: true },
    });
    expect(created.status).toBe(201);
    expect((await pages.findBySlug(wanted))?.title).toBe('Soon');
    expect((await api.request('GET', `/status/${wanted}.json`)).status).toBe(200);
  });

  it('keeps "not found" for its ttl and its count at most, the least recently added going first', async () => {
    const names = new KeyLookup<{ _id: string; name: string }>(db, {
      collection: `absent-${randomUUID().slice(0, 8)}`,
      keyField: 'name',
      absentTtlMs: 300,
      absentMaxEntries: 2,
    });
    for (const name of ['a', 'b', 'c']) expect(await names.find(name)).toBe(null);
    expect(await findsOf(() => names.find('c'))).toEqual([]);
    expect(await findsOf(() => names.find('b'))).toEqual([]);
    // a went when c came; found absent again, it pushes out b (asked for last, but added before c).
    expect(await findsOf(() => names.find('a'))).toHaveLength(1);
    expect(await findsOf(() => names.find('c'))).toEqual([]);
    expect(await findsOf(() => names.find('b'))).toHaveLength(1);
    expect(await findsOf(() => names.find('a'))).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await findsOf(() => names.find('a'))).toHaveLength(1);
  });

  it('a slug answers only for the page that owns it now: renamed, then taken by another page', async () => {
    const pages = new StatusPageRepository(db);
    const old = `old-${randomUUID().slice(0, 8)}`;
    const created = await api.request<{ id: number }>('POST', '/api/status-pages', {
      token,
      body: { slug: old, title: 'First', customerId, public: true },
    });
    const renamed = `new-${randomUUID().slice(0, 8)}`;
    expect(
      (await api.request('PATCH', `/api/status-pages/${created.body.id}`, { token, body: { slug: renamed } }))
        .status,
    ).toBe(200);
    expect(await pages.findBySlug(old)).toBe(null);
    expect((await pages.findBySlug(renamed))?.id).toBe(created.body.id);
    const second = await api.request<{ id: number }>('POST', '/api/status-pages', {
      token,
      body: { slug: old, title: 'Second', customerId, public: true },
    });
    expect(second.status).toBe(201);
    expect((await pages.findBySlug(old))?.title).toBe('Second');
    const taken = await api.request('POST', '/api/status-pages', {
      token,
      body: { slug: renamed, title: 'Third', customerId, public: true },
    });
    expect(taken.status).toBe(409);
    expect((await api.request('DELETE', `/api/status-pages/${second.body.id}`, { token })).status).toBe(204);
    expect(await pages.findBySlug(old)).toBe(null);
  });

  it('two documents claiming one key at once: the one that stored it keeps the entry', async () => {
    const racers = db.collection<{ _id: string; name: string }>('racers');
    await racers.createIndex({ name: 1 }, { unique: true });
    const names = new KeyLookup<{ _id: string; name: string }>(db, {
      collection: 'racers',
      keyField: 'name',
    });
    const gate = () => {
      let open = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { open, opened };
    };
    // The winner holds its entry while its document is still to be written; the loser, finding
    // the entry's document without the key, takes the entry over, then fails to store its own.
    const winnerMayWrite = gate();
    const loserMayWrite = gate();
    const loserPointed = gate();
    const winner = names.claim('taken', 'winner', async () => {
      await winnerMayWrite.opened;
      await racers.insertOne({ _id: 'winner', name: 'taken' });
    });
    await until(
      async () =>
        (await db.collection(KEY_LOOKUPS).countDocuments({ _id: 'racers.name/taken' as never })) === 1,
      5_000,
    );
    const loser = names.claim('taken', 'loser', async () => {
      loserPointed.open();
      await loserMayWrite.opened;
      await racers.insertOne({ _id: 'loser', name: 'taken' });
    });
    await loserPointed.opened;
    winnerMayWrite.open();
    await winner;
    loserMayWrite.open();
    await expect(loser).rejects.toThrow();
    expect((await names.find('taken'))?._id).toBe('winner');
  });

  it("lookups (and customers' website lists) of documents stored before them are added at start, once, whatever was left", async () => {
    const entries = db.collection(KEY_LOOKUPS);
    // As an older version left the data: no entries at all, and one pointing at a document that is gone.
    await entries.deleteMany({});
    await entries.insertOne({ _id: `status_pages.slug/${slug}` as never, ref: 'gone' });
    await db.collection('website_counts').updateMany({}, { $unset: { websiteIds: '' } });
    await ensureIndexes(db, [websiteIndexes, statusPageIndexes, apiTokenIndexes]);
    const count = await entries.countDocuments({});
    await ensureIndexes(db, [websiteIndexes, statusPageIndexes, apiTokenIndexes]);
    expect(await entries.countDocuments({})).toBe(count);
    expect((await new WebsiteRepository(db).findByPublicId(website.publicId))?.id).toBe(website.id);
    expect((await new StatusPageRepository(db).findBySlug(slug))?.title).toBe('Shop status');
    expect(await db.collection('website_counts').countDocuments({ websiteIds: { $exists: false } })).toBe(0);
    expect(
      (await new WebsiteRepository(db).listByCustomer(organizationId, customerId)).map((w) => w.id),
    ).toEqual([website.id]);
    expect((await api.request('GET', '/api/websites', { token })).status).toBe(200);
  });
});
