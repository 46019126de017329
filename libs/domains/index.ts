export {
  createDomainExpiryLookup,
  DOMAIN_EXPIRY,
  type DomainExpiryOptions,
  domainExpiryIndexes,
  knownDomainExpiries,
} from './domain-expiry.js';
export { rdapExpiry, whoisExpiry } from './expiry-parsing.js';
