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
    await this.deps.transitions.run(website, async (state) => {
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
      const latest =
        outcome.events.length > 0 ? await this.deps.results.latest(website.organizationId, website.id) : null;
      return {
        result: undefined,
        plan: {
          trigger: 'placement',
          at,
          outcome,
          details: {
            result: latest && summaryOf(latest),
            ...(website.unmonitored ? { unmonitored: website.unmonitored } : {}),
          },
        },
      };
    });
  }
}
