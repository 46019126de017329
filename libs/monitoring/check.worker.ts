import { Queue, Worker } from 'bullmq';
import type { Logger } from '../logging/index.js';
import type { Redis } from '../redis/index.js';
import { CHECK_JOB_NAME, type CheckJobData, checksQueueName, plannedAtOf } from '../scheduler/index.js';
import type { CheckRunner } from './check-runner.js';

export interface CheckWorkerOptions {
  /** A connection with `maxRetriesPerRequest: null` for BullMQ's blocking commands. */
  connection: Redis;
  /** A fail-fast connection for adding re-check jobs. */
  commands: Redis;
  prefix: string;
  region: string;
  concurrency: number;
  recheckDelayMs: number;
  runner: CheckRunner;
  logger: Logger;
  /** Told of every check dropped without probing (stale: it started more than an interval late). */
  onDropped?: (reason: 'stale') => void;
  /** How long a job's lock lasts without renewal; a killed worker's jobs are taken over after it. @defaultValue 30000 */
  lockDurationMs?: number;
}

/**
 * Consumes the check queue of this node's region. A result that needs confirming gets one quick
 * re-check (job id per website and region, so several never pile up). Job failures are retried by
 * BullMQ; a worker killed mid-check has its jobs taken over once their locks expire.
 */
export function startCheckWorker(options: CheckWorkerOptions): { close(): Promise<void> } {
  const name = checksQueueName(options.region);
  const queue = new Queue<CheckJobData>(name, { connection: options.commands, prefix: options.prefix });
  const worker = new Worker<CheckJobData>(
    name,
    async (job) => {
      const outcome = await options.runner.run(job.data, plannedAtOf(job));
      if (!outcome.ran) {
        if (outcome.reason === 'stale') options.onDropped?.('stale');
        return outcome.reason;
      }
      if (outcome.recheckSoon) {
        await queue.add(CHECK_JOB_NAME, job.data, {
          delay: options.recheckDelayMs,
          jobId: `recheck-${job.data.websiteId}-${job.data.region}`,
          removeOnComplete: true,
          removeOnFail: { count: 100 },
        });
      }
      return outcome.result.status;
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: Math.max(1000, (options.lockDurationMs ?? 30_000) / 2),
    },
  );
  worker.on('failed', (job, error) =>
    options.logger.warn({ jobId: job?.id, err: error.message }, 'check job failed'),
  );
  worker.on('error', (error) => options.logger.error({ err: error.message }, 'check worker error'));
  return {
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
