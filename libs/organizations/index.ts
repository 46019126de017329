export { createOrganization } from './create-organization.js';
export { LOGO_TYPES, type Logo, LogoStore, MAX_LOGO_BYTES } from './logo-store.js';
export { organizationRoutes, organizationView } from './organization.routes.js';
