import { notAllowed, tooMany } from '../errors/index.js';
import { type Limits, limitsOf, type PackageDocument } from '../packages/index.js';
import type { SiteRunBoard, SiteRunView } from '../site-health/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { checkRegionsOf, kindTerms } from './kinds/index.js';
import type { IntervalMonitor } from './monitor.repository.js';
import type { MonitorRedisPorts } from './monitor-redis-entries.js';

/** The kinds run in the site lane: a run on request is queued for the worker, its progress shown. */
export const isSiteRunKind = (kind: string) => kind === 'crawl' || kind === 'lighthouse';

/** The daily limit a run of the kind counts towards, and how many runs one check makes. */
const DAILY: Record<'crawl' | 'lighthouse', { limit: keyof Limits; runs(monitor: IntervalMonitor): number }> =
  {
    crawl: { limit: 'maxCrawlsPerDay', runs: () => 1 },
    lighthouse: {
      limit: 'maxLighthouseRunsPerDay',
      runs: (monitor) => {
        const settings = 'settings' in monitor ? monitor.settings : {};
        const urls = Array.isArray(settings.urls) ? settings.urls.length : 1;
        const presets = Array.isArray(settings.presets) ? settings.presets.length : 1;
        return urls * presets;
      },
    },
  };

/** The runs one check of a site-health monitor counts towards its package's runs of the day. */
export const runsPerCheck = (monitor: IntervalMonitor) =>
  monitor.kind === 'crawl' || monitor.kind === 'lighthouse' ? DAILY[monitor.kind].runs(monitor) : 1;

const secondsToNextUtcDay = (now: Date) => {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
};

/**
 * A crawl or Lighthouse run asked for now: within the website's runs of the day (the package's
 * limit, scheduled runs counted), queued once (asking again while it waits or runs answers the
 * same run) and made due at once in its region, where a worker's site lane takes it.
 */
export async function requestSiteRun(
  ports: Pick<MonitorRedisPorts, 'regionDue'> & {
    siteRuns: Pick<SiteRunBoard, 'request' | 'countedOn' | 'view'>;
  },
  monitor: IntervalMonitor,
  website: WebsiteDocument,
  pkg: PackageDocument,
  now = new Date(),
): Promise<SiteRunView> {
  const kind = monitor.kind as 'crawl' | 'lighthouse';
  const regions = checkRegionsOf(kind, website.scheduledRegions);
  const region = regions[0];
  if (!region)
    throw notAllowed('The website is not checked from any region now (paused, or no region serves it)', [
      { path: '', message: 'the website is checked from no region' },
    ]);
  const { limit, runs } = DAILY[kind];
  const allowed = limitsOf(pkg)[limit];
  const counted = await ports.siteRuns.countedOn(kind, website.id, now);
  if (counted + runs(monitor) > allowed)
    throw tooMany(
      `The website had ${counted} of its ${allowed} ${kind === 'crawl' ? 'crawls' : 'Lighthouse runs'} today (the package's ${limit}); try again tomorrow (UTC)`,
      limit,
      secondsToNextUtcDay(now),
    );
  const { runId, created } = await ports.siteRuns.request(monitor.id, now);
  if (created)
    await ports
      .regionDue(region, kindTerms(kind).lane)
      .schedule(
        { kind, monitorId: monitor.id, organizationId: monitor.organizationId, websiteId: monitor.websiteId },
        now.getTime(),
      );
  const view = await ports.siteRuns.view(monitor.id, runId);
  if (!view) throw new Error(`the run ${runId} asked for is not on the board`);
  return view;
}
