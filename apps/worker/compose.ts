import type { Db } from 'mongodb';
import { OrganizationRepository } from '../../libs/auth/index.js';
import { type AppConfig, requireSecretsKey } from '../../libs/config/index.js';
import {
  CustomerCancellations,
  CustomerLifecycleQueue,
  loadCustomerWithPackage,
} from '../../libs/customers/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { MaintenanceQueue, MaintenanceWindowRepository } from '../../libs/maintenance/index.js';
import { RollupRepository } from '../../libs/monitoring/index.js';
import type { Redis } from '../../libs/redis/index.js';
import { SecretBox } from '../../libs/secrets/index.js';
import { createCheckPath } from '../../libs/services/index.js';
import { rescheduleWebsitesOf } from '../../libs/websites/index.js';

/**
 * What a monitoring node runs, built once: the check path (states, transitions, the outbox),
 * schedules and their reconciliation, maintenance boundaries and customers' cancellations. No
 * channel, customer or status page service: a cancellation reschedules the customer's websites
 * itself, and nothing here writes what those services guard.
 */
export function composeWorker(deps: { db: Db; redis: Redis; config: AppConfig; logger: Logger }) {
  const { db, redis, config, logger } = deps;
  const prefix = config.REDIS_KEY_PREFIX;
  const checkPath = createCheckPath(deps);
  const { records } = checkPath;
  const { mutex } = records;
  const lifecycle = new CustomerLifecycleQueue(redis, prefix);
  const maintenanceQueue = new MaintenanceQueue(redis, prefix);
  const cancellations = new CustomerCancellations({
    customers: records.customers,
    mutex,
    lifecycle,
    websites: {
      rescheduleCustomer: async (organizationId, customerId) => {
        const owner = await loadCustomerWithPackage(
          records.customers,
          records.packages,
          organizationId,
          customerId,
        );
        if (owner) await rescheduleWebsitesOf({ ...records, scheduling: checkPath.scheduling }, owner);
      },
    },
    logger,
  });
  return {
    ...checkPath,
    secrets: new SecretBox(requireSecretsKey(config), config.SECRETS_KEYS_PREVIOUS),
    mutex,
    customerRepository: records.customers,
    websiteRepository: records.websites,
    websiteRevisions: records.revisions.websites,
    packages: records.packages,
    organizations: new OrganizationRepository(db),
    rollups: new RollupRepository(db),
    maintenanceWindows: new MaintenanceWindowRepository(db),
    maintenanceQueue,
    cancellations,
    /** Closes the queues (the connections are the process's). */
    close: () =>
      Promise.all([checkPath.close(), lifecycle.close(), maintenanceQueue.close()]).then(() => undefined),
  };
}

export type WorkerServices = ReturnType<typeof composeWorker>;
