import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser, signIn, withCookie } from './support/people.js';

type Token = {
  id: number;
  token: string;
  scopes: string[];
  customerId: number | null;
  userId: number | null;
};

/** "A user can create personal tokens no wider than their role." */
describe('people: personal tokens', () => {
  let api: TestApi;
  let organizationId: number;
  let admin: string;
  let mine: number;
  let theirs: number;
  const websites: Record<'mine' | 'theirs', number> = { mine: 0, theirs: 0 };

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token: admin } = await api.createOrganization(['admin']));
    const pkg = await createPackage(api, admin);
    mine = await createCustomer(api, admin, pkg.id, 'Mine');
    theirs = await createCustomer(api, admin, pkg.id, 'Theirs');
    for (const [key, customerId] of [
      ['mine', mine],
      ['theirs', theirs],
    ] as const) {
      const created = await api.request<{ id: number }>('POST', '/api/websites', {
        token: admin,
        body: { customerId, name: key, url: `https://${key}.example.com/`, paused: true },
      });
      expect(created.status).toBe(201);
      websites[key] = created.body.id;
    }
  });
  afterAll(() => api.stop());

  const person = async (role: 'viewer' | 'editor' | 'admin' | 'owner' | 'client') => {
    const user = await createUser(api, organizationId, role, role === 'client' ? mine : null);
    return { ...user, cookie: await signIn(api, user.email) };
  };
  const create = (cookie: string, body: Record<string, unknown>) =>
    withCookie<Token>(api, cookie, 'POST', '/api/me/tokens', { body: { name: 'mine', ...body } });
  const status = async (token: string, method: string, path: string, body?: unknown) =>
    (await api.request(method, path, { token, body })).status;

  it('each role makes tokens up to its scopes and no wider (400 naming scopes); the token records its user', async () => {
    const widest = { viewer: 'read', editor: 'write', admin: 'admin', owner: 'admin' } as const;
    const wider = { viewer: ['read', 'write'], editor: ['admin'] } as const;
    for (const role of ['viewer', 'editor', 'admin', 'owner'] as const) {
      const { id, cookie } = await person(role);
      const made = await create(cookie, { scopes: [widest[role]] });
      expect(made.status).toBe(201);
      expect(made.headers.get('location')).toBe(`/api/me/tokens/${made.body.id}`);
      expect(made.body).toMatchObject({ scopes: [widest[role]], userId: id, customerId: null });
      expect(await status(made.body.token, 'GET', '/api/websites')).toBe(200);
      if (role in wider) {
        const refused = await create(cookie, { scopes: wider[role as keyof typeof wider] });
        expect(refused.status).toBe(400);
        expect(JSON.stringify(refused.body)).toContain('scopes');
      }
    }
    const viewer = await person('viewer');
    const token = (await create(viewer.cookie, { scopes: ['read'] })).body.token;
    expect(await status(token, 'PATCH', `/api/websites/${websites.mine}`, { name: 'x' })).toBe(403);
  });

  it("a client's token is read-only and bound to its customer: another customer's website is 404", async () => {
    const client = await person('client');
    const made = await create(client.cookie, { scopes: ['read'] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ customerId: mine, userId: client.id });
    expect(await status(made.body.token, 'GET', `/api/websites/${websites.mine}`)).toBe(200);
    expect(await status(made.body.token, 'GET', `/api/websites/${websites.theirs}`)).toBe(404);
    const other = await create(client.cookie, { scopes: ['read'], customerId: theirs });
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toContain('customerId');
    expect((await create(client.cookie, { scopes: ['read', 'write'] })).status).toBe(400);
  });

  it('a person lists, reads and revokes their own tokens only; admins see and revoke every one', async () => {
    const a = await person('editor');
    const b = await person('editor');
    const aToken = (await create(a.cookie, { name: 'a', scopes: ['read'] })).body;
    const bToken = (await create(b.cookie, { name: 'b', scopes: ['write'] })).body;
    const listed = await withCookie<Token[]>(api, a.cookie, 'GET', '/api/me/tokens');
    expect(listed.status).toBe(200);
    expect(listed.body.map((t) => t.id)).toEqual([aToken.id]);
    expect(listed.body[0]).not.toHaveProperty('token');
    expect((await withCookie(api, a.cookie, 'GET', `/api/me/tokens/${bToken.id}`)).status).toBe(404);
    expect((await withCookie(api, a.cookie, 'DELETE', `/api/me/tokens/${bToken.id}`)).status).toBe(404);
    expect(await status(bToken.token, 'GET', '/api/websites')).toBe(200);
    expect((await withCookie(api, a.cookie, 'DELETE', `/api/me/tokens/${aToken.id}`)).status).toBe(204);
    expect(await status(aToken.token, 'GET', '/api/websites')).toBe(401);
    expect((await withCookie(api, a.cookie, 'DELETE', `/api/me/tokens/${aToken.id}`)).status).toBe(404);

    const all = await api.request<Token[]>('GET', '/api/tokens', { token: admin });
    expect(all.body.find((t) => t.id === bToken.id)).toMatchObject({ userId: b.id });
    expect((await api.request('DELETE', `/api/tokens/${bToken.id}`, { token: admin })).status).toBe(204);
    expect(await status(bToken.token, 'GET', '/api/websites')).toBe(401);
  });

  it('a role lowered revokes the tokens wider than the new role; a user removed loses every one', async () => {
    const editor = await person('editor');
    const write = (await create(editor.cookie, { scopes: ['write'] })).body;
    const read = (await create(editor.cookie, { scopes: ['read'] })).body;
    const patch = (body: Record<string, unknown>) =>
      api.request('PATCH', `/api/users/${editor.id}`, { token: admin, body });
    expect((await patch({ role: 'viewer' })).status).toBe(200);
    expect(await status(write.token, 'GET', '/api/websites')).toBe(401);
    expect(await status(read.token, 'GET', '/api/websites')).toBe(200);
    // A client of a customer keeps only read tokens bound to that customer.
    expect((await patch({ role: 'client', customerId: mine })).status).toBe(200);
    expect(await status(read.token, 'GET', '/api/websites')).toBe(401);

    const viewer = await person('viewer');
    const kept = (await create(viewer.cookie, { scopes: ['read'] })).body;
    expect((await api.request('DELETE', `/api/users/${viewer.id}`, { token: admin })).status).toBe(204);
    expect(await status(kept.token, 'GET', '/api/websites')).toBe(401);
    const revoked = await api.request<Token>('GET', `/api/tokens/${kept.id}`, { token: admin });
    expect(revoked.body).toMatchObject({ userId: viewer.id, revokedAt: expect.any(String) });
  });

  it('an API token cannot use /api/me/tokens (403); a personal admin token is no stand-in for the last admin token', async () => {
    expect((await api.request('GET', '/api/me/tokens', { token: admin })).status).toBe(403);
    const own = await api.createOrganization(['admin']);
    const adminUser = await createUser(api, own.organizationId, 'admin');
    const cookie = await signIn(api, adminUser.email);
    expect((await create(cookie, { scopes: ['admin'] })).status).toBe(201);
    const listed = await api.request<Token[]>('GET', '/api/tokens', { token: own.token });
    const orgToken = listed.body.find((t) => t.userId === null)!;
    expect((await api.request('DELETE', `/api/tokens/${orgToken.id}`, { token: own.token })).status).toBe(
      409,
    );
  });
});
