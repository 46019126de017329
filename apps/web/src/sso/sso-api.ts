import { api, must, type Schemas } from '../api/client.js';
import { type Loaded, useApiQuery } from '../api/query.js';

export type IdentityProvider = Schemas['IdentityProvider'];
export type RoleMappingRule = Schemas['RoleMappingRule'];

/** The providers' queries: a write to one marks them all stale (the list shows each one's state). */
export const providerKeys = {
  all: ['identity-providers'] as const,
  one: (id: number) => ['identity-providers', id] as const,
};

export function useIdentityProviders(): Loaded<IdentityProvider[]> {
  return useApiQuery(providerKeys.all, async () => must(await api.GET('/api/identity-providers')));
}

/** One provider; null for a new one (nothing to read). */
export function useIdentityProvider(id: number | null): Loaded<IdentityProvider | null> {
  const loaded = useApiQuery(
    providerKeys.one(id ?? 0),
    async () => must(await api.GET('/api/identity-providers/{id}', { params: { path: { id: id ?? 0 } } })),
    { enabled: id !== null },
  );
  return id === null ? { ...loaded, data: null } : loaded;
}

/** Our side of a provider: what its admin registers (redirect URL, ACS, entity id, metadata). */
export function useServiceProvider(id: number): Loaded<Schemas['ServiceProvider']> {
  return useApiQuery([...providerKeys.one(id), 'service-provider'], async () =>
    must(await api.GET('/api/identity-providers/{id}/service-provider', { params: { path: { id } } })),
  );
}
