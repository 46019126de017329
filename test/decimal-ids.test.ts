import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';

/** One spelling per resource: integer ids in paths and queries are decimal digits only. */
describe('integer ids in paths and queries', () => {
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['admin']));
  });
  afterAll(() => api.stop());

  it.each(['0x10', '1e1', '0b1', '0o7', '%2016', '16.0', '-1', '0'])(
    'GET /api/tokens/%s → 400',
    async (id) => {
      const res = await api.request<{ errors: Array<{ path: string }> }>('GET', `/api/tokens/${id}`, {
        token,
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]?.path).toBe('id');
    },
  );

  it('a decimal id reads the resource; others answer 400 in queries too', async () => {
    const created = await api.request<{ id: number }>('POST', '/api/tokens', {
      token,
      body: { name: 'read', scopes: ['read'] },
    });
    expect((await api.request('GET', `/api/tokens/${created.body.id}`, { token })).status).toBe(200);
    expect((await api.request('GET', '/api/websites?customerId=0x1', { token })).status).toBe(400);
    expect((await api.request('GET', '/api/notification-channels?customerId=1e0', { token })).status).toBe(
      400,
    );
  });
});
