import { randomUUID } from 'node:crypto';
import { type CommandStartedEvent, type Db, type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_LOOKUPS } from '../libs/db/index.js';
import {
  StatusPageRepository,
  type StatusPageRevisions,
  StatusPageService,
} from '../libs/status-pages/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

const STATUS_PAGES = 'status_pages';

/**
 * A status page's `key_lookups` entries (`status_pages.slug/<slug>`, `status_pages.id/<id>`) go
 * with it, and deleting one reads it once, by primary key (on FerretDB 1.24 any filter but an
 * exact `_id` scans the collection).
 */
describe('status pages: deletes read by primary key and leave no lookup entries', () => {
  let api: TestApi;
  let monitored: MongoClient;
  let db: Db;
  let token: string;
  let organizationId: number;
  let packageId: number;
  const finds: Document[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token } = await api.createOrganization());
    packageId = (await createPackage(api, token)).id;
    monitored = new MongoClient(api.config.MONGODB_URL, { monitorCommands: true });
    monitored.on('commandStarted', (event: CommandStartedEvent) => {
      if (event.commandName === 'find') finds.push(event.command);
    });
    await monitored.connect();
    db = monitored.db();
  });
  afterAll(async () => {
    await monitored?.close();
    await api?.stop();
  });

  async function createPage(customerId: number): Promise<{ id: number; slug: string }> {
    const slug = `keys-${randomUUID().slice(0, 8)}`;
    const created = await api.request<{ id: number; slug: string }>('POST', '/api/status-pages', {
      token,
      body: { slug, title: 'Status', customerId, public: true },
    });
    expect(created.status).toBe(201);
    return created.body;
  }

  const entriesOf = async (pages: Array<{ id: number; slug: string }>) =>
    (
      await db
        .collection<{ _id: string }>(KEY_LOOKUPS)
        .find({
          _id: {
            $in: pages.flatMap((page) => [
              `${STATUS_PAGES}.id/${page.id}`,
              `${STATUS_PAGES}.slug/${page.slug}`,
            ]),
          },
        })
        .toArray()
    ).map((entry) => entry._id);

  it('a customer deleted takes its pages’ slug and id entries with them', async () => {
    const customerId = await createCustomer(api, token, packageId);
    const pages = [await createPage(customerId), await createPage(customerId)];
    const kept = await createPage(await createCustomer(api, token, packageId));
    expect(await entriesOf(pages)).toHaveLength(4);
    expect((await api.request('DELETE', `/api/customers/${customerId}`, { token })).status).toBe(204);
    expect(await db.collection(STATUS_PAGES).countDocuments({ id: { $in: pages.map((p) => p.id) } })).toBe(0);
    expect(await entriesOf(pages)).toEqual([]);
    expect(await entriesOf([kept])).toHaveLength(2);
    expect((await api.request('GET', `/api/status-pages/${kept.id}`, { token })).status).toBe(200);
  });

  it('a page deleted is read once, by _id; another organization’s id deletes nothing', async () => {
    const customerId = await createCustomer(api, token, packageId);
    const page = await createPage(customerId);
    const changed: unknown[] = [];
    const service = new StatusPageService({
      pages: new StatusPageRepository(db),
      owners: { customerExists: async () => true, websiteIdsOf: async () => [] },
      mutex: {} as never,
      revisions: {
        changed: async (change: unknown) => changed.push(change),
      } as unknown as StatusPageRevisions,
    });

    finds.length = 0;
    await expect(service.delete(organizationId + 1_000_000, page.id)).rejects.toMatchObject({
      kind: 'not-found',
    });
    expect(await entriesOf([page])).toHaveLength(2);
    expect((await api.request('GET', `/api/status-pages/${page.id}`, { token })).status).toBe(200);

    finds.length = 0;
    await service.delete(organizationId, page.id);
    const pageReads = finds.filter((find) => find.find === STATUS_PAGES);
    expect(pageReads).toHaveLength(1);
    for (const find of finds) {
      expect(Object.keys(find.filter as Document)).toEqual(['_id']);
    }
    expect(changed).toEqual([{ slugs: [page.slug, page.slug], organizationId, customerId }]);
    expect(await entriesOf([page])).toEqual([]);
    expect((await api.request('GET', `/api/status-pages/${page.id}`, { token })).status).toBe(404);
    expect((await api.request('GET', `/status/${page.slug}.json`)).status).toBe(404);
  });
});
