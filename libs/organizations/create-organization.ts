import type { Organization, OrganizationRepository } from '../auth/index.js';
import { ensureDefaultPackage, type PackageRepository } from '../packages/index.js';

/**
 * A new organization, with the default package (`standard`) its first customers can be put on at
 * once: without a package, `POST /api/v1/customers` has no plan to take.
 */
export async function createOrganization(
  deps: { organizations: OrganizationRepository; packages: PackageRepository },
  name: string,
): Promise<Organization> {
  const organization = await deps.organizations.create(name);
  await ensureDefaultPackage(deps.packages, organization.id);
  return organization;
}
