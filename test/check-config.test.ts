import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

type Problem = { errors?: Array<{ path: string; message: string }>; detail: string };

describe('check configuration', () => {
  let api: TestApi;
  let token: string;
  let customerId: number;
  let limitedCustomerId: number;

  const website = async (url = 'https://site.example.com/', customer = customerId) =>
    (
      await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token,
        body: { customerId: customer, name: 'S', url },
      })
    ).body;
  const patch = (ref: string | number, body: unknown) =>
    api.request<Record<string, unknown> & Problem>('PATCH', `/api/websites/${ref}/check-config`, {
      token,
      body,
    });

  beforeAll(async () => {
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['admin']));
    customerId = await createCustomer(
      api,
      token,
      (await createPackage(api, token, { alerting: { responseTimeThresholdMs: 2500 } })).id,
    );
    const limited = await createPackage(api, token, {
      features: { keywordCheck: false, domainExpiryCheck: false, sslCheck: false },
    });
    limitedCustomerId = await createCustomer(api, token, limited.id);
  });
  afterAll(() => api.stop());

  it('a new https website checks status, SSL and response time; the rest is off', async () => {
    const site = await website();
    const res = await api.request('GET', `/api/websites/${site.id}/check-config`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      websiteId: site.id,
      checkSslEnabled: true,
      checkHttpsRedirectEnabled: false,
      checkStatusEnabled: true,
      checkSizeEnabled: false,
      checkResponseTimeEnabled: true,
      checkKeywordEnabled: false,
      checkDomainExpiryEnabled: false,
      minPageSize: null,
      maxPageSize: null,
      expectedStatusCodes: ['200-399'],
      responseTimeThresholdMs: 2500,
      keyword: null,
      keywordMode: 'present',
      keywordCaseSensitive: false,
      assertions: [],
    });
    expect((await api.request('GET', `/api/websites/${site.publicId}/check-config`, { token })).status).toBe(
      200,
    );
  });

  it('a plain http website does not check SSL by default, nor anything its package lacks', async () => {
    const site = await website('http://site.example.com/');
    expect((await api.request('GET', `/api/websites/${site.id}/check-config`, { token })).body).toMatchObject(
      { checkSslEnabled: false },
    );
    const limited = await website('https://limited.example.com/', limitedCustomerId);
    expect(
      (await api.request('GET', `/api/websites/${limited.id}/check-config`, { token })).body,
    ).toMatchObject({
      checkSslEnabled: false,
      checkStatusEnabled: true,
    });
  });

  it('PATCH merges the fields sent and returns the whole configuration', async () => {
    const site = await website();
    const res = await patch(site.id, {
      checkKeywordEnabled: true,
      keyword: 'Welcome',
      checkSizeEnabled: true,
      minPageSize: 1000,
      maxPageSize: 500_000,
      expectedStatusCodes: [200, '301-302'],
      responseTimeThresholdMs: 800,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      checkKeywordEnabled: true,
      keyword: 'Welcome',
      checkSizeEnabled: true,
      minPageSize: 1000,
      maxPageSize: 500_000,
      expectedStatusCodes: ['200', '301-302'],
      responseTimeThresholdMs: 800,
      checkStatusEnabled: true,
      checkSslEnabled: true,
    });
    const second = await patch(site.id, { checkSslEnabled: false, responseTimeThresholdMs: null });
    expect(second.body).toMatchObject({
      checkSslEnabled: false,
      checkKeywordEnabled: true,
      keyword: 'Welcome',
      responseTimeThresholdMs: 2500,
    });
  });

  it.each([
    [{ minPageSize: 10, maxPageSize: 5 }, ['minPageSize']],
    [{ checkKeywordEnabled: true }, ['keyword']],
    [{ checkSizeEnabled: true }, ['checkSizeEnabled']],
    [{ expectedStatusCodes: ['299-200'] }, ['expectedStatusCodes.0']],
    [{ expectedStatusCodes: ['600'] }, ['expectedStatusCodes.0']],
    [{ expectedStatusCodes: [] }, ['expectedStatusCodes']],
    [{ minPageSize: -1 }, ['minPageSize']],
    [{ keywordMode: 'maybe' }, ['keywordMode']],
    [{ checkSslEnabled: 'true' }, ['checkSslEnabled']],
    [{ teleport: true }, ['teleport']],
    [{}, ['']],
  ])('400 for %j naming %j, changing nothing', async (body, paths) => {
    const site = await website();
    const res = await patch(site.id, body);
    expect(res.status).toBe(400);
    expect((res.body.errors ?? []).map((e) => e.path).sort()).toEqual(paths);
    expect((await api.request('GET', `/api/websites/${site.id}/check-config`, { token })).body).toMatchObject(
      {
        minPageSize: null,
        checkKeywordEnabled: false,
      },
    );
  });

  it('the keyword check keeps its keyword rule across patches', async () => {
    const site = await website();
    await patch(site.id, { checkKeywordEnabled: true, keyword: 'ok' });
    const res = await patch(site.id, { keyword: null });
    expect(res.status).toBe(400);
    expect((res.body.errors ?? [])[0]?.path).toBe('keyword');
  });

  it('403 naming the check when the customer’s package lacks it', async () => {
    const site = await website('https://limited.example.com/', limitedCustomerId);
    const res = await patch(site.id, {
      checkKeywordEnabled: true,
      keyword: 'x',
      checkDomainExpiryEnabled: true,
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('keywordCheck');
    expect(res.body.detail).toContain('domainExpiryCheck');
    expect((res.body.errors ?? []).map((e) => e.path).sort()).toEqual([
      'checkDomainExpiryEnabled',
      'checkKeywordEnabled',
    ]);
    expect((await patch(site.id, { checkStatusEnabled: false })).status).toBe(200);
  });

  it('404 for an unknown website', async () => {
    expect((await patch(999_999, { checkSslEnabled: false })).status).toBe(404);
  });
});
