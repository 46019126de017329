import { type CustomerDocument, isMonitored } from '../customers/index.js';
import { ALLOW_LIST_WITHIN_MS, type MonitoringNodeRepository } from '../nodes/index.js';
import type { PackageDocument } from '../packages/index.js';
import type { CheckScheduler } from '../scheduler/index.js';
import type { WebsiteDocument, WebsiteRepository } from './website.repository.js';

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

  /** Call with the website's lock held. */
  async sync(website: WebsiteDocument, customer: CustomerDocument, pkg: PackageDocument): Promise<void> {
    const regions =
      website.paused || !isMonitored(customer.status)
        ? []
        : resolveRegions(
            website.regions,
            pkg.features.multiRegion,
            await this.deps.nodes.regions(new Date(), ALLOW_LIST_WITHIN_MS),
            this.deps.fallbackRegion,
          );
    await this.apply(website, regions, effectiveIntervalSeconds(website, pkg));
  }

  /** Removes every scheduler of the website. */
  unschedule(website: WebsiteDocument): Promise<void> {
    return this.apply(website, [], website.checkInterval);
  }

  private async apply(website: WebsiteDocument, regions: string[], intervalSeconds: number): Promise<void> {
    await this.deps.scheduler.apply({
      websiteId: website.id,
      organizationId: website.organizationId,
      intervalSeconds,
      regions,
      previousRegions: website.scheduledRegions,
    });
    const unchanged =
      regions.length === website.scheduledRegions.length &&
      regions.every((r) => website.scheduledRegions.includes(r));
    if (!unchanged) await this.deps.websites.setScheduledRegions(website.organizationId, website.id, regions);
    website.scheduledRegions = regions;
  }
}
