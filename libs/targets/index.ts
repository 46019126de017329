export {
  blockedReason,
  embeddedIpv4,
  refusalUnder,
  refusedUrl,
  type TargetGuard,
} from './address-policy.js';
