import type { PackageDocument } from '../packages/index.js';
import { effectiveIntervalSeconds, type WebsiteDocument } from '../websites/index.js';
import { type DecisionRules, freshWindowMs } from './status-machine.js';

/** How long a region's latest result of this website counts (two intervals and a re-check). */
export function freshWithinMsOf(
  website: Pick<WebsiteDocument, 'checkInterval'>,
  pkg: PackageDocument,
  recheckDelayMs: number,
): number {
  return freshWindowMs(effectiveIntervalSeconds(website, pkg) * 1000, recheckDelayMs);
}

/**
 * The rules a website's status is decided by, in one place for every transition: its package's
 * alerting, the regions it is checked from now (`reportingRegion` while none is recorded yet: the
 * region of a result that came first), and how long a region's latest result counts.
 */
export function decisionRules(
  website: Pick<WebsiteDocument, 'checkInterval' | 'scheduledRegions'>,
  pkg: PackageDocument,
  options: { recheckDelayMs: number; reportingRegion?: string },
): DecisionRules & PackageDocument['alerting'] {
  const { reportingRegion } = options;
  return {
    ...pkg.alerting,
    regions:
      website.scheduledRegions.length > 0 || reportingRegion === undefined
        ? website.scheduledRegions
        : [reportingRegion],
    freshWithinMs: freshWithinMsOf(website, pkg, options.recheckDelayMs),
  };
}
