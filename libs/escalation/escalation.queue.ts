import { Queue, type Worker } from 'bullmq';
import type { Logger } from '../logging/index.js';
import { queueName, quietQueueErrors, type Redis, startJobWorker } from '../redis/index.js';
import type { StepPosition } from './escalation-plan.js';

export const ESCALATIONS_QUEUE = 'escalations';

export interface EscalationJobData extends StepPosition {
  incidentId: string;
}

const PENDING_STATES = new Set(['delayed', 'waiting', 'active', 'prioritized', 'waiting-children']);

/**
 * Escalation steps as delayed jobs: they wait in Redis across restarts of every notifier (durable
 * timers); MongoDB says which step is due, so a lost job is queued again by the sweep.
 */
export class EscalationQueue {
  private readonly queue: Queue<EscalationJobData>;

  constructor(connection: Redis, prefix: string) {
    this.queue = quietQueueErrors(
      new Queue<EscalationJobData>(queueName(connection, ESCALATIONS_QUEUE), { connection, prefix }),
    );
  }

  /** Queues the step (at `dueAt`); a step already waiting is left alone. */
  async schedule(job: EscalationJobData, dueAt: Date): Promise<void> {
    const jobId = `esc-${job.incidentId}-${job.round}-${job.step}`;
    const existing = await this.queue.getJob(jobId);
    if (existing && PENDING_STATES.has(await existing.getState())) return;
    await existing?.remove();
    await this.queue.add('step', job, {
      jobId,
      delay: Math.max(0, dueAt.getTime() - Date.now()),
      attempts: 5,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: true,
      removeOnFail: { count: 1000 },
    });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

export function startEscalationWorker(options: {
  connection: Redis;
  prefix: string;
  logger: Logger;
  step(job: EscalationJobData): Promise<void>;
}): Worker {
  return startJobWorker<EscalationJobData>({
    queue: ESCALATIONS_QUEUE,
    connection: options.connection,
    prefix: options.prefix,
    logger: options.logger,
    what: 'escalation step',
    concurrency: 24,
    process: (job) => options.step(job.data),
  });
}
