import { expect } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createOrganizationId, createUser, signIn, withCookie } from './support/people.js';

/** What test/scim*.test.ts share: SCIM's URNs, a SCIM client's requests, an organization with an owner and a token. */

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export type Json = Record<string, unknown>;

/** A SCIM client's request as Entra ID and Okta make it: the bearer token, application/scim+json. */
export function scim(api: TestApi, token: string, method: string, path: string, body?: unknown) {
  return api.request<Json>(method, `/scim/v2${path}`, {
    token,
    ...(body === undefined ? {} : { rawBody: JSON.stringify(body) }),
    headers: { 'content-type': 'application/scim+json', accept: 'application/scim+json' },
  });
}
export const patchOp = (...Operations: unknown[]) => ({ schemas: [PATCH], Operations });
export const filter = (expression: string) => `?filter=${encodeURIComponent(expression)}`;

/**
 * An API with an organization (a customer, an owner signed in) and its owner's SCIM token "Entra
 * ID": groups webmon-admins → admin, webmon-editors → editor, acme-people → client of the
 * customer, anyone else viewer.
 */
export async function scimOrganization() {
  const api = await TestApi.start();
  const organizationId = await createOrganizationId(api);
  const adminToken = await api.createToken(organizationId, ['admin']);
  const customerId = await createCustomer(api, adminToken, (await createPackage(api, adminToken)).id);
  const owner = await createUser(api, organizationId, 'owner');
  const ownerCookie = await signIn(api, owner.email);
  /** A SCIM token made by the signed-in person (the owner unless told). */
  const makeToken = async (body: Json, cookie = ownerCookie) => {
    const res = await withCookie(api, cookie, 'POST', '/api/scim-tokens', { body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; token: string; baseUrl: string };
  };
  const usersOf = async () =>
    (
      await withCookie<Array<{ id: number; role: string; customerId: number | null }>>(
        api,
        ownerCookie,
        'GET',
        '/api/users',
      )
    ).body;
  const { token } = await makeToken({
    name: 'Entra ID',
    roleMapping: [
      { group: 'webmon-admins', role: 'admin' },
      { group: 'webmon-editors', role: 'editor' },
      { group: 'acme-people', role: 'client', customerId },
    ],
    defaultRole: { role: 'viewer' },
  });
  return {
    api,
    organizationId,
    customerId,
    ownerCookie,
    token,
    makeToken,
    usersOf,
    roleOf: async (id: number) => (await usersOf()).find((user) => user.id === id)?.role,
  };
}
