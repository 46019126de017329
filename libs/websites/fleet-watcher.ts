import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { ACTIVE_WITHIN_MS } from '../nodes/index.js';
import type { ScheduleReconciler } from './schedule-reconciler.js';
import type { WebsiteScheduling } from './website-scheduling.js';

/** How often each process compares the serving regions with those the schedules follow. @defaultValue 5 s */
export const FLEET_WATCH_INTERVAL_MS = 5_000;

/**
 * Makes schedules follow the fleet within seconds, not at the periodic reconcile: every few
 * seconds it compares the serving regions with the ones the last reconcile applied (kept in
 * Redis) and reconciles when they differ, or when Redis lost that record (flushed). Runs in every
 * API and worker process; the reconciler's lock lets one of them do it.
 */
export function startFleetWatcher(options: {
  scheduling: WebsiteScheduling;
  reconciler: ScheduleReconciler;
  logger: Logger;
  intervalMs?: number;
}): { stop(): Promise<void> } {
  const { scheduling, reconciler, logger } = options;
  let current: Promise<void> | null = null;
  let failing = false;
  let recoveredAt = 0;
  const tick = async () => {
    const [serving, applied] = await Promise.all([scheduling.servingRegions(), reconciler.appliedServing()]);
    if (applied !== null && applied.join(',') === serving.join(',')) return;
    // Just after MongoDB came back every heartbeat is as old as the outage: a region lost now may
    // only not have beaten yet. Regions gained are followed at once; lost ones once beats caught up.
    const lost = applied?.some((region) => !serving.includes(region)) ?? false;
    if (lost && (failing || Date.now() - recoveredAt < ACTIVE_WITHIN_MS)) return;
    logger.info({ serving, applied }, 'the serving regions changed: schedules follow');
    // Undefined when another process reconciles: the next tick looks again.
    await reconciler.run();
  };
  const timer = setInterval(() => {
    if (current) return;
    current = tick()
      .then(
        () => {
          if (failing) {
            logger.info('fleet watch restored');
            recoveredAt = Date.now();
          }
          failing = false;
        },
        (error: unknown) => {
          if (!failing) logger.warn({ err: errorMessage(error) }, 'fleet watch failed');
          failing = true;
        },
      )
      .finally(() => {
        current = null;
      });
  }, options.intervalMs ?? FLEET_WATCH_INTERVAL_MS);
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
