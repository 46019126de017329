export {
  ERROR_SCHEMA,
  GROUP_ATTRIBUTES,
  GROUP_SCHEMA,
  LIST_SCHEMA,
  SCIM_CONTENT_TYPE,
  USER_ATTRIBUTES,
  USER_SCHEMA,
} from './attributes.js';
export { MAX_OPERATIONS, MAX_RESULTS, resourceTypes, schemas, serviceProviderConfig } from './discovery.js';
export { type Filter, parseFilter } from './filter.js';
export { ScimGroups } from './groups.js';
export { patchBody as scimPatchBody } from './patch.js';
export {
  listResponse,
  project,
  scimGroupInput,
  scimGroupView,
  scimUserInput,
  scimUserView,
} from './resources.js';
export {
  currentGrant,
  type MakerRefusal,
  type ProviderMapping,
  type ProvisioningDeps,
  type RoleChange,
  type ScimCaller,
} from './roles.js';
export { type ScimErrorBody, scimErrorBody, scimErrorOf } from './scim-error.js';
export { ScimStore, scimStoreIndexes } from './scim-store.js';
export { ScimTokenRepository, scimTokenIndexes } from './scim-token.js';
export {
  createdScimTokenView,
  createScimTokenBody,
  type ScimToken,
  scimTokenView,
  toScimTokenView,
} from './scim-token.schema.js';
export { ScimUsers, type ScimWrite } from './users.js';
