import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIndexes } from '../libs/db/index.js';
import { scimStoreIndexes, scimTokenIndexes } from '../libs/scim/index.js';
import { IdentityProviderRepository } from '../libs/sso/index.js';
import { TestApi as Api, createCustomer, createPackage, type TestApi } from './support/harness.js';
import { createOrganizationId, createUser, signIn, TEST_PASSWORD, withCookie } from './support/people.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

type Json = Record<string, unknown>;

/** A SCIM client's request as Entra ID and Okta make it: the bearer token, application/scim+json. */
function scim(api: TestApi, token: string, method: string, path: string, body?: unknown) {
  return api.request<Json>(method, `/scim/v2${path}`, {
    token,
    ...(body === undefined ? {} : { rawBody: JSON.stringify(body) }),
    headers: { 'content-type': 'application/scim+json', accept: 'application/scim+json' },
  });
}
const patchOp = (...Operations: unknown[]) => ({ schemas: [PATCH], Operations });
const filter = (expression: string) => `?filter=${encodeURIComponent(expression)}`;

describe('SCIM 2.0 provisioning', { timeout: 60_000 }, () => {
  let api: TestApi;
  let organizationId: number;
  let ownerCookie: string;
  let token: string;
  let customerId: number;

  /** A SCIM token made by the signed-in owner. */
  async function makeToken(body: Json, cookie = ownerCookie) {
    const res = await withCookie(api, cookie, 'POST', '/api/scim-tokens', { body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; token: string; baseUrl: string };
  }
  const usersOf = async () =>
    (
      await withCookie<Array<{ id: number; role: string; customerId: number | null }>>(
        api,
        ownerCookie,
        'GET',
        '/api/users',
      )
    ).body;
  const roleOf = async (id: number) => (await usersOf()).find((user) => user.id === id)?.role;

  beforeAll(async () => {
    api = await Api.start();
    organizationId = await createOrganizationId(api);
    const adminToken = await api.createToken(organizationId, ['admin']);
    customerId = await createCustomer(api, adminToken, (await createPackage(api, adminToken)).id);
    const owner = await createUser(api, organizationId, 'owner');
    ownerCookie = await signIn(api, owner.email);
    ({ token } = await makeToken({
      name: 'Entra ID',
      roleMapping: [
        { group: 'webmon-admins', role: 'admin' },
        { group: 'webmon-editors', role: 'editor' },
        { group: 'acme-people', role: 'client', customerId },
      ],
      defaultRole: { role: 'viewer' },
    }));
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

  it('maps groups to roles, decided again at every membership change, each change audited', async () => {
    const made = await scim(api, token, 'POST', '/Users', {
      schemas: [USER],
      userName: 'ada@agency.example',
    });
    const id = made.body.id as string;
    expect(await roleOf(Number(id))).toBe('viewer');
    const editors = await scim(api, token, 'POST', '/Groups', {
      schemas: [GROUP],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'webmon-editors',
      meta: { resourceType: 'Group' },
      members: [{ value: id }],
    });
    expect(editors.status, JSON.stringify(editors.body)).toBe(201);
    expect(await roleOf(Number(id))).toBe('editor');
    const admins = await scim(api, token, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'webmon-admins',
    });
    const adminsId = admins.body.id as string;
    const found = await scim(
      api,
      token,
      'GET',
      `/Groups${filter('displayName eq "webmon-admins"')}&excludedAttributes=members`,
    );
    expect(found.body).toMatchObject({
      totalResults: 1,
      Resources: [{ id: adminsId, displayName: 'webmon-admins' }],
    });
    expect((found.body.Resources as Json[])[0]).not.toHaveProperty('members');

    // Entra's members add and remove.
    const add = patchOp({ op: 'Add', path: 'members', value: [{ $ref: null, value: id }] });
    expect((await scim(api, token, 'PATCH', `/Groups/${adminsId}`, add)).status).toBe(200);
    expect(await roleOf(Number(id))).toBe('admin');
    expect((await scim(api, token, 'GET', `/Users/${id}`)).body.groups).toEqual([
      expect.objectContaining({ display: 'webmon-editors' }),
      expect.objectContaining({ display: 'webmon-admins' }),
    ]);
    const remove = patchOp({ op: 'Remove', path: 'members', value: [{ $ref: null, value: id }] });
    expect((await scim(api, token, 'PATCH', `/Groups/${adminsId}`, remove)).status).toBe(200);
    expect(await roleOf(Number(id))).toBe('editor');
    expect((await scim(api, token, 'DELETE', `/Groups/${editors.body.id}`)).status).toBe(204);
    expect(await roleOf(Number(id))).toBe('viewer');

    const events = await withCookie<{ items: Array<Json> }>(
      api,
      ownerCookie,
      'GET',
      '/api/audit-events?resource=users',
    );
    const roleChanges = events.body.items.filter(
      (event) => event.action === 'scimRoleChange' && event.resourceId === id,
    );
    expect(roleChanges.map((event) => (event.changes as Json[])[0])).toEqual([
      { path: 'role', old: 'editor', new: 'viewer' },
      { path: 'role', old: 'admin', new: 'editor' },
      { path: 'role', old: 'editor', new: 'admin' },
      { path: 'role', old: 'viewer', new: 'editor' },
    ]);
    expect(roleChanges[0]?.actor).toMatchObject({ type: 'token', scopes: ['scim'] });
    const calls = await withCookie<{ items: Array<Json> }>(
      api,
      ownerCookie,
      'GET',
      '/api/audit-events?resource=scim-groups',
    );
    expect(calls.body.items.map((event) => `${event.method} ${event.outcome}`)).toContain('PATCH succeeded');
  });

  it("with an identity provider, maps by the provider's rules and links the people it makes to it", async () => {
    const providers = new IdentityProviderRepository(api.db);
    const provider = await providers.create(await providers.allocateId(), {
      organizationId,
      type: 'saml',
      name: 'Entra ID',
      enabled: true,
      allowedDomains: ['agency.example'],
      roleMapping: [{ group: 'Monitoring editors', role: 'editor' }],
      defaultRole: null,
      customerId: null,
      saml: {
        metadataXml: '<EntityDescriptor/>',
        metadataUrl: null,
        idpEntityId: 'https://sts.windows.net/tenant/',
        allowIdpInitiated: false,
      },
    });
    const mixed = await withCookie(api, ownerCookie, 'POST', '/api/scim-tokens', {
      body: {
        name: 'x',
        identityProviderId: provider.id,
        roleMapping: [{ group: 'g', role: 'admin' }],
        defaultRole: { role: 'viewer' },
      },
    });
    expect(mixed).toMatchObject({ status: 400, body: { errors: [{ path: 'roleMapping' }] } });
    const unknown = await withCookie(api, ownerCookie, 'POST', '/api/scim-tokens', {
      body: { name: 'x', identityProviderId: 999_999, defaultRole: { role: 'viewer' } },
    });
    expect(unknown).toMatchObject({ status: 400, body: { errors: [{ path: 'identityProviderId' }] } });
    const linked = await makeToken({
      name: 'Entra ID (linked)',
      identityProviderId: provider.id,
      defaultRole: { role: 'viewer' },
    });
    const made = await scim(api, linked.token, 'POST', '/Users', {
      schemas: [USER],
      userName: 'linus@agency.example',
      externalId: 'oid-linus',
    });
    const id = Number(made.body.id);
    // The token's default role stands for a provider without one.
    expect(await roleOf(id)).toBe('viewer');
    expect(await providers.linkedUser(provider.id, 'oid-linus')).toEqual({ organizationId, userId: id });
    const group = await scim(api, linked.token, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Monitoring editors',
      members: [{ value: String(id) }],
    });
    expect(group.status).toBe(201);
    expect(await roleOf(id)).toBe('editor');
  });

  it('goes on after a person is removed through the users API: groups drop them, their externalId is free', async () => {
    const make = (userName: string) =>
      scim(api, token, 'POST', '/Users', { schemas: [USER], userName, externalId: `ext-${userName}` });
    const gone = (await make('gone@agency.example')).body.id as string;
    const group = await scim(api, token, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Night shift',
      members: [{ value: gone }],
    });
    expect((await withCookie(api, ownerCookie, 'DELETE', `/api/users/${gone}`)).status).toBe(204);
    expect((await scim(api, token, 'GET', `/Groups/${group.body.id}`)).body.members).toEqual([]);
    const stays = (await make('stays@agency.example')).body.id as string;
    const added = await scim(
      api,
      token,
      'PATCH',
      `/Groups/${group.body.id}`,
      patchOp({ op: 'Add', path: 'members', value: [{ value: stays }] }),
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.members).toEqual([expect.objectContaining({ value: stays })]);
    const unknown = await scim(
      api,
      token,
      'PATCH',
      `/Groups/${group.body.id}`,
      patchOp({ op: 'Add', path: 'members', value: [{ value: '999999' }] }),
    );
    expect(unknown).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect(unknown.body.detail).toMatch(/^members: no user 999999/);
    const again = await scim(api, token, 'POST', '/Users', {
      schemas: [USER],
      userName: 'gone.again@agency.example',
      externalId: 'ext-gone@agency.example',
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const taken = await scim(api, token, 'POST', '/Users', {
      schemas: [USER],
      userName: 'other@agency.example',
      externalId: 'ext-stays@agency.example',
    });
    expect(taken).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    expect(taken.body.detail).toMatch(/^externalId: /);
  });

  it('keeps the owner rules: the last owner is not removed nor deactivated (409)', async () => {
    const owners = (await usersOf()).filter((user) => user.role === 'owner');
    expect(owners).toHaveLength(1);
    const id = String(owners[0]?.id);
    const removed = await scim(api, token, 'DELETE', `/Users/${id}`);
    expect(removed).toMatchObject({ status: 409, body: { schemas: [ERROR], status: '409' } });
    expect(removed.body.detail).toMatch(/last owner/);
    const off = await scim(
      api,
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp({ op: 'replace', value: { active: false } }),
    );
    expect(off.status).toBe(409);

    // A group that would map the last owner to admin changes the group, not the owner; recorded.
    const admins = await scim(api, token, 'GET', `/Groups${filter('displayName eq "webmon-admins"')}`);
    const adminsId = (admins.body.Resources as Json[])[0]?.id as string;
    const add = patchOp({ op: 'add', path: 'members', value: [{ value: id }] });
    expect((await scim(api, token, 'PATCH', `/Groups/${adminsId}`, add)).status).toBe(200);
    expect(await roleOf(Number(id))).toBe('owner');
    const events = await withCookie<{ items: Json[] }>(
      api,
      ownerCookie,
      'GET',
      '/api/audit-events?resource=users',
    );
    expect(events.body.items.find((event) => event.resourceId === id)).toMatchObject({
      action: 'scimRoleChange',
      outcome: 'failed',
      changes: [
        { path: 'role', old: 'owner', new: 'admin' },
        { path: 'refusedBecause', new: expect.stringMatching(/last owner/) },
      ],
    });

    // An admin's token touches no owner (403), whoever else there is.
    const admin = await createUser(api, organizationId, 'admin');
    const adminsToken = await makeToken(
      { name: 'admin-made', defaultRole: { role: 'viewer' } },
      await signIn(api, admin.email),
    );
    const secondOwner = await createUser(api, organizationId, 'owner');
    const refused = await scim(
      api,
      adminsToken.token,
      'PATCH',
      `/Users/${secondOwner.id}`,
      patchOp({ op: 'replace', value: { active: false } }),
    );
    expect(refused).toMatchObject({ status: 403, body: { schemas: [ERROR], status: '403' } });
    expect((await scim(api, adminsToken.token, 'DELETE', `/Users/${secondOwner.id}`)).status).toBe(403);
    expect((await withCookie(api, ownerCookie, 'DELETE', `/api/users/${secondOwner.id}`)).status).toBe(204);
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
