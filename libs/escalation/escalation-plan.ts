import type { EscalationStep } from './policy.schema.js';

/* Where a run of a policy stands and what comes next, without I/O. */

/** A step of a run: which pass through the policy (0: the first) and which step of it. */
export interface StepPosition {
  round: number;
  step: number;
}

/** The policy as a run holds it: a snapshot taken when it starts, so later edits do not shift it. */
export interface PolicySnapshot {
  policyId: number;
  name: string;
  steps: readonly EscalationStep[];
  repeat: number;
}

export const FIRST_STEP: StepPosition = { round: 0, step: 0 };

/** The step after `at`, or null when the policy (with its repeats) is done. */
export function stepAfter(
  policy: Pick<PolicySnapshot, 'steps' | 'repeat'>,
  at: StepPosition,
): StepPosition | null {
  if (at.step + 1 < policy.steps.length) return { round: at.round, step: at.step + 1 };
  return at.round < policy.repeat ? { round: at.round + 1, step: 0 } : null;
}

/**
 * How long after a step's sends the next one starts: its wait, scaled (`ESCALATION_TIME_SCALE`
 * shortens it in tests as DELIVERY_RETRY_SCALE shortens retries).
 */
export function waitAfterMs(step: Pick<EscalationStep, 'waitMinutes'>, scale: number): number {
  return Math.round(step.waitMinutes * 60_000 * scale);
}

/** A step's place in words, for the incident's timeline: "step 2 of 3 (round 2 of 2)". */
export function stepLabel(policy: Pick<PolicySnapshot, 'steps' | 'repeat'>, at: StepPosition): string {
  const rounds = policy.repeat + 1;
  const round = rounds > 1 ? ` (round ${at.round + 1} of ${rounds})` : '';
  return `step ${at.step + 1} of ${policy.steps.length}${round}`;
}

/** A step's key: it names its job and its sends, so each is done once. */
export const stepKey = (at: StepPosition) => `r${at.round}s${at.step}`;

/**
 * The policy that applies to a website: its own, else its customer's, else the organization's
 * default (null: the alert goes to channels only).
 */
export function applicablePolicyId(ids: {
  website: number | null | undefined;
  customer: number | null | undefined;
  organization: number | null | undefined;
}): number | null {
  return ids.website ?? ids.customer ?? ids.organization ?? null;
}
