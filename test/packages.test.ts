import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, scheduledInterval, TestApi } from './support/harness.js';

describe('packages', () => {
  let api: TestApi;
  let admin: string;
  let reader: string;

  beforeAll(async () => {
    api = await TestApi.start();
    // A serving region: websites are scheduled only where a monitoring node is active.
    await api.serveRegion('local');
    const org = await api.createOrganization(['admin']);
    admin = org.token;
    reader = await api.createToken(org.organizationId, ['write']);
  });
  afterAll(() => api.stop());

  it('creates with defaults for everything omitted', async () => {
    const res = await api.request<Record<string, unknown>>('POST', '/api/packages', {
      token: admin,
      body: { key: 'starter', displayName: 'Starter', limits: { maxWebsites: 5 } },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/packages/${res.body.id}`);
    expect(res.body).toMatchObject({
      key: 'starter',
      displayName: 'Starter',
      features: { sslCheck: true, keywordCheck: true, mtls: true, multiRegion: true },
      limits: { maxWebsites: 5, minCheckIntervalSeconds: 60, resultRetentionDays: 30 },
      alerting: {
        confirmations: 2,
        recoveryConfirmations: 1,
        responseTimeThresholdMs: 5000,
        sslExpiryWarningDays: 14,
        domainExpiryWarningDays: 30,
        reminderIntervalMinutes: 0,
        regionQuorum: 1,
      },
    });
  });

  it('a package stored before a feature existed shows it included, and PATCH keeps working', async () => {
    const created = await api.request<{ id: number }>('POST', '/api/packages', {
      token: admin,
      body: { key: 'older', displayName: 'Older', features: { keywordCheck: false } },
    });
    // As an older version stored it: no word on `assertions`.
    await api.db
      .collection('packages')
      .updateOne({ id: created.body.id } as never, { $unset: { 'features.assertions': '' } });
    const listed = await api.request<Array<{ id: number; features: Record<string, boolean> }>>(
      'GET',
      '/api/packages',
      { token: admin },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.find((p) => p.id === created.body.id)?.features).toMatchObject({
      assertions: true,
      keywordCheck: false,
    });
    const patched = await api.request<{ features: Record<string, boolean> }>(
      'PATCH',
      `/api/packages/${created.body.id}`,
      { token: admin, body: { displayName: 'Older, renamed' } },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.features.assertions).toBe(true);
  });

  it('refuses a second package with the same key (409)', async () => {
    await createPackage(api, admin, { key: 'agency' });
    const res = await api.request('POST', '/api/packages', {
      token: admin,
      body: { key: 'agency', displayName: 'Again' },
    });
    expect(res.status).toBe(409);
  });

  it('validates fields, nested ones by path', async () => {
    const res = await api.request<{ errors: Array<{ path: string }> }>('POST', '/api/packages', {
      token: admin,
      body: {
        key: 'Bad Key',
        displayName: '',
        features: { teleport: true },
        limits: { maxWebsites: -1 },
        alerting: { confirmations: 0 },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        'key',
        'displayName',
        'features.teleport',
        'limits.maxWebsites',
        'alerting.confirmations',
      ]),
    );
  });

  it('PATCH merges nested objects and keeps the rest', async () => {
    const pkg = await createPackage(api, admin, { alerting: { confirmations: 3 } });
    const res = await api.request<Record<string, Record<string, unknown>>>(
      'PATCH',
      `/api/packages/${pkg.id}`,
      {
        token: admin,
        body: { features: { keywordCheck: false }, alerting: { regionQuorum: 2 } },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.features).toMatchObject({ keywordCheck: false, sslCheck: true });
    expect(res.body.alerting).toMatchObject({ confirmations: 3, regionQuorum: 2 });
    expect((await api.request('PATCH', `/api/packages/${pkg.id}`, { token: admin, body: {} })).status).toBe(
      400,
    );
  });

  it('raising the minimum interval reschedules the package’s websites at the new minimum', async () => {
    const pkg = await createPackage(api, admin, { limits: { minCheckIntervalSeconds: 60 } });
    const customerId = await createCustomer(api, admin, pkg.id);
    const website = await api.request<{ id: number }>('POST', '/api/websites', {
      token: admin,
      body: { customerId, name: 'W', url: 'https://w.example.com/', checkInterval: 120 },
    });
    expect(await scheduledInterval(api, website.body.id)).toBe(120_000);
    await api.request('PATCH', `/api/packages/${pkg.id}`, {
      token: admin,
      body: { limits: { minCheckIntervalSeconds: 600 } },
    });
    expect(await scheduledInterval(api, website.body.id)).toBe(600_000);
    await api.request('PATCH', `/api/packages/${pkg.id}`, {
      token: admin,
      body: { limits: { minCheckIntervalSeconds: 60 } },
    });
    expect(await scheduledInterval(api, website.body.id)).toBe(120_000);
  });

  it('needs an admin token to write; a write token reads (the read scope does)', async () => {
    expect((await api.request('GET', '/api/packages', { token: reader })).status).toBe(200);
    expect(
      (await api.request('POST', '/api/packages', { token: reader, body: { key: 'x', displayName: 'X' } }))
        .status,
    ).toBe(403);
  });

  it('cannot delete a package a customer is on (409), can once it is free', async () => {
    const pkg = await createPackage(api, admin);
    const customerId = await createCustomer(api, admin, pkg.id);
    expect((await api.request('DELETE', `/api/packages/${pkg.id}`, { token: admin })).status).toBe(409);
    expect((await api.request('DELETE', `/api/customers/${customerId}`, { token: admin })).status).toBe(204);
    expect((await api.request('DELETE', `/api/packages/${pkg.id}`, { token: admin })).status).toBe(204);
    expect((await api.request('GET', `/api/packages/${pkg.id}`, { token: admin })).status).toBe(404);
  });

  it('never shows another organization’s packages', async () => {
    const pkg = await createPackage(api, admin);
    const other = await api.createOrganization(['admin']);
    expect((await api.request('GET', `/api/packages/${pkg.id}`, { token: other.token })).status).toBe(404);
    expect(
      (
        await api.request('PATCH', `/api/packages/${pkg.id}`, {
          token: other.token,
          body: { displayName: 'x' },
        })
      ).status,
    ).toBe(404);
    expect((await api.request('DELETE', `/api/packages/${pkg.id}`, { token: other.token })).status).toBe(404);
    expect((await api.request<unknown[]>('GET', '/api/packages', { token: other.token })).body).toEqual([]);
  });
});
