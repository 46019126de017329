export { type AssertionFacts, assertionFacts } from './assertion-facts.js';
export { HANDOVER_TTL_SECONDS, SamlAssertionLedger, type SamlHandover } from './assertion-ledger.js';
export { type AssertionContent, DEFAULT_GROUP_ATTRIBUTES, identityOfAssertion } from './identity.js';
export {
  type IdpCertificate,
  type IdpMetadata,
  type ParseOptions,
  parseIdpMetadata,
  type SamlBinding,
  type ServiceProviderOptions,
  serviceProviderMetadata,
} from './metadata.js';
export { authnRequestPage, authnRequestPagePolicy } from './post-binding.js';
export { type SamlRefused, SamlSignIn, type SamlSignInDeps } from './saml-sign-in.js';
export {
  type AuthnRequest,
  type AuthnRequestForm,
  authnRequest,
  CLOCK_SKEW_MS,
  SamlRefusal,
  type SamlSpSettings,
  type ValidatedAssertion,
  validateResponse,
} from './service-provider.js';
export { SAML_SP_KEYS, ServiceProviderKeys, type SpKeyPair } from './sp-keys.js';
