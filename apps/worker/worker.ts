import type { AppConfig } from '../../libs/config/index.js';
import { connectMongo, ensureIndexes } from '../../libs/db/index.js';
import type { Logger } from '../../libs/logging/index.js';
import {
  MonitoringNodeRepository,
  monitoringNodeIndexes,
  nodeAddress,
  startHeartbeat,
} from '../../libs/nodes/index.js';
import { type RunningService, SERVICE_VERSION } from '../../libs/runtime/index.js';

/** A monitoring node: registers itself and heartbeats so the API can publish it. */
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
  const mongo = await connectMongo(config.MONGODB_URL, {
    appName: 'webmon-worker',
    logger,
    signal: options.signal,
  });
  await ensureIndexes(mongo.db, [monitoringNodeIndexes]);
  const heartbeat = await startHeartbeat({
    nodes: new MonitoringNodeRepository(mongo.db),
    node: { nodeId: config.NODE_ID, ip, region: config.NODE_REGION, version: SERVICE_VERSION },
    logger,
    intervalMs: options.heartbeatIntervalMs,
  });
  return {
    async stop() {
      await heartbeat.stop();
      await mongo.client.close();
    },
  };
}
