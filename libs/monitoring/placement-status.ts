import { isMonitored } from '../customers/index.js';
import { effectiveIntervalSeconds, type PlacementChange } from '../websites/index.js';
import { afterPlacement } from './monitor-decisions.js';
import { inMaintenanceAt } from './monitor-state.js';
import type { MonitorStateRepository } from './monitor-state.repository.js';
import { type ResultRepository, summaryOf } from './result.repository.js';
import { freshWindowMs } from './status-machine.js';

/**
 * The monitor's side of a placement change (regions gained or lost, checking stopped or resumed):
 * decides the status again over the regions left and tells what changed, under the website's
 * monitor lock, so it never interleaves with a check's decision.
 */
export class PlacementStatus {
  constructor(
    private readonly deps: {
      states: MonitorStateRepository;
      results: ResultRepository;
      recheckDelayMs: number;
    },
  ) {}

  async changed({ website, customer, pkg, before }: PlacementChange): Promise<void> {
    const { states, results } = this.deps;
    await states.withMonitorLock(website.id, async () => {
      const state = await states.load(website.organizationId, website.id);
      const at = new Date();
      const outcome = afterPlacement(state, {
        at,
        rules: {
          ...pkg.alerting,
          regions: website.scheduledRegions,
          freshWithinMs: freshWindowMs(
            effectiveIntervalSeconds(website, pkg) * 1000,
            this.deps.recheckDelayMs,
          ),
        },
        inMaintenance: inMaintenanceAt(state, at),
        paused: website.paused,
        cancelled: !isMonitored(customer.status),
        wasUnmonitored: before.unmonitored !== null,
        unmonitored: (website.unmonitored ?? null) !== null,
      });
      const latest =
        outcome.events.length > 0 ? await results.latest(website.organizationId, website.id) : null;
      const carried = await states.carryOut(website, outcome, at, {
        result: latest && summaryOf(latest),
        ...(website.unmonitored ? { unmonitored: website.unmonitored } : {}),
      });
      await states.save(carried);
    });
  }
}
