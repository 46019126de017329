import { isMonitored } from '../customers/index.js';
import type { PlacementChange } from '../websites/index.js';
import { decisionRules } from './decision-rules.js';
import { afterPlacement } from './monitor-decisions.js';
import { inMaintenanceAt } from './monitor-state.js';
import type { MonitorTransitions } from './monitor-transition.js';
import { type ResultRepository, summaryOf } from './result.repository.js';

/**
 * The monitor's side of a placement change (regions gained or lost, checking stopped or resumed):
 * decides the status again over the regions left and tells what changed, on the monitor transition
 * path, so it never interleaves with a check's decision.
 */
export class PlacementStatus {
  constructor(
    private readonly deps: {
      transitions: MonitorTransitions;
      results: ResultRepository;
      recheckDelayMs: number;
    },
  ) {}

  async changed({ website, customer, pkg, before }: PlacementChange): Promise<void> {
    // Read before the lock (the decision is pure): the reason a status told now shows is the latest result's.
    const latest = await this.deps.results.latest(website.organizationId, website.id);
    await this.deps.transitions.run(website, (state) => {
      const at = new Date();
      const outcome = afterPlacement(state, {
        at,
        rules: decisionRules(website, pkg, { recheckDelayMs: this.deps.recheckDelayMs }),
        inMaintenance: inMaintenanceAt(state, at),
        paused: website.paused,
        cancelled: !isMonitored(customer.status),
        wasUnmonitored: before.unmonitored !== null,
        unmonitored: (website.unmonitored ?? null) !== null,
      });
      return {
        result: undefined,
        plan: {
          trigger: 'placement',
          at,
          outcome,
          details: {
            result: outcome.events.length > 0 && latest ? summaryOf(latest) : null,
            ...(website.unmonitored ? { unmonitored: website.unmonitored } : {}),
          },
        },
      };
    });
  }
}
