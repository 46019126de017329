export {
  blockedReason,
  type ExemptAddress,
  embeddedIpv4,
  parseExemptAddress,
  refusalUnder,
  refusedUrl,
  STORE_PORTS,
  type TargetGuard,
} from './address-policy.js';
