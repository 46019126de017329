import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi, withServices } from './support/harness.js';

describe('maxWebsites from a per-customer counter', () => {
  let api: TestApi;
  let token: string;
  let packageId: number;
  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    await api.serveRegion('local');
    ({ token } = await api.createOrganization(['admin']));
    packageId = (await createPackage(api, token, { limits: { maxWebsites: 2, minCheckIntervalSeconds: 60 } }))
      .id;
  });
  afterAll(() => api.stop());

  const create = (customerId: number) =>
    api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'S', url: 'http://127.0.0.1:9/', checkInterval: 300 },
    });
  const counter = async (customerId: number) =>
    (
      await api.db
        .collection<{ _id: string; count: number }>('website_counts')
        .findOne({ _id: `c${customerId}` })
    )?.count;

  it('refuses the website past the limit, makes room on delete and on a move to another customer', async () => {
    const customer = await createCustomer(api, token, packageId, 'Limited');
    const first = await create(customer);
    expect((await create(customer)).status).toBe(201);
    const refused = await create(customer);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('maxWebsites');
    expect(await counter(customer)).toBe(2);

    await api.request('DELETE', `/api/websites/${first.body.publicId}`, { token });
    expect(await counter(customer)).toBe(1);
    const again = await create(customer);
    expect(again.status).toBe(201);

    const other = await createCustomer(api, token, packageId, 'Other');
    const moved = await api.request('PATCH', `/api/websites/${again.body.publicId}`, {
      token,
      body: { customerId: other },
    });
    expect(moved.status).toBe(200);
    expect(await counter(customer)).toBe(1);
    expect(await counter(other)).toBe(1);
    expect((await create(customer)).status).toBe(201);
  });

  it('a website write is judged by its package and customer as they are now (the API keeps copies of both)', async () => {
    const pkg = await createPackage(api, token, { limits: { maxWebsites: 2, minCheckIntervalSeconds: 60 } });
    const customer = await createCustomer(api, token, pkg.id, 'Judged');
    const website = await create(customer);
    const patch = (body: Record<string, unknown>) =>
      api.request<{ errors?: Array<{ path: string }> }>('PATCH', `/api/websites/${website.body.publicId}`, {
        token,
        body,
      });
    // Read once: the customer, its package and which package it is on are now known to the API.
    expect((await patch({ checkInterval: 120 })).status).toBe(200);
    const raised = await api.request('PATCH', `/api/packages/${pkg.id}`, {
      token,
      body: { limits: { minCheckIntervalSeconds: 180 } },
    });
    expect(raised.status).toBe(200);
    const refused = await patch({ checkInterval: 150 });
    expect(refused.status).toBe(403);
    expect(refused.body.errors?.map((error) => error.path)).toEqual(['checkInterval']);
    // The customer on another package: the package it was on is no longer the one judged by.
    const moved = await api.request('PATCH', `/api/customers/${customer}`, { token, body: { packageId } });
    expect(moved.status).toBe(200);
    expect((await patch({ checkInterval: 150 })).status).toBe(200);
  });

  it('a counter left off by an interrupted write is put right by the reconciler', async () => {
    const customer = await createCustomer(api, token, packageId, 'Drifted');
    expect((await create(customer)).status).toBe(201);
    expect((await create(customer)).status).toBe(201);
    // As if a create died between raising the counter and inserting, twice over, and one had been lost.
    await api.db
      .collection<{ _id: string }>('website_counts')
      .updateOne({ _id: `c${customer}` }, { $set: { count: 0 } });
    expect((await create(customer)).status).toBe(201);
    expect(await counter(customer)).toBe(1);

    const report = await withServices(api, (services) => services.reconciler.run());
    expect(report?.countsRepaired).toBeGreaterThanOrEqual(1);
    expect(await counter(customer)).toBe(3);
    expect((await create(customer)).status).toBe(403);
  });

  it('a counter lost while its customer has websites is counted again by the reconciler (a missing one reads as none)', async () => {
    const customer = await createCustomer(api, token, packageId, 'Lost');
    expect((await create(customer)).status).toBe(201);
    expect((await create(customer)).status).toBe(201);
    await api.db.collection<{ _id: string }>('website_counts').deleteOne({ _id: `c${customer}` });
    await withServices(api, (services) => services.reconciler.run());
    expect(await counter(customer)).toBe(2);
    expect((await create(customer)).status).toBe(403);
  });
});
