import { type CustomerRepository, isMonitored } from '../customers/index.js';
import type { WebsiteDocument, WebsiteStatusFields } from '../websites/index.js';
import { inMaintenanceAt, type MonitorStateDocument } from './monitor-state.js';
import type { MonitorStateRepository } from './monitor-state.repository.js';
import { reportedStatus, type WebsiteStatus } from './status-machine.js';

/** The status the API reports of a website: its customer cancelled, paused, unmonitored, in maintenance, else its health. */
export function reportedStatusOf(
  website: Pick<WebsiteStatusFields, 'paused' | 'unmonitored'>,
  state: MonitorStateDocument | undefined,
  facts: { customerCancelled: boolean; now: Date },
): WebsiteStatus {
  return reportedStatus(state?.health ?? 'unknown', {
    paused: website.paused,
    cancelled: facts.customerCancelled,
    unmonitored: (website.unmonitored ?? null) !== null,
    inMaintenance: state ? inMaintenanceAt(state, facts.now) : false,
  });
}

/**
 * The status of each listed website as GET …/status decides it (`reportedStatus`: cancelled,
 * paused, unmonitored, maintenance, else the confirmed health), and when it was last checked; two
 * reads for a whole page (the states and the customers).
 */
export function listedStatuses(deps: {
  states: MonitorStateRepository;
  /** The API's `CustomerCache` (a repository reads each from MongoDB). */
  customers: Pick<CustomerRepository, 'findByIds'>;
}) {
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
        const status = reportedStatusOf(website, state, {
          customerCancelled: cancelled.has(website.customerId),
          now,
        });
        return [website.id, { status, lastCheckedAt: state?.lastResultAt ?? null }];
      }),
    );
  };
}
