import { api, must, type Schemas } from './client.js';
import { allWebsites, type WebsiteSummary } from './organization.js';
import { type Loaded, useApiQuery } from './query.js';

export type Customer = Schemas['Customer'];

/** The customers' queries (the visible list is `['customers', 'visible', …]`, organization.ts). */
export const customerKeys = {
  all: ['customers'] as const,
  one: (id: number) => ['customers', id] as const,
};

export function useCustomer(id: number): Loaded<Customer> {
  return useApiQuery(customerKeys.one(id), async () =>
    must(await api.GET('/api/customers/{id}', { params: { path: { id } } })),
  );
}

/** A customer's websites, read again every 5 s (their status changes as they are checked). */
export function useCustomerWebsites(id: number): Loaded<WebsiteSummary[]> {
  return useApiQuery(['websites', 'customer', id], () => allWebsites(id), { pollMs: 5_000 });
}
