import { type CustomerRepository, isMonitored } from '../customers/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { inMaintenanceAt } from './monitor-state.js';
import type { MonitorStateRepository } from './monitor-state.repository.js';
import { reportedStatus, type WebsiteStatus } from './status-machine.js';

/**
 * The status of each listed website as GET …/status decides it (`reportedStatus`: cancelled,
 * paused, unmonitored, maintenance, else the confirmed health), and when it was last checked; two
 * reads for a whole page (the states and the customers).
 */
export function listedStatuses(deps: { states: MonitorStateRepository; customers: CustomerRepository }) {
  return async (
    organizationId: number,
    websites: readonly WebsiteDocument[],
  ): Promise<Map<number, { status: WebsiteStatus; lastCheckedAt: Date | null }>> => {
    const [states, customers] = await Promise.all([
      deps.states.statesOf(
        organizationId,
        websites.map((website) => website.id),
      ),
      deps.customers.findByIds(organizationId, [...new Set(websites.map((website) => website.customerId))]),
    ]);
    const cancelled = new Set(customers.filter((c) => !isMonitored(c.status)).map((c) => c.id));
    const now = new Date();
    return new Map(
      websites.map((website) => {
        const state = states.get(website.id);
        const status = reportedStatus(state?.health ?? 'unknown', {
          paused: website.paused,
          cancelled: cancelled.has(website.customerId),
          unmonitored: (website.unmonitored ?? null) !== null,
          inMaintenance: state ? inMaintenanceAt(state, now) : false,
        });
        return [website.id, { status, lastCheckedAt: state?.lastResultAt ?? null }];
      }),
    );
  };
}
