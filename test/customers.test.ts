import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOfUtcMonth } from '../libs/customers/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

describe('customers', () => {
  let api: TestApi;
  let organizationId: number;
  let token: string;
  let pkg: { id: number; key: string };

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token } = await api.createOrganization(['admin']));
    pkg = await createPackage(api, token, { key: 'starter', displayName: 'Starter Care' });
  });
  afterAll(() => api.stop());

  it('POST /api/v1/customers {name, plan} → 201 {id: string, status: "active"}', async () => {
    const res = await api.request('POST', '/api/v1/customers', {
      token,
      body: { name: 'Acme GmbH', plan: 'starter' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9]+$/), status: 'active' });
    expect(res.headers.get('location')).toBe(`/api/customers/${res.body.id}`);
  });

  it('an unknown plan is a 400 naming plan and the known plans', async () => {
    const res = await api.request<{ errors: Array<{ path: string; message: string }> }>(
      'POST',
      '/api/v1/customers',
      {
        token,
        body: { name: 'X', plan: 'platinum' },
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ path: 'plan', message: expect.stringContaining('starter') });
  });

  it('GET /api/customers?organizationId= lists exactly the seed’s fields', async () => {
    await api.request('POST', '/api/v1/customers', {
      token,
      body: { name: 'With email', plan: 'starter', email: 'a@example.com' },
    });
    const withNotification = await api.request<{ id: number }>('POST', '/api/customers', {
      token,
      body: {
        name: 'Notified',
        packageId: pkg.id,
        email: 'b@example.com',
        notificationEmail: 'alerts@example.com',
      },
    });
    const res = await api.request<Array<Record<string, unknown>>>(
      'GET',
      `/api/customers?organizationId=${organizationId}`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const plain = res.body.find((c) => c.name === 'With email')!;
    expect(Object.keys(plain).sort()).toEqual(
      [
        'id',
        'organizationId',
        'name',
        'email',
        'packageId',
        'packageDisplayName',
        'status',
        'cancellationDate',
        'createdAt',
      ].sort(),
    );
    expect(plain).toMatchObject({
      id: expect.any(Number),
      organizationId,
      email: 'a@example.com',
      packageId: pkg.id,
      packageDisplayName: 'Starter Care',
      status: 'active',
      cancellationDate: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(plain).not.toHaveProperty('notificationEmail');
    expect(plain).not.toHaveProperty('packageType');
    expect(plain).not.toHaveProperty('plan');
    expect(res.body.find((c) => c.id === withNotification.body.id)).toMatchObject({
      notificationEmail: 'alerts@example.com',
    });
  });

  it('organizationId is required, and a foreign one is 403', async () => {
    expect((await api.request('GET', '/api/customers', { token })).status).toBe(400);
    expect((await api.request('GET', '/api/customers?organizationId=abc', { token })).status).toBe(400);
    expect(
      (await api.request('GET', `/api/customers?organizationId=${organizationId + 1000}`, { token })).status,
    ).toBe(403);
  });

  it('validates bodies: email, unknown fields, unknown package', async () => {
    const res = await api.request<{ errors: Array<{ path: string }> }>('POST', '/api/customers', {
      token,
      body: { name: 'X', packageId: pkg.id, email: 'not-an-email', color: 'blue' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e) => e.path).sort()).toEqual(['color', 'email']);
    const unknown = await api.request<{ errors: Array<{ path: string }> }>('POST', '/api/customers', {
      token,
      body: { name: 'X', packageId: 999_999 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]?.path).toBe('packageId');
  });

  it('PATCH changes details; null clears notificationEmail', async () => {
    const id = await createCustomer(api, token, pkg.id);
    const res = await api.request('PATCH', `/api/customers/${id}`, {
      token,
      body: { name: 'Renamed', notificationEmail: 'n@example.com' },
    });
    expect(res.body).toMatchObject({ name: 'Renamed', notificationEmail: 'n@example.com' });
    const cleared = await api.request('PATCH', `/api/customers/${id}`, {
      token,
      body: { notificationEmail: null },
    });
    expect(cleared.body).not.toHaveProperty('notificationEmail');
  });

  it('status: active → marked (end of month by default) → active; other transitions 409', async () => {
    const id = await createCustomer(api, token, pkg.id);
    const marked = await api.request('PATCH', `/api/customers/${id}`, {
      token,
      body: { status: 'marked_for_cancellation' },
    });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({
      status: 'marked_for_cancellation',
      cancellationDate: endOfUtcMonth(new Date()).toISOString(),
    });
    expect(
      (await api.request('PATCH', `/api/customers/${id}`, { token, body: { status: 'cancelled' } })).status,
    ).toBe(409);
    const back = await api.request('PATCH', `/api/customers/${id}`, { token, body: { status: 'active' } });
    expect(back.body).toMatchObject({ status: 'active', cancellationDate: null });
    expect(
      (await api.request('PATCH', `/api/customers/${id}`, { token, body: { status: 'cancelled' } })).status,
    ).toBe(409);
  });

  it('a cancellation date must be in the future and belongs to a marked customer', async () => {
    const id = await createCustomer(api, token, pkg.id);
    const past = await api.request<{ errors: Array<{ path: string }> }>('PATCH', `/api/customers/${id}`, {
      token,
      body: { status: 'marked_for_cancellation', cancellationDate: '2020-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(400);
    expect(past.body.errors[0]?.path).toBe('cancellationDate');
    const activeWithDate = await api.request('PATCH', `/api/customers/${id}`, {
      token,
      body: { cancellationDate: '2099-01-01T00:00:00Z' },
    });
    expect(activeWithDate.status).toBe(400);
    expect(
      (await api.request('PATCH', `/api/customers/${id}`, { token, body: { cancellationDate: 'soon' } }))
        .status,
    ).toBe(400);
  });

  it('marking plans a delayed cancellation job at the date; reactivating removes it', async () => {
    const id = await createCustomer(api, token, pkg.id);
    const date = new Date(Date.now() + 3_600_000).toISOString();
    await api.request('PATCH', `/api/customers/${id}`, {
      token,
      body: { status: 'marked_for_cancellation', cancellationDate: date },
    });
    const redis = new Redis(api.config.REDIS_URL);
    const queue = new Queue('customer-lifecycle', { connection: redis, prefix: api.config.REDIS_KEY_PREFIX });
    try {
      const job = await queue.getJob(`cancel-${id}`);
      expect(job?.data).toEqual({ organizationId, customerId: id, cancellationDate: date });
      expect(await job?.isDelayed()).toBe(true);
      expect((job?.opts.delay ?? 0) / 1000).toBeGreaterThan(3500);

      const later = new Date(Date.now() + 7_200_000).toISOString();
      await api.request('PATCH', `/api/customers/${id}`, { token, body: { cancellationDate: later } });
      expect((await queue.getJob(`cancel-${id}`))?.data.cancellationDate).toBe(later);

      await api.request('PATCH', `/api/customers/${id}`, { token, body: { status: 'active' } });
      expect(await queue.getJob(`cancel-${id}`)).toBeUndefined();
    } finally {
      await queue.close();
      redis.disconnect();
    }
  });

  it('tenant isolation: 404 for another organization’s customer', async () => {
    const id = await createCustomer(api, token, pkg.id);
    const other = await api.createOrganization(['admin']);
    expect((await api.request('GET', `/api/customers/${id}`, { token: other.token })).status).toBe(404);
    expect(
      (await api.request('PATCH', `/api/customers/${id}`, { token: other.token, body: { name: 'x' } }))
        .status,
    ).toBe(404);
    expect((await api.request('DELETE', `/api/customers/${id}`, { token: other.token })).status).toBe(404);
    // The other organization cannot use this organization's package either.
    const foreign = await api.request('POST', '/api/customers', {
      token: other.token,
      body: { name: 'x', packageId: pkg.id },
    });
    expect(foreign.status).toBe(400);
    expect(
      (
        await api.request('POST', '/api/v1/customers', {
          token: other.token,
          body: { name: 'x', plan: 'starter' },
        })
      ).status,
    ).toBe(400);
  });

  it('read tokens can only GET', async () => {
    const reader = await api.createToken(organizationId, ['read']);
    expect(
      (await api.request('GET', `/api/customers?organizationId=${organizationId}`, { token: reader })).status,
    ).toBe(200);
    expect(
      (
        await api.request('POST', '/api/v1/customers', {
          token: reader,
          body: { name: 'x', plan: 'starter' },
        })
      ).status,
    ).toBe(403);
  });
});
