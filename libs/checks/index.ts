export {
  CHECKS,
  type CheckContext,
  type CheckName,
  type CheckOutcome,
  type CheckResult,
  evaluate,
  type HealthStatus,
  statusMatches,
} from './checks.js';
export type { Observation, ProbeError, Timings, TlsObservation } from './observation.js';
