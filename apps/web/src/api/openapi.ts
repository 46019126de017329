import { api } from './client.js';
import { queryClient } from './query.js';

/**
 * The schemas of the API's own /openapi.json (channel types and their settings, the probe kinds'
 * fields, the password rule), read once per tab and shared: they change only with a deploy.
 */
export function openApiSchemas<Schema>(): Promise<Record<string, Schema>> {
  return queryClient.fetchQuery({
    queryKey: ['openapi'],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const { data } = await api.GET('/openapi.json');
      return (
        (data as { components?: { schemas?: Record<string, unknown> } } | undefined)?.components?.schemas ??
        {}
      );
    },
  }) as Promise<Record<string, Schema>>;
}
