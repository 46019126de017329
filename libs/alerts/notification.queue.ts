import { Queue, type Worker } from 'bullmq';
import { BSON } from 'mongodb';
import { type EventDocument, eventDocumentSchema } from '../events/index.js';
import type { Logger } from '../logging/index.js';
import { queueName, quietQueueErrors, type Redis, startJobWorker } from '../redis/index.js';
import type { OwedAttempt } from './owed-attempts.js';

export const EVENTS_QUEUE = 'notify-events';
export const DELIVERIES_QUEUE = 'deliveries';

/** SPEC: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h between attempts. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Attempts in one series: the first and one after each retry delay. */
export const ATTEMPTS_PER_SERIES = RETRY_DELAYS_MS.length + 1;

export interface EventJobData {
  eventId: string;
  /**
   * The event as first written (Extended JSON, its dates kept), so its dispatch need not read it
   * back; absent when announced again (a replay, the sweep), where the stored copy decides.
   */
  event?: string;
}

/**
 * The event an announcement carries, checked by the events contract like a stored one; null when
 * it carries none or one that is not the event announced (the stored copy is read instead).
 */
export function carriedEvent(job: EventJobData): EventDocument | null {
  if (job.event === undefined) return null;
  try {
    const parsed = eventDocumentSchema.safeParse(BSON.EJSON.parse(job.event, { relaxed: true }));
    return parsed.success && parsed.data.id === job.eventId ? parsed.data : null;
  } catch {
    return null;
  }
}

/** One attempt of a delivery; what it owes is in MongoDB (`OwedAttempts`), the job only runs it. */
export type DeliveryJobData = Omit<OwedAttempt, 'dueAt'>;

const PENDING_STATES = new Set(['delayed', 'waiting', 'active', 'prioritized', 'waiting-children']);

/**
 * Producer: events to dispatch, deliveries to attempt. Ids, and a new event itself (immutable but
 * for its dispatch mark); a delivery's job re-reads MongoDB.
 */
export class NotificationQueue {
  private readonly events: Queue<EventJobData>;
  private readonly deliveries: Queue<DeliveryJobData>;

  constructor(connection: Redis, prefix: string) {
    this.events = quietQueueErrors(
      new Queue<EventJobData>(queueName(connection, EVENTS_QUEUE), { connection, prefix }),
    );
    this.deliveries = quietQueueErrors(
      new Queue<DeliveryJobData>(queueName(connection, DELIVERIES_QUEUE), { connection, prefix }),
    );
  }

  /**
   * An event was written to the outbox (`event`: just now, carried to its dispatch); dispatching
   * it twice is harmless (and de-duplicated).
   */
  async announce(eventId: string, event?: EventDocument): Promise<void> {
    await this.events.add(
      'dispatch',
      event ? { eventId, event: BSON.EJSON.stringify(event, { relaxed: true }) } : { eventId },
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
   * Queues the attempt `owed` (at its due time). An attempt already waiting or running is left
   * alone, so the sweep may call this for every attempt that is due.
   */
  async deliver(owed: OwedAttempt): Promise<void> {
    const jobId = `delivery-${owed.deliveryId}-${owed.series}-${owed.number}`;
    const existing = await this.deliveries.getJob(jobId);
    if (existing && PENDING_STATES.has(await existing.getState())) return;
    await existing?.remove();
    const { dueAt, ...data } = owed;
    await this.deliveries.add('deliver', data, {
      jobId,
      delay: Math.max(0, dueAt.getTime() - Date.now()),
      removeOnComplete: true,
      removeOnFail: { count: 1000 },
    });
  }

  /** Events announced and not yet taken by a notifier (a backlog). */
  waitingEvents(): Promise<number> {
    return this.events.getWaitingCount();
  }

  close(): Promise<void> {
    return Promise.all([this.events.close(), this.deliveries.close()]).then(() => undefined);
  }
}

/** Consumers of both queues in the notifier. */
export function startNotificationWorkers(options: {
  connection: Redis;
  prefix: string;
  logger: Logger;
  concurrency: number;
  dispatch(job: EventJobData): Promise<void>;
  attempt(job: DeliveryJobData): Promise<void>;
}): Worker[] {
  const { connection, prefix, logger } = options;
  return [
    startJobWorker<EventJobData>({
      queue: EVENTS_QUEUE,
      connection,
      prefix,
      logger,
      what: 'event dispatch',
      concurrency: 24,
      process: (job) => options.dispatch(job.data),
    }),
    startJobWorker<DeliveryJobData>({
      queue: DELIVERIES_QUEUE,
      connection,
      prefix,
      logger,
      what: 'delivery',
      concurrency: options.concurrency,
      process: (job) => options.attempt(job.data),
    }),
  ];
}
