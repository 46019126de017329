import type { Db } from 'mongodb';
import { NotificationQueue } from '../alerts/index.js';
import type { AppConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import { ResultRepository } from '../monitoring/index.js';
import { MonitoringNodeRepository } from '../nodes/index.js';
import type { Redis } from '../redis/index.js';
import { createMonitoringPath } from './monitoring.js';
import { createRecords } from './records.js';
import { createScheduling } from './scheduling.js';

/**
 * What the API and the worker both run over: the revised records, the path by which monitor
 * states change (and the notifier hears of it), and the websites' schedules with their
 * reconciliation.
 */
export function createCheckPath(deps: { db: Db; redis: Redis; config: AppConfig; logger: Logger }) {
  const records = createRecords(deps);
  const nodes = new MonitoringNodeRepository(deps.db);
  const results = new ResultRepository(deps.db);
  const notificationQueue = new NotificationQueue(deps.redis, deps.config.REDIS_KEY_PREFIX);
  const monitoring = createMonitoringPath({ ...deps, mutex: records.mutex, notificationQueue });
  const scheduling = createScheduling({
    ...deps,
    records,
    nodes,
    results,
    transitions: monitoring.transitions,
  });
  return {
    records,
    nodes,
    results,
    notificationQueue,
    ...monitoring,
    ...scheduling,
    /** Closes its queues (the connections are the process's). */
    close: () => Promise.all([scheduling.scheduler.close(), notificationQueue.close()]).then(() => undefined),
  };
}
