import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

export type Policy = Schemas['EscalationPolicy'];
export type PolicyStep = Schemas['EscalationStep'];
export type PolicyTarget = Schemas['EscalationTarget'];

/** The policies' queries: a write to any policy marks them all stale (the list names their steps). */
export const policyKeys = {
  all: ['escalation-policies'] as const,
  one: (id: number) => ['escalation-policies', id] as const,
};

export function usePolicies(options: { enabled?: boolean } = {}): Loaded<Policy[]> {
  return useApiQuery(policyKeys.all, async () => must(await api.GET('/api/escalation-policies')), options);
}

/** One policy; null for a new one (nothing to read). */
export function usePolicy(id: number | null): Loaded<Policy | null> {
  const loaded = useApiQuery(
    policyKeys.one(id ?? 0),
    async () => must(await api.GET('/api/escalation-policies/{id}', { params: { path: { id: id ?? 0 } } })),
    { enabled: id !== null },
  );
  return id === null ? { ...loaded, data: null } : loaded;
}
