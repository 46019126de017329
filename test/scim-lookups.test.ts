import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRepository } from '../libs/people/index.js';
import {
  type ProvisioningDeps,
  parseFilter,
  type ScimCaller,
  ScimStore,
  ScimUsers,
  USER_ATTRIBUTES,
} from '../libs/scim/index.js';
import { TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

/**
 * A sync looks each person up by `userName eq` or `externalId eq` (Entra ID before every write):
 * those read the person alone, not the organization's people, or a sync of N people reads N².
 */
describe("SCIM's per-person lookups read that person only", { timeout: 60_000 }, () => {
  let api: TestApi;
  let organizationId: number;
  let users: ScimUsers;
  let caller: ScimCaller;
  /** How often the organization's people were read whole. */
  let wholeReads = 0;
  const found: Array<{ id: number; email: string }> = [];

  beforeAll(async () => {
    api = await TestApi.start();
    organizationId = await createOrganizationId(api);
    for (let index = 0; index < 3; index++) found.push(await createUser(api, organizationId, 'viewer'));
    const repository = new UserRepository(api.db);
    const store = new ScimStore(api.db);
    const unused = () => {
      throw new Error('not part of a list');
    };
    const deps: ProvisioningDeps = {
      users: {
        findById: (...args) => repository.findById(...args),
        findByEmail: (...args) => repository.findByEmail(...args),
        create: (...args) => repository.create(...args),
        update: (...args) => repository.update(...args),
        list: (...args) => {
          wholeReads++;
          return repository.list(...args);
        },
      },
      administration: { update: unused, delete: unused, setActive: unused },
      store,
      mutex: { withLock: (_resource, work) => work() },
      customerExists: async () => false,
      providerMapping: async () => null,
      linkIdentity: unused,
    };
    users = new ScimUsers(deps);
    await store.putPerson({
      organizationId,
      userId: found[1]?.id as number,
      externalId: 'oid-1',
      givenName: null,
      familyName: null,
      formatted: null,
      emails: [],
      updatedAt: new Date(),
    });
    caller = {
      base: 'http://127.0.0.1/scim/v2',
      token: {
        id: 1,
        organizationId,
        name: 'Entra ID',
        prefix: 'wmscim_x',
        hash: 'x',
        identityProviderId: null,
        roleMapping: [],
        defaultRole: { role: 'viewer', customerId: null },
        grant: 'owner',
        createdBy: 1,
        createdAt: new Date(),
        lastUsedAt: null,
        revokedAt: null,
      },
    };
  });
  afterAll(() => api.stop());

  const list = (expression: string) => users.list(caller, parseFilter(expression, USER_ATTRIBUTES), 1, 100);

  it('finds by userName eq and externalId eq without reading everyone', async () => {
    const byName = await list(`userName eq "${found[0]?.email.toUpperCase()}"`);
    expect(byName.Resources.map((resource) => resource.id)).toEqual([String(found[0]?.id)]);
    const byExternalId = await list('externalId eq "oid-1"');
    expect(byExternalId.Resources.map((resource) => resource.id)).toEqual([String(found[1]?.id)]);
    expect((await list('userName eq "nobody@agency.example"')).totalResults).toBe(0);
    expect((await list('externalId eq "OID-1"')).totalResults).toBe(0);
    expect(wholeReads).toBe(0);
  });

  it('reads everyone for any other filter', async () => {
    const any = await list(`userName eq "${found[2]?.email}" or externalId eq "oid-1"`);
    expect(any.totalResults).toBe(2);
    expect(wholeReads).toBe(1);
  });
});
