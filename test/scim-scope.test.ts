import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityProviderRepository } from '../libs/sso/index.js';
import { filter, GROUP, type Json, patchOp, scim, scimOrganization, USER } from './scim-fixture.js';
import type { TestApi } from './support/harness.js';
import { createUser, signIn, withCookie } from './support/people.js';

describe('SCIM 2.0: what a token reaches (a customer’s own provider) and on whose authority', {
  timeout: 60_000,
}, () => {
  let api: TestApi;
  let organizationId: number;
  let customerId: number;
  let ownerCookie: string;
  let fixture: Awaited<ReturnType<typeof scimOrganization>>;
  const roleOf = (id: number) => fixture.roleOf(id);
  const auditOf = async (resource: string) =>
    (await withCookie<{ items: Json[] }>(api, ownerCookie, 'GET', `/api/audit-events?resource=${resource}`))
      .body.items;

  beforeAll(async () => {
    fixture = await scimOrganization();
    ({ api, organizationId, customerId, ownerCookie } = fixture);
  });
  afterAll(() => api.stop());

  it("a customer's own provider's token reaches that customer's client users only", async () => {
    const providers = new IdentityProviderRepository(api.db);
    const provider = await providers.create(await providers.allocateId(), {
      organizationId,
      type: 'saml',
      name: "Acme's Okta",
      enabled: true,
      allowedDomains: ['acme.example'],
      roleMapping: [],
      defaultRole: null,
      customerId,
      saml: {
        metadataXml: '<EntityDescriptor/>',
        metadataUrl: null,
        idpEntityId: 'https://acme.okta.example/',
        allowIdpInitiated: false,
      },
    });
    // A customer's provider needs no default role: everyone it brings is that customer's client.
    const { token } = await fixture.makeToken({
      name: "Acme's Okta",
      identityProviderId: provider.id,
      defaultRole: { role: 'viewer' },
    });
    const staff = await createUser(api, organizationId, 'admin');

    const outside = await scim(api, token, 'POST', '/Users', {
      schemas: [USER],
      userName: 'eve@agency.example',
    });
    expect(outside).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect(outside.body.detail).toMatch(/^userName: agency\.example is not among/);
    const made = await scim(api, token, 'POST', '/Users', { schemas: [USER], userName: 'ann@acme.example' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const ann = made.body.id as string;
    expect((await fixture.usersOf()).find((user) => user.id === Number(ann))).toMatchObject({
      role: 'client',
      customerId,
    });

    const list = await scim(api, token, 'GET', '/Users');
    expect(list.body).toMatchObject({ totalResults: 1, Resources: [{ id: ann }] });
    const byName = await scim(api, token, 'GET', `/Users${filter(`userName eq "${staff.email}"`)}`);
    expect(byName.body).toMatchObject({ totalResults: 0 });
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { schemas: [USER], userName: staff.email, active: false }],
      ['PATCH', patchOp({ op: 'replace', value: { active: false } })],
      ['DELETE', undefined],
    ] as const)
      expect((await scim(api, token, method, `/Users/${staff.id}`, body)).status, method).toBe(404);
    expect(await roleOf(staff.id)).toBe('admin');

    const grab = await scim(api, token, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Acme admins',
      members: [{ value: ann }, { value: String(staff.id) }],
    });
    expect(grab).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect(grab.body.detail).toMatch(/^members: .*client user/);
    expect(await roleOf(staff.id)).toBe('admin');

    // Groups: the customer's token sees its own, the organization's token the organization's.
    const staffGroup = await scim(api, fixture.token, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'webmon-admins',
      members: [{ value: String(staff.id) }],
    });
    expect(staffGroup.status).toBe(201);
    const acme = await scim(api, token, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'webmon-admins',
      members: [{ value: ann }],
    });
    expect(acme.status, JSON.stringify(acme.body)).toBe(201);
    expect((await scim(api, token, 'GET', '/Groups')).body).toMatchObject({
      totalResults: 1,
      Resources: [{ id: acme.body.id }],
    });
    expect((await scim(api, token, 'DELETE', `/Groups/${staffGroup.body.id}`)).status).toBe(404);
    expect((await scim(api, fixture.token, 'GET', `/Groups/${acme.body.id}`)).status).toBe(404);
    expect(await roleOf(staff.id)).toBe('admin');
    expect(await roleOf(Number(ann))).toBe('client');
  });

  it("acts with its maker's authority now: less once demoted, none once they are gone", async () => {
    const secondOwner = await createUser(api, organizationId, 'owner');
    const ownersToken = (
      await fixture.makeToken(
        { name: 'Okta', defaultRole: { role: 'viewer' } },
        await signIn(api, secondOwner.email),
      )
    ).token;
    const thirdOwner = await createUser(api, organizationId, 'owner');
    const demote = await withCookie(api, ownerCookie, 'PATCH', `/api/users/${secondOwner.id}`, {
      body: { role: 'admin' },
    });
    expect(demote.status).toBe(200);
    // An owner's token acts as admin now its maker is one: it deactivates no owner.
    const deactivate = await scim(
      api,
      ownersToken,
      'PATCH',
      `/Users/${thirdOwner.id}`,
      patchOp({ op: 'replace', value: { active: false } }),
    );
    expect(deactivate.status).toBe(403);
    expect((await fixture.usersOf()).find((user) => user.id === thirdOwner.id)).not.toHaveProperty(
      'deactivatedAt',
    );

    const admin = await createUser(api, organizationId, 'admin');
    const adminsToken = (
      await fixture.makeToken(
        { name: 'Entra', defaultRole: { role: 'viewer' } },
        await signIn(api, admin.email),
      )
    ).token;
    expect((await scim(api, adminsToken, 'GET', '/Users')).status).toBe(200);
    await withCookie(api, ownerCookie, 'PATCH', `/api/users/${admin.id}`, { body: { role: 'editor' } });
    const refused = await scim(api, adminsToken, 'GET', '/Users');
    expect(refused).toMatchObject({ status: 403, body: { status: '403' } });
    expect(refused.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(refused.body.detail).toMatch(/no longer an owner or admin; ask your webmon admin/);
    expect((await withCookie(api, ownerCookie, 'DELETE', `/api/users/${admin.id}`)).status).toBe(204);
    const gone = await scim(api, adminsToken, 'GET', '/Users');
    expect(gone.body.detail).toMatch(/no longer in the organization/);

    const calls = await auditOf('scim-users');
    expect(calls.find((event) => event.status === 403 && event.method === 'PATCH')?.actor).toMatchObject({
      type: 'token',
      role: 'admin',
    });
    expect(
      calls
        .filter((event) => event.status === 403 && event.method === 'GET')
        .map((event) => (event.changes as Json[])[0]),
    ).toMatchObject([
      { path: 'refusedBecause', new: 'maker-gone' },
      { path: 'refusedBecause', new: 'maker-not-admin' },
    ]);
  });
});
