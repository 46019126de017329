import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanStoredNames } from '../libs/services/stored-names.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

const OVERRIDE = 'invoice\u202Efdp.exe';
const INCIDENT = '00000000-0000-4000-8000-000000000047';

describe('names are text, not control (issue 47)', () => {
  let api: TestApi;
  let token: string;
  let customerId: number;
  let websiteId: number;
  let publicId: string;

  beforeAll(async () => {
    api = await TestApi.start({ RATE_LIMIT_PER_MINUTE: '1000000' });
    ({ token } = await api.createOrganization(['admin']));
    customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    ({ id: websiteId, publicId } = (
      await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token,
        body: { customerId, name: 'Shop', url: 'https://shop.example.com/' },
      })
    ).body);
  });
  afterAll(() => api.stop());

  // Each route's body is valid but for the name: the 400 is the name's alone.
  const routes = (): Array<[string, string, Record<string, unknown>, string]> => [
    ['POST', '/api/websites', { customerId, name: OVERRIDE, url: 'https://a.example.com/' }, 'name'],
    ['PATCH', `/api/websites/${publicId}`, { name: OVERRIDE }, 'name'],
    ['POST', '/api/customers', { name: OVERRIDE, packageId: 1 }, 'name'],
    ['PATCH', `/api/customers/${customerId}`, { name: OVERRIDE }, 'name'],
    ['POST', '/api/packages', { key: 'k47', displayName: OVERRIDE }, 'displayName'],
    ['PATCH', '/api/packages/1', { displayName: OVERRIDE }, 'displayName'],
    [
      'POST',
      '/api/notification-channels',
      { type: 'webhook', name: OVERRIDE, config: { url: 'https://hooks.example.com/x' } },
      'name',
    ],
    ['POST', '/api/status-pages', { slug: 'names47', title: OVERRIDE, customerId }, 'title'],
    ['PATCH', '/api/status-pages/1', { title: OVERRIDE }, 'title'],
    [
      'POST',
      '/api/maintenance-windows',
      { websiteId, title: OVERRIDE, startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T01:00:00Z' },
      'title',
    ],
    [
      'POST',
      `/api/websites/${websiteId}/heartbeats`,
      { name: OVERRIDE, schedule: { periodSeconds: 300 }, graceSeconds: 60 },
      'name',
    ],
    ['PATCH', '/api/users/1', { name: OVERRIDE }, 'name'],
    ['PATCH', '/api/organization', { name: OVERRIDE }, 'name'],
    ['POST', '/api/tokens', { name: OVERRIDE, scopes: ['read'] }, 'name'],
    // The other lines and notes people write that reach pages, reports and channels.
    ['PATCH', '/api/organization', { branding: { footerText: OVERRIDE } }, 'branding.footerText'],
    ['PATCH', '/api/status-pages/1', { branding: { footerText: OVERRIDE } }, 'branding.footerText'],
    ['PATCH', `/api/customers/${customerId}`, { reportIntro: OVERRIDE }, 'reportIntro'],
    ['POST', `/api/incidents/${INCIDENT}/notes`, { text: OVERRIDE }, 'text'],
    ['POST', `/api/incidents/${INCIDENT}/acknowledge`, { note: OVERRIDE }, 'note'],
  ];

  it.each(
    routes().map(
      (route, index) => [route[0], route[1].replace(/\/[0-9a-f-]{36}|\/\d+/g, '/:id'), index] as const,
    ),
  )('%s %s refuses a name with U+202E, naming the field', async (_method, _path, index) => {
    const [method, path, body, field] = routes()[index] as [string, string, Record<string, unknown>, string];
    const answer = await api.request<{ errors: Array<{ path: string; message: string }> }>(method, path, {
      token,
      body,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors).toEqual([
      { path: field, message: expect.stringMatching(/bidirectional overrides/) },
    ]);
  });

  it('takes the same name without the override (the positive control)', async () => {
    const answer = await api.request('PATCH', `/api/websites/${publicId}`, {
      token,
      body: { name: 'invoice fdp.exe' },
    });
    expect(answer.status).toBe(200);
  });

  it('cleans the names stored before, once', async () => {
    const websites = api.db.collection<{ id: number; name: string }>('websites');
    await websites.updateOne({ id: websiteId }, { $set: { name: 'Shop\r\nBcc: x\u202E' } });
    const customers = api.db.collection<{ id: number; name: string }>('customers');
    await customers.updateOne({ id: customerId }, { $set: { name: '\u0000\u2066' } });
    // The API's own start ran it on an empty database: it is done there, as it is in production.
    await api.db.collection('key_lookups').deleteOne({ _id: '~backfilled/names.text' as never });

    expect(await cleanStoredNames(api.db)).toBe(2);
    expect((await websites.findOne({ id: websiteId }))?.name).toBe('Shop Bcc: x');
    expect((await customers.findOne({ id: customerId }))?.name).toBe('unnamed');

    await websites.updateOne({ id: websiteId }, { $set: { name: 'later\u0000' } });
    expect(await cleanStoredNames(api.db)).toBe(0);
  });
});
