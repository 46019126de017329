import {
  type CustomerRepository,
  type CustomerWithPackage,
  loadCustomerWithPackage,
} from '../customers/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { Logger } from '../logging/index.js';
import type { PackageRepository } from '../packages/index.js';
import type { CheckScheduler } from '../scheduler/index.js';
import type { WebsiteRepository } from './website.repository.js';
import type { WebsiteScheduling } from './website-scheduling.js';

export interface ReconcileReport {
  websites: number;
  orphansRemoved: number;
  durationMs: number;
}

/**
 * Makes Redis match MongoDB: every website gets the schedulers its settings, customer and package
 * call for (missing ones added, changed ones fixed), and schedulers of websites that no longer
 * exist are removed. So a flushed or restarted Redis heals by itself. One run at a time across
 * all workers.
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
      fallbackRegion: string;
      logger: Logger;
    },
  ) {}

  /** The report, or undefined when another process is reconciling right now. */
  run(): Promise<ReconcileReport | undefined> {
    return this.deps.mutex.ifFree('schedule-reconciler', () => this.reconcile());
  }

  private async reconcile(): Promise<ReconcileReport> {
    const started = Date.now();
    const { websites, customers, packages, scheduling, scheduler, mutex } = this.deps;
    const known = new Set<number>();
    const knownRegions = await scheduling.knownRegions();
    const regions = new Set([this.deps.fallbackRegion, ...knownRegions]);
    const owners = new Map<number, CustomerWithPackage | null>();
    for (const listed of await websites.schedulingFields()) {
      known.add(listed.id);
      for (const region of [...listed.regions, ...listed.scheduledRegions]) regions.add(region);
      if (!owners.has(listed.customerId)) {
        owners.set(
          listed.customerId,
          await loadCustomerWithPackage(customers, packages, listed.organizationId, listed.customerId),
        );
      }
      const owner = owners.get(listed.customerId);
      if (!owner || (await scheduling.inSync(listed, owner.customer, owner.pkg, knownRegions))) continue;
      // Out of line: fix it from a fresh read under the website's lock (an API write may be racing).
      await mutex.withLock(`website:${listed.id}`, async () => {
        const website = await websites.findByRef(listed.organizationId, { id: listed.id });
        if (website)
          await scheduling.sync(website, owner.customer, owner.pkg, { knownRegions, checkNowIfNew: false });
      });
    }
    let orphansRemoved = 0;
    for (const region of regions) {
      for (const websiteId of await scheduler.scheduledWebsiteIds(region)) {
        if (known.has(websiteId)) continue;
        await scheduler.remove(websiteId, region);
        orphansRemoved++;
      }
    }
    const report = { websites: known.size, orphansRemoved, durationMs: Date.now() - started };
    this.deps.logger.info(report, 'schedules reconciled');
    return report;
  }
}
