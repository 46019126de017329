import type { AppConfig } from '../../libs/config/index.js';
import { startCustomerLifecycleWorker } from '../../libs/customers/index.js';
import { connectMongo, ensureIndexes } from '../../libs/db/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { nodeAddress, startHeartbeat } from '../../libs/nodes/index.js';
import { connectRedis } from '../../libs/redis/index.js';
import { type RunningService, SERVICE_VERSION } from '../../libs/runtime/index.js';
import { ALL_INDEXES, createServices } from '../../libs/services/index.js';

/**
 * A monitoring node: registers itself and heartbeats so the API can publish it, and runs the
 * customer lifecycle jobs (cancellations at their date).
 */
export async function startWorker(
  config: AppConfig,
  logger: Logger,
  options: { signal?: AbortSignal; heartbeatIntervalMs?: number } = {},
): Promise<RunningService> {
  const ip = nodeAddress(config.NODE_PUBLIC_IP);
  if (!ip)
    throw new Error(
      'NODE_PUBLIC_IP: not set and no external IPv4 address found; set it to the address targets see',
    );
  if (!config.NODE_PUBLIC_IP)
    logger.warn({ ip }, 'NODE_PUBLIC_IP not set: publishing the first external IPv4 address');
  const { signal } = options;
  const mongo = await connectMongo(config.MONGODB_URL, { appName: 'webmon-worker', logger, signal });
  const redis = await connectRedis(config.REDIS_URL, { name: 'worker', logger, role: 'command', signal });
  const blocking = await connectRedis(config.REDIS_URL, {
    name: 'worker-jobs',
    logger,
    role: 'worker',
    signal,
  });
  await ensureIndexes(mongo.db, ALL_INDEXES);
  const services = createServices({ db: mongo.db, redis, config, logger });

  await services.customers.reconcileCancellations();
  const lifecycle = startCustomerLifecycleWorker({
    connection: blocking,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
    cancel: (job) => services.customers.applyDueCancellation(job),
  });
  const heartbeat = await startHeartbeat({
    nodes: services.nodes,
    node: { nodeId: config.NODE_ID, ip, region: config.NODE_REGION, version: SERVICE_VERSION },
    logger,
    intervalMs: options.heartbeatIntervalMs,
  });
  return {
    async stop() {
      // Finish the jobs in hand (BullMQ waits for them) before letting go of the connections.
      await lifecycle.close();
      await heartbeat.stop();
      await services.close();
      await Promise.all([redis.quit(), blocking.quit()].map((quit) => quit.catch(() => undefined)));
      await mongo.client.close();
    },
  };
}
