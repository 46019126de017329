import { Queue, type Worker } from 'bullmq';
import type { Logger } from '../logging/index.js';
import { queueName, quietQueueErrors, type Redis, startJobWorker } from '../redis/index.js';

export const CUSTOMER_LIFECYCLE_QUEUE = 'customer-lifecycle';
const CANCEL_JOB = 'cancel';

export interface CancellationJobData {
  organizationId: number;
  customerId: number;
  /** The date the job was planned for; a job whose customer has another date by now is stale. */
  cancellationDate: string;
}

const cancelJobId = (customerId: number) => `cancel-${customerId}`;

/** Producer: one delayed job per customer marked for cancellation, fired at its date. */
export class CustomerLifecycleQueue {
  private readonly queue: Queue<CancellationJobData>;

  constructor(connection: Redis, prefix: string) {
    this.queue = quietQueueErrors(
      new Queue<CancellationJobData>(queueName(connection, CUSTOMER_LIFECYCLE_QUEUE), { connection, prefix }),
    );
  }

  async scheduleCancellation(organizationId: number, customerId: number, at: Date): Promise<void> {
    await this.unscheduleCancellation(customerId);
    await this.queue.add(
      CANCEL_JOB,
      { organizationId, customerId, cancellationDate: at.toISOString() },
      {
        jobId: cancelJobId(customerId),
        delay: Math.max(0, at.getTime() - Date.now()),
        attempts: 10,
        backoff: { type: 'exponential', delay: 5000 },
        removeOnComplete: true,
        removeOnFail: { count: 1000 },
      },
    );
  }

  async unscheduleCancellation(customerId: number): Promise<void> {
    const job = await this.queue.getJob(cancelJobId(customerId));
    // A job that is running now finishes and finds the customer changed: stale, it does nothing.
    if (job && !(await job.isActive())) await job.remove();
  }

  /** The planned date of a customer's cancellation job, if one is waiting. */
  async plannedCancellation(customerId: number): Promise<string | undefined> {
    return (await this.queue.getJob(cancelJobId(customerId)))?.data.cancellationDate;
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** Consumer: runs `cancel` for each due job; a thrown error retries it with backoff. */
export function startCustomerLifecycleWorker(options: {
  connection: Redis;
  prefix: string;
  logger: Logger;
  cancel(job: CancellationJobData): Promise<void>;
}): Worker<CancellationJobData> {
  return startJobWorker<CancellationJobData>({
    queue: CUSTOMER_LIFECYCLE_QUEUE,
    connection: options.connection,
    prefix: options.prefix,
    logger: options.logger,
    what: 'customer lifecycle',
    concurrency: 4,
    process: async (job) => {
      if (job.name === CANCEL_JOB) await options.cancel(job.data);
    },
  });
}
