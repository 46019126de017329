import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrganizationRepository } from '../libs/auth/index.js';
import { createOrganization } from '../libs/organizations/index.js';
import { ensureDefaultPackage, PackageRepository } from '../libs/packages/index.js';
import { TestApi } from './support/harness.js';

// `create-org` (test/admin-cli.test.ts) makes its organizations with createOrganization.
describe('a new organization’s default package', () => {
  let api: TestApi;
  let packages: PackageRepository;
  let organizations: OrganizationRepository;
  beforeAll(async () => {
    api = await TestApi.start();
    packages = new PackageRepository(api.db);
    organizations = new OrganizationRepository(api.db);
  });
  afterAll(() => api?.stop());

  it('lets the seed’s first call, POST /api/v1/customers {plan: "standard"}, work at once', async () => {
    const organization = await createOrganization({ organizations, packages }, 'Seeded Agency');
    const token = await api.createToken(organization.id, ['write']);
    const customer = await api.request('POST', '/api/v1/customers', {
      token,
      body: { name: 'Acme', plan: 'standard' },
    });
    expect(customer).toMatchObject({ status: 201, body: { status: 'active' } });
    const listed = await api.request<Array<{ key: string; features: Record<string, boolean> }>>(
      'GET',
      '/api/packages',
      { token },
    );
    expect(listed.body.map((pkg) => pkg.key)).toEqual(['standard']);
    expect(Object.values(listed.body[0]!.features).every(Boolean)).toBe(true);
  });

  it('is made once however often it is asked for, at once too', async () => {
    const { id } = await organizations.create('Twice Agency');
    const first = await ensureDefaultPackage(packages, id);
    const again = await Promise.all([1, 2, 3].map(() => ensureDefaultPackage(packages, id)));
    expect(again.map((pkg) => pkg.id)).toEqual([first.id, first.id, first.id]);
    expect((await packages.list(id)).map((pkg) => pkg.key)).toEqual(['standard']);
  });

  it('keeps a "standard" package the organization has as it is', async () => {
    const { organizationId, token } = await api.createOrganization(['admin']);
    const own = await api.request<{ id: number }>('POST', '/api/packages', {
      token,
      body: { key: 'standard', displayName: 'Our standard', limits: { maxWebsites: 3 } },
    });
    expect(own.status).toBe(201);
    const kept = await ensureDefaultPackage(packages, organizationId);
    expect(kept).toMatchObject({ id: own.body.id, displayName: 'Our standard', limits: { maxWebsites: 3 } });
    expect(await packages.list(organizationId)).toHaveLength(1);
  });
});
