import { api, must } from './client.js';
import { useApiQuery } from './query.js';
import { websiteKeys } from './websites.js';

/**
 * A website's other monitors (heartbeats, DNS, port and probe checks), under its website's key: a
 * write to a monitor marks the website's queries stale (`monitorKeys.ofWebsite`).
 */
export const monitorKeys = {
  ofWebsite: (websiteRef: string) => [...websiteKeys.one(websiteRef), 'monitors'] as const,
  one: (id: number) => ['monitors', id] as const,
};

export function useMonitors(websiteRef: string, pollMs: number) {
  return useApiQuery(
    monitorKeys.ofWebsite(websiteRef),
    async () =>
      must(await api.GET('/api/websites/{websiteRef}/monitors', { params: { path: { websiteRef } } })),
    { pollMs },
  );
}

/** A heartbeat's last 10 pings (`version`: read again when the heartbeat changed). */
export function useHeartbeatPings(id: number, version: string) {
  return useApiQuery([...monitorKeys.one(id), 'pings', version], async () =>
    must(await api.GET('/api/heartbeats/{id}/pings', { params: { path: { id }, query: { limit: 10 } } })),
  );
}

/** A port check's latest result, or null before its first. */
export function usePortCheckLatest(id: number, version: string, pollMs: number) {
  return useApiQuery(
    [...monitorKeys.one(id), 'latest', version],
    async () =>
      must(await api.GET('/api/port-checks/{id}/results', { params: { path: { id }, query: { limit: 1 } } }))
        .items[0] ?? null,
    { pollMs },
  );
}

/** A probe check's latest result, or null before its first. */
export function useMonitorLatest(id: number, version: string, pollMs: number) {
  return useApiQuery(
    [...monitorKeys.one(id), 'latest', version],
    async () =>
      must(await api.GET('/api/monitors/{id}/results', { params: { path: { id }, query: { limit: 1 } } }))
        .items[0] ?? null,
    { pollMs },
  );
}

/** A probe check's uptime over the last 24 hours. */
export function useMonitorUptime(id: number, version: string, pollMs: number) {
  return useApiQuery(
    [...monitorKeys.one(id), 'uptime', version],
    async () =>
      must(
        await api.GET('/api/monitors/{id}/uptime', { params: { path: { id }, query: { period: '24h' } } }),
      ),
    { pollMs },
  );
}
