import { conflict, invalidInput, notAllowed, notFound } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import { includesFeature, type PackageDocument, type PackageRepository } from '../packages/index.js';
import type { CustomerDocument, CustomerRepository } from './customer.repository.js';
import type { ReportSchedule } from './customer.schema.js';
import type { CustomerLifecycleQueue } from './customer-lifecycle.queue.js';
import { type CustomerStatus, changeStatus } from './customer-status.js';

/** What customers need from websites, provided by the websites capability (no import cycle). */
export interface CustomerWebsitesPort {
  countByCustomer(organizationId: number, customerId: number): Promise<number>;
  /** Brings the schedules of the customer's websites in line with its state and package. */
  rescheduleCustomer(organizationId: number, customerId: number): Promise<void>;
}

/** Notification channels can be tied to a customer, which then cannot be deleted. */
export interface CustomerChannelsPort {
  countScopedTo(organizationId: number, customerId: number): Promise<number>;
}

export interface CustomerPatch {
  name?: string;
  email?: string | null;
  notificationEmail?: string | null;
  reportIntro?: string | null;
  reportSchedule?: ReportSchedule;
  packageId?: number;
  escalationPolicyId?: number | null;
  status?: CustomerStatus;
  cancellationDate?: string | null;
}

/** A schedule that sends needs the package's `reports` feature and someone to send to. */
function checkReportSchedule(
  schedule: ReportSchedule,
  pkg: PackageDocument,
  notificationEmail: string | null,
): void {
  if (schedule.frequency === 'off') return;
  if (!includesFeature(pkg, 'reports'))
    throw notAllowed(`The package ${pkg.displayName} does not include scheduled reports`, [
      { path: 'reportSchedule', message: 'the customer’s package does not include the reports feature' },
    ]);
  if (schedule.recipients.length === 0 && !notificationEmail)
    throw invalidInput('Nobody to send the report to', [
      {
        path: 'reportSchedule.recipients',
        message: 'give recipients, or set the customer’s notificationEmail',
      },
    ]);
}

export const customerLock = (customerId: number) => `customer:${customerId}`;
const packageLock = (packageId: number) => `package:${packageId}`;

export class CustomerService {
  constructor(
    private readonly deps: {
      customers: CustomerRepository;
      packages: PackageRepository;
      mutex: RedisMutex;
      lifecycle: CustomerLifecycleQueue;
      websites: CustomerWebsitesPort;
      channels: CustomerChannelsPort;
      /** The customer's status pages go with it (they show nothing without it). */
      statusPages: { deleteByCustomer(organizationId: number, customerId: number): Promise<void> };
      /** Whether an escalation policy a customer names exists (absent: not checked). */
      policies?: { escalationPolicyExists(organizationId: number, id: number): Promise<boolean> };
    },
  ) {}

  /** A 400 naming `escalationPolicyId` when the policy named is not the organization's. */
  private async requirePolicy(organizationId: number, id: number | null | undefined): Promise<void> {
    if (id === null || id === undefined || !this.deps.policies) return;
    if (!(await this.deps.policies.escalationPolicyExists(organizationId, id)))
      throw invalidInput('Invalid escalationPolicyId', [
        { path: 'escalationPolicyId', message: `No escalation policy ${id} in your organization` },
      ]);
  }

  countOnPackage(organizationId: number, packageId: number): Promise<number> {
    return this.deps.customers.countOnPackage(organizationId, packageId);
  }

  /** After a package change: every website of every customer on it gets the package's new limits. */
  async reschedulePackage(organizationId: number, packageId: number): Promise<void> {
    for (const customer of await this.deps.customers.listOnPackage(organizationId, packageId)) {
      await this.deps.websites.rescheduleCustomer(organizationId, customer.id);
    }
  }

  list(organizationId: number): Promise<CustomerDocument[]> {
    return this.deps.customers.list(organizationId);
  }

  async get(organizationId: number, id: number): Promise<CustomerDocument> {
    const customer = await this.deps.customers.findById(organizationId, id);
    if (!customer) throw notFound(`No customer ${id}`);
    return customer;
  }

  private async requirePackage(
    organizationId: number,
    packageId: number,
    path: string,
  ): Promise<PackageDocument> {
    const found = await this.deps.packages.findById(organizationId, packageId);
    if (!found)
      throw invalidInput(`Unknown package ${packageId}`, [
        { path, message: `No package ${packageId} in your organization` },
      ]);
    return found;
  }

  /** Creates an active customer on a package (held locked, so it cannot be deleted meanwhile). */
  create(
    organizationId: number,
    input: {
      name: string;
      email?: string;
      notificationEmail?: string;
      reportIntro?: string;
      reportSchedule?: ReportSchedule;
      packageId: number;
      escalationPolicyId?: number | null;
    },
  ): Promise<CustomerDocument> {
    return this.deps.mutex.withLock(packageLock(input.packageId), async () => {
      await this.requirePolicy(organizationId, input.escalationPolicyId);
      const pkg = await this.requirePackage(organizationId, input.packageId, 'packageId');
      if (input.reportSchedule)
        checkReportSchedule(input.reportSchedule, pkg, input.notificationEmail ?? null);
      return this.deps.customers.create({
        ...(input.reportSchedule
          ? { reportSchedule: input.reportSchedule, reportScheduledAt: new Date() }
          : {}),
        organizationId,
        name: input.name,
        email: input.email ?? null,
        notificationEmail: input.notificationEmail ?? null,
        reportIntro: input.reportIntro || null,
        packageId: input.packageId,
        escalationPolicyId: input.escalationPolicyId ?? null,
        status: 'active',
        cancellationDate: null,
      });
    });
  }

  /** `POST /api/v1/customers`: the package is named by its key (`plan`). */
  async createFromPlan(
    organizationId: number,
    input: { name: string; plan: string; email?: string },
  ): Promise<CustomerDocument> {
    const found = await this.deps.packages.findByKey(organizationId, input.plan);
    if (!found) {
      const known = (await this.deps.packages.list(organizationId)).map((p) => p.key);
      throw invalidInput(`Unknown plan "${input.plan}"`, [
        {
          path: 'plan',
          message: known.length
            ? `Unknown plan; known plans: ${known.join(', ')}`
            : 'Unknown plan; no package exists yet',
        },
      ]);
    }
    return this.create(organizationId, { name: input.name, email: input.email, packageId: found.id });
  }

  update(organizationId: number, id: number, patch: CustomerPatch): Promise<CustomerDocument> {
    return this.deps.mutex.withLock(customerLock(id), async () => {
      const current = await this.get(organizationId, id);
      if (patch.packageId !== undefined)
        await this.requirePackage(organizationId, patch.packageId, 'packageId');
      await this.requirePolicy(organizationId, patch.escalationPolicyId);
      const outcome = changeStatus(
        current,
        {
          status: patch.status,
          cancellationDate:
            patch.cancellationDate === undefined
              ? undefined
              : patch.cancellationDate === null
                ? null
                : new Date(patch.cancellationDate),
        },
        new Date(),
      );
      if (!outcome.ok) {
        if (outcome.kind === 'conflict') throw conflict(outcome.message);
        throw invalidInput(`Invalid ${outcome.path}`, [{ path: outcome.path, message: outcome.message }]);
      }
      const next: CustomerDocument = {
        ...current,
        ...outcome.state,
        name: patch.name ?? current.name,
        email: patch.email === undefined ? current.email : patch.email,
        notificationEmail:
          patch.notificationEmail === undefined ? current.notificationEmail : patch.notificationEmail,
        reportIntro:
          patch.reportIntro === undefined ? (current.reportIntro ?? null) : patch.reportIntro || null,
        packageId: patch.packageId ?? current.packageId,
        escalationPolicyId:
          patch.escalationPolicyId === undefined
            ? (current.escalationPolicyId ?? null)
            : patch.escalationPolicyId,
        ...(patch.reportSchedule
          ? { reportSchedule: patch.reportSchedule, reportScheduledAt: new Date() }
          : {}),
      };
      if (patch.reportSchedule || (next.reportSchedule && patch.notificationEmail !== undefined))
        checkReportSchedule(
          next.reportSchedule as ReportSchedule,
          await this.requirePackage(organizationId, next.packageId, 'packageId'),
          next.notificationEmail,
        );
      const updated = await this.deps.customers.replace(next);
      await this.syncCancellationJob(updated, current);
      if (updated.status !== current.status || updated.packageId !== current.packageId) {
        await this.deps.websites.rescheduleCustomer(organizationId, id);
      }
      return updated;
    });
  }

  private async syncCancellationJob(updated: CustomerDocument, previous: CustomerDocument): Promise<void> {
    const date = updated.cancellationDate;
    if (date?.getTime() === previous.cancellationDate?.getTime()) return;
    if (date) await this.deps.lifecycle.scheduleCancellation(updated.organizationId, updated.id, date);
    else await this.deps.lifecycle.unscheduleCancellation(updated.id);
  }

  delete(organizationId: number, id: number): Promise<void> {
    return this.deps.mutex.withLock(customerLock(id), async () => {
      await this.get(organizationId, id);
      const websites = await this.deps.websites.countByCustomer(organizationId, id);
      if (websites > 0) throw conflict(`The customer has ${websites} website(s); delete or move them first`);
      const channels = await this.deps.channels.countScopedTo(organizationId, id);
      if (channels > 0)
        throw conflict(
          `${channels} notification channel(s) are for this customer's websites; delete them or change their scope first`,
        );
      await this.deps.statusPages.deleteByCustomer(organizationId, id);
      await this.deps.customers.delete(organizationId, id);
      await this.deps.lifecycle.unscheduleCancellation(id);
    });
  }

  /** Package display names for a page of customers, in one query. */
  async packageNames(
    organizationId: number,
    customers: readonly CustomerDocument[],
  ): Promise<Map<number, string>> {
    const ids = [...new Set(customers.map((c) => c.packageId))];
    const packages = await this.deps.packages.findByIds(organizationId, ids);
    return new Map(packages.map((p) => [p.id, p.displayName]));
  }
}
