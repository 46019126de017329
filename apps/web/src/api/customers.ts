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

/** A customer's websites (none while no customer is chosen), read again every `pollMs` when given. */
export function useCustomerWebsites(id: number | null, pollMs?: number): Loaded<WebsiteSummary[]> {
  return useApiQuery(['websites', 'customer', id], () => allWebsites(id ?? 0), {
    pollMs,
    enabled: id !== null,
  });
}

/** The e-mailings of a customer's report (a write to the customer reads them again). */
export function useReportMailings(id: number) {
  return useApiQuery([...customerKeys.one(id), 'report-mailings'], async () =>
    must(await api.GET('/api/customers/{id}/report-mailings', { params: { path: { id } } })),
  );
}

/** A customer's report for a period, as JSON (its CSV, HTML and PDF are downloads). */
export function useReport(id: number, period: { from: string; to: string }) {
  return useApiQuery([...customerKeys.one(id), 'report', period.from, period.to], async () => {
    const answer = must(
      await api.GET('/api/customers/{id}/reports', {
        params: { path: { id }, query: { from: period.from, to: period.to, format: 'json' } },
      }),
    );
    if (typeof answer !== 'object') throw new Error('The report came back as text, not JSON');
    return answer;
  });
}
