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
  firstCheck: FirstCheck;
}

/**
 * Which regions check at once, besides the schedule: `new` those the website was not scheduled in
 * before (a new, resumed or reactivated website, a region that started serving; not a scheduler a
 * flushed Redis lost, or every website would fire at once), `all` every one (what is requested
 * changed), `none`.
 * `spreadMs` spreads those checks over that long by website, so a region that starts serving is
 * not hit by all its websites in the same second.
 */
export interface FirstCheck {
  where: 'none' | 'new' | 'all';
  spreadMs?: number;
}

export const CHECK_JOB_NAME = 'check';

export function checksQueueName(region: string): string {
  return `checks-${region}`;
}

export function checkSchedulerId(websiteId: number): string {
  return `website-${websiteId}`;
}

/** The website id in a scheduler id, or undefined for another kind of scheduler. */
export function websiteIdOf(schedulerId: string): number | undefined {
  const match = /^website-(\d+)$/.exec(schedulerId);
  return match ? Number(match[1]) : undefined;
}

/**
 * Where in each interval a website's checks fall: a multiplicative hash of its id spreads websites
 * with the same interval evenly, instead of all firing at the top of the interval. Never 0 (BullMQ
 * reads 0 as "no offset").
 */
export function spreadOffsetMs(websiteId: number, everyMs: number): number {
  const hashed = Number((BigInt(websiteId) * 2654435761n) % 4294967296n);
  return 1 + Math.floor((hashed / 4294967296) * (everyMs - 1));
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
    const offset = spreadOffsetMs(plan.websiteId, every);
    const { where, spreadMs } = plan.firstCheck;
    for (const region of wanted) {
      const queue = this.queue(region);
      const existing = await queue.getJobScheduler(id);
      const data: CheckJobData = { websiteId: plan.websiteId, organizationId: plan.organizationId, region };
      if (!existing || Number(existing.every) !== every || !sameData(existing.template?.data, data)) {
        // Runs start to start every `every` ms at the website's own offset (no drift, no thundering herd).
        await queue.upsertJobScheduler(
          id,
          { every, offset },
          {
            name: CHECK_JOB_NAME,
            data,
            opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 1000 } },
          },
        );
      }
      // The offset puts the first scheduled run up to an interval away: these check sooner.
      if (where === 'all' || (where === 'new' && !plan.previousRegions.includes(region))) {
        await queue.add(CHECK_JOB_NAME, data, {
          jobId:
            where === 'new'
              ? `first-${plan.websiteId}-${region}`
              : `now-${plan.websiteId}-${region}-${Date.now()}`,
          delay: spreadMs ? spreadOffsetMs(plan.websiteId, spreadMs) : 0,
          removeOnComplete: true,
          removeOnFail: { count: 100 },
        });
      }
    }
  }

  /** Drops the jobs waiting in a region's queue (a region that stopped serving: nobody takes them). */
  async drain(region: string): Promise<void> {
    await this.queue(region).drain(true);
  }

  /** The website ids that have a scheduler in a region's queue. */
  async scheduledWebsiteIds(region: string): Promise<number[]> {
    const ids: number[] = [];
    const pageSize = 1000;
    for (let start = 0; ; start += pageSize) {
      const page = await this.queue(region).getJobSchedulers(start, start + pageSize - 1, true);
      for (const scheduler of page) {
        const websiteId = websiteIdOf(scheduler.key);
        if (websiteId !== undefined) ids.push(websiteId);
      }
      if (page.length < pageSize) return ids;
    }
  }

  async remove(websiteId: number, region: string): Promise<void> {
    await this.queue(region).removeJobScheduler(checkSchedulerId(websiteId));
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

/**
 * When a job was due (epoch ms): added at `timestamp` with the delay in its options. Not
 * `job.delay`: BullMQ sets that to 0 when it promotes a delayed job, which would date every
 * scheduled check back to when the one before it ran.
 */
export function plannedAtOf(job: { timestamp: number; opts: { delay?: number } }): number {
  return job.timestamp + (job.opts.delay ?? 0);
}

/**
 * A check that starts more than one interval after it was planned is stale (its worker was down,
 * its region stopped serving): the next one is due anyway, and probing it would report the past.
 */
export function isStale(plannedAt: number, startedAt: number, intervalMs: number): boolean {
  return startedAt - plannedAt > intervalMs;
}
