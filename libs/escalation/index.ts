export { ACK_TOKEN, type AckLink, AckLinks, ackLinkIndexes } from './ack-links.js';
export { applicablePolicyId } from './escalation-plan.js';
export { EscalationQueue, startEscalationWorker } from './escalation.queue.js';
export { type EscalationRun, EscalationRuns, runIndexes } from './escalation-run.repository.js';
export { type EscalationPorts, EscalationRunner } from './escalation-runner.js';
export { EscalationPolicyRepository, policyIndexes } from './policy.repository.js';
export {
  createPolicyBody,
  type EscalationPolicyDocument,
  escalationPolicyIdField,
  type EscalationTarget,
  patchPolicyBody,
  policyView,
  toPolicyView,
} from './policy.schema.js';
export { EscalationPolicyService, MAX_POLICIES, type PolicyTargetsPort } from './policy.service.js';
