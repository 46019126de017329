import type { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import type { CustomerRepository } from './customer.repository.js';
import { type CustomerWebsitesPort, customerLock } from './customer.service.js';
import type { CancellationJobData, CustomerLifecycleQueue } from './customer-lifecycle.queue.js';

/**
 * Customers cancelled on their date (the worker runs their jobs), apart from the customer service:
 * a cancellation needs the customer, its lock and its websites' schedules, not the channels, status
 * pages or the rest of what a customer's API writes need.
 */
export class CustomerCancellations {
  constructor(
    private readonly deps: {
      customers: CustomerRepository;
      mutex: RedisMutex;
      lifecycle: CustomerLifecycleQueue;
      websites: Pick<CustomerWebsitesPort, 'rescheduleCustomer'>;
      logger: Logger;
    },
  ) {}

  /**
   * Runs a due cancellation job: the customer becomes cancelled and its websites stop being checked.
   * A job whose customer was reactivated or given another date since is stale and does nothing.
   */
  applyDueCancellation(job: CancellationJobData): Promise<void> {
    return this.deps.mutex.withLock(customerLock(job.customerId), async () => {
      const customer = await this.deps.customers.findById(job.organizationId, job.customerId);
      const stillPlanned =
        customer?.status === 'marked_for_cancellation' &&
        customer.cancellationDate?.toISOString() === job.cancellationDate;
      if (!customer?.cancellationDate || !stillPlanned) return;
      if (customer.cancellationDate.getTime() > Date.now()) {
        throw new Error(`cancellation of customer ${customer.id} is not due yet`);
      }
      // The date stays: it says when the customer was cancelled.
      await this.deps.customers.replace({ ...customer, status: 'cancelled' });
      await this.deps.websites.rescheduleCustomer(customer.organizationId, customer.id);
      this.deps.logger.info(
        { customerId: customer.id, organizationId: customer.organizationId },
        'customer cancelled',
      );
    });
  }

  /**
   * MongoDB is the source of truth: cancels customers whose date has passed (their job may have
   * been lost with Redis) and makes sure every other marked customer has its job.
   */
  async reconcileCancellations(): Promise<void> {
    for (const customer of await this.deps.customers.listMarkedForCancellation()) {
      const job: CancellationJobData = {
        organizationId: customer.organizationId,
        customerId: customer.id,
        cancellationDate: customer.cancellationDate?.toISOString() ?? '',
      };
      if (customer.cancellationDate && customer.cancellationDate.getTime() <= Date.now()) {
        await this.applyDueCancellation(job);
      } else if (
        customer.cancellationDate &&
        (await this.deps.lifecycle.plannedCancellation(customer.id)) !== job.cancellationDate
      ) {
        await this.deps.lifecycle.scheduleCancellation(
          customer.organizationId,
          customer.id,
          customer.cancellationDate,
        );
      }
    }
  }
}
