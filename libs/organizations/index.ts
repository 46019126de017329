export { createOrganization } from './create-organization.js';
export { isLogoOfType, LOGO_TYPES, type Logo, LogoStore, MAX_LOGO_BYTES } from './logo-store.js';
export { patchOrganizationBody } from './organization.schema.js';
