import type { AppConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import { PlacementStatus, type ResultRepository } from '../monitoring/index.js';
import type { MonitoringNodeRepository } from '../nodes/index.js';
import type { Redis } from '../redis/index.js';
import { CheckScheduler } from '../scheduler/index.js';
import { ScheduleReconciler, WebsiteScheduling } from '../websites/index.js';
import type { MonitoringPath } from './monitoring.js';
import type { Records } from './records.js';

/** Websites' checks on the regions' schedules, and what brings them back in line (the API and the worker). */
export interface Scheduling {
  scheduler: CheckScheduler;
  scheduling: WebsiteScheduling;
  reconciler: ScheduleReconciler;
}

export function createScheduling(deps: {
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  records: Records;
  nodes: MonitoringNodeRepository;
  results: ResultRepository;
  transitions: MonitoringPath['transitions'];
}): Scheduling {
  const { redis, config, records } = deps;
  const prefix = config.REDIS_KEY_PREFIX;
  const scheduler = new CheckScheduler(redis, prefix);
  const placement = new PlacementStatus({
    transitions: deps.transitions,
    results: deps.results,
    recheckDelayMs: config.RECHECK_DELAY_SECONDS * 1000,
  });
  const scheduling = new WebsiteScheduling({
    scheduler,
    websites: records.websites,
    nodes: deps.nodes,
    preferredRegion: config.PREFERRED_REGION,
    onPlacement: (change) => placement.changed(change),
  });
  const reconciler = new ScheduleReconciler({
    websites: records.websites,
    customers: records.customers,
    packages: records.packages,
    scheduling,
    scheduler,
    mutex: records.mutex,
    redis,
    prefix,
    logger: deps.logger,
  });
  return { scheduler, scheduling, reconciler };
}
