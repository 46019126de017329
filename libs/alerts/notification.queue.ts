import { type Job, Queue, Worker } from 'bullmq';
import type { Logger } from '../logging/index.js';
import type { Redis } from '../redis/index.js';
import { type DeliveryRecord, deliveryKey } from './delivery.repository.js';

export const EVENTS_QUEUE = 'notify-events';
export const DELIVERIES_QUEUE = 'deliveries';

/** SPEC: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h between attempts. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface EventJobData {
  eventId: string;
}

export interface DeliveryJobData {
  organizationId: number;
  deliveryId: number;
  /** The delivery's primary key (read without a scan). */
  deliveryKey: string;
}

const PENDING_STATES = new Set(['delayed', 'waiting', 'active', 'prioritized', 'waiting-children']);

/** Producer: events to dispatch, deliveries to attempt. Ids only; jobs re-read MongoDB. */
export class NotificationQueue {
  private readonly events: Queue<EventJobData>;
  private readonly deliveries: Queue<DeliveryJobData>;

  constructor(connection: Redis, prefix: string) {
    this.events = new Queue<EventJobData>(EVENTS_QUEUE, { connection, prefix });
    this.deliveries = new Queue<DeliveryJobData>(DELIVERIES_QUEUE, { connection, prefix });
  }

  /** An event was written to the outbox; dispatching it twice is harmless (and de-duplicated). */
  async announce(eventId: string): Promise<void> {
    await this.events.add(
      'dispatch',
      { eventId },
      {
        jobId: `event-${eventId}`,
        attempts: 10,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: true,
        removeOnFail: { count: 1000 },
      },
    );
  }

  /**
   * Attempts a delivery now and retries it on SPEC's schedule. `series` tells a redelivery from
   * the first run; a series already waiting or running is left alone.
   */
  async deliver(
    delivery: Pick<DeliveryRecord, 'organizationId' | 'id' | 'eventId' | 'channelId'>,
    series = 0,
  ): Promise<void> {
    const jobId = `delivery-${delivery.id}-${series}`;
    const existing = await this.deliveries.getJob(jobId);
    if (existing && PENDING_STATES.has(await existing.getState())) return;
    await existing?.remove();
    await this.deliveries.add(
      'deliver',
      {
        organizationId: delivery.organizationId,
        deliveryId: delivery.id,
        deliveryKey: deliveryKey(delivery.eventId, delivery.channelId),
      },
      {
        jobId,
        attempts: RETRY_DELAYS_MS.length + 1,
        backoff: { type: 'delivery' },
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 1000 },
      },
    );
  }

  close(): Promise<void> {
    return Promise.all([this.events.close(), this.deliveries.close()]).then(() => undefined);
  }
}

/** Consumers of both queues in the notifier; `retryScale` shrinks the retry delays (tests). */
export function startNotificationWorkers(options: {
  connection: Redis;
  prefix: string;
  logger: Logger;
  concurrency: number;
  retryScale: number;
  dispatch(job: EventJobData): Promise<void>;
  attempt(job: DeliveryJobData, attempt: { number: number; last: boolean }): Promise<void>;
}): Array<Worker> {
  const { connection, prefix, logger } = options;
  const events = new Worker<EventJobData>(
    EVENTS_QUEUE,
    (job: Job<EventJobData>) => options.dispatch(job.data),
    {
      connection,
      prefix,
      concurrency: 8,
    },
  );
  const deliveries = new Worker<DeliveryJobData>(
    DELIVERIES_QUEUE,
    (job: Job<DeliveryJobData>) => {
      const number = job.attemptsMade + 1;
      return options.attempt(job.data, { number, last: number >= (job.opts.attempts ?? 1) });
    },
    {
      connection,
      prefix,
      concurrency: options.concurrency,
      settings: {
        backoffStrategy: (attemptsMade: number) =>
          Math.round(
            (RETRY_DELAYS_MS[Math.min(attemptsMade, RETRY_DELAYS_MS.length) - 1] ?? 0) * options.retryScale,
          ),
      },
    },
  );
  for (const [worker, what] of [
    [events, 'event dispatch'],
    [deliveries, 'delivery'],
  ] as const) {
    worker.on('error', (error) => logger.error({ err: error.message }, `${what} worker error`));
  }
  return [events, deliveries];
}
