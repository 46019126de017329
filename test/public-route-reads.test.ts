import { randomUUID } from 'node:crypto';
import { Collection, type Document, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIndexes, ID_LISTS, KEY_LOOKUPS, NumberedLists } from '../libs/db/index.js';
import { createLogger } from '../libs/logging/index.js';
import { RollupRecorder, RollupRepository, WEBSITE_ROLLUPS } from '../libs/monitoring/index.js';
import { INCIDENT_LISTS } from '../libs/monitoring/monitor-state.repository.js';
import { ALL_INDEXES } from '../libs/services/index.js';
import { createCustomer, createPackage, TestApi, withServices } from './support/harness.js';
import { judgedByPrimaryKey } from './support/read-plan.js';

/**
 * Every MongoDB call the API makes while serving the public routes (badges, status pages),
 * `GET`/`PATCH /api/websites/{publicId}` and the pages of `GET /api/websites` reads by `_id` equality and writes with an `_id` equality
 * filter: on the embedded FerretDB 1.24 any other filter reads and parses every document of the
 * collection (shared by all organizations), so these routes would cost more with each website any
 * organization adds. The calls are recorded at the driver (`Collection.prototype`, a library's
 * methods, not ours): a new scanning read or write on these routes fails this test.
 */

interface Call {
  collection: string;
  method: string;
  /** The filter (reads and writes that have one), or the pipeline of an aggregate. */
  filter: Document | undefined;
}

const READS = ['find', 'findOne', 'countDocuments', 'distinct', 'aggregate', 'estimatedDocumentCount'];
const WRITES = [
  'updateOne',
  'updateMany',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
];
/** Writes with no filter: an insert claims its `_id` (a duplicate fails) and reads nothing. */
const INSERTS = ['insertOne', 'insertMany'];

/**
 * Calls that may read otherwise, and why. Each says which calls it lets through; nothing else may
 * scan.
 */
const ALLOWED: Array<{ collection: string; method?: string; why: string }> = [
  {
    collection: 'monitoring_nodes',
    why:
      'the fleet watcher reads the nodes heartbeating now (`lastHeartbeatAt: {$gte}`) every 5 s in' +
      ' the recorded process, as does a PATCH that may move the website (customer, pause, regions;' +
      ' not the rename here: test/lookup-cost.test.ts): a few nodes per region, bounded by the fleet' +
      ' and not by the websites.',
  },
  {
    collection: 'rollup_regions',
    method: 'find',
    why:
      'the regions that ever wrote rollups (one document each), read every few seconds: bounded by' +
      ' the fleet and not by the websites; the rollups themselves are read by `_id`.',
  },
];

const allowed = (call: Call) =>
  ALLOWED.some(
    (allow) => allow.collection === call.collection && (allow.method ?? call.method) === call.method,
  );

/** `{_id: <value>}` and nothing else, the value not an operator expression (`$in`, ranges). */
function isIdEquality(filter: Document | undefined): boolean {
  if (!filter || Object.keys(filter).length !== 1 || !('_id' in filter)) return false;
  const id = filter._id;
  if (id === null || typeof id !== 'object' || id instanceof ObjectId) return true;
  return !Object.keys(id).some((key) => key.startsWith('$'));
}

/** `_id` equality among the write's filter's fields (the rest is checked on the one document). */
function hasIdEquality(filter: Document | undefined): boolean {
  return filter !== undefined && '_id' in filter && isIdEquality({ _id: filter._id });
}

const recorded: Call[] = [];
let recording = false;
/** Set while a patched method runs: a driver method calling another (findOne → find) is one call. */
let inside = false;
const originals = new Map<string, (...args: unknown[]) => unknown>();

function patchDriver(): void {
  const prototype = Collection.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of [...READS, ...WRITES, ...INSERTS, 'bulkWrite']) {
    const original = prototype[method];
    if (!original) continue;
    originals.set(method, original);
    prototype[method] = function (this: Collection, ...args: unknown[]) {
      if (recording && !inside) {
        const first = args[0] as Document | undefined;
        if (method === 'bulkWrite') {
          for (const op of (first ?? []) as Document[]) {
            const [kind, spec] = Object.entries(op)[0] as [string, Document];
            recorded.push({ collection: this.collectionName, method: kind, filter: spec.filter });
          }
        } else {
          const filter = method === 'distinct' ? (args[1] as Document | undefined) : first;
          recorded.push({ collection: this.collectionName, method, filter });
        }
      }
      const outer = inside;
      inside = true;
      try {
        return original.apply(this, args);
      } finally {
        inside = outer;
      }
    };
  }
}

function unpatchDriver(): void {
  const prototype = Collection.prototype as unknown as Record<string, unknown>;
  for (const [method, original] of originals) prototype[method] = original;
}

describe('public routes and GET/PATCH /api/websites/{publicId} read and write by _id only', () => {
  let api: TestApi;
  let token: string;
  let website: { id: number; publicId: string };
  let pageId: number;
  let organizationId: number;
  let firstCustomer: number;
  const slug = `reads-${randomUUID().slice(0, 8)}`;

  async function callsOf(path: string, method = 'GET', body?: unknown): Promise<Call[]> {
    recorded.length = 0;
    recording = true;
    try {
      const response = await api.request(method, path, {
        token: path.startsWith('/api/') ? token : undefined,
        body,
      });
      // Unknown slugs and badges are not found; everything else is served.
      if (/\/(no-|[0-9a-f]{8}-)/.test(path) && !path.includes(website.publicId))
        expect(response.status, `${method} ${path}`).toBe(404);
      else expect(response.status, `${method} ${path}`).toBe(200);
    } finally {
      recording = false;
    }
    return [...recorded];
  }

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token } = await api.createOrganization());
    const pkg = await createPackage(api, token);
    const customers = [
      await createCustomer(api, token, pkg.id),
      await createCustomer(api, token, pkg.id),
      await createCustomer(api, token, pkg.id),
    ];
    const created: Array<{ id: number; publicId: string }> = [];
    for (const [n, customerId] of customers.entries())
      for (const name of ['Shop', 'Docs']) {
        const response = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
          token,
          body: {
            customerId,
            name,
            url: `https://${name.toLowerCase()}${n}.example.com/`,
            checkInterval: 60,
          },
        });
        expect(response.status).toBe(201);
        created.push(response.body);
      }
    website = created[0] as { id: number; publicId: string };
    const customerId = customers[0] as number;
    firstCustomer = customerId;
    for (const [title, isPublic] of [
      ['Private', false],
      ['Shop status', true],
    ] as const) {
      const page = await api.request<{ id: number }>('POST', '/api/status-pages', {
        token,
        body: { slug: isPublic ? slug : `${slug}-private`, title, customerId, public: isPublic },
      });
      expect(page.status).toBe(201);
      if (isPublic) pageId = page.body.id;
    }
    // A page and a window deleted: their ids may stay listed, and must not be looked for by a scan.
    const gone = await api.request<{ id: number }>('POST', '/api/status-pages', {
      token,
      body: { slug: `${slug}-gone`, title: 'Gone', customerId, public: true },
    });
    expect((await api.request('DELETE', `/api/status-pages/${gone.body.id}`, { token })).status).toBe(204);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const goneWindow = await api.request<{ id: number }>('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: website.id,
        title: 'Cancelled',
        startsAt: tomorrow.toISOString(),
        endsAt: new Date(tomorrow.getTime() + 3_600_000).toISOString(),
        timezone: 'UTC',
      },
    });
    expect(
      (await api.request('DELETE', `/api/maintenance-windows/${goneWindow.body.id}`, { token })).status,
    ).toBe(204);
    const window = await api.request('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: website.id,
        title: 'Upgrade',
        startsAt: tomorrow.toISOString(),
        endsAt: new Date(tomorrow.getTime() + 3_600_000).toISOString(),
        timezone: 'UTC',
      },
    });
    expect(window.status).toBe(201);
    await withServices(api, async (services) => {
      const hourAgo = Date.now() - 3_600_000;
      await services.states.insertIncident({
        id: randomUUID(),
        organizationId,
        websiteId: website.id,
        startedAt: new Date(hourAgo),
        resolvedAt: new Date(hourAgo + 600_000),
        cause: 'HTTP 503',
        regions: ['local'],
      });
      await services.states.insertIncident({
        id: randomUUID(),
        organizationId,
        websiteId: website.id,
        startedAt: new Date(hourAgo + 1_200_000),
        resolvedAt: null,
        cause: 'HTTP 503',
        regions: ['local'],
      });
    });
    // Rollups as a worker writes them, so building a page or badge reads them.
    const rollups = new RollupRecorder(new RollupRepository(api.db), {
      logger: createLogger('test', 'silent'),
      mongo: { available: true, onLost: () => () => undefined },
      flushEveryMs: 3_600_000,
    });
    for (const { id } of created)
      rollups.add({
        organizationId,
        websiteId: id,
        region: 'local',
        startedAt: new Date(),
        status: 'up',
        timings: { total: 120 },
      });
    await rollups.close();
    patchDriver();
  }, 60_000);
  afterAll(async () => {
    unpatchDriver();
    await api?.stop();
  });

  /** Fails with every call of `calls` that is neither by `_id` nor allowed. */
  async function expectByPrimaryKey(calls: Call[]): Promise<void> {
    const wrong: string[] = [];
    for (const call of calls) {
      if (allowed(call) || INSERTS.includes(call.method)) continue;
      const line = `${call.collection}.${call.method} ${JSON.stringify(call.filter)}`;
      if (READS.includes(call.method)) {
        if (!['find', 'findOne'].includes(call.method) || !isIdEquality(call.filter)) {
          wrong.push(line);
          continue;
        }
        const find = { find: call.collection, filter: call.filter };
        // The keeper adds SQLite's `_id` index to a new collection within seconds.
        const { byKey, plan } = await judgedByPrimaryKey(api.db, find);
        if (!byKey) wrong.push(`${line}: ${plan}`);
      } else if (!hasIdEquality(call.filter)) wrong.push(line);
    }
    expect(wrong).toEqual([]);
  }

  /** Makes the next read of the page build it anew (not served from the page cache). */
  const editPage = async () => {
    const title = `Shop status ${randomUUID().slice(0, 4)}`;
    expect(
      (await api.request('PATCH', `/api/status-pages/${pageId}`, { token, body: { title } })).status,
    ).toBe(200);
  };

  const routes: Array<[string, () => [string, string?, unknown?], (() => Promise<void>)?]> = [
    ['a badge', () => [`/badge/${website.publicId}/status.svg`]],
    ['an uptime badge over 90 days', () => [`/badge/${website.publicId}/uptime.svg?period=90d`]],
    ['a status page', () => [`/status/${slug}`], editPage],
    ['its JSON', () => [`/status/${slug}.json`], editPage],
    ['an unknown slug', () => [`/status/no-${randomUUID().slice(0, 8)}`]],
    ['an unknown badge', () => [`/badge/${randomUUID()}/status.svg`]],
    ['GET /api/websites/{publicId}', () => [`/api/websites/${website.publicId}`]],
    ["a website's incidents", () => [`/api/websites/${website.publicId}/incidents`]],
    ["the organization's incidents, and its resolved ones", () => ['/api/incidents?open=false']],
    ["the organization's incidents", () => ['/api/incidents']],
    // The app's lists: a page, the next one, one customer's, a search (its candidates from Redis).
    ["the organization's websites, a page", () => ['/api/websites?limit=100']],
    ['the next page', () => [`/api/websites?limit=2&afterId=${website.id}`]],
    ["one customer's websites", () => [`/api/websites?limit=100&customerId=${firstCustomer}`]],
    ['websites searched by name or URL', () => ['/api/websites?q=docs&status=unknown']],
    [
      'PATCH /api/websites/{publicId}',
      () => [`/api/websites/${website.publicId}`, 'PATCH', { name: `Shop ${randomUUID().slice(0, 4)}` }],
    ],
  ];

  it.each(routes)('%s: every read and write is by _id', async (_name, route, before) => {
    await before?.();
    const calls = await callsOf(...route());
    expect(calls.length).toBeGreaterThan(0);
    await expectByPrimaryKey(calls);
  });

  it("a page built anew reads its websites' rollups, each by _id; the settled ones once", async () => {
    await editPage();
    const rollupReads = async () =>
      (await callsOf(`/status/${slug}.json`)).filter((call) => call.collection === WEBSITE_ROLLUPS);
    const first = await rollupReads();
    expect(first.every((call) => isIdEquality(call.filter))).toBe(true);
    // Built again: each bucket still written to (today's hours, this month's days) is read again;
    // those settled (the earlier months' days, yesterday's hours after 00:20) come from memory.
    // Two websites of the customer; without that memory: 2 × (2 + 4) each time.
    await editPage();
    const again = await rollupReads();
    expect(again.length).toBeGreaterThanOrEqual(2 * 2);
    expect(again.length).toBeLessThanOrEqual(2 * 4);
    expect(again.every((call) => isIdEquality(call.filter))).toBe(true);
    const page = await api.request<{
      websites: Array<{ responseTimes?: Array<{ averageMs: number | null }> }>;
    }>('GET', `/status/${slug}.json`);
    expect(page.body.websites.some((w) => w.responseTimes?.some((hour) => hour.averageMs === 120))).toBe(
      true,
    );
  });

  it('PATCH reads the website from MongoDB once (under its lock), and a GET after it none', async () => {
    const websiteReads = (calls: Call[]) =>
      calls.filter((call) => call.collection === 'websites' && READS.includes(call.method));
    const name = `Shop ${randomUUID().slice(0, 4)}`;
    const patched = await callsOf(`/api/websites/${website.publicId}`, 'PATCH', { name });
    // The audit log's "before" (a GET) comes from memory, the publicId's place too.
    expect(websiteReads(patched)).toHaveLength(1);
    expect(websiteReads(await callsOf(`/api/websites/${website.publicId}`))).toHaveLength(0);
    const read = await api.request<{ name: string }>('GET', `/api/websites/${website.publicId}`, { token });
    expect(read.body.name).toBe(name);
  });

  it("a listed website not being checked (paused) has its state read from MongoDB once, then from Redis's hot copies", async () => {
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId: firstCustomer, name: 'Paused', url: 'https://paused.example.com/', paused: true },
    });
    expect(created.status).toBe(201);
    const stateReads = (calls: Call[]) =>
      calls.filter(
        (call) => call.collection === 'monitor_states' && call.filter?._id === String(created.body.id),
      );
    const page = `/api/websites?limit=1&afterId=${created.body.id - 1}`;
    expect(stateReads(await callsOf(page))).toHaveLength(1);
    expect(stateReads(await callsOf(page))).toHaveLength(0);
    const listed = await api.request<Array<{ id: number; status: string }>>('GET', page, { token });
    expect(listed.body).toMatchObject([{ id: created.body.id, status: 'paused' }]);
  });

  it('the routes answer what the data says (incident, maintenance, pages)', async () => {
    const json = await api.request<{ incidents: unknown[]; maintenance: unknown[] }>(
      'GET',
      `/status/${slug}.json`,
    );
    expect(json.status).toBe(200);
    expect(json.body.incidents.length).toBeGreaterThan(0);
    expect(json.body.maintenance.length).toBe(1);
    expect((await api.request('GET', `/badge/${website.publicId}/status.svg`)).status).toBe(200);
    const listed = await api.request<{ items: Array<{ resolvedAt: string | null }> }>(
      'GET',
      `/api/websites/${website.publicId}/incidents`,
      { token },
    );
    expect(listed.body.items.map((incident) => incident.resolvedAt === null)).toEqual([true, false]);
    const resolved = await api.request<{ items: unknown[] }>('GET', '/api/incidents?open=false', { token });
    expect(resolved.body.items).toHaveLength(1);
    expect(
      (await api.request<{ items: unknown[] }>('GET', '/api/incidents', { token })).body.items,
    ).toHaveLength(2);
  });

  it('what an older version stored (no lists, no markers) is listed at start, once, and read by _id after', async () => {
    const db = api.db;
    // As an older version left it: an incident under an ObjectId, no lists, no markers, no entries.
    const old = { id: randomUUID(), organizationId, websiteId: website.id, resolvedAt: null };
    await db.collection('incidents').insertOne({
      ...old,
      startedAt: new Date(Date.now() - 7_200_000),
      cause: 'timeout',
      regions: ['local'],
    });
    await db.collection(ID_LISTS).deleteMany({});
    await db.collection(INCIDENT_LISTS).deleteMany({});
    await db
      .collection(KEY_LOOKUPS)
      .deleteMany({ _id: { $regex: '^(~backfilled/(id_lists|incident_lists)|incidents\\.)' } as never });
    await ensureIndexes(db, ALL_INDEXES);
    const entries = await db.collection(INCIDENT_LISTS).countDocuments({});
    const lists = await db.collection(ID_LISTS).countDocuments({});
    await ensureIndexes(db, ALL_INDEXES);
    expect(await db.collection(INCIDENT_LISTS).countDocuments({})).toBe(entries);
    expect(await db.collection(ID_LISTS).countDocuments({})).toBe(lists);

    const listed = await api.request<{ items: Array<{ id: string }> }>(
      'GET',
      `/api/websites/${website.publicId}/incidents`,
      { token },
    );
    expect(listed.body.items).toHaveLength(3);
    expect(listed.body.items.at(-1)?.id).toBe(old.id);
    await editPage();
    const calls = await callsOf(`/status/${slug}.json`);
    await expectByPrimaryKey(calls);
    const page = await api.request<{ incidents: unknown[]; maintenance: unknown[] }>(
      'GET',
      `/status/${slug}.json`,
    );
    expect(page.body.incidents).toHaveLength(3);
    expect(page.body.maintenance).toHaveLength(1);
    await expectByPrimaryKey(await callsOf(`/badge/${website.publicId}/uptime.svg?period=7d`));
    // The old incident is resolved through its entry, by `_id`.
    await withServices(api, (services) =>
      services.states.resolveIncident(organizationId, old.id, new Date()),
    );
    expect((await db.collection('incidents').findOne({ id: old.id }))?.resolvedAt).toBeInstanceOf(Date);
  });

  it('a numbered list takes appends from writers at once: each entry once, under its own number, read newest first', async () => {
    const lists = new NumberedLists<{ value: number }>(api.db, 'numbered_test');
    const numbers = await Promise.all(
      Array.from({ length: 20 }, (_, value) => lists.append('racers', { value })),
    );
    expect(new Set(numbers).size).toBe(20);
    expect(Math.max(...numbers)).toBe(20);
    // A counter left behind (FerretDB's update is not atomic) is probed past.
    await api.db
      .collection<{ _id: string; n: number }>('numbered_test')
      .updateOne({ _id: 'racers/top' }, { $set: { n: 3 } });
    const read: number[] = [];
    for await (const entry of lists.newestFirst('racers')) read.push(entry.n);
    expect(read).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(await lists.append('racers', { value: 99 })).toBe(21);
  });

  it('a numbered list takes several entries in one insert; when another writer took a number, the rest go one by one', async () => {
    const lists = new NumberedLists<{ value: number }>(api.db, 'numbered_test');
    const other = new NumberedLists<{ value: number }>(api.db, 'numbered_test');
    await lists.appendMany('batched', [{ value: 1 }, { value: 2 }, { value: 3 }]);
    // Another process appended meanwhile (its number 4 is unknown to this one's hint).
    expect(await other.append('batched', { value: 40 })).toBe(4);
    await lists.appendMany('batched', [{ value: 5 }, { value: 6 }]);
    const read: Array<{ n: number; value: number }> = [];
    for await (const entry of lists.newestFirst('batched')) read.push({ n: entry.n, value: entry.value });
    expect(read.reverse()).toEqual([
      { n: 1, value: 1 },
      { n: 2, value: 2 },
      { n: 3, value: 3 },
      { n: 4, value: 40 },
      { n: 5, value: 5 },
      { n: 6, value: 6 },
    ]);
  });

  it('positive control: a scanning read on a route is caught', async () => {
    const scanning: Call = { collection: 'websites', method: 'find', filter: { publicId: website.publicId } };
    await expect(expectByPrimaryKey([scanning])).rejects.toThrow();
    const inList: Call = { collection: 'incidents', method: 'find', filter: { _id: { $in: ['a', 'b'] } } };
    await expect(expectByPrimaryKey([inList])).rejects.toThrow();
    const write: Call = {
      collection: 'customers',
      method: 'updateOne',
      filter: { organizationId: 1, id: 2 },
    };
    await expect(expectByPrimaryKey([write])).rejects.toThrow();
  });
});
