import { Gauge, type Registry } from 'prom-client';
import type { WebsiteStatusFields } from '../websites/index.js';
import { reportedStatusOf } from './listed-statuses.js';
import type { MonitorStateRepository } from './monitor-state.repository.js';
import { WEBSITE_STATUSES } from './status-machine.js';

/**
 * `webmon_websites{status}` (each website counted under the status the API reports of it, by the
 * same rule) and `webmon_incidents_open`, read from MongoDB at most once per `refreshMs` however
 * often Prometheus scrapes (scans of the websites and monitor states).
 */
export function monitoringGauges(
  registry: Registry,
  deps: {
    states: MonitorStateRepository;
    websites: () => AsyncIterable<WebsiteStatusFields>;
    /** Customers whose websites are not monitored (cancelled). */
    unmonitoredCustomerIds: () => Promise<Set<number>>;
    refreshMs?: number;
  },
): void {
  let read: { at: number; figures: Promise<{ byStatus: Map<string, number>; open: number }> } | null = null;
  const figures = () => {
    if (read && Date.now() - read.at < (deps.refreshMs ?? 15_000)) return read.figures;
    const next = (async () => {
      const [states, cancelled, open] = await Promise.all([
        deps.states.allStates(),
        deps.unmonitoredCustomerIds(),
        deps.states.countOpenIncidents(),
      ]);
      const byStatus = new Map<string, number>();
      const now = new Date();
      for await (const website of deps.websites()) {
        const state = states.get(website.id);
        const status = reportedStatusOf(
          website,
          state?.organizationId === website.organizationId ? state : undefined,
          {
            customerCancelled: cancelled.has(website.customerId),
            now,
          },
        );
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      }
      return { byStatus, open };
    })();
    read = { at: Date.now(), figures: next };
    next.catch(() => {
      read = null;
    });
    return next;
  };
  new Gauge({
    name: 'webmon_websites',
    help: 'Websites by the status the API reports of them now',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const { byStatus } = await figures();
      for (const status of WEBSITE_STATUSES) this.set({ status }, byStatus.get(status) ?? 0);
    },
  });
  new Gauge({
    name: 'webmon_incidents_open',
    help: 'Incidents open now',
    registers: [registry],
    async collect() {
      this.set((await figures()).open);
    },
  });
}
