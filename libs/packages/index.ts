export { DEFAULT_PACKAGE, ensureDefaultPackage } from './default-package.js';
export { type PackageDocument, PackageRepository, packageIndexes } from './package.repository.js';
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
} from './package.schema.js';
export { PackageCache, packageRevisions } from './package-cache.js';
export {
  createPackage,
  type PackageRouteDependencies,
  packageRoutes,
  toPackageView,
} from './packages.routes.js';
