export { type DomainClaim, StatusPageDomainRepository } from './domain.repository.js';
export {
  addDomainBody,
  domainParams,
  type StatusPageDomainView,
  statusPageDomainView,
  tlsAskQuery,
} from './domain.schema.js';
export {
  MAX_DOMAINS_PER_PAGE,
  StatusPageDomains,
  type StatusPageDomainsDeps,
  type StatusPageDomainTarget,
} from './domain.service.js';
export { rewriteDomainPath } from './domain-path.js';
export { hostOfHeader, isAgencyHost, parseDomainHost } from './host-name.js';
export {
  CHALLENGE_LABEL,
  type DnsRecordToCreate,
  judgeVerification,
  recordsToCreate,
} from './verification.js';
export { type HostHolder, VerifiedHostIndex } from './verified-hosts.js';
