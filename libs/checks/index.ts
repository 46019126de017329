export {
  ASSERTION_OPERATORS,
  ASSERTION_SOURCES,
  type Assertion,
  type AssertionOutcome,
  assertionOutcomeSchema,
  assertionSchema,
  describeAssertion,
  evaluateAssertions,
  failedAssertionLine,
  jsonPathProblem,
  MAX_ASSERTIONS,
  matchesPattern,
  patternProblem,
} from './assertions.js';
export { type CheckConfig, type CheckSwitch, checkConfigSchema } from './check-config.js';
export {
  CHECKS,
  type CheckContext,
  type CheckName,
  type CheckOutcome,
  type CheckResult,
  type CheckThresholds,
  certificateSummary,
  evaluate,
  type HealthStatus,
  statusMatches,
} from './checks.js';
export {
  CREDENTIAL_HEADERS,
  EVIDENCE_BODY_BYTES,
  type Evidence,
  evidenceOf,
  evidenceSchema,
  timingsSchema,
  withoutBody,
} from './evidence.js';
export type {
  HopTimings,
  Observation,
  ProbeError,
  RedirectHop,
  Timings,
  TlsObservation,
} from './observation.js';
