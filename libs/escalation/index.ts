export { ACK_TOKEN, type AckLink, AckLinks, ackLinkIndexes } from './ack-links.js';
export { EscalationQueue, startEscalationWorker } from './escalation.queue.js';
export { applicablePolicyId } from './escalation-plan.js';
export { type EscalationRun, EscalationRuns, runIndexes } from './escalation-run.repository.js';
export { type EscalationPorts, EscalationRunner } from './escalation-runner.js';
export { EscalationPolicyRepository, policyIndexes, policyRevisions } from './policy.repository.js';
export {
  createPolicyBody,
  type EscalationPolicyDocument,
  type EscalationTarget,
  escalationPolicyIdField,
  patchPolicyBody,
  policyView,
  toPolicyView,
} from './policy.schema.js';
export { EscalationPolicyService, MAX_POLICIES, type PolicyTargetsPort } from './policy.service.js';
