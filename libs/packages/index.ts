export { DEFAULT_PACKAGE, ensureDefaultPackage } from './default-package.js';
export {
  DuplicatePackageKeyError,
  type PackageDocument,
  PackageRepository,
  packageIndexes,
} from './package.repository.js';
export {
  type Alerting,
  createPackageBody,
  FEATURES,
  type Feature,
  type Features,
  includesFeature,
  type Limits,
  limitsOf,
  packageView,
  patchPackageBody,
} from './package.schema.js';
export { PackageCache, packageRevisions } from './package-cache.js';
export { createPackage, keyTakenAsConflict, toPackageView } from './package-writes.js';
