export { FLOW_TTL_SECONDS, newBinding, PendingLinks, type SsoFlow, SsoFlowStore } from './flow-store.js';
export { type ProviderFetch, ProviderUnreachable, providerFetch } from './guarded-fetch.js';
export { IdentityProviderRepository } from './identity-provider.repository.js';
export {
  connectionTestView,
  createIdentityProviderBody,
  type IdentityProvider,
  identityProviderView,
  patchIdentityProviderBody,
  providerButtonView,
  serviceProviderView,
  toIdentityProviderView,
} from './identity-provider.schema.js';
export { IdentityProviders, ssoPaths } from './identity-providers.js';
export { authorizationRequest, completeAuthorization, discover, type OidcIo, OidcRefusal } from './oidc.js';
export {
  type MappedRole,
  type RoleDecision,
  type RoleMappingRule,
  type RoleOptions,
  resolveRole,
  roleMapping,
  roleMappingRule,
  ruleMatches,
  type SsoIdentity,
} from './role-mapping.js';
export {
  type AuthnRequestForm,
  authnRequestPage,
  authnRequestPagePolicy,
  type IdpCertificate,
  type IdpMetadata,
  parseIdpMetadata,
  SamlAssertionLedger,
  type SamlBinding,
  SamlRefusal,
  SamlSignIn,
  ServiceProviderKeys,
  serviceProviderMetadata,
} from './saml/index.js';
export {
  SSO_REFUSALS,
  type SsoAttempt,
  type SsoOutcome,
  type SsoRefusalReason,
  SsoSignIn,
} from './sso-sign-in.js';
