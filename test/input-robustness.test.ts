import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

/** Values of every JSON type, and some that trip careless code. */
const ODD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  'x'.repeat(5000),
  '\u0000',
  [],
  [null],
  {},
  { $gt: '' },
];

describe('no input makes the API fail (every field × every JSON type)', () => {
  let api: TestApi;
  let token: string;
  let customerId: number;
  let website: { id: number; publicId: string };
  let packageId: number;
  let channelId: number;

  beforeAll(async () => {
    api = await TestApi.start({ RATE_LIMIT_PER_MINUTE: '1000000' });
    ({ token } = await api.createOrganization(['admin']));
    packageId = (await createPackage(api, token)).id;
    customerId = await createCustomer(api, token, packageId);
    website = (
      await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token,
        body: { customerId, name: 'Robust', url: 'https://robust.example.com/' },
      })
    ).body;
    channelId = (
      await api.request<{ id: number }>('POST', '/api/notification-channels', {
        token,
        body: {
          type: 'email',
          name: 'Mail',
          config: { host: 'smtp.example.com', from: 'a@example.com', to: ['b@example.com'] },
        },
      })
    ).body.id;
  });
  afterAll(() => api.stop());

  const targets = (): Array<{
    method: string;
    path: string;
    base: Record<string, unknown>;
    /** The fields go inside this object of the body. */
    nested?: string;
    fields?: string[];
  }> => [
    { method: 'POST', path: '/api/websites', base: { customerId, name: 'n', url: 'https://a.example.com/' } },
    { method: 'PATCH', path: `/api/websites/${website.publicId}`, base: { name: 'n' } },
    { method: 'PATCH', path: `/api/websites/${website.id}/check-config`, base: { checkSslEnabled: true } },
    { method: 'POST', path: '/api/packages', base: { key: 'k', displayName: 'K' } },
    { method: 'PATCH', path: `/api/packages/${packageId}`, base: { displayName: 'K' } },
    { method: 'POST', path: '/api/customers', base: { name: 'c', packageId } },
    { method: 'PATCH', path: `/api/customers/${customerId}`, base: { name: 'c' } },
    { method: 'POST', path: '/api/v1/customers', base: { name: 'c', plan: 'x' } },
    { method: 'POST', path: '/api/tokens', base: { name: 't', scopes: ['read'] } },
    {
      method: 'POST',
      path: '/api/maintenance-windows',
      base: {
        websiteId: website.id,
        title: 't',
        startsAt: '2026-12-01T00:00:00Z',
        endsAt: '2026-12-01T01:00:00Z',
      },
    },
    { method: 'POST', path: '/api/maintenance-windows/check/batch', base: { websiteIds: [website.id] } },
    {
      method: 'POST',
      path: '/api/notification-channels',
      base: { type: 'webhook', name: 'w', config: { url: 'https://hooks.example.com/' } },
    },
    { method: 'PATCH', path: `/api/notification-channels/${channelId}`, base: { name: 'w' } },
    {
      method: 'PATCH',
      path: `/api/notification-channels/${channelId}`,
      base: {},
      nested: 'config',
      fields: ['host', 'port', 'secure', 'username', 'password', 'from', 'to'],
    },
  ];
  const FIELDS: Record<string, string[]> = {
    '/api/websites': [
      'customerId',
      'name',
      'url',
      'httpMethod',
      'customHeaders',
      'requestBody',
      'followRedirects',
      'maxRedirects',
      'cookieHandling',
      'mtlsEnabled',
      'mtlsClientCert',
      'mtlsClientKey',
      'checkInterval',
      'timeoutSeconds',
      'regions',
      'paused',
      'notificationChannelIds',
    ],
    'check-config': [
      'checkSslEnabled',
      'checkSizeEnabled',
      'minPageSize',
      'maxPageSize',
      'expectedStatusCodes',
      'responseTimeThresholdMs',
      'keyword',
      'keywordMode',
      'keywordCaseSensitive',
    ],
    '/api/packages': ['key', 'displayName', 'features', 'limits', 'alerting'],
    '/api/customers': ['name', 'email', 'notificationEmail', 'packageId', 'status', 'cancellationDate'],
    '/api/v1/customers': ['name', 'plan', 'email'],
    '/api/tokens': ['name', 'scopes'],
    '/api/maintenance-windows': ['websiteId', 'title', 'startsAt', 'endsAt', 'timezone', 'recurrence'],
    '/api/maintenance-windows/check/batch': ['websiteIds'],
    '/api/notification-channels': ['type', 'name', 'enabled', 'events', 'scope', 'config'],
  };
  const fieldsFor = (path: string) =>
    path.endsWith('check-config')
      ? FIELDS['check-config']!
      : (FIELDS[path] ?? FIELDS[Object.keys(FIELDS).find((prefix) => path.startsWith(`${prefix}/`)) ?? '']!);

  it('answers every odd value with a 2xx or 4xx, never a 5xx', async () => {
    const failures: string[] = [];
    for (const target of targets()) {
      for (const field of target.fields ?? fieldsFor(target.path)) {
        for (const value of ODD_VALUES) {
          const body = target.nested
            ? { ...target.base, [target.nested]: { [field]: value } }
            : { ...target.base, [field]: value };
          const res = await api.request(target.method, target.path, { token, body });
          if (res.status >= 500)
            failures.push(`${target.method} ${target.path} ${field}=${JSON.stringify(value)}: ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
