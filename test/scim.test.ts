import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIndexes } from '../libs/db/index.js';
import { scimStoreIndexes, scimTokenIndexes } from '../libs/scim/index.js';
import { ERROR, filter, GROUP, type Json, patchOp, scim, scimOrganization, USER } from './scim-fixture.js';
import type { TestApi } from './support/harness.js';
import { createOrganizationId, createUser, signIn, TEST_PASSWORD, withCookie } from './support/people.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

describe('SCIM 2.0 provisioning: users as Entra ID and Okta send them, tokens, tenancy', {
  timeout: 60_000,
}, () => {
  let api: TestApi;
  let organizationId: number;
  let ownerCookie: string;
  let token: string;
  let fixture: Awaited<ReturnType<typeof scimOrganization>>;
  const makeToken: typeof fixture.makeToken = (...args) => fixture.makeToken(...args);
  const usersOf = () => fixture.usersOf();
  const roleOf = (id: number) => fixture.roleOf(id);

  beforeAll(async () => {
    fixture = await scimOrganization();
    ({ api, organizationId, ownerCookie, token } = fixture);
  });
  afterAll(() => api.stop());

  it('answers discovery: ServiceProviderConfig, ResourceTypes, Schemas', async () => {
    const config = await scim(api, token, 'GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      bulk: { supported: false },
    });
    const types = await scim(api, token, 'GET', '/ResourceTypes');
    expect((types.body.Resources as Json[]).map((type) => type.endpoint)).toEqual(['/Users', '/Groups']);
    const schemas = await scim(api, token, 'GET', '/Schemas');
    expect((schemas.body.Resources as Json[]).map((schema) => schema.id)).toEqual([USER, GROUP]);
  });

  it("Entra ID's sequence: create, find by userName, PATCH Replace, active False, delete", async () => {
    const userName = 'grace.hopper@agency.example';
    const created = await scim(api, token, 'POST', '/Users', {
      schemas: [USER, ENTERPRISE],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName,
      active: true,
      emails: [{ primary: true, type: 'work', value: userName }],
      meta: { resourceType: 'User' },
      name: { formatted: 'Grace Hopper', familyName: 'Hopper', givenName: 'Grace' },
      roles: [],
      [ENTERPRISE]: { department: 'Navy' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    const id = created.body.id as string;
    expect(created.headers.get('location')).toBe(`${api.api.url}/scim/v2/Users/${id}`);
    expect(created.body).toMatchObject({ userName, active: true, displayName: 'Grace Hopper', groups: [] });
    // A passwordless person with the default role.
    expect(await roleOf(Number(id))).toBe('viewer');
    const password = await api.request('POST', '/api/auth/login', {
      body: { email: userName, password: 'x' },
    });
    expect(password.status).toBe(401);

    const found = await scim(api, token, 'GET', `/Users${filter(`userName eq "${userName.toUpperCase()}"`)}`);
    expect(found.body).toMatchObject({
      totalResults: 1,
      Resources: [{ id, externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef' }],
    });
    const none = await scim(
      api,
      token,
      'GET',
      `/Users${filter('userName eq "non-existent@agency.example"')}`,
    );
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });

    const patched = await scim(
      api,
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'grace@navy.example' },
        { op: 'Replace', path: 'name.familyName', value: 'Murray Hopper' },
        { op: 'Replace', path: 'displayName', value: 'Grace Murray Hopper' },
      ),
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      displayName: 'Grace Murray Hopper',
      name: { familyName: 'Murray Hopper' },
      emails: [{ value: 'grace@navy.example', type: 'work' }],
    });
    const off = await scim(
      api,
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp({ op: 'Replace', path: 'active', value: 'False' }),
    );
    expect(off.body).toMatchObject({ active: false });
    expect((await scim(api, token, 'GET', `/Users/${id}`)).body).toMatchObject({ active: false });
    expect((await scim(api, token, 'DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim(api, token, 'GET', `/Users/${id}`)).status).toBe(404);
    expect((await usersOf()).some((user) => user.id === Number(id))).toBe(false);
  });

  it('links a person who signed in with a password by userName, and active False ends their session and tokens within a second', async () => {
    const person = await createUser(api, organizationId, 'editor');
    const cookie = await signIn(api, person.email);
    const personal = await withCookie(api, cookie, 'POST', '/api/me/tokens', {
      body: { name: 'cli', scopes: ['read'] },
    });
    const personalToken = (personal.body as { token: string }).token;
    expect((await withCookie(api, cookie, 'GET', '/api/me')).status).toBe(200);

    const found = await scim(api, token, 'GET', `/Users${filter(`userName eq "${person.email}"`)}`);
    expect(found.body.totalResults).toBe(1);
    const id = (found.body.Resources as Json[])[0]?.id as string;
    expect(id).toBe(String(person.id));
    const linked = await scim(
      api,
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', path: 'externalId', value: 'ext-editor-1' },
        { op: 'Add', path: 'title', value: 'Editor' },
      ),
    );
    expect(linked.body).toMatchObject({ externalId: 'ext-editor-1', active: true });
    expect((await withCookie(api, cookie, 'GET', '/api/me')).status).toBe(200);

    const redis = new Redis(api.config.REDIS_URL);
    const sessionsKey = `${api.config.REDIS_KEY_PREFIX}:user-sessions:${person.id}`;
    expect(await redis.hlen(sessionsKey)).toBe(1);
    const off = await scim(
      api,
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp({ op: 'Replace', path: 'active', value: 'False' }),
    );
    expect(off.status).toBe(200);
    const deactivatedAt = Date.now();
    // Ended in Redis by the PATCH itself, before any request of theirs.
    expect(await redis.exists(sessionsKey)).toBe(0);
    redis.disconnect();
    const refused = await withCookie(api, cookie, 'GET', '/api/me');
    expect(refused.status).toBe(401);
    expect(Date.now() - deactivatedAt).toBeLessThan(1000);
    // The personal token they made is revoked too.
    expect(await api.request('GET', '/api/me', { token: personalToken })).toMatchObject({ status: 401 });
    // A password no longer signs them in (told only to whoever knows it).
    const password = await api.request('POST', '/api/auth/login', {
      body: { email: person.email, password: TEST_PASSWORD },
    });
    expect(password).toMatchObject({ status: 403, body: { code: 'account-deactivated' } });
    const byExternalId = await scim(api, token, 'GET', `/Users${filter('externalId eq "ext-editor-1"')}`);
    expect(byExternalId.body).toMatchObject({ totalResults: 1, Resources: [{ id, active: false }] });

    // Okta's shape lifts it: the person may sign in again (the revoked token stays revoked).
    const on = await scim(
      api,
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp({ op: 'replace', value: { active: true } }),
    );
    expect(on.body).toMatchObject({ active: true });
    expect((await withCookie(api, await signIn(api, person.email), 'GET', '/api/me')).status).toBe(200);
    expect((await api.request('GET', '/api/me', { token: personalToken })).status).toBe(401);
  });

  it("takes Okta's PATCH and PUT", async () => {
    const created = await scim(api, token, 'POST', '/Users', {
      schemas: [USER],
      userName: 'okta.person@agency.example',
      name: { givenName: 'Okta', familyName: 'Person' },
      emails: [{ primary: true, value: 'okta.person@agency.example', type: 'work' }],
      active: true,
    });
    const id = created.body.id as string;
    expect(created.body.displayName).toBe('Okta Person');
    const off = await scim(
      api,
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp({ op: 'replace', value: { active: false } }),
    );
    expect(off.body).toMatchObject({ active: false });
    const put = await scim(api, token, 'PUT', `/Users/${id}`, {
      schemas: [USER],
      id,
      userName: 'okta.person@agency.example',
      name: { givenName: 'Okta', familyName: 'Renamed' },
      emails: [{ primary: true, value: 'okta.person@agency.example', type: 'work' }],
      active: true,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      active: true,
      displayName: 'Okta Renamed',
      name: { familyName: 'Renamed' },
    });
    const rename = await scim(api, token, 'PUT', `/Users/${id}`, {
      schemas: [USER],
      userName: 'other@agency.example',
    });
    expect(rename).toMatchObject({ status: 400, body: { schemas: [ERROR], scimType: 'mutability' } });
  });

  it('refuses bad tokens (401, SCIM error, scim+json) and another organization sees nothing of this one', async () => {
    for (const bearer of [undefined, 'nonsense', `wmscim_${'A'.repeat(43)}`]) {
      const res = await api.request<Json>('GET', '/scim/v2/Users', bearer ? { token: bearer } : {});
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({ schemas: [ERROR], status: '401' });
      expect(JSON.stringify(res.body)).not.toContain('wmscim_A');
    }
    const rotated = await makeToken({ name: 'rotated', defaultRole: { role: 'viewer' } });
    expect((await scim(api, rotated.token, 'GET', '/Users')).status).toBe(200);
    expect((await withCookie(api, ownerCookie, 'DELETE', `/api/scim-tokens/${rotated.id}`)).status).toBe(204);
    expect((await scim(api, rotated.token, 'GET', '/Users')).status).toBe(401);

    const otherOrganization = await createOrganizationId(api);
    const otherOwner = await createUser(api, otherOrganization, 'owner');
    const other = await makeToken(
      { name: 'theirs', defaultRole: { role: 'viewer' } },
      await signIn(api, otherOwner.email),
    );
    const mine = (await scim(api, token, 'GET', '/Users')).body.Resources as Json[];
    const theirs = await scim(api, other.token, 'GET', '/Users');
    expect(theirs.body).toMatchObject({ totalResults: 1, Resources: [{ userName: otherOwner.email }] });
    const someone = mine[0]?.id as string;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', patchOp({ op: 'replace', value: { active: false } })],
      ['DELETE', undefined],
    ] as const)
      expect((await scim(api, other.token, method, `/Users/${someone}`, body)).status).toBe(404);
    expect((await scim(api, other.token, 'GET', '/Groups')).body.totalResults).toBe(0);
    const taken = await scim(api, other.token, 'POST', '/Users', {
      schemas: [USER],
      userName: mine[0]?.userName,
    });
    expect(taken).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    expect(taken.body.detail).toMatch(/another organization/);
  });

  it('refuses filters it cannot read (invalidFilter) and bodies naming the attribute', async () => {
    const unknown = await scim(api, token, 'GET', `/Users${filter('title eq "CEO"')}`);
    expect(unknown).toMatchObject({ status: 400, body: { schemas: [ERROR], scimType: 'invalidFilter' } });
    expect(unknown.body.detail).toMatch(/title/);
    for (const expression of ['userName eq', 'userName like "a"', '(userName eq "a"', 'userName eq a'])
      expect((await scim(api, token, 'GET', `/Users${filter(expression)}`)).body).toMatchObject({
        scimType: 'invalidFilter',
      });
    const bad = await scim(api, token, 'POST', '/Users', { schemas: [USER], userName: 'not an e-mail' });
    expect(bad).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect(bad.body.detail).toMatch(/^userName: /);
    const syntax = await api.request<Json>('POST', '/scim/v2/Users', {
      token,
      rawBody: '{"userName":',
      headers: { 'content-type': 'application/scim+json' },
    });
    expect(syntax).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } });
    const op = await scim(api, token, 'PATCH', '/Users/1', patchOp({ op: 'move', path: 'active' }));
    expect(op.status).toBe(400);
    const paged = await scim(api, token, 'GET', '/Users?startIndex=2&count=1');
    expect(paged.body).toMatchObject({ startIndex: 2, itemsPerPage: 1 });
  });

  it('lists SCIM tokens without their secrets, for people only', async () => {
    const list = await withCookie<Array<Json>>(api, ownerCookie, 'GET', '/api/scim-tokens');
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({
      name: 'Entra ID',
      grant: 'owner',
      revokedAt: null,
      lastUsedAt: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toContain(token);
    const adminToken = await api.createToken(organizationId, ['admin']);
    expect((await api.request('GET', '/api/scim-tokens', { token: adminToken })).status).toBe(403);
    const admin = await createUser(api, organizationId, 'admin');
    const adminCookie = await signIn(api, admin.email);
    const owner = await withCookie(api, adminCookie, 'POST', '/api/scim-tokens', {
      body: { name: 'x', roleMapping: [{ group: 'g', role: 'owner' }], defaultRole: { role: 'viewer' } },
    });
    expect(owner.status).toBe(403);
    const client = await withCookie(api, adminCookie, 'POST', '/api/scim-tokens', {
      body: { name: 'x', defaultRole: { role: 'client' } },
    });
    expect(client).toMatchObject({ status: 400, body: { errors: [{ path: 'defaultRole.customerId' }] } });
  });

  it('has indexes the server takes, on the data SCIM stored', async () => {
    await ensureIndexes(api.db, [scimTokenIndexes, ...scimStoreIndexes]);
    const names = async (collection: string) =>
      (await api.db.collection(collection).listIndexes().toArray()).map((index) => index.name);
    expect(await names('scim_tokens')).toEqual(expect.arrayContaining(['hash_unique', 'organization_id']));
    expect(await names('scim_people')).toContain('organization');
    expect(await names('scim_groups')).toContain('organization_id');
  });
});
