export { API_TOKENS, type ApiToken, ApiTokenRepository, apiTokenIndexes } from './api-token.repository.js';
export { scopeList, tokenFitsRole, tokenView, toTokenView } from './api-token.schema.js';
export { createAuthenticator } from './authenticator.js';
export { type Organization, OrganizationRepository, organizationIndexes } from './organization.repository.js';
export { generateToken, hashToken, isWellFormedToken } from './token.js';
export { PERSONAL_TOKEN_ROUTE_PATHS, personalTokenRoutes, tokenRoutes } from './tokens.routes.js';
