import { Queue, type Worker } from 'bullmq';
import type { Logger } from '../logging/index.js';
import { queueName, quietQueueErrors, type Redis, startJobWorker } from '../redis/index.js';

export const MAINTENANCE_QUEUE = 'maintenance';
const SYNC_JOB = 'sync';
const BOUNDARY_JOB = 'boundary';

/** Ids only: the job re-reads the windows and state when it runs. */
export interface MaintenanceJobData {
  organizationId: number;
  websiteId: number;
  /** Boundary jobs: the boundary (epoch ms) they were planned for, evaluated no earlier than that. */
  at?: number;
}

const JOB_OPTIONS = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: true,
  removeOnFail: { count: 1000 },
} as const;

const boundaryJobId = (websiteId: number, at: Date) => `boundary-${websiteId}-${at.getTime()}`;
const PENDING_STATES = new Set(['delayed', 'waiting', 'active', 'prioritized', 'waiting-children']);

/**
 * Producer of maintenance jobs: one delayed job per website at its next boundary (a maintenance
 * span starting or ending), and immediate syncs after its windows change.
 */
export class MaintenanceQueue {
  private readonly queue: Queue<MaintenanceJobData>;

  constructor(connection: Redis, prefix: string) {
    this.queue = quietQueueErrors(
      new Queue<MaintenanceJobData>(queueName(connection, MAINTENANCE_QUEUE), { connection, prefix }),
    );
  }

  /** Re-evaluates a website's maintenance now (its windows changed). Never de-duplicated, so a change made while a sync runs is not missed. */
  async syncSoon(organizationId: number, websiteId: number): Promise<void> {
    await this.queue.add(SYNC_JOB, { organizationId, websiteId }, JOB_OPTIONS);
  }

  /** The delayed job at a boundary, added unless it is already waiting (a failed one is replaced). */
  async ensureBoundary(organizationId: number, websiteId: number, at: Date): Promise<void> {
    const jobId = boundaryJobId(websiteId, at);
    const existing = await this.queue.getJob(jobId);
    if (existing) {
      if (PENDING_STATES.has(await existing.getState())) return;
      await existing.remove();
    }
    await this.queue.add(
      BOUNDARY_JOB,
      { organizationId, websiteId, at: at.getTime() },
      { ...JOB_OPTIONS, jobId, delay: Math.max(0, at.getTime() - Date.now()) },
    );
  }

  /** Whether the job for this boundary is waiting or running. */
  async hasBoundary(websiteId: number, at: Date): Promise<boolean> {
    const job = await this.queue.getJob(boundaryJobId(websiteId, at));
    return job !== undefined && PENDING_STATES.has(await job.getState());
  }

  /** Removes a boundary job that is no longer wanted; one running now finishes (and re-plans). */
  async dropBoundary(websiteId: number, at: Date): Promise<void> {
    const job = await this.queue.getJob(boundaryJobId(websiteId, at));
    if (job && !(await job.isActive())) await job.remove();
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** Consumer: runs `sync` for every maintenance job; a thrown error retries it with backoff. */
export function startMaintenanceWorker(options: {
  connection: Redis;
  prefix: string;
  logger: Logger;
  sync(job: MaintenanceJobData): Promise<void>;
}): Worker<MaintenanceJobData> {
  return startJobWorker<MaintenanceJobData>({
    queue: MAINTENANCE_QUEUE,
    connection: options.connection,
    prefix: options.prefix,
    logger: options.logger,
    what: 'maintenance',
    concurrency: 8,
    process: (job) => options.sync(job.data),
  });
}
