import { Queue } from 'bullmq';
import type { Redis } from '../redis/index.js';

/** What a check job carries: ids only, never configuration or secrets (they are read at run time). */
export interface CheckJobData {
  websiteId: number;
  organizationId: number;
  region: string;
}

/** Where one website should be checked, and how often; `regions` empty means not at all. */
export interface SchedulePlan {
  websiteId: number;
  organizationId: number;
  intervalSeconds: number;
  regions: readonly string[];
  /** Regions scheduled before this change, whose schedulers must go if no longer wanted. */
  previousRegions: readonly string[];
}

export const CHECK_JOB_NAME = 'check';

export function checksQueueName(region: string): string {
  return `checks-${region}`;
}

export function checkSchedulerId(websiteId: number): string {
  return `website-${websiteId}`;
}

/**
 * The producer side of the per-region check queues: keeps one BullMQ Job Scheduler per website in
 * each region's queue in line with a plan. Callers serialize plans per website.
 */
export class CheckScheduler {
  private readonly queues = new Map<string, Queue<CheckJobData>>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  queue(region: string): Queue<CheckJobData> {
    let queue = this.queues.get(region);
    if (!queue) {
      queue = new Queue<CheckJobData>(checksQueueName(region), {
        connection: this.connection,
        prefix: this.prefix,
      });
      this.queues.set(region, queue);
    }
    return queue;
  }

  /** Makes the schedulers of one website match `plan`; upserts only what differs. */
  async apply(plan: SchedulePlan): Promise<void> {
    const id = checkSchedulerId(plan.websiteId);
    const wanted = new Set(plan.regions);
    for (const region of plan.previousRegions) {
      if (!wanted.has(region)) await this.queue(region).removeJobScheduler(id);
    }
    const every = plan.intervalSeconds * 1000;
    for (const region of wanted) {
      const queue = this.queue(region);
      const existing = await queue.getJobScheduler(id);
      const data: CheckJobData = { websiteId: plan.websiteId, organizationId: plan.organizationId, region };
      if (existing && Number(existing.every) === every && sameData(existing.template?.data, data)) continue;
      await queue.upsertJobScheduler(
        id,
        { every },
        {
          name: CHECK_JOB_NAME,
          data,
          opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 1000 } },
        },
      );
    }
  }

  /** The interval (ms) of a website's scheduler in a region, or undefined when there is none. */
  async intervalOf(websiteId: number, region: string): Promise<number | undefined> {
    const scheduler = await this.queue(region).getJobScheduler(checkSchedulerId(websiteId));
    return scheduler?.every === undefined || scheduler.every === null ? undefined : Number(scheduler.every);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}

function sameData(stored: unknown, wanted: CheckJobData): boolean {
  if (typeof stored !== 'object' || stored === null) return false;
  const data = stored as Partial<CheckJobData>;
  return (
    data.websiteId === wanted.websiteId &&
    data.organizationId === wanted.organizationId &&
    data.region === wanted.region
  );
}
