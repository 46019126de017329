import type { z } from 'zod';
import { conflict } from '../errors/index.js';
import {
  DuplicatePackageKeyError,
  type PackageDocument,
  type PackageRepository,
} from './package.repository.js';
import {
  type createPackageBody,
  FEATURES,
  type Feature,
  includesFeature,
  limitsOf,
  type packageView,
} from './package.schema.js';

export function toPackageView(document: PackageDocument): z.input<typeof packageView> {
  return {
    ...document,
    // A package stored before a feature existed has no word on it: shown as it is decided (included).
    features: Object.fromEntries(
      FEATURES.map((feature) => [feature, includesFeature(document, feature)]),
    ) as Record<Feature, boolean>,
    limits: limitsOf(document),
    createdAt: document.createdAt.toISOString(),
    updatedAt: document.updatedAt.toISOString(),
  };
}

/** A new package of the organization (409 when its key is taken). */
export function createPackage(
  packages: PackageRepository,
  organizationId: number,
  body: z.output<typeof createPackageBody>,
): Promise<PackageDocument> {
  return keyTakenAsConflict(() => packages.create({ organizationId, ...body }));
}

/** A package key already taken, said as a conflict of this organization. */
export async function keyTakenAsConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DuplicatePackageKeyError) throw conflict(`${error.message} in this organization`);
    throw error;
  }
}
