import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_LOOKUPS } from '../libs/db/index.js';
import { StatusPageRevisions } from '../libs/status-pages/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

/**
 * Two API processes on one MongoDB and one Redis (as behind a load balancer): a change made
 * through one shows at once on the other, whose cache held the page before.
 */
describe('status pages cached as bytes, invalidated on every API process at once', {
  timeout: 60_000,
}, () => {
  let one: TestApi;
  let two: TestApi;
  let token: string;
  let customerId: number;

  const createPage = async (api: TestApi, as: string, body: Record<string, unknown>) => {
    const created = await api.request<{ id: number }>('POST', '/api/status-pages', { token: as, body });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  const patch = (api: TestApi, id: number, body: Record<string, unknown>) =>
    api.request('PATCH', `/api/status-pages/${id}`, { token, body });
  const titleOn = async (api: TestApi, slug: string) => {
    const answer = await api.request<{ title: string }>('GET', `/status/${slug}.json`);
    return answer.status === 200 ? answer.body.title : answer.status;
  };
  /** Asked on both, so each process caches the page before the change. */
  const warm = async (slug: string) => [await titleOn(one, slug), await titleOn(two, slug)];

  beforeAll(async () => {
    // As deployed: pages built on each API's thread for them.
    one = await TestApi.start({ STATUS_PAGE_BUILD_THREAD: 'true' });
    two = await TestApi.start({
      MONGODB_URL: one.config.MONGODB_URL,
      REDIS_KEY_PREFIX: one.config.REDIS_KEY_PREFIX,
      STATUS_PAGE_BUILD_THREAD: 'true',
    });
    await one.serveRegion('local');
    ({ token } = await one.createOrganization(['admin']));
    const pkg = await createPackage(one, token);
    customerId = await createCustomer(one, token, pkg.id);
  });
  afterAll(async () => {
    await two?.stop();
    await one?.stop();
  });

  it('serves the same bytes with a strong ETag and answers 304 to If-None-Match', async () => {
    const slug = `etag-${randomUUID().slice(0, 8)}`;
    await createPage(one, token, { slug, title: 'Etag', customerId, public: true });
    for (const path of [`/status/${slug}`, `/status/${slug}.json`]) {
      const first = await one.request('GET', path);
      const again = await one.request('GET', path);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[\w-]+"$/);
      // Revalidated each time, so no browser or CDN shows it after an unpublish from a copy it kept.
      expect(first.headers.get('cache-control')).toBe('no-cache');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.body).toEqual(first.body);
      const notModified = await one.request('GET', path, { headers: { 'if-none-match': String(etag) } });
      expect(notModified.status).toBe(304);
      expect(notModified.body).toBe('');
      expect(notModified.headers.get('etag')).toBe(etag);
      expect(notModified.headers.get('cache-control')).toBe('no-cache');
      const stale = await one.request('GET', path, { headers: { 'if-none-match': '"not-this-one"' } });
      expect(stale.status).toBe(200);
    }
    // An edit is a new page: the old ETag no longer matches.
    const before = (await one.request('GET', `/status/${slug}.json`)).headers.get('etag');
    const id = (
      await one.request<Array<{ id: number; slug: string }>>('GET', '/api/status-pages', { token })
    ).body.find((page) => page.slug === slug)?.id;
    await patch(one, Number(id), { title: 'Etag, edited' });
    const after = await two.request('GET', `/status/${slug}.json`, {
      headers: { 'if-none-match': String(before) },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
  });

  it('unpublishing, editing and deleting on one process show on the other at once', async () => {
    const slug = `acme-${randomUUID().slice(0, 8)}`;
    // A customer of its own: a public page of another test would keep the badge served.
    const customerId = await createCustomer(one, token, (await createPackage(one, token)).id);
    const website = await one.request<{ publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Shop', url: 'https://shop.example.com/', paused: true },
    });
    const badgePath = `/badge/${website.body.publicId}/status.svg`;
    const id = await createPage(one, token, { slug, title: 'Acme', customerId, public: true });
    expect(await warm(slug)).toEqual(['Acme', 'Acme']);
    expect((await two.request('GET', badgePath)).status).toBe(200);

    expect((await patch(one, id, { title: 'Acme, renamed' })).status).toBe(200);
    expect(await titleOn(two, slug)).toBe('Acme, renamed');

    expect((await patch(one, id, { public: false })).status).toBe(200);
    expect(await titleOn(two, slug)).toBe(404);
    expect((await two.request('GET', `/status/${slug}`)).status).toBe(404);
    // Its websites' badges go with it.
    expect((await two.request('GET', badgePath)).status).toBe(404);

    expect((await patch(two, id, { public: true })).status).toBe(200);
    expect(await warm(slug)).toEqual(['Acme, renamed', 'Acme, renamed']);
    expect((await one.request('DELETE', `/api/status-pages/${id}`, { token })).status).toBe(204);
    expect(await titleOn(two, slug)).toBe(404);
    expect(await titleOn(one, slug)).toBe(404);
  });

  it('deleting a customer on one process takes its pages off the other at once', async () => {
    const slug = `gone-${randomUUID().slice(0, 8)}`;
    const doomed = await createCustomer(one, token, (await createPackage(one, token)).id);
    await createPage(one, token, { slug, title: 'Doomed', customerId: doomed, public: true });
    expect(await warm(slug)).toEqual(['Doomed', 'Doomed']);
    expect((await one.request('DELETE', `/api/customers/${doomed}`, { token })).status).toBe(204);
    expect(await titleOn(two, slug)).toBe(404);
    expect(await titleOn(one, slug)).toBe(404);
  });

  it('a page created through another process shows at once where its slug was just 404', async () => {
    const slug = `late-${randomUUID().slice(0, 8)}`;
    expect(await titleOn(two, slug)).toBe(404);
    // Both API servers here share this process's memory of slugs found absent, which another
    // process would not: the page is written as another API process writes it (entry, page, revision).
    const templateSlug = `template-${randomUUID().slice(0, 8)}`;
    const templateId = await createPage(one, token, {
      slug: templateSlug,
      title: 'Late',
      customerId,
      public: true,
    });
    const template = await one.db.collection('status_pages').findOne({ slug: templateSlug });
    const _id = new ObjectId();
    await one.db.collection(KEY_LOOKUPS).insertOne({ _id: `status_pages.slug/${slug}` as never, ref: _id });
    await one.db.collection('status_pages').insertOne({ ...template, _id, id: templateId + 100_000, slug });
    const redis = new Redis(one.config.REDIS_URL);
    try {
      await new StatusPageRevisions(redis, one.config.REDIS_KEY_PREFIX).changed({
        slugs: [slug],
        organizationId: Number(template?.organizationId),
        customerId,
      });
    } finally {
      redis.disconnect();
    }
    expect(await titleOn(two, slug)).toBe('Late');
  });

  it('a renamed slug 404s at once, and a freed slug taken by another organization shows its page', async () => {
    const slug = `shared-${randomUUID().slice(0, 8)}`;
    const renamed = `${slug}-new`;
    const id = await createPage(one, token, { slug, title: 'First owner', customerId, public: true });
    expect(await warm(slug)).toEqual(['First owner', 'First owner']);

    expect((await patch(one, id, { slug: renamed })).status).toBe(200);
    expect(await titleOn(two, slug)).toBe(404);
    expect(await titleOn(two, renamed)).toBe('First owner');
    expect(await titleOn(one, slug)).toBe(404);

    const other = await one.createOrganization(['admin']);
    const otherPackage = await createPackage(one, other.token);
    const otherCustomer = await createCustomer(one, other.token, otherPackage.id);
    await createPage(one, other.token, {
      slug,
      title: 'Second owner',
      customerId: otherCustomer,
      public: true,
    });
    // Both processes had just answered 404 for the slug; both show the new owner now.
    expect(await warm(slug)).toEqual(['Second owner', 'Second owner']);
    expect(String((await two.request('GET', `/status/${slug}`)).body)).toContain('Second owner');
  });

  it('a page built on one process is served by the other as built, and rebuilt once in the background when old', async () => {
    const slug = `shared-build-${randomUUID().slice(0, 8)}`;
    await createPage(one, token, { slug, title: 'Built once', customerId, public: true });
    const generatedOn = async (api: TestApi) =>
      (await api.request<{ generatedAt: string }>('GET', `/status/${slug}.json`)).body.generatedAt;
    const built = await generatedOn(one);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The other process never built it: it serves the first one's build, not one of its own.
    expect(await generatedOn(two)).toBe(built);
    const html = await two.request('GET', `/status/${slug}`, { headers: { 'accept-encoding': 'br' } });
    expect(html.status).toBe(200);
    expect(String(html.body)).toContain('Built once');

    // The shared build is made 40 s old: a process that has not held it yet serves it at once,
    // builds it anew in the background, and serves that from then on.
    const redis = new Redis(one.config.REDIS_URL);
    try {
      const key = `${one.config.REDIS_KEY_PREFIX}:status-page:${slug}`;
      const meta = JSON.parse(String(await redis.hget(key, 'meta')));
      const aged = Date.now() - 40_000;
      await redis.hset(key, 'meta', JSON.stringify({ ...meta, madeAt: aged }));
      const third = await TestApi.start({
        MONGODB_URL: one.config.MONGODB_URL,
        REDIS_KEY_PREFIX: one.config.REDIS_KEY_PREFIX,
        STATUS_PAGE_BUILD_THREAD: 'true',
      });
      try {
        expect(await generatedOn(third)).toBe(built);
        // The new process's build thread loads its code first: seconds on a busy machine.
        await expect.poll(() => generatedOn(third), { timeout: 20_000 }).not.toBe(built);
        const rebuilt = await generatedOn(third);
        expect(Date.parse(rebuilt)).toBeGreaterThan(Date.parse(built));
        // Shared in turn: the build the background made is the one Redis holds now.
        expect(JSON.parse(String(await redis.hget(key, 'meta'))).madeAt).toBe(Date.parse(rebuilt));
      } finally {
        await third.stop();
      }
    } finally {
      redis.disconnect();
    }
  });
});
