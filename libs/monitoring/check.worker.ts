import type { Job } from 'bullmq';
import type { Logger } from '../logging/index.js';
import { type Redis, startJobWorker } from '../redis/index.js';
import { ConcurrencyLimit } from '../runtime/index.js';
import {
  BUCKET_JOB_NAME,
  type BucketJobData,
  CHECK_JOB_NAME,
  type CheckJobData,
  type CheckScheduler,
  checksQueueName,
  plannedAtOf,
} from '../scheduler/index.js';
import type { CheckRunner, RunOutcome } from './check-runner.js';
import { type CheckResultDocument, failuresOf } from './result.repository.js';

/**
 * Why a check was dropped without probing. stale: it would start more than an interval after it
 * was due; overlap: the website's previous check in this worker still waits or runs (MongoDB slow,
 * every check slot taken), and that check covers this slot.
 */
export type DroppedCheckReason = 'stale' | 'overlap';

export interface CheckWorkerOptions {
  /** A connection with `maxRetriesPerRequest: null` for BullMQ's blocking commands. */
  connection: Redis;
  /** The buckets' members, the slots already checked, and the queue re-checks are added to. */
  scheduler: CheckScheduler;
  prefix: string;
  region: string;
  /** Checks in flight at once, across every job. */
  concurrency: number;
  recheckDelayMs: number;
  runner: CheckRunner;
  logger: Logger;
  /** Told of every check dropped without probing (see `DroppedCheckReason`). */
  onDropped?: (reason: DroppedCheckReason) => void;
  /** Told of every check made: its result, and how long after it was due it started. */
  onChecked?: (result: CheckResultDocument, lagMs: number) => void;
  /** How long a job's lock lasts without renewal; a killed worker's jobs are taken over after it. @defaultValue 30000 */
  lockDurationMs?: number;
}

/**
 * Consumes the check queue of this node's region: bucket jobs (the scheduled checks of every
 * website in a bucket, each at most once per slot, so a bucket taken over from a killed worker
 * checks only what it had not) and single checks. A result that needs confirming gets one quick
 * re-check (job id per website and region, so several never pile up).
 */
export function startCheckWorker(options: CheckWorkerOptions): { close(): Promise<void> } {
  const name = checksQueueName(options.region);
  const limit = new ConcurrencyLimit(options.concurrency);
  const { scheduler, region } = options;
  // Websites with a check waiting for a slot or running here: two at once would probe the site
  // twice in the same instant when a backlog clears, and store two results of one moment.
  const inFlight = new Set<number>();

  /** One website's check; what it came to (its status, or why it did not run). */
  const check = async (data: CheckJobData, plannedAt: number): Promise<string> => {
    if (inFlight.has(data.websiteId)) {
      options.onDropped?.('overlap');
      return 'overlap';
    }
    inFlight.add(data.websiteId);
    try {
      return await checkOnce(data, plannedAt);
    } finally {
      inFlight.delete(data.websiteId);
    }
  };

  const checkOnce = async (data: CheckJobData, plannedAt: number): Promise<string> => {
    const outcome = await limit.run(() => options.runner.run(data, plannedAt));
    if (!outcome.ran) {
      if (outcome.reason === 'stale') options.onDropped?.('stale');
      return outcome.reason;
    }
    options.onChecked?.(outcome.result, outcome.result.startedAt.getTime() - plannedAt);
    // Built only when asked for: a check is cheap, and this line would be one per check.
    if (options.logger.isLevelEnabled('debug')) options.logger.debug(decisionLine(outcome), 'check decided');
    if (outcome.recheckSoon) {
      await scheduler.queue(region).add(CHECK_JOB_NAME, data, {
        delay: options.recheckDelayMs,
        jobId: `recheck-${data.websiteId}-${data.region}`,
        removeOnComplete: true,
        removeOnFail: { count: 100 },
      });
    }
    return outcome.result.status;
  };

  const runBucket = async (job: Job<BucketJobData>): Promise<string> => {
    const plannedAt = plannedAtOf(job);
    const { intervalSeconds, slot } = job.data;
    const { members, skipped } = await scheduler.bucketContents(region, intervalSeconds, slot);
    if (skipped > 0)
      options.logger.warn(
        { region, intervalSeconds, slot, skipped },
        'bucket entries that name no website skipped',
      );
    if (members.length === 0) return 'empty';
    const failures: string[] = [];
    let checked = 0;
    await Promise.all(
      members.map(async ({ organizationId, websiteId, doneSlot }) => {
        // Already checked for this slot: the bucket was taken over from a worker that died.
        if (doneSlot >= plannedAt) return;
        try {
          await check({ websiteId, organizationId, region }, plannedAt);
          await scheduler.markDone(region, websiteId, plannedAt);
          checked++;
        } catch (error) {
          failures.push(`website ${websiteId}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }),
    );
    // Failed: BullMQ records it; the websites that were checked are not checked again on a retry.
    if (failures.length > 0)
      throw new Error(
        `${failures.length} of ${members.length} checks failed (${failures.slice(0, 3).join('; ')})`,
      );
    return `${checked} checked`;
  };

  const worker = startJobWorker<CheckJobData | BucketJobData>({
    queue: name,
    connection: options.connection,
    prefix: options.prefix,
    logger: options.logger,
    what: 'check',
    // Jobs wait for a free check slot in `limit`; a bucket holds none while it waits.
    concurrency: options.concurrency,
    lockDurationMs: options.lockDurationMs ?? 30_000,
    process: (job) =>
      job.name === BUCKET_JOB_NAME
        ? runBucket(job as Job<BucketJobData>)
        : check((job as Job<CheckJobData>).data, plannedAtOf(job)),
  });
  return {
    async close() {
      await worker.close();
    },
  };
}

/** A check's decision as LOG_LEVEL=debug shows it: no URL, header or body, only what was decided. */
function decisionLine({ result, decision, recheckSoon }: RunOutcome & { ran: true }) {
  return {
    websiteId: result.websiteId,
    region: result.region,
    status: result.status,
    httpStatus: result.httpStatus,
    totalMs: result.timings.total,
    failing: failuresOf(result),
    // null: the result waits in the worker for MongoDB, its decision comes when it is stored.
    health: decision?.health ?? null,
    told: decision?.told ?? [],
    recheckSoon,
  };
}
