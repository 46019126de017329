import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser, signIn, withCookie } from './support/people.js';

/** "viewer reads everything of the organization": packages too; a client only its customer's. */
describe('packages: read with the read scope, written by admins', () => {
  let api: TestApi;
  let admin: string;
  let organizationId: number;
  let mine: { id: number };
  let other: { id: number };
  let customerId: number;

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token: admin } = await api.createOrganization(['admin']));
    mine = await createPackage(api, admin, { key: 'mine' });
    other = await createPackage(api, admin, { key: 'other' });
    customerId = await createCustomer(api, admin, mine.id, 'Client A');
  });
  afterAll(() => api.stop());

  it('a viewer and a read token list and get every package; writes stay 403', async () => {
    const viewer = await signIn(api, (await createUser(api, organizationId, 'viewer')).email);
    const reader = await api.createToken(organizationId, ['read']);
    for (const send of [
      (method: string, path: string, body?: unknown) => withCookie(api, viewer, method, path, { body }),
      (method: string, path: string, body?: unknown) => api.request(method, path, { token: reader, body }),
    ]) {
      const listed = await send('GET', '/api/packages');
      expect(listed.status).toBe(200);
      expect((listed.body as unknown as Array<{ id: number }>).map((p) => p.id)).toEqual(
        expect.arrayContaining([mine.id, other.id]),
      );
      expect((await send('GET', `/api/packages/${other.id}`)).status).toBe(200);
      expect((await send('POST', '/api/packages', { key: 'x', displayName: 'X' })).status).toBe(403);
      expect((await send('PATCH', `/api/packages/${mine.id}`, { displayName: 'Y' })).status).toBe(403);
      expect((await send('DELETE', `/api/packages/${other.id}`)).status).toBe(403);
    }
  });

  it("a client user and a customer-bound token read their customer's package only (another is 404)", async () => {
    const client = await signIn(api, (await createUser(api, organizationId, 'client', customerId)).email);
    const bound = await api.request<{ token: string }>('POST', '/api/tokens', {
      token: admin,
      body: { name: 'client script', scopes: ['read'], customerId },
    });
    expect(bound.status).toBe(201);
    for (const send of [
      (method: string, path: string) => withCookie(api, client, method, path),
      (method: string, path: string) => api.request(method, path, { token: bound.body.token }),
    ]) {
      const listed = await send('GET', '/api/packages');
      expect(listed.status).toBe(200);
      expect((listed.body as unknown as Array<{ id: number }>).map((p) => p.id)).toEqual([mine.id]);
      expect((await send('GET', `/api/packages/${mine.id}`)).status).toBe(200);
      expect((await send('GET', `/api/packages/${other.id}`)).status).toBe(404);
      expect((await send('GET', '/api/packages/999999')).status).toBe(404);
      expect((await send('DELETE', `/api/packages/${mine.id}`)).status).toBe(403);
    }
  });
});
