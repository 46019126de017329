export {
  type IdpCertificate,
  type IdpMetadata,
  type ParseOptions,
  parseIdpMetadata,
  type SamlBinding,
  type ServiceProviderOptions,
  serviceProviderMetadata,
} from './metadata.js';
