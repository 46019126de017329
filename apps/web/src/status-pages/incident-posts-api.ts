import { api, must, type Schemas } from '../api/client.js';
import { type Loaded, useApiQuery } from '../api/query.js';
import { statusPageKeys } from '../api/status-pages.js';

export type IncidentPost = Schemas['IncidentPost'];
export type IncidentPostDraft = Schemas['IncidentPostDraft'];

export const postKeys = {
  of: (pageId: number) => [...statusPageKeys.one(pageId), 'incidents'] as const,
};

/** A page's incident posts, newest first (the newest 50). */
export function useIncidentPosts(pageId: number): Loaded<Schemas['IncidentPostPage']> {
  return useApiQuery(postKeys.of(pageId), async () =>
    must(
      await api.GET('/api/status-pages/{id}/incidents', {
        params: { path: { id: pageId }, query: { limit: 50 } },
      }),
    ),
  );
}

/** The customer's websites (a page's components are chosen among them). */
export function useCustomerWebsites(customerId: number) {
  return useApiQuery(['websites', 'of-customer', customerId], async () =>
    must(await api.GET('/api/websites', { params: { query: { customerId } } })),
  );
}

/** A post prefilled from an automatic incident (null: none asked). */
export function useIncidentDraft(
  pageId: number,
  incidentId: string | null,
): Loaded<IncidentPostDraft | null> {
  const loaded = useApiQuery(
    [...postKeys.of(pageId), 'draft', incidentId ?? ''],
    async () =>
      must(
        await api.GET('/api/status-pages/{id}/incident-draft', {
          params: { path: { id: pageId }, query: { incident: incidentId ?? '' } },
        }),
      ),
    { enabled: incidentId !== null },
  );
  return incidentId === null ? { ...loaded, data: null } : loaded;
}
