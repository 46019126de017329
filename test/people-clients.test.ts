import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createOrganizationId, createUser, signIn, withCookie } from './support/people.js';

describe("people: a client user sees only its customer's websites and status pages", () => {
  let api: TestApi;
  let token: string;
  type Owned = { customerId: number; websiteId: number; publicId: string; pageId: number };
  let ours: Owned;
  let theirs: Owned;
  let client: string;

  const customerWithWebsite = async (packageId: number, name: string) => {
    const customerId = await createCustomer(api, token, packageId, name);
    const website = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: {
        customerId,
        name: `${name} shop`,
        url: `https://${name.toLowerCase()}.example.com/`,
        paused: true,
      },
    });
    expect(website.status).toBe(201);
    const page = await api.request<{ id: number }>('POST', '/api/status-pages', {
      token,
      body: { slug: `${name.toLowerCase()}-status`, title: `${name} status`, customerId },
    });
    expect(page.status).toBe(201);
    return { customerId, websiteId: website.body.id, publicId: website.body.publicId, pageId: page.body.id };
  };

  beforeAll(async () => {
    api = await TestApi.start();
    const organizationId = await createOrganizationId(api);
    token = await api.createToken(organizationId, ['admin']);
    const pkg = await createPackage(api, token);
    ours = await customerWithWebsite(pkg.id, 'Ours');
    theirs = await customerWithWebsite(pkg.id, 'Theirs');
    client = await signIn(api, (await createUser(api, organizationId, 'client', ours.customerId)).email);
  });
  afterAll(() => api.stop());

  const get = (path: string) => withCookie<unknown>(api, client, 'GET', path);

  it.each(['/api/websites', '/api/websites/summaries'])(
    "lists its customer's websites only (%s); another customer's list is 404",
    async (list) => {
      const listed = await withCookie<Array<{ id: number }>>(api, client, 'GET', list);
      expect(listed.status).toBe(200);
      expect(listed.body.map((w) => w.id)).toEqual([ours.websiteId]);
      expect((await get(`${list}?customerId=${ours.customerId}`)).status).toBe(200);
      expect((await get(`${list}?customerId=${theirs.customerId}`)).status).toBe(404);
      // The organization's token still sees both.
      const all = await api.request<unknown[]>('GET', list, { token });
      expect(all.body).toHaveLength(2);
    },
  );

  it.each(['', '/check-config', '/status', '/results', '/uptime', '/incidents'])(
    "reads its own website%s (by id and publicId); another customer's is 404 as if unknown",
    async (suffix) => {
      expect((await get(`/api/websites/${ours.websiteId}${suffix}`)).status).toBe(200);
      expect((await get(`/api/websites/${ours.publicId}${suffix}`)).status).toBe(200);
      const other = await get(`/api/websites/${theirs.websiteId}${suffix}`);
      expect(other.status).toBe(404);
      expect(other.body).toMatchObject({ type: '/problems/not-found' });
      expect((await get(`/api/websites/${theirs.publicId}${suffix}`)).status).toBe(404);
      expect((await get(`/api/websites/999999${suffix}`)).status).toBe(404);
    },
  );

  it('lists and reads its own status pages, not another customer’s', async () => {
    const listed = await withCookie<Array<{ id: number }>>(api, client, 'GET', '/api/status-pages');
    expect(listed.status).toBe(200);
    expect(listed.body.map((page) => page.id)).toEqual([ours.pageId]);
    expect((await get(`/api/status-pages?customerId=${theirs.customerId}`)).status).toBe(404);
    expect((await get(`/api/status-pages/${ours.pageId}`)).status).toBe(200);
    expect((await get(`/api/status-pages/${theirs.pageId}`)).status).toBe(404);
    expect((await get('/api/status-pages/999999')).status).toBe(404);
  });

  it('reads its own customer, not another', async () => {
    expect((await get(`/api/customers/${ours.customerId}`)).status).toBe(200);
    expect((await get(`/api/customers/${theirs.customerId}`)).status).toBe(404);
  });

  it('every route not yet narrowed to its customer answers 404; every write 403', async () => {
    for (const path of [
      '/api/incidents?open=true',
      '/api/maintenance-windows?websiteId=1',
      '/api/notification-channels',
      '/api/users',
    ])
      expect([path, (await get(path)).status]).toEqual([path, path === '/api/users' ? 403 : 404]);
    const writes = [
      ['PATCH', `/api/websites/${ours.publicId}`, { name: 'Renamed' }],
      ['DELETE', `/api/websites/${ours.publicId}`, undefined],
      ['POST', '/api/websites', { customerId: ours.customerId, name: 'x', url: 'https://x.example.com/' }],
    ] as const;
    for (const [method, path, body] of writes)
      expect([method, path, (await withCookie(api, client, method, path, { body })).status]).toEqual([
        method,
        path,
        403,
      ]);
    const website = await api.request<{ name: string }>('GET', `/api/websites/${ours.websiteId}`, { token });
    expect(website.body.name).toBe('Ours shop');
  });
});
