import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

export type Website = Schemas['Website'];
/** A result of the website's HTTP check (the results list other kinds too). */
export type HttpResult = Schemas['Result'];
export type UptimePeriod = '24h' | '7d' | '30d' | '90d';

/**
 * The websites' queries. A write to a website marks every one stale (`websiteKeys.all`): its
 * page, its customer's list and its monitors are read again.
 */
export const websiteKeys = {
  all: ['websites'] as const,
  one: (ref: string) => ['websites', ref] as const,
};

/** One website by public id or id; null: none asked for (a new one). */
export function useWebsite(ref: string | null): Loaded<Website | null> {
  const loaded = useApiQuery(
    websiteKeys.one(ref ?? ''),
    async () =>
      must(await api.GET('/api/websites/{websiteRef}', { params: { path: { websiteRef: ref ?? '' } } })),
    { enabled: ref !== null },
  );
  return ref === null ? { ...loaded, data: null } : loaded;
}

export function useWebsiteStatus(websiteRef: string, pollMs: number) {
  return useApiQuery(
    [...websiteKeys.one(websiteRef), 'status'],
    async () =>
      must(await api.GET('/api/websites/{websiteRef}/status', { params: { path: { websiteRef } } })),
    { pollMs },
  );
}

/** The last 50 results of its HTTP check, newest first. */
export function useHttpResults(websiteRef: string, pollMs: number): Loaded<HttpResult[]> {
  return useApiQuery(
    [...websiteKeys.one(websiteRef), 'results'],
    async () =>
      must(
        await api.GET('/api/websites/{websiteRef}/results', {
          params: { path: { websiteRef }, query: { limit: 50, kind: 'http' } },
        }),
      ).items.filter((r): r is HttpResult => r.kind === 'http'),
    { pollMs },
  );
}

/** Its uptime over each of `periods`, in that order. */
export function useWebsiteUptime(websiteRef: string, periods: readonly UptimePeriod[], pollMs: number) {
  return useApiQuery(
    [...websiteKeys.one(websiteRef), 'uptime', ...periods],
    () =>
      Promise.all(
        periods.map(async (period) =>
          must(
            await api.GET('/api/websites/{websiteRef}/uptime', {
              params: { path: { websiteRef }, query: { period } },
            }),
          ),
        ),
      ),
    { pollMs },
  );
}

export function useWebsiteIncidents(websiteRef: string, pollMs: number) {
  return useApiQuery(
    [...websiteKeys.one(websiteRef), 'incidents'],
    async () =>
      must(await api.GET('/api/websites/{websiteRef}/incidents', { params: { path: { websiteRef } } })),
    { pollMs },
  );
}

export function useCheckConfig(websiteRef: string) {
  return useApiQuery([...websiteKeys.one(websiteRef), 'check-config'], async () =>
    must(await api.GET('/api/websites/{websiteRef}/check-config', { params: { path: { websiteRef } } })),
  );
}

/** What a failing check saw (asked for only once `wanted`: the evidence is opened). */
export function useResultEvidence(websiteRef: string, resultRef: string, wanted: boolean) {
  return useApiQuery(
    [...websiteKeys.one(websiteRef), 'evidence', resultRef],
    async () =>
      must(
        await api.GET('/api/websites/{websiteRef}/results/{resultRef}/evidence', {
          params: { path: { websiteRef, resultRef } },
        }),
      ),
    { enabled: wanted },
  );
}
