import type { Db } from 'mongodb';
import { type CollectionIndexes, TenantResources } from '../db/index.js';
import { OrganizationSnapshots, type Redis, Revisions } from '../redis/index.js';
import type { ContactMethodDocument, PendingCode } from './contact-method.schema.js';

export const CONTACT_METHODS = 'contact_methods';

export const contactMethodIndexes: CollectionIndexes = {
  collection: CONTACT_METHODS,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, userId: 1 }, name: 'organization_user' },
  ],
};

/** Each organization's contact methods revision, moved by every write of one of its methods. */
export function contactMethodRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:contact-methods-rev`);
}

/**
 * People's contact methods; a person has a handful, read together. Each organization's methods
 * are kept while its revision holds (every write here moves it): escalation steps read a person's
 * methods on every page.
 */
export class ContactMethodRepository {
  private readonly methods: TenantResources<ContactMethodDocument>;
  private readonly kept: OrganizationSnapshots<ContactMethodDocument>;

  constructor(db: Db, revisions: Revisions) {
    this.methods = new TenantResources(db, CONTACT_METHODS);
    this.kept = new OrganizationSnapshots(revisions);
  }

  async create(
    input: Omit<ContactMethodDocument, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<ContactMethodDocument> {
    const created = await this.methods.create(input);
    await this.kept.changed(input.organizationId);
    return created;
  }

  /** The person's methods, in the order they were added. */
  async ofUser(organizationId: number, userId: number): Promise<ContactMethodDocument[]> {
    const all = await this.kept.of(organizationId, () => this.methods.findMany(organizationId));
    return all.filter((method) => method.userId === userId);
  }

  /** The person's method, or null (another person's, another organization's, none). */
  async find(organizationId: number, userId: number, id: number): Promise<ContactMethodDocument | null> {
    const method = await this.methods.findById(organizationId, id);
    return method?.userId === userId ? method : null;
  }

  async replace(method: ContactMethodDocument): Promise<ContactMethodDocument> {
    const replaced = await this.methods.replace(method);
    await this.kept.changed(method.organizationId);
    return replaced;
  }

  /** Counts a wrong guess against the code that was guessed (not a newer one): whether it still was. */
  async countFailure(organizationId: number, id: number, code: PendingCode): Promise<boolean> {
    const counted = await this.methods.updateFieldsIf(
      organizationId,
      id,
      { 'code.digest': code.digest },
      { $inc: { 'code.failures': 1 } },
    );
    await this.kept.changed(organizationId);
    return counted;
  }

  /** Verified, once: only while the code that was right is still the pending one. */
  async markVerified(organizationId: number, id: number, code: PendingCode, at: Date): Promise<boolean> {
    const verified = await this.methods.updateFieldsIf(
      organizationId,
      id,
      { 'code.digest': code.digest },
      { $set: { verifiedAt: at, code: null, updatedAt: at } },
    );
    await this.kept.changed(organizationId);
    return verified;
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const deleted = await this.methods.delete(organizationId, id);
    await this.kept.changed(organizationId);
    return deleted;
  }

  /** When a person leaves the organization their methods go with them. */
  async deleteOfUser(organizationId: number, userId: number): Promise<void> {
    for (const method of await this.methods.findMany(organizationId, { userId }))
      await this.methods.delete(organizationId, method.id);
    await this.kept.changed(organizationId);
  }
}
