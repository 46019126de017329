import {
  type CustomerRepository,
  type CustomerWithPackage,
  customerLock,
  loadCustomerWithPackage,
} from '../customers/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import type { PackageRepository } from '../packages/index.js';
import type { Redis } from '../redis/index.js';
import type { CheckScheduler, FirstCheck } from '../scheduler/index.js';
import type { WebsiteRepository } from './website.repository.js';
import type { WebsiteScheduling } from './website-scheduling.js';

export interface ReconcileReport {
  websites: number;
  synced: number;
  orphansRemoved: number;
  /** Job Schedulers of checks' former BullMQ queues removed (once, after an upgrade). */
  formerSchedulersRemoved: number;
  /** Customers' website counters found off (a write interrupted between its two steps) and recounted. */
  countsRepaired: number;
  /** The serving regions this run scheduled in. */
  serving: string[];
  /** Whether the serving regions differed from those the last run applied. */
  fleetChanged: boolean;
  durationMs: number;
}

/** A region that starts serving checks its websites within this long (spread, not all at once). */
const NEW_REGION_FIRST_CHECKS_WITHIN_MS = 5_000;

/**
 * Makes Redis match MongoDB and the fleet: every website gets the schedulers its settings,
 * customer, package and the serving regions call for (missing ones added, changed ones fixed,
 * those of regions that stopped serving removed), and schedulers of websites that no longer exist
 * are removed. So a flushed Redis and a region coming or going heal by themselves. One run at a
 * time across all processes; the serving regions it applied are kept in Redis, so every process
 * can tell when the fleet changed since.
 */
export class ScheduleReconciler {
  constructor(
    private readonly deps: {
      websites: WebsiteRepository;
      customers: CustomerRepository;
      packages: PackageRepository;
      scheduling: WebsiteScheduling;
      scheduler: CheckScheduler;
      mutex: RedisMutex;
      redis: Redis;
      prefix: string;
      logger: Logger;
    },
  ) {}

  private get appliedKey() {
    return `${this.deps.prefix}:fleet:serving`;
  }

  /** The serving regions the last complete run applied (null: none yet, or Redis lost them). */
  async appliedServing(): Promise<string[] | null> {
    const text = await this.deps.redis.get(this.appliedKey);
    return text === null ? null : text.split(',').filter(Boolean);
  }

  /**
   * Recounts, under the customer's lock, every stored website counter that differs from the
   * websites just listed, and counts customers listed without one (a missing counter reads as no
   * websites; a create or delete may have moved on since the listing: the recount under the lock
   * is what counts).
   */
  private async repairCounts(
    listed: Map<number, { organizationId: number; count: number }>,
  ): Promise<number> {
    const stored = await this.deps.websites.storedCounts();
    const counted = new Set(stored.map((counter) => counter.customerId));
    const off = [
      ...stored.filter((counter) => (listed.get(counter.customerId)?.count ?? 0) !== counter.count),
      ...[...listed]
        .filter(([customerId]) => !counted.has(customerId))
        .map(([customerId, { organizationId }]) => ({ customerId, organizationId, count: 0 })),
    ];
    let repaired = 0;
    for (const { customerId, organizationId, count } of off) {
      const after = await this.deps.mutex.withLock(customerLock(customerId), () =>
        this.deps.websites.recountCustomer(organizationId, customerId),
      );
      if (after !== count) repaired++;
    }
    return repaired;
  }

  /** The report, or undefined when another process is reconciling right now. */
  run(): Promise<ReconcileReport | undefined> {
    return this.deps.mutex.ifFree('schedule-reconciler', () => this.reconcile());
  }

  private async reconcile(): Promise<ReconcileReport> {
    const started = Date.now();
    const { websites, customers, packages, scheduling, scheduler, mutex } = this.deps;
    const serving = await scheduling.servingRegions();
    const applied = await this.appliedServing();
    const fleetChanged = applied !== null && applied.join(',') !== serving.join(',');
    // A region a website gains (one started serving) checks it soon, not an interval later; a
    // scheduler Redis lost is only put back (its first run falls at the website's offset).
    const firstCheck: FirstCheck = { where: 'new', spreadMs: NEW_REGION_FIRST_CHECKS_WITHIN_MS };
    const known = new Set<number>();
    const regions = new Set([...serving, ...(applied ?? [])]);
    const owners = new Map<number, CustomerWithPackage | null>();
    let synced = 0;
    // Each region's schedule read once, in two commands, not two per website.
    const snapshots = new Map<string, Promise<Map<number, number>>>();
    const scheduledInterval = async (websiteId: number, region: string) => {
      let snapshot = snapshots.get(region);
      if (!snapshot) {
        snapshot = scheduler.intervalsNow(region);
        snapshots.set(region, snapshot);
      }
      return (await snapshot).get(websiteId);
    };
    const perCustomer = new Map<number, { organizationId: number; count: number }>();
    for (const listed of await websites.schedulingFields()) {
      known.add(listed.id);
      const tally = perCustomer.get(listed.customerId) ?? { organizationId: listed.organizationId, count: 0 };
      tally.count++;
      perCustomer.set(listed.customerId, tally);
      for (const region of [...listed.regions, ...listed.scheduledRegions]) regions.add(region);
      if (!owners.has(listed.customerId)) {
        owners.set(
          listed.customerId,
          await loadCustomerWithPackage(customers, packages, listed.organizationId, listed.customerId),
        );
      }
      const owner = owners.get(listed.customerId);
      if (!owner || (await scheduling.inSync(listed, owner.customer, owner.pkg, serving, scheduledInterval)))
        continue;
      // Out of line: fix it from a fresh read under the website's lock (an API write may be racing).
      await mutex.withLock(`website:${listed.id}`, async () => {
        const website = await websites.findByRef(listed.organizationId, { id: listed.id });
        if (website) await scheduling.sync(website, owner.customer, owner.pkg, { serving, firstCheck });
      });
      synced++;
    }
    let orphansRemoved = 0;
    let formerSchedulersRemoved = 0;
    for (const region of regions) {
      for (const { websiteId, organizationId } of await scheduler.scheduledWebsites(region)) {
        if (known.has(websiteId)) continue;
        // Created after the list above was read (its schedule written meanwhile): not an orphan.
        if (await websites.findByRef(organizationId, { id: websiteId })) continue;
        await scheduler.remove(websiteId, region);
        orphansRemoved++;
      }
      formerSchedulersRemoved += await scheduler.removeFormerQueue(region);
    }
    const countsRepaired = await this.repairCounts(perCustomer);
    await this.deps.redis.set(this.appliedKey, serving.join(','));
    const report = {
      websites: known.size,
      synced,
      orphansRemoved,
      formerSchedulersRemoved,
      countsRepaired,
      serving,
      fleetChanged,
      durationMs: Date.now() - started,
    };
    this.deps.logger.info(report, fleetChanged ? 'schedules follow the fleet' : 'schedules reconciled');
    return report;
  }
}
