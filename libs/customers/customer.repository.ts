import type { Db } from 'mongodb';
import { type CollectionIndexes, nextId, TenantCollection } from '../db/index.js';
import type { PackageDocument, PackageRepository } from '../packages/index.js';
import type { CustomerStatus } from './customer-status.js';

export interface CustomerDocument {
  id: number;
  organizationId: number;
  name: string;
  email: string | null;
  notificationEmail: string | null;
  packageId: number;
  status: CustomerStatus;
  cancellationDate: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const CUSTOMERS = 'customers';

export const customerIndexes: CollectionIndexes = {
  collection: CUSTOMERS,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, id: 1 }, name: 'organization_id' },
    { key: { organizationId: 1, packageId: 1 }, name: 'organization_package' },
    { key: { status: 1, cancellationDate: 1 }, name: 'status_cancellation' },
  ],
};

const NO_MONGO_ID = { projection: { _id: 0 } } as const;

export class CustomerRepository {
  private readonly customers: TenantCollection<CustomerDocument>;

  constructor(private readonly db: Db) {
    this.customers = new TenantCollection(db.collection<CustomerDocument>(CUSTOMERS));
  }

  async create(input: Omit<CustomerDocument, 'id' | 'createdAt' | 'updatedAt'>): Promise<CustomerDocument> {
    const now = new Date();
    const document: CustomerDocument = {
      ...input,
      id: await nextId(this.db, CUSTOMERS),
      createdAt: now,
      updatedAt: now,
    };
    await this.customers.insertOne({ ...document });
    return document;
  }

  list(organizationId: number): Promise<CustomerDocument[]> {
    return this.customers.find(organizationId, {}, { ...NO_MONGO_ID, sort: { id: 1 } }).toArray();
  }

  findById(organizationId: number, id: number): Promise<CustomerDocument | null> {
    return this.customers.findOne(organizationId, { id }, NO_MONGO_ID);
  }

  findByIds(organizationId: number, ids: readonly number[]): Promise<CustomerDocument[]> {
    return this.customers.find(organizationId, { id: { $in: [...ids] } }, NO_MONGO_ID).toArray();
  }

  listOnPackage(organizationId: number, packageId: number): Promise<CustomerDocument[]> {
    return this.customers.find(organizationId, { packageId }, { ...NO_MONGO_ID, sort: { id: 1 } }).toArray();
  }

  countOnPackage(organizationId: number, packageId: number): Promise<number> {
    return this.customers.countDocuments(organizationId, { packageId });
  }

  /** Replaces the editable fields; the caller holds the customer's lock. */
  async replace(document: CustomerDocument): Promise<CustomerDocument> {
    const updated = { ...document, updatedAt: new Date() };
    const { id, organizationId, createdAt: _createdAt, ...fields } = updated;
    await this.customers.updateOne(organizationId, { id }, { $set: fields });
    return updated;
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.customers.deleteOne(organizationId, { id });
  }

  /** Customers of every organization still marked for cancellation (for the lifecycle reconciler). */
  listMarkedForCancellation(): Promise<CustomerDocument[]> {
    return this.customers.collection
      .find({ status: 'marked_for_cancellation' }, { ...NO_MONGO_ID, sort: { cancellationDate: 1 } })
      .toArray();
  }
}

/** A customer with the package it is on (what limits, features and alerting apply to its websites). */
export interface CustomerWithPackage {
  customer: CustomerDocument;
  pkg: PackageDocument;
}

/** The customer and its package, or null when either is missing. */
export async function loadCustomerWithPackage(
  customers: CustomerRepository,
  packages: PackageRepository,
  organizationId: number,
  customerId: number,
): Promise<CustomerWithPackage | null> {
  const customer = await customers.findById(organizationId, customerId);
  const pkg = customer && (await packages.findById(organizationId, customer.packageId));
  return customer && pkg ? { customer, pkg } : null;
}
