import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

export type StatusPage = Schemas['StatusPage'];

export const statusPageKeys = {
  all: ['status-pages'] as const,
  one: (id: number) => ['status-pages', id] as const,
};

export function useStatusPages(): Loaded<StatusPage[]> {
  return useApiQuery(statusPageKeys.all, async () => must(await api.GET('/api/status-pages')));
}

/** One status page; null for a new one (nothing to read). */
export function useStatusPage(id: number | null): Loaded<StatusPage | null> {
  const loaded = useApiQuery(
    statusPageKeys.one(id ?? 0),
    async () => must(await api.GET('/api/status-pages/{id}', { params: { path: { id: id ?? 0 } } })),
    { enabled: id !== null },
  );
  return id === null ? { ...loaded, data: null } : loaded;
}

/** What the public page shows (its JSON), as built after the page's last change (`updatedAt`). */
export function usePublicStatusPage(slug: string, updatedAt: string) {
  return useApiQuery([...statusPageKeys.all, 'public', slug, updatedAt], async () =>
    must(await api.GET('/status/{slug}.json', { params: { path: { slug } } })),
  );
}

export type StatusPageDomain = Schemas['StatusPageDomain'];

/** A page's own domains with their verification and the records that verify them. */
export function useStatusPageDomains(pageId: number): Loaded<StatusPageDomain[]> {
  return useApiQuery([...statusPageKeys.one(pageId), 'domains'], async () =>
    must(await api.GET('/api/status-pages/{id}/domains', { params: { path: { id: pageId } } })),
  );
}
