import type { Db } from 'mongodb';
import { type CollectionIndexes, TenantResources } from '../db/index.js';
import type { EscalationPolicyDocument } from './policy.schema.js';

export const ESCALATION_POLICIES = 'escalation_policies';

export const policyIndexes: CollectionIndexes = {
  collection: ESCALATION_POLICIES,
  indexes: [{ key: { id: 1 }, unique: true, name: 'id_unique' }],
};

export class EscalationPolicyRepository {
  private readonly policies: TenantResources<EscalationPolicyDocument>;

  constructor(db: Db) {
    this.policies = new TenantResources(db, ESCALATION_POLICIES);
  }

  create(input: Omit<EscalationPolicyDocument, 'id' | 'createdAt' | 'updatedAt'>) {
    return this.policies.create(input);
  }

  list(organizationId: number): Promise<EscalationPolicyDocument[]> {
    return this.policies.findMany(organizationId);
  }

  findById(organizationId: number, id: number): Promise<EscalationPolicyDocument | null> {
    return this.policies.findById(organizationId, id);
  }

  replace(policy: EscalationPolicyDocument): Promise<EscalationPolicyDocument> {
    return this.policies.replace(policy);
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.policies.delete(organizationId, id);
  }
}
