export { API_TOKENS, type ApiToken, ApiTokenRepository, apiTokenIndexes } from './api-token.repository.js';
export {
  createdTokenView,
  createTokenBody,
  scopeList,
  tokenFitsRole,
  tokenView,
  toTokenView,
} from './api-token.schema.js';
export { createAuthenticator } from './authenticator.js';
export {
  type Organization,
  OrganizationRepository,
  organizationIndexes,
  organizationRevisions,
} from './organization.repository.js';
export { generateToken, hashToken, isWellFormedToken } from './token.js';
