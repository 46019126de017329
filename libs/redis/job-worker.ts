import { type Job, type Processor, Worker } from 'bullmq';
import type { Logger } from '../logging/index.js';
import type { Redis } from './client.js';
import { logUnlessConnectionLost } from './errors.js';
import { queueName } from './keys.js';

/**
 * A BullMQ worker of one of our queues: failed jobs are logged as "<what> job failed" (BullMQ
 * retries them as their queue says), connection losses are left to the connection's own log, and
 * other worker errors are logged once each.
 */
export function startJobWorker<Data>(options: {
  /** The queue's name; hash-tagged on a cluster (`queueName`). */
  queue: string;
  /** A connection with `maxRetriesPerRequest: null`, as BullMQ's blocking commands need. */
  connection: Redis;
  prefix: string;
  logger: Logger;
  /** What its jobs are, for the logs: "maintenance", "delivery" … */
  what: string;
  concurrency: number;
  process: (job: Job<Data>) => Promise<unknown>;
  /** How long a job's lock lasts without renewal (BullMQ's default: 30 s); stalls are checked at half of it. */
  lockDurationMs?: number;
  /** How often a job may stall (its worker died) before it fails for good (BullMQ's default: 1). */
  maxStalledCount?: number;
}): Worker<Data> {
  const worker = new Worker<Data>(
    queueName(options.connection, options.queue),
    options.process as Processor<Data>,
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      ...(options.lockDurationMs
        ? {
            lockDuration: options.lockDurationMs,
            stalledInterval: Math.max(1000, options.lockDurationMs / 2),
          }
        : {}),
      ...(options.maxStalledCount === undefined ? {} : { maxStalledCount: options.maxStalledCount }),
    },
  );
  worker.on('failed', (job, error) =>
    options.logger.warn({ jobId: job?.id, err: error.message }, `${options.what} job failed`),
  );
  worker.on('error', logUnlessConnectionLost(options.logger, `${options.what} worker error`));
  return worker;
}
