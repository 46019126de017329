import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityProviderRepository } from '../libs/sso/index.js';
import { ERROR, filter, GROUP, type Json, patchOp, scim, scimOrganization, USER } from './scim-fixture.js';
import type { TestApi } from './support/harness.js';
import { createUser, signIn, withCookie } from './support/people.js';

describe('SCIM 2.0 provisioning: groups mapped to roles, under the owner rules', { timeout: 60_000 }, () => {
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
    // SCIM gives the roles signing in gives: a provider without a default role would give new people none.
    const noDefault = await withCookie<Json>(api, ownerCookie, 'POST', '/api/scim-tokens', {
      body: { name: 'x', identityProviderId: provider.id, defaultRole: { role: 'viewer' } },
    });
    expect(noDefault).toMatchObject({ status: 400, body: { errors: [{ path: 'identityProviderId' }] } });
    expect(noDefault.body.detail).toMatch(/set the provider's default role/);
    await providers.replace({ ...provider, defaultRole: { role: 'viewer' } });
    const linked = await makeToken({
      name: 'Entra ID (linked)',
      identityProviderId: provider.id,
      // Not used: the provider's default role decides, as at sign-in.
      defaultRole: { role: 'editor' },
    });
    const made = await scim(api, linked.token, 'POST', '/Users', {
      schemas: [USER],
      userName: 'linus@agency.example',
      externalId: 'oid-linus',
    });
    const id = Number(made.body.id);
    // The provider's default role, not the token's.
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
});
