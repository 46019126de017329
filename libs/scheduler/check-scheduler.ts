import { Queue } from 'bullmq';
import { queueName, quietQueueErrors, type Redis } from '../redis/index.js';

/** What a single-check job carries: ids only, never configuration or secrets (they are read at run time). */
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

/** A single check of one website (a first check, a quick re-check, a check now). */
export const CHECK_JOB_NAME = 'check';
/** The scheduled checks of one bucket: every website of a region sharing an interval and a second in it. */
export const BUCKET_JOB_NAME = 'bucket';

/** What a bucket job carries; the websites are read from the bucket's set when it runs. */
export interface BucketJobData {
  region: string;
  intervalSeconds: number;
  slot: number;
}

export function checksQueueName(region: string): string {
  return `checks-${region}`;
}

/**
 * Where in each interval a website's checks fall: a multiplicative hash of its id spreads websites
 * with the same interval evenly, instead of all firing at the top of the interval. Never 0.
 */
export function spreadOffsetMs(websiteId: number, everyMs: number): number {
  const hashed = Number((BigInt(websiteId) * 2654435761n) % 4294967296n);
  return 1 + Math.floor((hashed / 4294967296) * (everyMs - 1));
}

/**
 * The bucket a website's scheduled checks run in: its interval and the second of the interval its
 * spread offset falls in. One BullMQ Job Scheduler per bucket and region runs every website of it,
 * so BullMQ's per-job cost (a dozen Lua-heavy round trips) is paid per bucket, not per check.
 */
export function bucketOf(
  websiteId: number,
  intervalSeconds: number,
): { slot: number; offsetMs: number; schedulerId: string } {
  const slot = Math.floor(spreadOffsetMs(websiteId, intervalSeconds * 1000) / 1000);
  // 1 ms into its second: BullMQ reads an offset of 0 as "none" and would start at the upsert.
  return { slot, offsetMs: slot * 1000 + 1, schedulerId: `bucket-${intervalSeconds}-${slot}` };
}

/** A bucket's member: the website and its organization, as the set holds it ("organization:website"). */
export interface BucketMember {
  organizationId: number;
  websiteId: number;
}

const MEMBER = /^(\d+):(\d+)$/;

function memberOf({ organizationId, websiteId }: BucketMember): string {
  return `${organizationId}:${websiteId}`;
}

/** A member read back from Redis, or null when it is not one (a foreign or damaged entry). */
export function parseBucketMember(member: string): BucketMember | null {
  const match = MEMBER.exec(member);
  return match ? { organizationId: Number(match[1]), websiteId: Number(match[2]) } : null;
}

/** A `webmon-plan` entry ("interval:organization") read back from Redis, or null when damaged. */
function parsePlanEntry(entry: string | null): { intervalSeconds: number; organizationId: number } | null {
  const match = entry === null ? null : MEMBER.exec(entry);
  return match ? { intervalSeconds: Number(match[1]), organizationId: Number(match[2]) } : null;
}

/** The legacy per-website Job Scheduler (before buckets); removed where found. */
const LEGACY_SCHEDULER = /^website-\d+$/;
const BUCKET_SCHEDULER = /^bucket-(\d+)-(\d+)$/;

/**
 * The producer side of the per-region check queues. In Redis, per region (beside BullMQ's keys):
 * `webmon-plan` (hash: website id → "interval:organization"), one set per bucket of its members
 * ("organization:website"), `webmon-done` (hash: website id → the last slot checked, so a bucket
 * job taken over after a crash does not check twice). Callers serialize plans per website.
 */
export class CheckScheduler {
  private readonly queues = new Map<string, Queue<CheckJobData | BucketJobData>>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  queue(region: string): Queue<CheckJobData | BucketJobData> {
    let queue = this.queues.get(region);
    if (!queue) {
      queue = quietQueueErrors(
        new Queue<CheckJobData | BucketJobData>(queueName(this.connection, checksQueueName(region)), {
          connection: this.connection,
          prefix: this.prefix,
        }),
      );
      this.queues.set(region, queue);
    }
    return queue;
  }

  private key(region: string, name: string): string {
    // Beside the queue's keys, in its hash slot on a cluster: MULTI writes a bucket and the plan together.
    return `${this.prefix}:${queueName(this.connection, checksQueueName(region))}:webmon-${name}`;
  }

  private bucketKey(region: string, intervalSeconds: number, slot: number): string {
    return this.key(region, `bucket:${intervalSeconds}:${slot}`);
  }

  /** The hash of the last slot each website was checked for in a region. */
  private doneKey(region: string): string {
    return this.key(region, 'done');
  }

  /**
   * The websites of a bucket, each with the last slot it was checked for (0: never), in two reads.
   * Entries that are not members (damaged, foreign) are left out and counted in `skipped`.
   */
  async bucketContents(
    region: string,
    intervalSeconds: number,
    slot: number,
  ): Promise<{ members: Array<BucketMember & { doneSlot: number }>; skipped: number }> {
    const raw = await this.connection.smembers(this.bucketKey(region, intervalSeconds, slot));
    const parsed = raw.map(parseBucketMember).filter((member) => member !== null);
    if (parsed.length === 0) return { members: [], skipped: raw.length };
    const done = await this.connection.hmget(
      this.doneKey(region),
      ...parsed.map((member) => String(member.websiteId)),
    );
    return {
      members: parsed.map((member, index) => ({ ...member, doneSlot: Number(done[index] ?? 0) || 0 })),
      skipped: raw.length - parsed.length,
    };
  }

  /** Records that a website was checked for a slot (a bucket retried later skips it). */
  async markDone(region: string, websiteId: number, slot: number): Promise<void> {
    await this.connection.hset(this.doneKey(region), String(websiteId), String(slot));
  }

  /** Makes the schedule of one website match `plan`; writes only what differs. */
  async apply(plan: SchedulePlan): Promise<void> {
    const wanted = new Set(plan.regions);
    for (const region of plan.previousRegions) {
      if (!wanted.has(region)) await this.remove(plan.websiteId, region);
    }
    const { where, spreadMs } = plan.firstCheck;
    const entry = `${plan.intervalSeconds}:${plan.organizationId}`;
    for (const region of wanted) {
      const current = await this.connection.hget(this.key(region, 'plan'), String(plan.websiteId));
      if (current !== entry) {
        await this.leaveBucket(plan.websiteId, region, current);
        const { slot } = bucketOf(plan.websiteId, plan.intervalSeconds);
        await this.connection
          .multi()
          .sadd(this.bucketKey(region, plan.intervalSeconds, slot), memberOf(plan))
          .hset(this.key(region, 'plan'), String(plan.websiteId), entry)
          .exec();
      }
      await this.ensureBucketScheduler(region, plan.intervalSeconds, plan.websiteId);
      // The bucket's next run is up to an interval away: these check sooner.
      if (where === 'all' || (where === 'new' && !plan.previousRegions.includes(region))) {
        const data: CheckJobData = { websiteId: plan.websiteId, organizationId: plan.organizationId, region };
        await this.queue(region).add(CHECK_JOB_NAME, data, {
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

  private async ensureBucketScheduler(
    region: string,
    intervalSeconds: number,
    websiteId: number,
  ): Promise<void> {
    const { slot, offsetMs, schedulerId } = bucketOf(websiteId, intervalSeconds);
    const queue = this.queue(region);
    if (await queue.getJobScheduler(schedulerId)) return;
    const data: BucketJobData = { region, intervalSeconds, slot };
    // Runs start to start every interval at the bucket's offset (no drift, no thundering herd).
    await queue.upsertJobScheduler(
      schedulerId,
      { every: intervalSeconds * 1000, offset: offsetMs },
      { name: BUCKET_JOB_NAME, data, opts: { removeOnComplete: true, removeOnFail: { count: 1000 } } },
    );
  }

  private async leaveBucket(websiteId: number, region: string, entry: string | null): Promise<void> {
    const planned = parsePlanEntry(entry);
    if (!planned) return;
    await this.connection.srem(
      this.bucketKey(region, planned.intervalSeconds, bucketOf(websiteId, planned.intervalSeconds).slot),
      memberOf({ organizationId: planned.organizationId, websiteId }),
    );
  }

  /** Drops the jobs waiting in a region's queue (a region that stopped serving: nobody takes them). */
  async drain(region: string): Promise<void> {
    await this.queue(region).drain(true);
  }

  /** The website ids scheduled in a region. */
  async scheduledWebsiteIds(region: string): Promise<number[]> {
    return (await this.connection.hkeys(this.key(region, 'plan'))).map(Number);
  }

  async remove(websiteId: number, region: string): Promise<void> {
    const current = await this.connection.hget(this.key(region, 'plan'), String(websiteId));
    await this.leaveBucket(websiteId, region, current);
    await this.connection
      .multi()
      .hdel(this.key(region, 'plan'), String(websiteId))
      .hdel(this.doneKey(region), String(websiteId))
      .exec();
  }

  /** The interval (ms) a website is scheduled at in a region, or undefined when it is not. */
  async intervalOf(websiteId: number, region: string): Promise<number | undefined> {
    const planned = parsePlanEntry(await this.connection.hget(this.key(region, 'plan'), String(websiteId)));
    if (!planned) return undefined;
    const { schedulerId } = bucketOf(websiteId, planned.intervalSeconds);
    // A bucket without its Job Scheduler (Redis lost it) does not run: not scheduled.
    return (await this.queue(region).getJobScheduler(schedulerId))
      ? planned.intervalSeconds * 1000
      : undefined;
  }

  /**
   * What `intervalOf` answers, for every website of a region from two reads (the plan and the
   * Job Schedulers) instead of two per website: what the reconciler compares against.
   */
  async intervalsNow(region: string): Promise<Map<number, number>> {
    const [plan, running] = await Promise.all([
      this.connection.hgetall(this.key(region, 'plan')),
      this.schedulerIds(region),
    ]);
    const runningIds = new Set(running);
    const intervals = new Map<number, number>();
    for (const [id, entry] of Object.entries(plan)) {
      const websiteId = Number(id);
      const planned = parsePlanEntry(entry);
      if (planned && runningIds.has(bucketOf(websiteId, planned.intervalSeconds).schedulerId))
        intervals.set(websiteId, planned.intervalSeconds * 1000);
    }
    return intervals;
  }

  private async schedulerIds(region: string): Promise<string[]> {
    const ids: string[] = [];
    const pageSize = 1000;
    for (let start = 0; ; start += pageSize) {
      const page = await this.queue(region).getJobSchedulers(start, start + pageSize - 1, true);
      ids.push(...page.map((scheduler) => scheduler.key));
      if (page.length < pageSize) return ids;
    }
  }

  /**
   * Removes the Job Schedulers of empty buckets and the per-website ones of older versions.
   * Returns how many went.
   */
  async prune(region: string): Promise<number> {
    const queue = this.queue(region);
    let removed = 0;
    for (const id of await this.schedulerIds(region)) {
      const bucket = BUCKET_SCHEDULER.exec(id);
      if (LEGACY_SCHEDULER.test(id)) {
        await queue.removeJobScheduler(id);
        removed++;
      } else if (bucket) {
        const key = this.bucketKey(region, Number(bucket[1]), Number(bucket[2]));
        if ((await this.connection.scard(key)) > 0) continue;
        await queue.removeJobScheduler(id);
        removed++;
        // A website that joined meanwhile keeps its bucket running.
        const member = parseBucketMember((await this.connection.srandmember(key)) ?? '');
        if (member) await this.ensureBucketScheduler(region, Number(bucket[1]), member.websiteId);
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
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
