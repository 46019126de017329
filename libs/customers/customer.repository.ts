import type { Db } from 'mongodb';
import { type CollectionIndexes, TenantResources, WITHOUT_MONGO_ID } from '../db/index.js';
import type { PackageDocument, PackageRepository } from '../packages/index.js';
import type { ReportSchedule } from './customer.schema.js';
import { type CustomerStatus, isMonitored } from './customer-status.js';

export interface CustomerDocument {
  id: number;
  organizationId: number;
  name: string;
  email: string | null;
  notificationEmail: string | null;
  /** The cover line of its reports (absent on customers made before reports). */
  reportIntro?: string | null;
  /** When its report is e-mailed (absent: never set), and since when (a period due before is not sent). */
  reportSchedule?: ReportSchedule | null;
  reportScheduledAt?: Date | null;
  packageId: number;
  /** The escalation policy of its websites' alerts (absent on customers from before: none). */
  escalationPolicyId?: number | null;
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

export class CustomerRepository {
  private readonly customers: TenantResources<CustomerDocument>;

  constructor(
    db: Db,
    /** Told after every write to a customer (its revision for the API's `CustomerCache`). */
    private readonly changed: (customerId: number, written?: CustomerDocument) => Promise<void> = async () =>
      undefined,
  ) {
    this.customers = new TenantResources(db, CUSTOMERS);
  }

  async create(input: Omit<CustomerDocument, 'id' | 'createdAt' | 'updatedAt'>): Promise<CustomerDocument> {
    const created = await this.customers.create(input);
    await this.changed(created.id, created);
    return created;
  }

  /** Every customer, of every organization, whose report is e-mailed (the notifier's schedule). */
  listScheduled(): Promise<CustomerDocument[]> {
    return this.customers.scoped.collection
      .find<CustomerDocument>(
        { 'reportSchedule.frequency': { $in: ['monthly', 'weekly'] } },
        { projection: { _id: 0 } },
      )
      .toArray();
  }

  /** Ids of every customer, of every organization, whose websites are not monitored (cancelled): metrics. */
  async unmonitoredIds(): Promise<Set<number>> {
    const all = await this.customers.scoped.collection
      .find<Pick<CustomerDocument, 'id' | 'status'>>({}, { projection: { _id: 0, id: 1, status: 1 } })
      .toArray();
    return new Set(all.filter((customer) => !isMonitored(customer.status)).map((customer) => customer.id));
  }

  list(organizationId: number): Promise<CustomerDocument[]> {
    return this.customers.findMany(organizationId);
  }

  findById(organizationId: number, id: number): Promise<CustomerDocument | null> {
    return this.customers.findById(organizationId, id);
  }

  findByIds(organizationId: number, ids: readonly number[]): Promise<CustomerDocument[]> {
    return this.customers.findByIds(organizationId, ids);
  }

  listOnPackage(organizationId: number, packageId: number): Promise<CustomerDocument[]> {
    return this.customers.findMany(organizationId, { packageId });
  }

  countOnPackage(organizationId: number, packageId: number): Promise<number> {
    return this.customers.scoped.countDocuments(organizationId, { packageId });
  }

  /** Replaces the editable fields; the caller holds the customer's lock. */
  async replace(document: CustomerDocument): Promise<CustomerDocument> {
    const replaced = await this.customers.replace(document);
    await this.changed(replaced.id, replaced);
    return replaced;
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const deleted = await this.customers.delete(organizationId, id);
    if (deleted) await this.changed(id);
    return deleted;
  }

  /** Customers of every organization still marked for cancellation (for the lifecycle reconciler). */
  listMarkedForCancellation(): Promise<CustomerDocument[]> {
    return this.customers.scoped.collection
      .find({ status: 'marked_for_cancellation' }, { ...WITHOUT_MONGO_ID, sort: { cancellationDate: 1 } })
      .toArray();
  }
}

/** A customer with the package it is on (what limits, features and alerting apply to its websites). */
export interface CustomerWithPackage {
  customer: CustomerDocument;
  pkg: PackageDocument;
}

/**
 * The customer and its package, or null when either is missing. Given the package the customer is
 * likely on (it was when last read), that package is read beside the customer, and the customer's
 * own read after it only when it names another.
 */
export async function loadCustomerWithPackage(
  customers: Pick<CustomerRepository, 'findById'>,
  packages: Pick<PackageRepository, 'findById'>,
  organizationId: number,
  customerId: number,
  likelyPackageId?: number,
): Promise<CustomerWithPackage | null> {
  const [customer, likely] = await Promise.all([
    customers.findById(organizationId, customerId),
    likelyPackageId === undefined ? null : packages.findById(organizationId, likelyPackageId),
  ]);
  if (!customer) return null;
  const pkg =
    likely?.id === customer.packageId ? likely : await packages.findById(organizationId, customer.packageId);
  return pkg ? { customer, pkg } : null;
}
