import {
  DuplicatePackageKeyError,
  type PackageDocument,
  type PackageRepository,
} from './package.repository.js';
import { createPackageBody } from './package.schema.js';

/**
 * The package a new organization starts with, so the seed's first call, `POST /api/v1/customers
 * {"name": …, "plan": "standard"}`, works at once: every feature on, the documented limits and
 * alerting defaults (what `POST /api/packages` makes of a key and a display name alone).
 */
export const DEFAULT_PACKAGE = createPackageBody.parse({ key: 'standard', displayName: 'Standard' });

/**
 * The organization's package of the default key, made as DEFAULT_PACKAGE when it has none; one it
 * has is kept as it is (an admin may have changed it). Twice, or two at once, still make one: the
 * key is unique in the organization.
 */
export async function ensureDefaultPackage(
  packages: PackageRepository,
  organizationId: number,
): Promise<PackageDocument> {
  const existing = await packages.findByKey(organizationId, DEFAULT_PACKAGE.key);
  if (existing) return existing;
  try {
    return await packages.create({ organizationId, ...DEFAULT_PACKAGE });
  } catch (error) {
    const made =
      error instanceof DuplicatePackageKeyError &&
      (await packages.findByKey(organizationId, DEFAULT_PACKAGE.key));
    if (made) return made;
    throw error;
  }
}
