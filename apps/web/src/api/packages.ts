import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

export type Package = Schemas['Package'];

export const packageKeys = { all: ['packages'] as const };

/** The organization's packages (admins only: others are answered 403, which `error` says). */
export function usePackages(): Loaded<Package[]> {
  return useApiQuery(packageKeys.all, async () => must(await api.GET('/api/packages')));
}
