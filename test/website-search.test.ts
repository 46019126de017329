import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

interface Listed {
  id: number;
  publicId: string;
  name: string;
  customerId: number;
}

/** GET /api/websites?q=…: names and URLs searched through the Redis trigram index, then matched. */
describe('searching websites by name or URL', { timeout: 60_000 }, () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let shops: number;
  let blogs: number;
  const created: Listed[] = [];

  const search = async (query: string) => {
    const res = await api.request<Listed[]>('GET', `/api/websites?${query}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { names: res.body.map((w) => w.name), link: res.headers.get('link') };
  };
  const add = async (customerId: number, name: string, url: string) => {
    const res = await api.request<Listed>('POST', '/api/websites', {
      token,
      body: { customerId, name, url, checkInterval: 300, paused: true },
    });
    expect(res.status).toBe(201);
    created.push(res.body);
    return res.body;
  };

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token } = await api.createOrganization());
    const pkg = await createPackage(api, token);
    shops = await createCustomer(api, token, pkg.id, 'Shops');
    blogs = await createCustomer(api, token, pkg.id, 'Blogs');
    await add(shops, 'Acme Shop', 'https://shop.acme.test/');
    await add(shops, 'Zürich Bäckerei', 'https://baeckerei.example.test/');
    await add(blogs, 'Acme Blog', 'https://blog.acme.test/posts');
    await add(blogs, 'Travel notes', 'https://notes.example.test/');
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('finds a text in names and URLs, in any case, by id; not the scheme', async () => {
    expect((await search('q=ACME')).names).toEqual(['Acme Shop', 'Acme Blog']);
    expect((await search('q=example.test')).names).toEqual(['Zürich Bäckerei', 'Travel notes']);
    expect((await search('q=zürich')).names).toEqual(['Zürich Bäckerei']);
    expect((await search('q=%20blog.acme%20')).names).toEqual(['Acme Blog']);
    expect((await search('q=https')).names).toEqual([]);
    // Its runs of three are all there, the text is not: matched, not only indexed.
    expect((await search('q=shopacme')).names).toEqual([]);
  });

  it('narrows to a customer, pages with the Link header, and takes the status filter', async () => {
    expect((await search(`q=acme&customerId=${blogs}`)).names).toEqual(['Acme Blog']);
    const first = await search('q=acme&limit=1');
    expect(first.names).toEqual(['Acme Shop']);
    const next = /<([^>]+)>; rel="next"/.exec(first.link ?? '')?.[1];
    expect(next).toContain('q=acme');
    const second = await api.request<Listed[]>('GET', next as string, { token });
    expect(second.body.map((w) => w.name)).toEqual(['Acme Blog']);
    expect(second.headers.get('link')).toBe(null);
    expect((await search('q=acme&status=paused')).names).toEqual(['Acme Shop', 'Acme Blog']);
    expect((await search('q=acme&status=down')).names).toEqual([]);
  });

  it('follows renames and deletions at once', async () => {
    const notes = created.find((w) => w.name === 'Travel notes') as Listed;
    const renamed = await api.request('PATCH', `/api/websites/${notes.publicId}`, {
      token,
      body: { name: 'Acme travel' },
    });
    expect(renamed.status).toBe(200);
    expect((await search('q=acme')).names).toEqual(['Acme Shop', 'Acme Blog', 'Acme travel']);
    expect((await search('q=travel notes')).names).toEqual([]);
    const blog = created.find((w) => w.name === 'Acme Blog') as Listed;
    expect((await api.request('DELETE', `/api/websites/${blog.publicId}`, { token })).status).toBe(204);
    expect((await search('q=acme')).names).toEqual(['Acme Shop', 'Acme travel']);
  });

  it('indexes an organization again when Redis lost its index', async () => {
    const redis = new Redis(api.config.REDIS_URL);
    try {
      const keys = await redis.keys(`${api.config.REDIS_KEY_PREFIX}:search:o${organizationId}:*`);
      expect(keys.length).toBeGreaterThan(10);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    expect((await search('q=acme')).names).toEqual(['Acme Shop', 'Acme travel']);
    expect((await search('q=bäckerei')).names).toEqual(['Zürich Bäckerei']);
  });

  it('searches that find the index gone wait for one build, not one each', async () => {
    const large = await createPackage(api, token, { limits: { maxWebsites: 100 } });
    const herd = await createCustomer(api, token, large.id, 'Herd');
    const batch = await api.request('POST', '/api/websites/batch', {
      token,
      body: {
        items: Array.from({ length: 100 }, (_, i) => ({
          customerId: herd,
          name: `Herd ${i}`,
          url: `https://herd-${i}.example.test/`,
          paused: true,
        })),
      },
    });
    expect(batch.status, JSON.stringify(batch.body).slice(0, 300)).toBe(200);
    const redis = new Redis(api.config.REDIS_URL);
    // SADDs Redis ran (the index's writes): other test files (two run at once) add some meanwhile, a build thousands.
    const sadds = async () =>
      Number(/cmdstat_sadd:calls=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);
    const dropIndex = async () => {
      const keys = await redis.keys(`${api.config.REDIS_KEY_PREFIX}:search:o${organizationId}:*`);
      if (keys.length > 0) await redis.del(...keys);
    };
    try {
      await dropIndex();
      let before = await sadds();
      expect((await search('q=herd-42.')).names).toEqual(['Herd 42']);
      const oneBuild = (await sadds()) - before;
      expect(oneBuild).toBeGreaterThan(1000);
      await dropIndex();
      before = await sadds();
      const answers = await Promise.all(Array.from({ length: 20 }, () => search('q=herd-7.')));
      expect(answers.map((answer) => answer.names)).toEqual(Array(20).fill(['Herd 7']));
      // One build each would be 20 builds; the margin is for other test files writing meanwhile.
      expect((await sadds()) - before).toBeLessThan(oneBuild * 5);
    } finally {
      redis.disconnect();
    }
  });

  it('refuses a text under 3 characters or over 100, naming q', async () => {
    for (const q of ['ab', '%20%20ab%20', 'x'.repeat(101)]) {
      const res = await api.request<{ errors: Array<{ path: string }> }>('GET', `/api/websites?q=${q}`, {
        token,
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e) => e.path)).toContain('q');
    }
  });
});
