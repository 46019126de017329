import { conflict, type FieldError, invalidInput, notFound } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { EscalationPolicyRepository } from './policy.repository.js';
import type {
  CreatePolicyInput,
  EscalationPolicyDocument,
  EscalationStep,
  PolicyPatch,
} from './policy.schema.js';

/** Policies an organization keeps at most. */
export const MAX_POLICIES = 200;

/** What policies need to know of the resources their steps name. */
export interface PolicyTargetsPort {
  /** Why the user cannot be paged (null: they can): unknown, or a client user. */
  userProblem(organizationId: number, userId: number): Promise<string | null>;
  scheduleExists(organizationId: number, scheduleId: number): Promise<boolean>;
  channelExists(organizationId: number, channelId: number): Promise<boolean>;
  /** What uses the policy (websites, customers, the organization's default), in words; empty: nothing. */
  usesOf(organizationId: number, policyId: number): Promise<string[]>;
}

const lockKey = (organizationId: number) => `escalation-policies:${organizationId}`;

/** Escalation policies: who is notified, in which order, how long each is given to acknowledge. */
export class EscalationPolicyService {
  constructor(
    private readonly deps: {
      policies: EscalationPolicyRepository;
      targets: PolicyTargetsPort;
      mutex: RedisMutex;
    },
  ) {}

  list(organizationId: number): Promise<EscalationPolicyDocument[]> {
    return this.deps.policies.list(organizationId);
  }

  async get(organizationId: number, id: number): Promise<EscalationPolicyDocument> {
    const policy = await this.deps.policies.findById(organizationId, id);
    if (!policy) throw notFound(`No escalation policy ${id}`);
    return policy;
  }

  /** Whether the organization has this policy (what websites, customers and the organization may name). */
  async exists(organizationId: number, id: number): Promise<boolean> {
    return (await this.deps.policies.findById(organizationId, id)) !== null;
  }

  async create(organizationId: number, input: CreatePolicyInput): Promise<EscalationPolicyDocument> {
    await this.assertTargets(organizationId, input.steps);
    return this.deps.mutex.withLock(lockKey(organizationId), async () => {
      if ((await this.deps.policies.list(organizationId)).length >= MAX_POLICIES)
        throw conflict(`The organization has ${MAX_POLICIES} escalation policies; remove one first`);
      return this.deps.policies.create({
        organizationId,
        name: input.name,
        steps: input.steps,
        repeat: input.repeat ?? 0,
      });
    });
  }

  async update(organizationId: number, id: number, patch: PolicyPatch): Promise<EscalationPolicyDocument> {
    if (patch.steps) await this.assertTargets(organizationId, patch.steps);
    return this.deps.mutex.withLock(lockKey(organizationId), async () => {
      const policy = await this.get(organizationId, id);
      return this.deps.policies.replace({
        ...policy,
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.steps !== undefined && { steps: patch.steps }),
        ...(patch.repeat !== undefined && { repeat: patch.repeat }),
      });
    });
  }

  /** Refused while something uses it: an alert must never lose its escalation by surprise. */
  async delete(organizationId: number, id: number): Promise<void> {
    await this.deps.mutex.withLock(lockKey(organizationId), async () => {
      await this.get(organizationId, id);
      const uses = await this.deps.targets.usesOf(organizationId, id);
      if (uses.length > 0)
        throw conflict(`The policy is in use by ${uses.join(', ')}: choose another policy there first`);
      await this.deps.policies.delete(organizationId, id);
    });
  }

  /** Every target named exists in the organization (a 400 naming each that does not). */
  private async assertTargets(organizationId: number, steps: readonly EscalationStep[]): Promise<void> {
    const { targets } = this.deps;
    const problems: FieldError[] = [];
    for (const [s, step] of steps.entries())
      for (const [t, target] of step.targets.entries()) {
        const path = `steps.${s}.targets.${t}`;
        if ('user' in target) {
          const problem = await targets.userProblem(organizationId, target.user);
          if (problem) problems.push({ path: `${path}.user`, message: problem });
        } else if ('schedule' in target) {
          if (!(await targets.scheduleExists(organizationId, target.schedule)))
            problems.push({
              path: `${path}.schedule`,
              message: `No schedule ${target.schedule} in your organization`,
            });
        } else if (!(await targets.channelExists(organizationId, target.channel)))
          problems.push({
            path: `${path}.channel`,
            message: `No notification channel ${target.channel} in your organization`,
          });
      }
    if (problems.length > 0)
      throw invalidInput(`Unknown targets: ${problems.map((p) => p.path).join(', ')}`, problems);
  }
}
