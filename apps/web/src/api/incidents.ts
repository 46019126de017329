import { api, must, type Schemas } from './client.js';
import { allWebsites, type WebsiteSummary } from './organization.js';
import { useApiQuery } from './query.js';

export type IncidentRow = { incident: Schemas['Incident']; website: WebsiteSummary | undefined };

export const incidentKeys = {
  all: ['incidents'] as const,
  one: (ref: string) => ['incidents', ref] as const,
};

/**
 * Incidents with their websites, newest first, read again every 10 s. Staff read the
 * organization's (`GET /api/incidents`); a client user (`own`: its customer), whom that route is
 * closed to, reads its customer's websites one by one.
 */
export function useIncidentRows(own: number | null) {
  return useApiQuery([...incidentKeys.all, 'list', own], () => incidentRows(own), { pollMs: 10_000 });
}

async function incidentRows(own: number | null): Promise<IncidentRow[]> {
  const websites = await allWebsites();
  const byId = new Map(websites.map((w) => [w.id, w]));
  let incidents: Schemas['Incident'][];
  if (own === null) {
    incidents = must(await api.GET('/api/incidents', { params: { query: { limit: 100 } } })).items;
  } else {
    const lists = await Promise.all(
      websites.slice(0, 200).map(
        async (w) =>
          must(
            await api.GET('/api/websites/{websiteRef}/incidents', {
              params: { path: { websiteRef: w.publicId }, query: { limit: 20 } },
            }),
          ).items,
      ),
    );
    incidents = lists.flat();
  }
  return incidents
    .map((incident) => ({ incident, website: byId.get(incident.websiteId) }))
    .sort((a, b) => b.incident.startedAt.localeCompare(a.incident.startedAt));
}

export function useIncident(incidentRef: string) {
  return useApiQuery(
    incidentKeys.one(incidentRef),
    async () => must(await api.GET('/api/incidents/{incidentRef}', { params: { path: { incidentRef } } })),
    { pollMs: 10_000 },
  );
}

export function useIncidentTimeline(incidentRef: string) {
  return useApiQuery(
    [...incidentKeys.one(incidentRef), 'timeline'],
    async () =>
      must(await api.GET('/api/incidents/{incidentRef}/timeline', { params: { path: { incidentRef } } }))
        .items,
    { pollMs: 10_000 },
  );
}
