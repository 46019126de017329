import { type CustomerDocument, isMonitored } from '../customers/index.js';
import { type MonitoringNodeRepository, placeWebsite } from '../nodes/index.js';
import type { PackageDocument } from '../packages/index.js';
import type { CheckScheduler, FirstCheck } from '../scheduler/index.js';
import type {
  Unmonitored,
  WebsiteDocument,
  WebsiteRepository,
  WebsiteSchedulingFields,
} from './website.repository.js';

/** The interval a website is checked at: its own, but never below its package's minimum. */
export function effectiveIntervalSeconds(
  website: Pick<WebsiteDocument, 'checkInterval'>,
  pkg: PackageDocument,
): number {
  return Math.max(website.checkInterval, pkg.limits.minCheckIntervalSeconds);
}

/** A website whose regions or unmonitored state changed, with what they were. */
export interface PlacementChange {
  /** As it is now (`scheduledRegions`, `unmonitored`). */
  website: WebsiteDocument;
  customer: CustomerDocument;
  pkg: PackageDocument;
  before: { regions: readonly string[]; unmonitored: Unmonitored | null };
}

/** Told before a placement change is stored (the monitor decides the status again and tells subscribers). */
export type PlacementListener = (change: PlacementChange) => Promise<void>;

/** What the regions of a website should be now. */
interface WantedPlacement {
  regions: string[];
  /** Set when the website should be checked but no region it may be checked from serves. */
  unmonitoredReason: string | null;
}

const sameRegions = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((region) => b.includes(region));

/**
 * Keeps a website's BullMQ schedulers in line with its settings, its customer, its package and the
 * serving regions of the fleet (regions with an active monitoring node).
 */
export class WebsiteScheduling {
  constructor(
    private readonly deps: {
      scheduler: CheckScheduler;
      websites: WebsiteRepository;
      nodes: MonitoringNodeRepository;
      /** Where single-region websites go while it serves. */
      preferredRegion?: string | undefined;
      onPlacement?: PlacementListener;
    },
  ) {}

  servingRegions(): Promise<string[]> {
    return this.deps.nodes.servingRegions();
  }

  private wanted(
    website: WebsiteSchedulingFields,
    customer: CustomerDocument,
    pkg: PackageDocument,
    serving: readonly string[],
  ): WantedPlacement {
    if (website.paused || !isMonitored(customer.status)) return { regions: [], unmonitoredReason: null };
    return placeWebsite({
      requested: website.regions,
      multiRegion: pkg.features.multiRegion,
      serving,
      preferredRegion: this.deps.preferredRegion,
      current: website.scheduledRegions,
    });
  }

  /**
   * The placement a website keeps when nothing that places it changed (its regions, pause and
   * customer): the one stored, which the fleet watcher's reconcile moves when the serving regions
   * change. Null when a website to check has none to keep (neither placed nor unmonitored).
   */
  private kept(website: WebsiteSchedulingFields, customer: CustomerDocument): WantedPlacement | null {
    if (website.paused || !isMonitored(customer.status)) return { regions: [], unmonitoredReason: null };
    if (website.unmonitored) return { regions: [], unmonitoredReason: website.unmonitored.reason };
    return website.scheduledRegions.length > 0
      ? { regions: [...website.scheduledRegions], unmonitoredReason: null }
      : null;
  }

  /**
   * Call with the website's lock held. `serving` saves a query when the caller already has the
   * serving regions; `'as placed'` keeps the stored placement (see `kept`) without reading the
   * fleet, a scan of the monitoring nodes on FerretDB. `firstCheck` says where to check at once
   * (default: where it was not scheduled before).
   */
  async sync(
    website: WebsiteDocument,
    customer: CustomerDocument,
    pkg: PackageDocument,
    options: {
      serving?: readonly string[] | 'as placed';
      firstCheck?: FirstCheck;
      /** Where Redis schedules it, when that is not `scheduledRegions` (a website stored with `regionsForNew`'s answer: nowhere yet). */
      scheduledInRedis?: readonly string[];
    } = {},
  ): Promise<void> {
    const { serving } = options;
    const wanted =
      (serving === 'as placed' ? this.kept(website, customer) : null) ??
      this.wanted(website, customer, pkg, Array.isArray(serving) ? serving : await this.servingRegions());
    await this.apply(website, wanted, effectiveIntervalSeconds(website, pkg), {
      firstCheck: options.firstCheck ?? { where: 'new' },
      owner: { customer, pkg },
      scheduledInRedis: options.scheduledInRedis,
    });
  }

  /**
   * The regions a website about to be stored will be scheduled in, to store with it (one write
   * instead of an insert and an update); then `sync` with `scheduledInRedis: []`. Null when it will
   * be unmonitored: that is told before it is stored, so `sync` stores it after the insert.
   */
  regionsForNew(
    website: WebsiteSchedulingFields,
    customer: CustomerDocument,
    pkg: PackageDocument,
    serving: readonly string[],
  ): string[] | null {
    const wanted = this.wanted(website, customer, pkg, serving);
    return wanted.unmonitoredReason === null ? wanted.regions : null;
  }

  /**
   * Whether Redis and the website document already hold exactly what it should have (read only, no
   * lock). `intervalOf` answers what Redis schedules (the reconciler passes a snapshot).
   */
  async inSync(
    website: WebsiteSchedulingFields,
    customer: CustomerDocument,
    pkg: PackageDocument,
    serving: readonly string[],
    intervalOf: (websiteId: number, region: string) => Promise<number | undefined> = (id, region) =>
      this.deps.scheduler.intervalOf(id, region),
  ): Promise<boolean> {
    const wanted = this.wanted(website, customer, pkg, serving);
    if (!sameRegions(wanted.regions, website.scheduledRegions)) return false;
    if ((wanted.unmonitoredReason === null) !== ((website.unmonitored ?? null) === null)) return false;
    const every = effectiveIntervalSeconds(website, pkg) * 1000;
    for (const region of wanted.regions) {
      if ((await intervalOf(website.id, region)) !== every) return false;
    }
    return true;
  }

  /** Removes every scheduler of the website (it is being deleted). */
  unschedule(website: WebsiteDocument): Promise<void> {
    return this.apply(website, { regions: [], unmonitoredReason: null }, website.checkInterval, {
      firstCheck: { where: 'none' },
      owner: null,
      scheduledInRedis: undefined,
    });
  }

  private async apply(
    website: WebsiteDocument,
    wanted: WantedPlacement,
    intervalSeconds: number,
    options: {
      firstCheck: FirstCheck;
      owner: { customer: CustomerDocument; pkg: PackageDocument } | null;
      scheduledInRedis: readonly string[] | undefined;
    },
  ): Promise<void> {
    const before = { regions: website.scheduledRegions, unmonitored: website.unmonitored ?? null };
    await this.deps.scheduler.apply({
      websiteId: website.id,
      organizationId: website.organizationId,
      intervalSeconds,
      regions: wanted.regions,
      previousRegions: options.scheduledInRedis ?? before.regions,
      firstCheck: options.firstCheck,
    });
    const unmonitored: Unmonitored | null = wanted.unmonitoredReason
      ? { since: before.unmonitored?.since ?? new Date(), reason: wanted.unmonitoredReason }
      : null;
    const changed =
      !sameRegions(wanted.regions, before.regions) || before.unmonitored?.reason !== unmonitored?.reason;
    if (!changed) return;
    const after = { ...website, scheduledRegions: wanted.regions, unmonitored };
    // Told before it is stored: a crash in between tells it again at the next reconcile, never not at all.
    if (options.owner) await this.deps.onPlacement?.({ website: after, ...options.owner, before });
    await this.deps.websites.setPlacement(website, wanted.regions, unmonitored);
    website.scheduledRegions = wanted.regions;
    website.unmonitored = unmonitored;
  }
}
