import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackage, TestApi } from './support/harness.js';
import { createOrganizationId, createUser, signIn, withCookie } from './support/people.js';

describe('people: users managed by admins, under the owner rules', () => {
  let api: TestApi;
  let organizationId: number;
  let adminToken: string;
  let owner: { id: number; cookie: string };
  let admin: { id: number; cookie: string };

  const person = async (role: 'owner' | 'admin') => {
    const user = await createUser(api, organizationId, role);
    return { id: user.id, cookie: await signIn(api, user.email) };
  };

  beforeAll(async () => {
    api = await TestApi.start();
    organizationId = await createOrganizationId(api);
    adminToken = await api.createToken(organizationId, ['admin']);
    owner = await person('owner');
    admin = await person('admin');
  });
  afterAll(() => api.stop());

  it("lists the organization's users (never a password hash) to admins only", async () => {
    const other = await createOrganizationId(api);
    await createUser(api, other, 'owner');
    const list = await withCookie<Array<{ id: number; role: string }>>(
      api,
      admin.cookie,
      'GET',
      '/api/users',
    );
    expect(list.status).toBe(200);
    expect(list.body.map((u) => u.id)).toEqual([owner.id, admin.id]);
    expect(JSON.stringify(list.body)).not.toMatch(/passwordHash|scrypt/);
    const viewer = await signIn(api, (await createUser(api, organizationId, 'viewer')).email);
    expect((await withCookie(api, viewer, 'GET', '/api/users')).status).toBe(403);
  });

  it('an admin changes names and roles of non-owners, but neither changes nor makes an owner', async () => {
    const editor = await createUser(api, organizationId, 'editor');
    const renamed = await withCookie(api, admin.cookie, 'PATCH', `/api/users/${editor.id}`, {
      body: { name: 'Renamed', role: 'viewer' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', role: 'viewer' });
    for (const [id, role] of [
      [owner.id, 'admin'],
      [editor.id, 'owner'],
    ] as const) {
      const refused = await withCookie(api, admin.cookie, 'PATCH', `/api/users/${id}`, { body: { role } });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ detail: expect.stringContaining('Only an owner') });
    }
    // Anything of an owner: a rename too, and a PATCH that changes nothing.
    for (const body of [{ name: 'Renamed by an admin' }, { role: 'owner' }]) {
      const refused = await withCookie(api, admin.cookie, 'PATCH', `/api/users/${owner.id}`, { body });
      expect(refused.status).toBe(403);
    }
    expect(
      (await api.request('PATCH', `/api/users/${owner.id}`, { token: adminToken, body: { name: 'X' } }))
        .status,
    ).toBe(403);
    expect((await withCookie(api, admin.cookie, 'DELETE', `/api/users/${owner.id}`)).status).toBe(403);
    // An admin token is an admin, not an owner.
    expect((await api.request('DELETE', `/api/users/${owner.id}`, { token: adminToken })).status).toBe(403);
  });

  it('keeps one owner always: the last one can be neither demoted nor deleted (409)', async () => {
    const demote = await withCookie(api, owner.cookie, 'PATCH', `/api/users/${owner.id}`, {
      body: { role: 'admin' },
    });
    expect(demote.status).toBe(409);
    expect((await withCookie(api, owner.cookie, 'DELETE', `/api/users/${owner.id}`)).status).toBe(409);

    // With a second owner, the first may step down.
    const promoted = await withCookie(api, owner.cookie, 'PATCH', `/api/users/${admin.id}`, {
      body: { role: 'owner' },
    });
    expect(promoted.status).toBe(200);
    const stepDown = await withCookie(api, owner.cookie, 'PATCH', `/api/users/${owner.id}`, {
      body: { role: 'admin' },
    });
    expect(stepDown.status).toBe(200);
    // Its role changed at once: the same session is an admin now.
    const me = await withCookie<{ user: { role: string } }>(api, owner.cookie, 'GET', '/api/me');
    expect(me.body.user.role).toBe('admin');
    expect((await withCookie(api, admin.cookie, 'DELETE', `/api/users/${admin.id}`)).status).toBe(409);
  });

  it('counts only owners who can sign in: beside a deactivated owner, the active one is still the last', async () => {
    const organization = await createOrganizationId(api);
    const active = await createUser(api, organization, 'owner');
    const deactivated = await createUser(api, organization, 'owner');
    await api.db.collection('users').updateOne({ id: deactivated.id }, { $set: { disabledAt: new Date() } });
    const cookie = await signIn(api, active.email);
    const stepDown = await withCookie(api, cookie, 'PATCH', `/api/users/${active.id}`, {
      body: { role: 'admin' },
    });
    expect(stepDown.status).toBe(409);
    // The deactivated owner may go: the organization keeps its active one.
    expect((await withCookie(api, cookie, 'DELETE', `/api/users/${deactivated.id}`)).status).toBe(204);
  });

  it('a client needs a customer of the organization; other roles refuse one', async () => {
    const pkg = await createPackage(api, adminToken);
    const customer = await api.request<{ id: number }>('POST', '/api/customers', {
      token: adminToken,
      body: { name: 'Client Co', packageId: pkg.id, email: 'c@example.com' },
    });
    const viewer = await createUser(api, organizationId, 'viewer');
    const patch = (body: Record<string, unknown>) =>
      api.request('PATCH', `/api/users/${viewer.id}`, { token: adminToken, body });
    const missing = await patch({ role: 'client' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ errors: [{ path: 'customerId' }] });
    expect((await patch({ role: 'client', customerId: 999_999 })).status).toBe(400);
    expect((await patch({ customerId: customer.body.id })).status).toBe(400);
    const client = await patch({ role: 'client', customerId: customer.body.id });
    expect(client.status).toBe(200);
    expect(client.body).toMatchObject({ role: 'client', customerId: customer.body.id });
    const back = await patch({ role: 'viewer' });
    expect(back.body).toMatchObject({ role: 'viewer', customerId: null });
  });

  it('answers 404 for a user of another organization and validates the body', async () => {
    const other = await createOrganizationId(api);
    const stranger = await createUser(api, other, 'viewer');
    expect(
      (await api.request('PATCH', `/api/users/${stranger.id}`, { token: adminToken, body: { name: 'x' } }))
        .status,
    ).toBe(404);
    expect((await api.request('DELETE', `/api/users/${stranger.id}`, { token: adminToken })).status).toBe(
      404,
    );
    const bad = await api.request('PATCH', `/api/users/${admin.id}`, {
      token: adminToken,
      body: { role: 'superuser', email: 'x@example.com' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      errors: expect.arrayContaining([
        expect.objectContaining({ path: 'role' }),
        expect.objectContaining({ path: 'email' }),
      ]),
    });
    expect(
      (await api.request('PATCH', `/api/users/${admin.id}`, { token: adminToken, body: {} })).status,
    ).toBe(400);
  });
});
