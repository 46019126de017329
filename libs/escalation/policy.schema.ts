import { z } from 'zod';
import { nameText, patchBody, resourceId } from '../contract/index.js';

/** Steps a policy has at most, targets a step, and how often it may run through again. */
export const MAX_STEPS = 20;
export const MAX_TARGETS_PER_STEP = 10;
export const MAX_REPEAT = 10;
/** A day: a wait longer than that is a forgotten alert, not an escalation. */
export const MAX_WAIT_MINUTES = 1440;

/** Who a step notifies: a schedule's on-call person, a person, or a notification channel. */
export const escalationTarget = z
  .union([
    z.strictObject({ schedule: resourceId().describe('An on-call schedule: whoever is on call then') }),
    z.strictObject({ user: resourceId().describe('A person, through their verified contact methods') }),
    z.strictObject({ channel: resourceId().describe('A notification channel') }),
  ])
  .meta({ id: 'EscalationTarget' });
export type EscalationTarget = z.output<typeof escalationTarget>;

export const escalationStep = z
  .strictObject({
    targets: z.array(escalationTarget).min(1).max(MAX_TARGETS_PER_STEP),
    waitMinutes: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_MINUTES)
      .describe('Minutes to wait for an acknowledgement before the next step (0: go on at once)'),
  })
  .meta({ id: 'EscalationStep' });
export type EscalationStep = z.output<typeof escalationStep>;

const policyFields = {
  name: nameText(200),
  steps: z.array(escalationStep).min(1).max(MAX_STEPS),
  repeat: z
    .number()
    .int()
    .min(0)
    .max(MAX_REPEAT)
    .describe('How many more times all steps run after the last one’s wait (0: once through)'),
};

export const createPolicyBody = z
  .strictObject({ ...policyFields, repeat: policyFields.repeat.optional() })
  .meta({ id: 'EscalationPolicyCreate' });
export type CreatePolicyInput = z.output<typeof createPolicyBody>;

export const patchPolicyBody = patchBody(z.strictObject(policyFields).partial()).meta({
  id: 'EscalationPolicyUpdate',
});
export type PolicyPatch = z.output<typeof patchPolicyBody>;

export interface EscalationPolicyDocument {
  id: number;
  organizationId: number;
  name: string;
  steps: EscalationStep[];
  repeat: number;
  createdAt: Date;
  updatedAt: Date;
}

export const policyView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    steps: z.array(escalationStep),
    repeat: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'EscalationPolicy' });

export const toPolicyView = (policy: EscalationPolicyDocument): z.input<typeof policyView> => ({
  id: policy.id,
  name: policy.name,
  steps: policy.steps,
  repeat: policy.repeat,
  createdAt: policy.createdAt.toISOString(),
  updatedAt: policy.updatedAt.toISOString(),
});

/** What a website, a customer or the organization says about its escalation (null: the next one's). */
export const escalationPolicyIdField = resourceId()
  .nullable()
  .describe(
    'The escalation policy its alerts follow (null: its customer’s, else the organization’s default)',
  );
