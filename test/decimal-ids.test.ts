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

  // Schemathesis sent 9007199254740990, within the documented maximum, and got 400.
  it.each([
    ['/api/tokens/9007199254740991', 404],
    ['/api/tokens/9007199254740992', 400],
    ['/api/tokens/99999999999999999', 400],
    ['/api/websites/9007199254740990', 404],
    ['/api/websites/9999999999999999', 400],
    ['/api/websites?customerId=9007199254740990', 404],
  ])('GET %s → %i: the bound is the documented maximum', async (path, status) => {
    expect((await api.request('GET', path, { token })).status).toBe(status);
  });

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
