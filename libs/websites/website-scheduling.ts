import { type CustomerDocument, isMonitored } from '../customers/index.js';
import { ALLOW_LIST_WITHIN_MS, type MonitoringNodeRepository } from '../nodes/index.js';
import type { PackageDocument } from '../packages/index.js';
import type { CheckScheduler } from '../scheduler/index.js';
import type { WebsiteDocument, WebsiteRepository, WebsiteSchedulingFields } from './website.repository.js';

/**
 * The regions a website is checked from: the ones it names, else every known region when the
 * package allows several, else the first known one. Known regions are those of monitoring nodes
 * seen lately, or the fallback region when no node has registered yet.
 */
export function resolveRegions(
  requested: readonly string[],
  multiRegion: boolean,
  knownRegions: readonly string[],
  fallbackRegion: string,
): string[] {
  if (requested.length > 0) return [...requested];
  const known = knownRegions.length > 0 ? [...knownRegions].sort() : [fallbackRegion];
  return multiRegion ? known : known.slice(0, 1);
}

/** The interval a website is checked at: its own, but never below its package's minimum. */
export function effectiveIntervalSeconds(
  website: Pick<WebsiteDocument, 'checkInterval'>,
  pkg: PackageDocument,
): number {
  return Math.max(website.checkInterval, pkg.limits.minCheckIntervalSeconds);
}

/** Keeps a website's BullMQ schedulers in line with its settings, its customer and its package. */
export class WebsiteScheduling {
  constructor(
    private readonly deps: {
      scheduler: CheckScheduler;
      websites: WebsiteRepository;
      nodes: MonitoringNodeRepository;
      fallbackRegion: string;
    },
  ) {}

  knownRegions(): Promise<string[]> {
    return this.deps.nodes.regions(new Date(), ALLOW_LIST_WITHIN_MS);
  }

  /** The regions the website should be scheduled in now. */
  private wantedRegions(
    website: WebsiteSchedulingFields,
    customer: CustomerDocument,
    pkg: PackageDocument,
    known: string[],
  ): string[] {
    if (website.paused || !isMonitored(customer.status)) return [];
    return resolveRegions(website.regions, pkg.features.multiRegion, known, this.deps.fallbackRegion);
  }

  /**
   * Call with the website's lock held. `knownRegions` saves a query when the caller already has
   * them; `checkNowIfNew` (default on) checks at once where the website was not scheduled before.
   */
  async sync(
    website: WebsiteDocument,
    customer: CustomerDocument,
    pkg: PackageDocument,
    options: { knownRegions?: string[]; checkNowIfNew?: boolean } = {},
  ): Promise<void> {
    const regions = this.wantedRegions(
      website,
      customer,
      pkg,
      options.knownRegions ?? (await this.knownRegions()),
    );
    await this.apply(website, regions, effectiveIntervalSeconds(website, pkg), options.checkNowIfNew ?? true);
  }

  /** Whether Redis already holds exactly the schedulers the website should have (read only, no lock). */
  async inSync(
    website: WebsiteSchedulingFields,
    customer: CustomerDocument,
    pkg: PackageDocument,
    knownRegions: string[],
  ): Promise<boolean> {
    const regions = this.wantedRegions(website, customer, pkg, knownRegions);
    const stale = website.scheduledRegions.filter((region) => !regions.includes(region));
    if (stale.length > 0 || regions.length !== website.scheduledRegions.length) return false;
    const every = effectiveIntervalSeconds(website, pkg) * 1000;
    for (const region of regions) {
      if ((await this.deps.scheduler.intervalOf(website.id, region)) !== every) return false;
    }
    return true;
  }

  /** Removes every scheduler of the website. */
  unschedule(website: WebsiteDocument): Promise<void> {
    return this.apply(website, [], website.checkInterval, false);
  }

  private async apply(
    website: WebsiteDocument,
    regions: string[],
    intervalSeconds: number,
    checkNowIfNew: boolean,
  ): Promise<void> {
    await this.deps.scheduler.apply({
      websiteId: website.id,
      organizationId: website.organizationId,
      intervalSeconds,
      regions,
      previousRegions: website.scheduledRegions,
      checkNowIfNew,
    });
    const unchanged =
      regions.length === website.scheduledRegions.length &&
      regions.every((r) => website.scheduledRegions.includes(r));
    if (!unchanged) await this.deps.websites.setScheduledRegions(website.id, regions);
    website.scheduledRegions = regions;
  }
}
