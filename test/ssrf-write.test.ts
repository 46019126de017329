import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

type Problem = { status: number; errors?: Array<{ path: string; message: string }> };

/** A target in a refused range is refused when it is written, not only when it is checked. */
describe('refused targets at write time', () => {
  let api: TestApi;
  let token: string;
  let customerId: number;

  beforeAll(async () => {
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['admin']));
    customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
  });
  afterAll(() => api.stop());

  const createWebsite = (url: string) =>
    api.request<Problem & { id: number; publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Target', url },
    });
  const createChannel = (type: string, config: Record<string, unknown>) =>
    api.request<Problem>('POST', '/api/notification-channels', { token, body: { type, name: type, config } });

  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://10.0.0.1/', 'private'],
    ['http://[::1]/', 'loopback'],
    ['http://[::127.0.0.1]/', 'loopback'],
    ['http://[::a9fe:a9fe]/', 'link-local'],
    ['http://[64:ff9b::a00:1]/', 'private'],
    ['http://0x7f000001/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
  ])('a website at %s → 400 naming url (%s)', async (url, reason) => {
    const res = await createWebsite(url);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'url', message: expect.stringContaining(reason) }]);
  });

  it('a host name is stored (judged when connecting); a PATCH to a refused address changes nothing', async () => {
    const created = await createWebsite('https://shop.example.com/');
    expect(created.status).toBe(201);
    const patched = await api.request<Problem>('PATCH', `/api/websites/${created.body.publicId}`, {
      token,
      body: { url: 'http://192.168.1.1/' },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.errors?.[0]?.path).toBe('url');
    const stored = await api.request<{ url: string }>('GET', `/api/websites/${created.body.publicId}`, {
      token,
    });
    expect(stored.body.url).toBe('https://shop.example.com/');
  });

  it.each([
    ['webhook', { url: 'http://127.0.0.1:9/hook' }, 'config.url'],
    ['slack', { webhookUrl: 'http://192.168.0.10/services/x' }, 'config.webhookUrl'],
    [
      'pagerduty',
      { routingKey: 'R0ut1ngKeyR0ut1ngKeyR0ut1ngKey12', eventsUrl: 'http://10.0.0.5/v2' },
      'config.eventsUrl',
    ],
    [
      'jira',
      { baseUrl: 'http://[fd00::1]/', email: 'ops@example.com', apiToken: 't', projectKey: 'OPS' },
      'config.baseUrl',
    ],
    ['email', { host: '127.0.0.1', from: 'mon@example.com', to: ['ops@example.com'] }, 'config.host'],
  ])('a %s channel with a refused destination → 400 naming %s', async (type, config, path) => {
    const res = await createChannel(type, config);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({
      path,
      message: expect.stringContaining('ALLOW_PRIVATE_TARGETS'),
    });
  });

  it('with ALLOW_PRIVATE_TARGETS the operator may store private targets', async () => {
    const open = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      const admin = await open.createOrganization(['admin']);
      const customer = await createCustomer(open, admin.token, (await createPackage(open, admin.token)).id);
      const res = await open.request('POST', '/api/websites', {
        token: admin.token,
        body: { customerId: customer, name: 'Intranet', url: 'http://10.0.0.1/' },
      });
      expect(res.status).toBe(201);
    } finally {
      await open.stop();
    }
  });
});
