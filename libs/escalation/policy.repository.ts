import type { Db } from 'mongodb';
import { type CollectionIndexes, TenantResources } from '../db/index.js';
import { OrganizationSnapshots, type Redis, Revisions } from '../redis/index.js';
import type { EscalationPolicyDocument } from './policy.schema.js';

export const ESCALATION_POLICIES = 'escalation_policies';

export const policyIndexes: CollectionIndexes = {
  collection: ESCALATION_POLICIES,
  indexes: [{ key: { id: 1 }, unique: true, name: 'id_unique' }],
};

/** Each organization's escalation policies revision, moved by every write of one of its policies. */
export function policyRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:escalation-policies-rev`);
}

/**
 * Escalation policies: each organization's (a few) kept while its revision holds (every write here
 * moves it), as every escalation that starts reads its policy.
 */
export class EscalationPolicyRepository {
  private readonly policies: TenantResources<EscalationPolicyDocument>;
  private readonly kept: OrganizationSnapshots<EscalationPolicyDocument>;

  constructor(db: Db, revisions: Revisions) {
    this.policies = new TenantResources(db, ESCALATION_POLICIES);
    this.kept = new OrganizationSnapshots(revisions);
  }

  async create(
    input: Omit<EscalationPolicyDocument, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<EscalationPolicyDocument> {
    const created = await this.policies.create(input);
    await this.kept.changed(input.organizationId);
    return created;
  }

  async list(organizationId: number): Promise<EscalationPolicyDocument[]> {
    return [...(await this.kept.of(organizationId, () => this.policies.findMany(organizationId)))];
  }

  async findById(organizationId: number, id: number): Promise<EscalationPolicyDocument | null> {
    return (await this.list(organizationId)).find((policy) => policy.id === id) ?? null;
  }

  async replace(policy: EscalationPolicyDocument): Promise<EscalationPolicyDocument> {
    const replaced = await this.policies.replace(policy);
    await this.kept.changed(policy.organizationId);
    return replaced;
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const deleted = await this.policies.delete(organizationId, id);
    await this.kept.changed(organizationId);
    return deleted;
  }
}
