import { Queue } from 'bullmq';
import { queueName, quietQueueErrors, type Redis } from '../redis/index.js';
import { type DueMember, DueSet, dueMember, nextSlotAfter, regionDueKey } from './due-set.js';

/** Which website a check is of, and from where: ids only, never configuration or secrets (read at run time). */
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
  /** Regions scheduled before this change, whose schedules must go if no longer wanted. */
  previousRegions: readonly string[];
  firstCheck: FirstCheck;
}

/**
 * Which regions check at once, besides the schedule: `new` those the website was not scheduled in
 * before (a new, resumed or reactivated website, a region that started serving; not a schedule a
 * flushed Redis lost, or every website would fire at once), `all` every one (what is requested
 * changed), `none`.
 * `spreadMs` spreads those checks over that long by website, so a region that starts serving is
 * not hit by all its websites in the same second.
 */
export interface FirstCheck {
  where: 'none' | 'new' | 'all';
  spreadMs?: number;
}

/**
 * Where in each interval a website's (or a monitor's) checks fall: a multiplicative hash of its id
 * spreads those with the same interval evenly, instead of all firing at the top of the interval. Never 0.
 */
export function spreadOffsetMs(id: number, everyMs: number): number {
  const hashed = Number((BigInt(id) * 2654435761n) % 4294967296n);
  return 1 + Math.floor((hashed / 4294967296) * (everyMs - 1));
}

/** A website's own HTTP check as the due sets hold it. */
export const websiteCheckMember = (websiteId: number, organizationId: number): DueMember => ({
  kind: 'http',
  monitorId: websiteId,
  organizationId,
  websiteId,
});

/**
 * Where in its interval a check's cadence falls: the second its spread offset is in. Checks due in
 * the same second are due at the same millisecond, so a lane claims them together and their results
 * go to MongoDB in one batch (spread to the millisecond, each batch held a tenth as many and
 * FerretDB's and the worker's CPU per check rose by half in bench:peers).
 */
export const cadenceOffsetMs = (id: number, everyMs: number) =>
  Math.floor(spreadOffsetMs(id, everyMs) / 1000) * 1000;

/** A website's (or a monitor's) next check slot after `now`: its cadence offset + k·interval. */
export const nextCheckAt = (id: number, everyMs: number, now: number) =>
  nextSlotAfter(now, everyMs, cadenceOffsetMs(id, everyMs));

/**
 * When a check that just finished is next due: the slot after it started, so a check held past its
 * next slot (its result waiting on a stalled MongoDB for the write's 10 s bound) is made at once
 * instead of that slot being skipped; a slot a whole interval behind is skipped (it would be stale).
 */
export function nextCheckAfterRun(id: number, everyMs: number, startedAt: number, now: number): number {
  const slot = nextCheckAt(id, everyMs, startedAt);
  return now - slot < everyMs ? slot : nextCheckAt(id, everyMs, now);
}

/** The name of a region's check queue in BullMQ before checks were due in sorted sets (its keys are migrated away). */
export function checksQueueName(region: string): string {
  return `checks-${region}`;
}

const PLAN_ENTRY = /^(\d+):(\d+)$/;

/** A `webmon-plan` entry ("interval:organization") read back from Redis, or null when damaged. */
function parsePlanEntry(entry: string | null): { intervalSeconds: number; organizationId: number } | null {
  const match = entry === null ? null : PLAN_ENTRY.exec(entry);
  return match ? { intervalSeconds: Number(match[1]), organizationId: Number(match[2]) } : null;
}

/**
 * The producer side of websites' HTTP checks, per region: `webmon-plan` (hash: website id →
 * "interval:organization", what the website should have) and the region's `http` lane due set
 * (`regionDueKey`), which the workers' lanes claim from as every other kind's (`startDueLanes`).
 * Callers serialize plans per website.
 */
export class CheckScheduler {
  private readonly legacyQueues = new Map<string, Queue>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  /** The region's due set of websites' checks. */
  dueSet(region: string): DueSet {
    return new DueSet(this.connection, regionDueKey(this.prefix, region, 'http'));
  }

  private key(region: string, name: string): string {
    // Where plans always were (beside the former check queue's keys, in its hash slot on a cluster).
    return `${this.prefix}:${queueName(this.connection, checksQueueName(region))}:webmon-${name}`;
  }

  /** Makes the schedule of one website match `plan`; writes only what differs. */
  async apply(plan: SchedulePlan): Promise<void> {
    const wanted = new Set(plan.regions);
    for (const region of plan.previousRegions) {
      if (!wanted.has(region)) await this.remove(plan.websiteId, region);
    }
    const { where, spreadMs } = plan.firstCheck;
    const entry = `${plan.intervalSeconds}:${plan.organizationId}`;
    const member = websiteCheckMember(plan.websiteId, plan.organizationId);
    const now = Date.now();
    const slot = nextCheckAt(plan.websiteId, plan.intervalSeconds * 1000, now);
    for (const region of wanted) {
      const due = this.dueSet(region);
      const current = await this.connection.hget(this.key(region, 'plan'), String(plan.websiteId));
      if (current !== entry) {
        await this.connection.hset(this.key(region, 'plan'), String(plan.websiteId), entry);
        // A new interval, a new cadence from its next slot; never later than a check already due
        // sooner (a first check another write asked for). A check running now is put back at this.
        await due.scheduleBy(member, slot);
      } else {
        // A set Redis lost is refilled; a scheduled check keeps its time.
        await due.scheduleIfAbsent(member, slot);
      }
      // The next slot is up to an interval away: these check sooner.
      if (where === 'all' || (where === 'new' && !plan.previousRegions.includes(region)))
        await due.scheduleBy(member, now + (spreadMs ? spreadOffsetMs(plan.websiteId, spreadMs) : 0));
    }
  }

  /** The website ids scheduled in a region. */
  async scheduledWebsiteIds(region: string): Promise<number[]> {
    return (await this.connection.hkeys(this.key(region, 'plan'))).map(Number);
  }

  /** The websites scheduled in a region, each with its organization (damaged entries left out). */
  async scheduledWebsites(region: string): Promise<Array<{ websiteId: number; organizationId: number }>> {
    const plan = await this.connection.hgetall(this.key(region, 'plan'));
    return Object.entries(plan).flatMap(([id, entry]) => {
      const planned = parsePlanEntry(entry);
      return planned ? [{ websiteId: Number(id), organizationId: planned.organizationId }] : [];
    });
  }

  async remove(websiteId: number, region: string): Promise<void> {
    const planned = parsePlanEntry(await this.connection.hget(this.key(region, 'plan'), String(websiteId)));
    await this.connection.hdel(this.key(region, 'plan'), String(websiteId));
    if (planned) await this.dueSet(region).remove(websiteCheckMember(websiteId, planned.organizationId));
  }

  /** The interval (ms) a website is scheduled at in a region, or undefined when it is not. */
  async intervalOf(websiteId: number, region: string): Promise<number | undefined> {
    const planned = parsePlanEntry(await this.connection.hget(this.key(region, 'plan'), String(websiteId)));
    if (!planned) return undefined;
    // Planned but not due (Redis lost the set): not scheduled.
    const due = await this.connection.zscore(
      this.dueSet(region).key,
      dueMember(websiteCheckMember(websiteId, planned.organizationId)),
    );
    return due === null ? undefined : planned.intervalSeconds * 1000;
  }

  /**
   * What `intervalOf` answers, for every website of a region from two reads (the plan and the due
   * set) instead of two per website: what the reconciler compares against.
   */
  async intervalsNow(region: string): Promise<Map<number, number>> {
    const [plan, due] = await Promise.all([
      this.connection.hgetall(this.key(region, 'plan')),
      this.dueSet(region).members(),
    ]);
    const dueIds = new Set(due.map(({ member }) => member.websiteId));
    const intervals = new Map<number, number>();
    for (const [id, entry] of Object.entries(plan)) {
      const websiteId = Number(id);
      const planned = parsePlanEntry(entry);
      if (planned && dueIds.has(websiteId)) intervals.set(websiteId, planned.intervalSeconds * 1000);
    }
    return intervals;
  }

  /**
   * Removes what checks left in Redis when they ran as BullMQ jobs (one Job Scheduler per bucket,
   * each bucket's set of websites, the slots done, waiting single checks): once, then nothing is
   * left to find. Returns how many Job Schedulers went.
   */
  async removeFormerQueue(region: string): Promise<number> {
    const queue = this.legacyQueue(region);
    const schedulers = await queue.getJobSchedulers(0, -1, true);
    const done = this.key(region, 'done');
    if (schedulers.length === 0 && (await this.connection.exists(done)) === 0) return 0;
    for (const scheduler of schedulers) await queue.removeJobScheduler(scheduler.key);
    const buckets = schedulers
      .map((scheduler) => /^bucket-(\d+)-(\d+)$/.exec(scheduler.key))
      .filter((match) => match !== null)
      .map((match) => this.key(region, `bucket:${match[1]}:${match[2]}`));
    for (const key of [done, ...buckets]) await this.connection.del(key);
    await queue.drain(true);
    return schedulers.length;
  }

  private legacyQueue(region: string): Queue {
    let queue = this.legacyQueues.get(region);
    if (!queue) {
      queue = quietQueueErrors(
        new Queue(queueName(this.connection, checksQueueName(region)), {
          connection: this.connection,
          prefix: this.prefix,
        }),
      );
      this.legacyQueues.set(region, queue);
    }
    return queue;
  }

  async close(): Promise<void> {
    await Promise.all([...this.legacyQueues.values()].map((queue) => queue.close()));
  }
}

/**
 * A check that starts more than one interval after it was planned is stale (its worker was down,
 * its region stopped serving): the next one is due anyway, and probing it would report the past.
 */
export function isStale(plannedAt: number, startedAt: number, intervalMs: number): boolean {
  return startedAt - plannedAt > intervalMs;
}
