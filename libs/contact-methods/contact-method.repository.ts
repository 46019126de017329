import type { Db } from 'mongodb';
import { type CollectionIndexes, TenantResources } from '../db/index.js';
import type { ContactMethodDocument, PendingCode } from './contact-method.schema.js';

export const CONTACT_METHODS = 'contact_methods';

export const contactMethodIndexes: CollectionIndexes = {
  collection: CONTACT_METHODS,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, userId: 1 }, name: 'organization_user' },
  ],
};

/** People's contact methods; a person has a handful, read together. */
export class ContactMethodRepository {
  private readonly methods: TenantResources<ContactMethodDocument>;

  constructor(db: Db) {
    this.methods = new TenantResources(db, CONTACT_METHODS);
  }

  create(
    input: Omit<ContactMethodDocument, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<ContactMethodDocument> {
    return this.methods.create(input);
  }

  ofUser(organizationId: number, userId: number): Promise<ContactMethodDocument[]> {
    return this.methods.findMany(organizationId, { userId });
  }

  /** The person's method, or null (another person's, another organization's, none). */
  async find(organizationId: number, userId: number, id: number): Promise<ContactMethodDocument | null> {
    const method = await this.methods.findById(organizationId, id);
    return method?.userId === userId ? method : null;
  }

  replace(method: ContactMethodDocument): Promise<ContactMethodDocument> {
    return this.methods.replace(method);
  }

  /** Counts a wrong guess against the code that was guessed (not a newer one): whether it still was. */
  countFailure(organizationId: number, id: number, code: PendingCode): Promise<boolean> {
    return this.methods.updateFieldsIf(
      organizationId,
      id,
      { 'code.digest': code.digest },
      { $inc: { 'code.failures': 1 } },
    );
  }

  /** Verified, once: only while the code that was right is still the pending one. */
  markVerified(organizationId: number, id: number, code: PendingCode, at: Date): Promise<boolean> {
    return this.methods.updateFieldsIf(
      organizationId,
      id,
      { 'code.digest': code.digest },
      { $set: { verifiedAt: at, code: null, updatedAt: at } },
    );
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.methods.delete(organizationId, id);
  }

  /** When a person leaves the organization their methods go with them. */
  async deleteOfUser(organizationId: number, userId: number): Promise<void> {
    for (const method of await this.ofUser(organizationId, userId))
      await this.methods.delete(organizationId, method.id);
  }
}
