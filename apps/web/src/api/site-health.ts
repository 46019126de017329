import { api, must, type Schemas } from './client.js';
import { monitorKeys } from './monitors.js';
import { useApiQuery } from './query.js';

export type SiteRun = Schemas['SiteRun'];
export type SiteFinding = Schemas['SiteFindingView'];
export type LighthouseRun = Schemas['LighthouseRunView'];
export type SiteHealthItem = Schemas['SiteHealthOverviewItem'];
export type FindingType = SiteFinding['type'];
export type FindingState = SiteFinding['state'];
export type SiteHealthSort =
  | 'brokenLinks'
  | 'mixedContent'
  | 'sitemapErrors'
  | Schemas['LighthouseAuditLost']['category']
  | 'name';
export type SortOrder = 'asc' | 'desc';

/** How often a run on its way is asked after: its progress moves every second or so. */
const RUN_POLL_MS = 1000;

/**
 * What a crawl or Lighthouse check found, under its monitor's key (a write to the monitor, a run
 * ended, marks them stale with `monitorKeys.one`); the organization's overview under its own.
 */
export const siteHealthKeys = {
  overview: ['site-health'] as const,
  findings: (id: number) => [...monitorKeys.one(id), 'findings'] as const,
  lighthouse: (id: number) => [...monitorKeys.one(id), 'lighthouse'] as const,
  run: (id: number, runId: string | null) => ['site-runs', id, runId] as const,
};

/** A crawl's findings of one type, open or fixed, newest first (`version`: read again when it changes). */
export function useFindings(
  id: number,
  query: { type: FindingType; state: FindingState; limit?: number },
  version: string,
  pollMs?: number,
) {
  return useApiQuery(
    [...siteHealthKeys.findings(id), query.type, query.state, version],
    async () =>
      must(
        await api.GET('/api/monitors/{id}/findings', {
          params: { path: { id }, query: { limit: 200, ...query } },
        }),
      ),
    { pollMs },
  );
}

/** A Lighthouse check's runs, each page and preset, newest first. */
export function useLighthouseRuns(id: number, version: string, pollMs?: number, limit = 100) {
  return useApiQuery(
    [...siteHealthKeys.lighthouse(id), version, limit],
    async () =>
      must(await api.GET('/api/monitors/{id}/lighthouse', { params: { path: { id }, query: { limit } } }))
        .items,
    { pollMs },
  );
}

/** Whether a run is still on its way (queued or running): polled until it is not. */
export const runGoesOn = (run: SiteRun | undefined) => run?.state === 'queued' || run?.state === 'running';

/** A crawl's or Lighthouse check's run (null: none asked for), read every second while it goes on. */
export function useSiteRun(id: number, runId: string | null) {
  return useApiQuery(
    siteHealthKeys.run(id, runId),
    async () =>
      must(
        await api.GET('/api/monitors/{id}/runs/{runRef}', {
          params: { path: { id, runRef: runId ?? '' } },
        }),
      ),
    { enabled: runId !== null, pollMs: (run) => (runGoesOn(run) ? RUN_POLL_MS : undefined) },
  );
}

/** Asks for a run now: the run queued (or the one already on its way), or the API's problem (429: the day's runs are spent). */
export function startSiteRun(id: number) {
  return api.POST('/api/monitors/{id}/run', { params: { path: { id } } });
}

/** Every website with a crawl or a Lighthouse check, sorted by the API (a client user: its customer's). */
export function useSiteHealthOverview(
  query: { sort: SiteHealthSort; order: SortOrder; customerId?: number | undefined },
  pollMs?: number,
) {
  return useApiQuery(
    [...siteHealthKeys.overview, query.sort, query.order, query.customerId ?? null],
    async () =>
      must(
        await api.GET('/api/site-health', {
          params: {
            query: {
              sort: query.sort,
              order: query.order,
              ...(query.customerId === undefined ? {} : { customerId: query.customerId }),
            },
          },
        }),
      ).items,
    { pollMs },
  );
}
